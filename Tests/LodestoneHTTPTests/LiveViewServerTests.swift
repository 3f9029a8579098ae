import Foundation
import LodestoneHTTP
import LodestoneTestSupport
import Testing

/// The live view's server over real loopback sockets: what a browser gets, and what
/// careless or hostile peers get.
@Suite struct LiveViewServerTests {
    func server(_ feed: LiveFeed = StaticFeed(), _ adjust: (inout HTTPServerSettings) -> Void = { _ in }) throws -> LiveViewServer {
        var s = HTTPServerSettings()
        s.listen.port = 0
        adjust(&s)
        let server = try LiveViewServer(settings: s, feed: feed)
        try server.start()
        return server
    }

    func get(_ port: UInt16, _ path: String, method: String = "GET", host: String? = nil) throws -> String {
        let client = try RawHTTPClient(port: port)
        client.send("\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\r\n")
        return client.read()
    }


    @Test func servesThePageWithNothingFromOutside() throws {
        let s = try server()
        defer { s.stop() }
        let page = try get(s.port, "/")
        #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(page.contains("Content-Type: text/html; charset=utf-8"))
        #expect(page.contains("Content-Security-Policy: default-src 'none';"))
        #expect(page.contains("new EventSource(\"events\")"))
        let body = page.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        #expect(body.utf8.count == LiveViewPage.html.utf8.count)
        // No outside asset: no URL to another origin in any src/href, no @import, no CDN.
        for pattern in ["src=\"http", "href=\"http", "@import", "cdn", "//fonts."] {
            #expect(!LiveViewPage.html.lowercased().contains(pattern), "the page names \(pattern)")
        }
        let head = try get(s.port, "/", method: "HEAD")
        #expect(head.hasPrefix("HTTP/1.1 200 OK") && head.hasSuffix("\r\n\r\n"), "HEAD has no body")
    }

    @Test func answersMistakesWithTheRightStatus() throws {
        let s = try server { $0.maxRequestBytes = 512 }
        defer { s.stop() }
        #expect(try get(s.port, "/nothing").hasPrefix("HTTP/1.1 404 "))
        #expect(try get(s.port, "/", method: "POST").hasPrefix("HTTP/1.1 405 "))
        #expect(try get(s.port, "/", method: "POST").contains("Allow: GET, HEAD"))
        #expect(try get(s.port, "/", host: "attacker.example:\(s.port)").hasPrefix("HTTP/1.1 421 "), "DNS rebinding")
        #expect(try get(s.port, "/", host: "localhost:\(s.port)").hasPrefix("HTTP/1.1 200 "))
        let bad = try RawHTTPClient(port: s.port)
        bad.send("HELLO\r\n\r\n")
        #expect(bad.read().hasPrefix("HTTP/1.1 400 "))
        let huge = try RawHTTPClient(port: s.port)
        huge.send("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 2000))
        #expect(huge.read().hasPrefix("HTTP/1.1 431 "))
    }

    @Test func slowSendersAreCutOff() throws {
        let s = try server { $0.requestTimeout = 0.3 }
        defer { s.stop() }
        let slow = try RawHTTPClient(port: s.port)
        slow.send("GET / HT")
        #expect(slow.read(timeout: 3).hasPrefix("HTTP/1.1 408 "), "a request head that never ends")
    }

    /// Two clients that send nothing hold both slots; the third is refused. The request
    /// timeout is an hour: CI's test threads can stall for seconds between two lines of a
    /// test (the address sanitizer, two cores), and a short one freed the slots first.
    @Test func slotsAreLimited() throws {
        let s = try server { $0.requestTimeout = 3600; $0.maxClients = 2 }
        defer { s.stop() }
        let a = try RawHTTPClient(port: s.port), b = try RawHTTPClient(port: s.port)
        usleep(100_000)
        let third = try RawHTTPClient(port: s.port)
        #expect(third.read().hasPrefix("HTTP/1.1 503 "))
        _ = (a, b)
    }

    @Test func streamsTheSnapshotThenPublishedObjectsAndCountsViewers() throws {
        let feed = StaticFeed([#"{"class":"POSITION","lat":52.5,"lon":13.4,"source":"fixed"}"#])
        let s = try server(feed)
        defer { s.stop() }
        let viewer = try RawHTTPClient(port: s.port)
        viewer.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nAccept: text/event-stream\r\n\r\n")
        viewer.read(until: "POSITION")
        #expect(viewer.text.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream"))
        #expect(waitUntil { s.viewerCount == 1 } && feed.history == [1])
        for i in 0..<20 { s.publish(#"{"class":"HEADING","magneticHeading":\#(i)}"#) }
        viewer.read(until: "\"magneticHeading\":19}")
        let headings = viewer.events.filter { $0["class"] as? String == "HEADING" }.compactMap { $0["magneticHeading"] as? Int }
        #expect(headings == Array(0..<20), "every object, in order")
        #expect(viewer.events.first?["class"] as? String == "POSITION")
        close(viewer.fd)
        #expect(waitUntil { feed.history == [1, 0] }, "\(feed.history)")
    }

    /// A viewer that never reads costs the producer nothing and the others nothing; when it
    /// reads again it learns how much it missed.
    /// The stall timeout is an hour: a test thread CI stalls for a minute between the
    /// publishing and the reading would otherwise see the server close the stalled viewer.
    @Test func aStalledViewerNeverHoldsUpTheProducerOrTheOthers() throws {
        let s = try server { $0.bufferedEvents = 64; $0.stallTimeout = 3600 }
        defer { s.stop() }
        let stalled = try RawHTTPClient(port: s.port, receiveBuffer: 4096)
        stalled.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\n\r\n")
        let healthy = try RawHTTPClient(port: s.port)
        healthy.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\n\r\n")
        #expect(waitUntil { s.viewerCount == 2 })
        let padding = String(repeating: "x", count: 2000)
        for i in 0..<3000 {
            s.publish(#"{"class":"HEADING","n":\#(i),"pad":"\#(padding)"}"#)
            if i % 100 == 0 { healthy.read(timeout: 0.02) }
        }
        healthy.read(until: "\"n\":2999,")
        #expect(healthy.text.contains("\"n\":2999,"), "the healthy viewer got the latest")
        let stalledRead = stalled.read(timeout: 10, until: "\"n\":2999,")
        stalled.read(timeout: 0.5) // the rest of the last event
        #expect(stalledRead.contains("linesDropped"), "the stalled viewer is told what it missed")
        let dropped = stalled.events.filter { $0["event"] as? String == "linesDropped" }.compactMap { $0["count"] as? Int }.reduce(0, +)
        // Every event is accounted for: received in order, or counted as dropped.
        let received = stalled.events.compactMap { $0["n"] as? Int }
        #expect(received == received.sorted() && Set(received).count == received.count, "in order, once each")
        #expect(dropped > 0 && received.count + dropped == 3000, "received \(received.count) (\(received.first ?? -1)…\(received.last ?? -1)), dropped \(dropped), data lines \(stalled.text.components(separatedBy: "data: ").count - 1)")
    }
}
