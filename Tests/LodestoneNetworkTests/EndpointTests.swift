import LodestoneNetwork
import Testing

@Suite struct EndpointTests {
    @Test func endpoints() {
        func p(_ t: String) -> Endpoint? { try? Endpoint.parse(t, defaultHost: "127.0.0.1", defaultPort: 10110).get() }
        #expect(p("localhost:2947") == Endpoint(host: "localhost", port: 2947))
        #expect(p("10111") == Endpoint(host: "127.0.0.1", port: 10111))
        #expect(p(":10111") == Endpoint(host: "127.0.0.1", port: 10111))
        #expect(p("0.0.0.0") == Endpoint(host: "0.0.0.0", port: 10110))
        #expect(p("[::1]:5") == Endpoint(host: "::1", port: 5))
        #expect(p("[::1]")?.description == "[::1]:10110")
        #expect(p("h:0") == nil && p("h:70000") == nil && p("a b:1") == nil && p("[::1") == nil)
        #expect(Endpoint(host: "127.0.0.5", port: 1).isLoopback && !Endpoint(host: "0.0.0.0", port: 1).isLoopback)
    }

    @Test func aMalformedEndpointSaysWhy() {
        guard case .failure(let e) = Endpoint.parse("::1:2948", defaultHost: "127.0.0.1", defaultPort: nil) else {
            Issue.record("accepted")
            return
        }
        #expect(e.message == "'::1:2948' is not HOST:PORT (put an IPv6 address in brackets, e.g. [::1]:2947)")
    }
}
