import Foundation
import LodestoneTestSupport
import Testing

/// The live view's stream from `lodestone serve --http`, read as a browser's EventSource
/// does: what a new viewer gets first, the STEER of the client that steers, and demand.
@Suite(.serialized) struct ServeLiveViewTests {
    let scratch = ScratchDirectory()

    /// `GET /events` for `seconds`; the JSON objects of its `data:` lines.
    func events(port: Int, seconds: Double) -> [[String: Any]] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(port); printf 'GET /events HTTP/1.1\\r\\nHost: 127.0.0.1:\(port)\\r\\n\\r\\n' >&3; "
                       + "timeout -s KILL \(seconds) cat <&3"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return [] }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("data: ") }
            .compactMap { ProtocolClient.object(String($0.dropFirst(6))) }
    }

    @Test func aViewerGetsTheStateThenTheStreamWithTheSteeringClientsAdvice() throws {
        let socket = scratch.file("s.sock")
        let service = try ServiceProcess(["--source", "simulated", "--socket", socket, "--http", "127.0.0.1:0", "-v",
                                          "--lat", "52.5", "--lon", "13.4"], scratch: scratch)
        try #require(ServiceProcess.waitForSocket(socket), "serve did not start: \(service.stderr)")
        // The live view starts after the socket listens: its port is in the log a moment later.
        #expect(waitUntil { ServeLiveViewBrowserTests.port(in: service.stderr) != nil })
        let port = try #require(ServeLiveViewBrowserTests.port(in: service.stderr), "\(service.stderr)")

        // A program steers; nobody watches yet, so nothing is read.
        let client = try ProtocolClient(path: socket)
        client.send(#"?STEER={"lat":52.6,"lon":13.4};"# + "\n")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!service.stderr.contains("sensors claimed"), "\(service.stderr)")

        let first = events(port: port, seconds: 2)
        let classes = first.compactMap(\.className)
        #expect(classes.first == "DEVICES", "\(classes)")
        #expect(classes.contains("POSITION") && classes.contains("HEADING") && classes.contains("STEER"), "\(classes)")
        let headings = first.filter { $0.className == "HEADING" }
        #expect(headings.count >= 20 && headings.count <= 45, "at most 20 a second: \(headings.count) in 2 s")
        #expect(headings.allSatisfy { $0.double("pitch") != nil && $0.double("expectedField") != nil })
        let steer = try #require(first.first { $0.className == "STEER" })
        #expect(steer.double("lat") == 52.6 && abs((steer.double("bearing") ?? .nan)) < 1e-6, "\(steer)")
        #expect(first.first { $0.className == "POSITION" }?.double("lat") == 52.5)
        #expect(first.contains { $0.string("event") == "trueHeadingAvailable" }, "the events in force come first")

        // The viewer left and the client stops steering: the next viewer is told, and
        // without viewers or watchers the sensors are released again.
        #expect(waitUntil { service.stderr.contains("nobody watches: sensors released") && service.stderr.contains("sensors claimed") })
        client.send(#"?STEER={"enable":false};"# + "\n")
        let second = events(port: port, seconds: 1)
        let stopped = try #require(second.firstIndex { $0.string("event") == "steerStopped" }, "\(second.compactMap(\.className))")
        #expect(!second[stopped...].contains { $0.className == "STEER" }, "no STEER after it stopped")
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
    }
}
