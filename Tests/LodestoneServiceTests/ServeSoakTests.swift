import Foundation
import LodestoneTestSupport
import Synchronization
import Testing

/// One hour of log time at 100 Hz, replayed as fast as the service goes, to ten clients
/// with different headingFilters: the service's memory must stay flat, every client must
/// get the stream to its end, and what a client lost must be reported to it.
@Suite(.serialized) struct ServeSoakTests {
    final class Reader: @unchecked Sendable {
        let client: ProtocolClient
        let filter: Double
        let done = Atomic<Bool>(false)
        let lastTimestamp = Atomic<Int>(0)
        var headings = 0
        var dropped = 0
        var invalid = 0
        var lastLine = ""
        /// Log time of the first heading received (the first lines sit in the socket's
        /// buffer, so they are never among those dropped).
        var firstTimestamp: Double?

        init(client: ProtocolClient, filter: Double) {
            self.client = client
            self.filter = filter
        }

        /// Reads to the end of the stream, counting; JSON is parsed only for what is not a HEADING.
        func run() {
            while let line = client.readLine(timeout: 120) {
                if line.hasPrefix(#"{"class":"HEADING""#) {
                    headings += 1
                    if firstTimestamp == nil { firstTimestamp = ProtocolClient.object(line)?.double("timestamp") }
                    if headings % 1000 == 0, let o = ProtocolClient.object(line), let t = o.double("timestamp") {
                        lastTimestamp.store(Int(t), ordering: .relaxed)
                    }
                    lastLine = line
                } else if let o = ProtocolClient.object(line) {
                    if o.string("event") == "linesDropped" { dropped += Int(o.double("count") ?? 0) }
                } else {
                    invalid += 1
                }
            }
            done.store(true, ordering: .releasing)
        }
    }

    @Test func anHourAt100HzToTenClientsWithFlatMemory() throws {
        let scratch = ScratchDirectory()
        let log = scratch.file("hour.csv")
        let simulate = Process()
        simulate.executableURL = URL(fileURLWithPath: Lodestone.executable)
        simulate.arguments = ["simulate", "-o", log, "--scenario", "spin", "--rate", "100", "--duration", "3600", "--spin-rate", "30",
                              "--noise", "typical", "--format", "csv"]
        try simulate.run()
        simulate.waitUntilExit()
        try #require(simulate.terminationStatus == 0)

        let socket = scratch.file("s.sock")
        let service = try ServiceProcess(["--source", "replay:\(log)", "--speed", "max", "--socket", socket], scratch: scratch)
        try #require(ServiceProcess.waitForSocket(socket), "\(service.stderr)")
        let filters: [Double] = [0, 0, 1, 1, 2, 5, 5, 10, 20, 45]
        var readers: [Reader] = []
        for f in filters {
            let c = try ProtocolClient(path: socket)
            readers.append(Reader(client: c, filter: f))
        }
        usleep(200_000)
        // The first WATCH claims the log; a fast service is well into it when the last client
        // watches, so each client's count starts at its own first heading.
        for r in readers.reversed() { r.client.send(#"?WATCH={"enable":true,"headingFilter":\#(r.filter)};"# + "\n") }
        for r in readers { Thread { r.run() }.start() }

        var samples: [(logSeconds: Int, kB: Double)] = []
        let start = Stopwatch()
        while !readers.allSatisfy({ $0.done.load(ordering: .acquiring) }), start.seconds < 900 {
            if let kB = residentKB(service.pid) { samples.append((readers[0].lastTimestamp.load(ordering: .relaxed), kB)) }
            usleep(100_000)
        }
        let elapsed = start.seconds
        #expect(service.waitExit(timeout: 10) == 0, "\(service.stderr.suffix(2000))")

        // Memory: after the first 10 % of the log (buffers and queues at their working size), no growth.
        let warm = samples.filter { $0.logSeconds >= 360 }
        try #require(warm.count >= 3, "too few RSS samples: \(samples)")
        let baseline = warm[0].kB, peak = warm.map(\.kB).max()!, last = warm.last!.kB
        print("measured soak: 360001 samples (1 h at 100 Hz) in \(String(format: "%.1f", elapsed)) s to 10 clients; service RSS \(Int(baseline)) kB at 10 % of the log, peak \(Int(peak)) kB, last \(Int(last)) kB (\(warm.count) samples)")
        if let sanitizer = Sanitizer.active {
            print("skipped the memory-growth check: under the \(sanitizer) sanitizer, freed memory waits in its quarantine")
        } else {
            #expect(peak - baseline < 1024, "RSS grew from \(baseline) kB to \(peak) kB")
        }

        for r in readers {
            #expect(r.invalid == 0, "filter \(r.filter): \(r.invalid) lines were not JSON")
            let end = ProtocolClient.object(r.lastLine)?.double("timestamp") ?? 0
            // The log spins at 30°/s: the last delivered heading is at most filter/30 s before the end.
            #expect(end >= 3600 - r.filter / 30 - 0.1, "filter \(r.filter): the stream stopped at \(end) s")
            if r.filter == 0, let first = r.firstTimestamp {
                // Every sample is a heading for headingFilter 0: received + reported lost = all
                // from the client's first heading on (a few lost lines may be events).
                let expected = Int(((3600 - first) * 100).rounded()) + 1
                #expect(r.headings + r.dropped >= expected && r.headings + r.dropped <= expected + 10,
                        "filter 0: \(r.headings) received + \(r.dropped) dropped, \(expected) expected from \(first) s")
            }
            print("measured soak client headingFilter \(r.filter): \(r.headings) headings received, \(r.dropped) lines reported dropped")
        }
    }
}
