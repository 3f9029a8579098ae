import Testing
@testable import LodestoneHTTP

@Suite struct HTTPRequestTests {
    func parse(_ text: String) -> Result<HTTPRequest, HTTPRequest.Failure> {
        HTTPRequest.parse(Array(text.utf8)[...])
    }

    @Test func findsTheEndOfTheHeadWithCRLFOrBareLF() {
        #expect(HTTPRequest.headEnd(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\nrest".utf8)) == 27)
        #expect(HTTPRequest.headEnd(Array("GET / HTTP/1.1\nHost: a\n\n".utf8)) == 24)
        #expect(HTTPRequest.headEnd(Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8)) == nil)
    }

    @Test func readsMethodPathWithoutQueryAndHost() {
        #expect(parse("GET /events?x=1 HTTP/1.1\r\nUser-Agent: t\r\nhOsT:  127.0.0.1:8080 \r\n\r\n")
            == .success(HTTPRequest(method: "GET", path: "/events", host: "127.0.0.1:8080")))
        #expect(parse("HEAD / HTTP/1.0\r\n\r\n") == .success(HTTPRequest(method: "HEAD", path: "/", host: nil)))
    }

    @Test func refusesWhatIsNotARequest() {
        #expect(throws: HTTPRequest.Failure.self) { try parse("\r\n\r\n").get() }
        #expect(throws: HTTPRequest.Failure.self) { try parse("GET /\r\n\r\n").get() }
        #expect(throws: HTTPRequest.Failure.self) { try parse("GET http://x/ HTTP/1.1\r\n\r\n").get() }
        #expect(throws: HTTPRequest.Failure.self) { try parse("get / HTTP/1.1\r\n\r\n").get() }
        #expect(throws: HTTPRequest.Failure.self) { try parse("GET / HTTP/1.1\r\nno colon\r\n\r\n").get() }
        #expect(throws: HTTPRequest.Failure.self) { try parse("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n").get() }
        #expect(parse("GET / HTTP/2.0\r\n\r\n") == .failure(.unsupportedVersion))
    }

    @Test func eventsAreOneDataLineWithoutNewlinesInside() {
        #expect(String(decoding: HTTPResponse.event("{\"a\":1}\n"), as: UTF8.self) == "data: {\"a\":1}\n\n")
        #expect(String(decoding: HTTPResponse.event("{\"a\":\n1}"), as: UTF8.self) == "data: {\"a\": 1}\n\n")
    }

    @Test func loopbackServesOnlyLoopbackNames() {
        var s = HTTPServerSettings()
        let names = LiveViewServer.hostNames(s, port: 8080)
        #expect(names.contains("127.0.0.1:8080") && names.contains("localhost:8080") && names.contains("[::1]:8080"))
        #expect(!names.contains("evil.example:8080"))
        s.listen.host = "0.0.0.0"
        #expect(LiveViewServer.hostNames(s, port: 8080).isEmpty, "a public listener serves any name")
        s.allowedHosts = ["boat.local"]
        #expect(LiveViewServer.hostNames(s, port: 8080).contains("boat.local:8080"))
    }
}
