import Foundation
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneTestSupport
import Testing

/// `lodestone serve` end to end over its Unix socket: no root and no network needed.
@Suite(.serialized) struct ServeProtocolTests {
    let scratch = ScratchDirectory()

    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (ServiceProcess, String) {
        let socket = scratch.file("s.sock")
        let p = try ServiceProcess(["--socket", socket] + arguments, scratch: scratch, environment: environment)
        guard ServiceProcess.waitForSocket(socket) else {
            throw ProtocolClient.Failure(description: "the service did not come up: \(p.stderr)")
        }
        return (p, socket)
    }

    @Test func versionFirstThenEachWatcherGetsItsOwnHeadingFilter() throws {
        let log = scratch.file("spin.csv")
        TestLogs.spin(log, rate: 90, seconds: 30)
        let (service, socket) = try start(["--source", "replay:\(log)", "--loop"])
        let a = try ProtocolClient(path: socket), b = try ProtocolClient(path: socket)
        let version = try #require(a.readObject())
        #expect(version.className == "VERSION" && version.string("release") != nil && version.double("protoMajor") == 1)
        a.send(#"?WATCH={"enable":true,"headingFilter":0};"# + "\n")
        b.send(#"?WATCH={"enable":true,"headingFilter":20};"# + "\n")
        let reply = try #require(a.read(class: "WATCH"))
        #expect(reply["enable"] as? Bool == true && reply.double("headingFilter") == 0)
        #expect(b.read(class: "WATCH")?.double("headingFilter") == 20)
        let all = TestLogs.headings(a.collect(for: 2))
        let filtered = TestLogs.headings(b.collect(for: 0.3))
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)

        #expect(all.count > 120, "only \(all.count) headings in 2 s at 100 Hz")
        let first = try #require(all.first)
        #expect(Set(first.keys) == ["class", "time", "timestamp", "magneticHeading", "trueHeading", "headingAccuracy", "declination", "x", "y", "z",
                                    "pitch", "roll", "expectedField"])
        #expect(first["trueHeading"] is NSNull && first["declination"] is NSNull && first["expectedField"] is NSNull)
        // A flat board (the log's accelerometer reads 9.81 m/s² on z only).
        #expect(abs(first.double("pitch") ?? .nan) < 0.01 && abs(first.double("roll") ?? .nan) < 0.01, "\(first)")
        let time = try #require(first.string("time"))
        #expect(time.count == 27 && time.hasSuffix("Z"))
        let stamps = all.compactMap { $0.double("timestamp") }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { abs($1 - $0 - 0.01) < 1e-6 }, "headingFilter 0 must deliver every sample")
        for h in all where h.double("timestamp")! > 1 {
            let truth = h.double("timestamp")! * 90
            #expect(abs(angleDifference(truth, h.double("magneticHeading")!)) < 3.5, "\(h)")
        }
        let filteredHeadings = filtered.compactMap { $0.double("magneticHeading") }
        #expect(filteredHeadings.count >= 3)
        for (x, y) in zip(filteredHeadings, filteredHeadings.dropFirst()) {
            let d = abs(angleDifference(x, y))
            #expect(d >= 20 - 1e-6 && d < 21.5, "consecutive headings \(x) → \(y) with headingFilter 20")
        }
    }

    /// A board left upright: a watcher gets one `headingUnavailable` EVENT naming the back.
    @Test func watchersHearThatTheForwardAxisIsVertical() throws {
        let log = scratch.file("upright.csv")
        TestLogs.upright(log, seconds: 4)
        let (service, socket) = try start(["--source", "replay:\(log)", "--speed", "10"])
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true};"# + "\n")
        var objects: [[String: Any]] = []
        while let o = c.readObject(timeout: 20) {
            objects.append(o)
            if o.string("event") == "sourceEnded" { break }
        }
        #expect(service.waitExit() == 0)
        let events = objects.filter { $0.string("event") == "headingUnavailable" }
        #expect(events.count == 1, "\(events)")
        let e = try #require(events.first)
        #expect(e.className == "EVENT" && e.string("state") == "start" && e.string("reason") == "forwardAxisVertical")
        #expect(e.string("detail")?.contains("--forward -z") == true, "\(e)")
    }

    @Test func pollDevicesAndVersionAnswers() throws {
        let log = scratch.file("hold.csv")
        TestLogs.spin(log, start: 123, rate: 0, seconds: 60)
        let (service, socket) = try start(["--source", "replay:\(log)"])
        let c = try ProtocolClient(path: socket)
        _ = c.readObject()
        c.send("?POLL;\n")
        let poll = try #require(c.read(class: "POLL"))
        #expect(poll.double("active") == 0)
        let heading = try #require(poll["heading"] as? [String: Any])
        #expect(heading.className == "HEADING")
        #expect(abs(angleDifference(123, heading.double("magneticHeading") ?? .nan)) < 0.01)
        c.send("?DEVICES;\n?VERSION;\n")
        let devices = try #require(c.read(class: "DEVICES"))
        #expect(devices.string("source") == "replay")
        let list = try #require(devices["devices"] as? [[String: Any]])
        #expect(list.count == 1 && list[0].string("kind") == "log" && list[0].string("path") == log && list[0].string("name") == "csv")
        #expect(c.read(class: "VERSION") != nil)
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
    }

    @Test func malformedCommandsGetAnErrorAndTheConnectionStaysUsable() throws {
        let log = scratch.file("hold.csv")
        TestLogs.spin(log, rate: 0, seconds: 10)
        let (service, socket) = try start(["--source", "replay:\(log)"])
        let c = try ProtocolClient(path: socket)
        _ = c.readObject()
        let bad: [(String, String)] = [
            ("hello", "a command starts with '?'"),
            ("?FOO;", "unknown command ?FOO"),
            (#"?WATCH={"enable":tru};"#, "?WATCH: the argument is not valid JSON"),
            (#"?WATCH={"enable":true,"headingFilter":"5"};"#, "?WATCH: headingFilter must be a number"),
            (#"?STEER={"lat":100,"lon":0};"#, "?STEER: lat must be between -90 and 90"),
            (#"?STEER={"lat":1,"lon":0,"tolerance":80};"#, "?STEER: setting tolerance = 80.0 is out of range"),
            ("?" + String(repeating: "A", count: 5000), "command line longer than 1024 bytes"),
            ("\u{01}\u{02}\u{FF}", "a command starts with '?'"),
        ]
        for (line, message) in bad {
            c.send(line + "\n")
            let e = try #require(c.readObject(timeout: 5), "no answer to \(line.prefix(40))")
            #expect(e.className == "ERROR")
            #expect(e.string("message")?.hasPrefix(message) == true, "\(line.prefix(40)) → \(e)")
            c.send("?VERSION;\n")
            #expect(c.readObject()?.className == "VERSION", "the connection must stay usable after \(line.prefix(40))")
        }
        // A line cut in two writes is one command.
        c.send("?VERS")
        usleep(50_000)
        c.send("ION;\n")
        #expect(c.readObject()?.className == "VERSION")
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
        #expect(!service.stderr.contains("Fatal"))
    }

    /// The sensors are not read while nobody watches; the first watcher gets a heading fast.
    @Test func sensorsAreReadOnlyOnDemandAndTheFirstHeadingComesQuickly() throws {
        let log = scratch.file("spin.csv")
        TestLogs.spin(log, rate: 10, seconds: 60)
        let (service, socket) = try start(["--source", "replay:\(log)", "--heading-filter", "0"])
        let c = try ProtocolClient(path: socket)
        _ = c.readObject()
        usleep(1_500_000) // idle: a replay that kept reading would be 1.5 s into the log
        var latencies: [Double] = []
        var resumedAt: [Double] = []
        for _ in 0..<5 {
            let t0 = Stopwatch()
            c.send(#"?WATCH={"enable":true};"# + "\n")
            let h = try #require(c.read(class: "HEADING", timeout: 5))
            latencies.append(t0.seconds)
            resumedAt.append(h.double("timestamp") ?? .nan)
            _ = c.collect(for: 0.3)
            c.send(#"?WATCH={"enable":false};"# + "\n")
            _ = c.collect(for: 0.5) // idle again
        }
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
        let sorted = latencies.sorted()
        print("measured first heading after ?WATCH (replay source): median \(Int(sorted[2] * 1000)) ms, worst \(Int(sorted[4] * 1000)) ms")
        #expect(sorted[2] < 0.2, "median first-heading latency \(sorted[2]) s")
        #expect(resumedAt[0] < 0.05, "the log advanced while nobody watched: first timestamp \(resumedAt[0])")
        // Each pause leaves the log where it was: ~0.3 s of log per watch period, not 0.8 s.
        for (x, y) in zip(resumedAt, resumedAt.dropFirst()) {
            #expect(y - x > 0.2 && y - x < 0.6, "log time between claims \(y - x) s")
        }
    }

    /// A client that stops reading loses its oldest lines (and is told so); the others and the
    /// pipeline go on at full pace.
    @Test func aStuckClientNeitherBlocksThePipelineNorOtherClients() throws {
        let log = scratch.file("spin.csv")
        TestLogs.spin(log, rate: 45, seconds: 60) // 6000 samples
        let config = scratch.write("c.json", #"{"limits":{"clientQueueBytes":4096}}"#)
        let (service, socket) = try start(["--config", config, "--source", "replay:\(log)", "--speed", "20", "--heading-filter", "0"])
        let slow = try ProtocolClient(path: socket), fast = try ProtocolClient(path: socket)
        slow.send(#"?WATCH={"enable":true};"# + "\n")
        _ = slow.read(class: "WATCH")
        fast.send(#"?WATCH={"enable":true};"# + "\n")
        // The fast client reads everything; the slow one reads nothing until the replay ended
        // (then it has the 2 s the service gives queued output at shutdown).
        let t0 = Stopwatch()
        var fastObjects: [[String: Any]] = []
        while let o = fast.readObject(timeout: 20) {
            fastObjects.append(o)
            if o.string("event") == "sourceEnded" { break }
        }
        let elapsed = t0.seconds
        let slowObjects = slow.readToEnd(timeout: 5)
        fastObjects += fast.readToEnd(timeout: 5)
        #expect(service.waitExit() == 0)
        let fastHeadings = TestLogs.headings(fastObjects)
        // The fast client's queue is small too (4 KiB, about 20 lines): on a machine busy
        // enough to stall its reader for tens of milliseconds it loses lines as well, and
        // must be told. Nothing may go missing without being reported.
        let fastDropped = fastObjects.filter { $0.string("event") == "linesDropped" }.compactMap { $0.double("count") }.reduce(0, +)
        let stamps = fastHeadings.compactMap { $0.double("timestamp") }
        let missing = zip(stamps, stamps.dropFirst()).map { (($1 - $0) / 0.01).rounded() - 1 }.reduce(0, +)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 > $0 }, "the fast client's headings are out of order")
        #expect(missing <= fastDropped, "the fast client lost \(missing) headings, \(fastDropped) reported")
        // From its first heading to the last, every heading reached the fast client or was
        // reported dropped (above). How soon after the replay started its watch took effect
        // depends on how busy the machine is (4–14 lines at 20× under a parallel build), so
        // the span is checked with room: it got the log from its first seconds to its end.
        #expect((stamps.first ?? .infinity) < 5, "the fast client's first heading came at \(stamps.first ?? -1) s of the log")
        #expect((stamps.last ?? 0) > 59.9, "the fast client's last heading came at \(stamps.last ?? -1) s of a 60 s log")
        let total = Double(fastHeadings.count) + fastDropped
        // 3 s at full pace; a pipeline that waited for the stuck client would never send
        // sourceEnded (the 20 s read timeout). The bound leaves room for a busy CI machine
        // running the sanitizer (8.7 s seen with two builds beside it).
        #expect(elapsed < 15, "60 s of log at 20× took \(elapsed) s: something blocked the pipeline")
        #expect(!slow.lines.contains { ProtocolClient.object($0) == nil }, "a torn or invalid line reached the slow client")
        let drops = slowObjects.filter { $0.string("event") == "linesDropped" }
        #expect(!drops.isEmpty)
        let dropped = drops.compactMap { $0.double("count") }.reduce(0, +)
        let slowHeadings = TestLogs.headings(slowObjects).count
        print("measured slow client: \(slowHeadings) headings received, \(Int(dropped)) lines reported dropped; fast client \(fastHeadings.count)")
        // How many lines a reading client loses depends on how busy the machine is (under
        // AddressSanitizer and other load, hundreds, once in CI 3,138 of 6,000); that it
        // loses fewer than the client that stopped reading does not.
        #expect(fastDropped < dropped, "the fast client, which reads, lost \(fastDropped) lines; the stuck one \(dropped)")
        // The slow client watched first: the log's headings before the fast client's first
        // went to it alone (a few, or more on a busy machine; the log starts at 0 s, 0.01 s a sample).
        let beforeFast = ((stamps.first ?? 0) / 0.01).rounded()
        #expect(Double(slowHeadings) + dropped >= total - 5)
        #expect(Double(slowHeadings) + dropped <= total + beforeFast + 5,
                "the stuck client: \(slowHeadings) headings and \(dropped) lines dropped; the fast one joined \(beforeFast) headings later")
        #expect(service.stderr.contains("dropped for it in all"))
    }

    @Test func sigtermStopsCleanlyAndRemovesTheSocket() throws {
        let (service, socket) = try start(["--source", "simulated", "--heading-filter", "0"])
        var st = stat()
        #expect(stat(socket, &st) == 0 && st.st_mode & 0o777 == 0o660, "the socket's mode is \(String(st.st_mode & 0o777, radix: 8))")
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true};"# + "\n")
        #expect(c.read(class: "HEADING") != nil)
        service.signal(SIGTERM)
        let rest = c.readToEnd(timeout: 5)
        #expect(service.waitExit() == 0)
        #expect(rest.last?.string("event") == "serviceStopping" && rest.last?.string("reason") == "SIGTERM")
        #expect(!c.lines.contains { ProtocolClient.object($0) == nil }, "every line is complete JSON")
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(service.stderr.contains("stopping (SIGTERM)"))
    }

    @Test func sighupReloadsTheConfigAndSdNotifyIsSpoken() throws {
        let notify = scratch.file("notify.sock")
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(listener) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in notify.utf8.enumerated() { raw[i] = b } }
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        func messages(timeout: Double) -> [String] {
            var out: [String] = []
            let deadline = Deadline(timeout)
            while !deadline.hasPassed {
                var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 50) > 0 else { continue }
                var buf = [UInt8](repeating: 0, count: 512)
                let n = buf.withUnsafeMutableBytes { recv(listener, $0.baseAddress, 512, 0) }
                if n > 0 { out.append(String(decoding: buf[0..<n], as: UTF8.self)) }
            }
            return out
        }

        let log = scratch.file("hold.csv")
        TestLogs.spin(log, start: 100, rate: 0, seconds: 600)
        let config = scratch.write("c.json", #"{"headingFilter":30}"#)
        let (service, socket) = try start(["--config", config, "--source", "replay:\(log)", "--year", "2026.5"],
                                          environment: ["NOTIFY_SOCKET": notify, "WATCHDOG_USEC": "300000", "JOURNAL_STREAM": "8:12345"])
        let first = messages(timeout: 0.7)
        #expect(first.contains { $0.hasPrefix("READY=1") })
        #expect(first.filter { $0 == "WATCHDOG=1" }.count >= 3, "WATCHDOG=1 at half of WATCHDOG_USEC: \(first)")
        // Under journald every log line carries its syslog priority.
        let logLines = service.stderr.split(separator: "\n")
        #expect(!logLines.isEmpty && logLines.allSatisfy { $0.hasPrefix("<6>lodestone: ") || $0.hasPrefix("<5>lodestone: ") || $0.hasPrefix("<4>lodestone: ") },
                "\(logLines)")
        let w = try ProtocolClient(path: socket)
        w.send(#"?WATCH={"enable":true};"# + "\n")
        #expect(w.read(class: "WATCH")?.double("headingFilter") == 30)
        #expect(w.read(class: "HEADING")?["trueHeading"] is NSNull)

        scratch.write("c.json", #"{"headingFilter":0,"position":{"lat":52.5,"lon":13.4}}"#)
        service.signal(SIGHUP)
        let event = try #require(w.read(until: { $0.string("event") == "trueHeadingAvailable" }))
        #expect(event.string("detail")?.contains("declination") == true)
        let notes = messages(timeout: 0.5)
        #expect(notes.contains("RELOADING=1") && notes.contains { $0.hasPrefix("READY=1") }, "\(notes)")
        w.send(#"?WATCH={"enable":true,"headingFilter":0};"# + "\n") // the heading does not move: a new filter delivers at once
        let h = try #require(w.read(class: "HEADING"))
        let expected = try GeomagneticModel.wmm2025.elements(latitude: 52.5, longitude: 13.4, height: 0, decimalYear: 2026.5).declination
        #expect(abs((h.double("declination") ?? .nan) - expected) < 0.001)
        #expect(abs(angleDifference(100 + expected, h.double("trueHeading") ?? .nan)) < 0.01)
        let second = try ProtocolClient(path: socket)
        second.send(#"?WATCH={"enable":true};"# + "\n")
        #expect(second.read(class: "WATCH")?.double("headingFilter") == 0, "the new default headingFilter applies to new watchers")

        scratch.write("c.json", #"{"headingFilter":"many"}"#)
        service.signal(SIGHUP)
        usleep(300_000)
        #expect(service.stderr.contains("the configuration was not reloaded, the running one stays"))
        #expect(service.stderr.contains("headingFilter: must be a number"))
        second.send("?VERSION;\n")
        #expect(second.read(class: "VERSION") != nil, "still serving after a bad reload")

        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
        #expect(messages(timeout: 0.3).contains("STOPPING=1"))
    }

    @Test func theClientLimitIsEnforced() throws {
        let (service, socket) = try start(["--source", "simulated", "--max-clients", "2"])
        let a = try ProtocolClient(path: socket), b = try ProtocolClient(path: socket)
        #expect(a.readObject()?.className == "VERSION" && b.readObject()?.className == "VERSION")
        let c = try ProtocolClient(path: socket)
        let refused = try #require(c.readObject())
        #expect(refused.className == "ERROR" && refused.string("message")?.contains("too many clients (2)") == true)
        #expect(c.readLine(timeout: 2) == nil, "the refused connection is closed")
        a.close()
        usleep(200_000)
        let d = try ProtocolClient(path: socket)
        #expect(d.readObject()?.className == "VERSION", "a freed slot is usable again")
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
    }

    @Test func steeringWithAFixedPosition() throws {
        let log = scratch.file("hold.csv")
        TestLogs.spin(log, start: 80, rate: 0, seconds: 600)
        let (service, socket) = try start(["--source", "replay:\(log)", "--lat", "45", "--lon", "7", "--year", "2026.5"])
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true,"headingFilter":0};"# + "\n")
        c.send(#"?STEER={"lat":45.01,"lon":7,"tolerance":10};"# + "\n")
        // The answer to ?STEER comes at once from the position; the next ones with each heading.
        let first = try #require(c.read(class: "STEER"))
        let steer = try #require(c.read(until: { $0.className == "STEER" && !($0["delta"] is NSNull) }))
        let declination = try GeomagneticModel.wmm2025.elements(latitude: 45, longitude: 7, height: 0, decimalYear: 2026.5).declination
        let trueHeading = 80 + declination
        // Due north along a meridian: bearing 0; distance the meridian arc M(φ)·Δφ (WGS 84).
        let a = 6_378_137.0, e2 = 0.00669437999014, phi = 45.005 * Double.pi / 180
        let arc = a * (1 - e2) / pow(1 - e2 * sin(phi) * sin(phi), 1.5) * (0.01 * Double.pi / 180)
        #expect(abs(angleDifference(0, steer.double("bearing") ?? .nan)) < 1e-6)
        #expect(abs((steer.double("distance") ?? .nan) - arc) < 0.05, "\(steer)")
        #expect(abs((first.double("distance") ?? .nan) - arc) < 0.05, "\(first)")
        #expect(abs((steer.double("delta") ?? .nan) - angleDifference(trueHeading, 0)) < 0.01)
        #expect(steer.string("turn") == "left", "delta \(angleDifference(trueHeading, 0))° is a left turn")
        #expect(steer["arrived"] as? Bool == false && steer["eta"] is NSNull)
        c.send(#"?STEER={"enable":false};"# + "\n")
        #expect(c.read(until: { $0.string("event") == "steerStopped" }) != nil)
        let after = c.collect(for: 0.3)
        #expect(!after.contains { $0.className == "STEER" }, "STEER objects after steering stopped")
        #expect(after.contains { $0.className == "HEADING" })
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
    }

    /// Near the magnetic pole HEADING has trueHeading and declination null, as replay's NDJSON has them
    /// (FieldCommandTests), and the watcher is told why.
    @Test func theBlackoutZoneNullsDeclinationAsEverywhere() throws {
        let log = scratch.file("pole.csv")
        TestLogs.spin(log, start: 80, rate: 0, seconds: 600)
        let (service, socket) = try start(["--source", "replay:\(log)", "--lat", "86.5", "--lon", "-160", "--year", "2026.5"])
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true,"headingFilter":0};"# + "\n")
        let event = try #require(c.read(until: { $0.string("event") == "trueHeadingUnavailable" }))
        #expect(event.string("reason") == "blackoutZone", "\(event)")
        let heading = try #require(c.read(class: "HEADING"))
        #expect(heading["trueHeading"] is NSNull && heading["declination"] is NSNull, "\(heading)")
        #expect(heading.double("magneticHeading") != nil)
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
    }

    @Test func nmeaToASerialDevice() throws {
        // A pseudo-terminal stands in for the serial port (/dev/ptmx: unlock, then its number names the slave).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0, "no /dev/ptmx")
        defer { close(master) }
        var unlock: Int32 = 0, number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0 && ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0)
        let slave = "/dev/pts/\(number)"
        let log = scratch.file("hold.csv")
        TestLogs.spin(log, start: 200, rate: 0, seconds: 600)
        let (service, _) = try start(["--source", "replay:\(log)", "--nmea-serial", slave, "--nmea-baud", "38400", "--nmea-rate", "10",
                                      "--lat", "-33.86", "--lon", "151.21", "--year", "2026.5"])
        var text = ""
        let deadline = Deadline(3)
        while !deadline.hasPassed, text.components(separatedBy: "HDG").count < 6 {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = buf.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, 4096) }
            if n > 0 { text += String(decoding: buf[0..<n], as: UTF8.self) }
        }
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
        let sentences = text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }).map(String.init)
        #expect(sentences.count >= 9, "\(text)")
        let declination = try GeomagneticModel.wmm2025.elements(latitude: -33.86, longitude: 151.21, height: 0, decimalYear: 2026.5).declination
        for s in sentences {
            #expect(nmeaChecksumOK(s), "bad checksum: \(s)")
            let f = s.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            switch f[0] {
            case "$HCHDM": #expect(f == ["$HCHDM", "200.0", "M"])
            case "$HCHDT": #expect(f[2] == "T" && abs(angleDifference(200 + declination, Double(f[1]) ?? .nan)) <= 0.051)
            case "$HCHDG":
                #expect(f.count == 6 && f[1] == "200.0" && f[2] == "" && f[3] == "")
                #expect(abs((Double(f[4]) ?? .nan) - abs(declination)) <= 0.051 && f[5] == (declination < 0 ? "W" : "E"))
            case "$HCXDR": #expect(f == ["$HCXDR", "A", "0.0", "D", "PTCH", "A", "0.0", "D", "ROLL"], "a flat board: \(s)")
            default: Issue.record("unexpected sentence \(s)")
            }
        }
    }

    @Test func badStartsExitWithTheDocumentedCodes() throws {
        func run(_ args: [String]) throws -> (Int32?, String) {
            let p = try ServiceProcess(args, scratch: scratch, name: "bad-\(args.count)")
            return (p.waitExit(timeout: 10), p.stderr)
        }
        let badConfig = scratch.write("bad.json", "{\n  \"nmea\": {\"rate\": -1}\n}\n")
        var (code, err) = try run(["--config", badConfig, "--socket", scratch.file("x.sock")])
        #expect(code == 1 && err.contains("\(badConfig): nmea.rate: must be between 0 and 50"), "\(err)")
        (code, err) = try run(["--source", "usb", "--socket", scratch.file("x.sock")])
        #expect(code == 2 && err.contains("--source must be iio, replay:FILE or simulated"), "\(err)")
        (code, err) = try run(["--source", "replay:\(scratch.file("missing.csv"))", "--socket", scratch.file("x.sock")])
        #expect(code == 3 && err.contains("missing.csv"), "\(err)")
        // Sensors that cannot be reached: 3, as for watch (the same table for every command).
        (code, err) = try run(["--uri", "ip:127.0.0.1:1", "--socket", scratch.file("x.sock")])
        #expect(code == 3 && err.contains("cannot open IIO context ip:127.0.0.1:1"), "\(err)")
        (code, err) = try run(["--source", "simulated", "--no-smoothing", "--socket", scratch.file("x.sock")])
        #expect(code == 2 && err.contains("--no-smoothing (smoothing: false) changes only the compass mode"), "\(err)")
        let notASocket = scratch.write("plain", "x")
        (code, err) = try run(["--source", "simulated", "--socket", notASocket])
        #expect(code == 3 && err.contains("exists and is not a socket"), "\(err)")
        let badLog = scratch.write("bad.csv", TestLogs.header + "\n0,0,0,9.81,0,20,-40\n0.01,0,0,x,0,20,-40\n")
        let (service, socket) = try start(["--source", "replay:\(badLog)"])
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true};"# + "\n")
        let events = c.readToEnd(timeout: 5)
        #expect(events.contains { $0.string("event") == "sourceFailed" && ($0.string("detail") ?? "").contains("bad.csv:3") }, "\(events)")
        #expect(service.waitExit() == 1, "bad data in the log is exit code 1")
        let second = try start(["--source", "simulated"]) // the same socket path again: the stale file is replaced
        let busy = try ServiceProcess(["--source", "simulated", "--socket", second.1], scratch: scratch, name: "busy")
        #expect(busy.waitExit() == 3 && busy.stderr.contains("another service is listening on"))
        second.0.signal(SIGTERM)
        #expect(second.0.waitExit() == 0)
    }
}

func nmeaChecksumOK(_ sentence: String) -> Bool {
    let b = Array(sentence.utf8)
    guard b.first == UInt8(ascii: "$"), let star = b.lastIndex(of: UInt8(ascii: "*")), star + 3 == b.count,
          let given = UInt8(String(decoding: b[(star + 1)...], as: UTF8.self), radix: 16) else { return false }
    return b[1..<star].reduce(0, ^) == given
}

/// The calibration profiles named in the config or on the command line: applied (magnetometer
/// and accelerometer), reloaded on SIGHUP, refused when bad. (Profiles found for IIO devices:
/// ServeOnSimulatedBoardTests.)
@Suite(.serialized) struct ServeCalibrationTests {
    let scratch = ScratchDirectory()

    func profile(offset: (Double, Double, Double), matrixDiagonal: Double = 1) -> String {
        Self.magnetometerProfile(offset: offset, matrixDiagonal: matrixDiagonal, device: #"{"name":"test"}"#)
    }

    static func magnetometerProfile(offset: (Double, Double, Double), matrixDiagonal: Double = 1, device: String) -> String {
        """
        {"formatVersion":1,"sensor":"magnetometer","device":\(device),"created":"2026-11-01T00:00:00Z",
         "parameters":{"unit":"uT","offset":[\(offset.0),\(offset.1),\(offset.2)],
                       "matrix":[[\(matrixDiagonal),0,0],[0,\(matrixDiagonal),0],[0,0,\(matrixDiagonal)]]},
         "quality":{"model":"full","grade":"good","fitErrorPercent":0.5,"residualRMS":0.2,"fittedMagnitude":44.7,
                    "expectedMagnitude":44.7,"coveragePercent":90,"sampleCount":5000,"outlierCount":0}}
        """
    }

    static func accelerometerProfile(bias: (Double, Double, Double), device: String = #"{"name":"test"}"#) -> String {
        """
        {"formatVersion":1,"sensor":"accelerometer","device":\(device),"created":"2026-11-01T00:00:00Z",
         "parameters":{"unit":"m/s^2","offset":[\(bias.0),\(bias.1),\(bias.2)],"matrix":[[1,0,0],[0,1,0],[0,0,1]]},
         "quality":{"model":"diagonal","grade":"good","fitErrorPercent":0.1,"residualRMS":0.01,"fittedMagnitude":9.81,
                    "expectedMagnitude":9.80665,"coveragePercent":6,"sampleCount":6,"outlierCount":0}}
        """
    }

    /// The settled magnetic heading `serve` gives for `log` with these flags.
    func settledHeading(_ log: String, _ flags: [String], name: String) throws -> (heading: Double, stderr: String) {
        let socket = scratch.file("\(name).sock")
        let service = try ServiceProcess(["--source", "replay:\(log)", "--socket", socket, "--no-smoothing"] + flags, scratch: scratch, name: name)
        try #require(ServiceProcess.waitForSocket(socket), "\(service.stderr)")
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true,"headingFilter":0};"# + "\n")
        let headings = TestLogs.headings((0..<20).compactMap { _ in c.read(class: "HEADING") })
        let last = try #require(headings.last?.double("magneticHeading"), "no heading: \(service.stderr)")
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
        return (last, service.stderr)
    }

    /// A board held at heading 60° whose accelerometer reads 1.5 m/s² too much on x (a roll
    /// error of ~9°, which the dip turns into a heading error) and whose magnetometer has hard
    /// iron: both profiles together give the true heading; each alone does not.
    @Test func anAccelerometerProfileIsAppliedWithTheMagnetometerProfile() throws {
        let log = scratch.file("biased.csv")
        TestLogs.spin(log, start: 60, rate: 0, seconds: 600, hardIron: (15, -8, 5), accelerometerBias: (1.5, -0.4, 0.2))
        let mag = scratch.write("mag.json", profile(offset: (15, -8, 5)))
        let accel = scratch.write("accel.json", Self.accelerometerProfile(bias: (1.5, -0.4, 0.2)))
        let both = try settledHeading(log, ["--calibration", "\(accel),\(mag)"], name: "both")
        #expect(abs(angleDifference(60, both.heading)) < 0.01, "both profiles: \(both.heading)°; \(both.stderr)")
        #expect(both.stderr.contains("using calibration \(accel) (accelerometer, diagonal model"), "\(both.stderr)")
        #expect(both.stderr.contains("using calibration \(mag) (magnetometer, full model"), "\(both.stderr)")
        let magOnly = try settledHeading(log, ["--calibration", mag], name: "mag")
        #expect(abs(angleDifference(60, magOnly.heading)) > 3, "the accelerometer bias should matter: \(magOnly.heading)°")
        let accelOnly = try settledHeading(log, ["--calibration", accel], name: "accel")
        #expect(abs(angleDifference(60, accelOnly.heading)) > 3, "the hard iron should matter: \(accelOnly.heading)°")
        print("measured serve with a biased accelerometer and hard iron at 60°: \(both.heading)° with both profiles, \(magOnly.heading)° with the magnetometer's only, \(accelOnly.heading)° with the accelerometer's only")
    }

    @Test func theProfileIsAppliedAndReadAgainOnSighup() throws {
        let log = scratch.file("hold.csv")
        TestLogs.spin(log, start: 60, rate: 0, seconds: 600, hardIron: (15, -8, 5))
        scratch.write("mag.json", profile(offset: (15, -8, 5)))
        scratch.write("c.json", #"{"calibration":"mag.json"}"#) // relative to the config file
        let socket = scratch.file("s.sock")
        let service = try ServiceProcess(["--config", scratch.file("c.json"), "--source", "replay:\(log)", "--socket", socket], scratch: scratch)
        try #require(ServiceProcess.waitForSocket(socket), "\(service.stderr)")
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true,"headingFilter":0};"# + "\n")
        let h = try #require(c.read(class: "HEADING"))
        let truth = TestLogs.field(heading: 60)
        let (x, y, z) = (h.double("x") ?? .nan, h.double("y") ?? .nan, h.double("z") ?? .nan)
        #expect(abs(x - truth.0) < 1e-3 && abs(y - truth.1) < 1e-3 && abs(z - truth.2) < 1e-3, "the hard iron is removed: \(h)")
        #expect(abs(angleDifference(60, h.double("magneticHeading") ?? .nan)) < 0.01)

        // A new profile (no correction) on SIGHUP: the raw field comes through.
        scratch.write("mag.json", profile(offset: (0, 0, 0)))
        service.signal(SIGHUP)
        let rawX = truth.0 + 15
        let isRaw: ([String: Any]) -> Bool = { o in
            guard o.className == "HEADING", let x = o.double("x") else { return false }
            return abs(x - rawX) < 1e-3
        }
        let raw = try #require(c.read(until: isRaw, timeout: 5), "the reloaded profile was not applied: \(service.stderr)")
        #expect(abs((raw.double("y") ?? .nan) - (truth.1 - 8)) < 1e-3)

        // A broken profile on SIGHUP is refused; the running calibration stays.
        scratch.write("mag.json", profile(offset: (0, 0, 0), matrixDiagonal: -1))
        service.signal(SIGHUP)
        usleep(400_000)
        #expect(service.stderr.contains("mag.json") && service.stderr.contains("parameters.matrix"), "\(service.stderr)")
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
    }

    @Test func sighupCanSwitchTheSource() throws {
        let a = scratch.file("a.csv"), b = scratch.file("b.csv")
        TestLogs.spin(a, start: 10, rate: 0, seconds: 600)
        TestLogs.spin(b, start: 250, rate: 0, seconds: 600)
        scratch.write("c.json", #"{"source":{"type":"replay","path":"a.csv","loop":true}}"#)
        let socket = scratch.file("s.sock")
        let service = try ServiceProcess(["--config", scratch.file("c.json"), "--socket", socket], scratch: scratch)
        try #require(ServiceProcess.waitForSocket(socket), "\(service.stderr)")
        let c = try ProtocolClient(path: socket)
        c.send(#"?WATCH={"enable":true,"headingFilter":0};"# + "\n")
        #expect(abs(angleDifference(10, c.read(class: "HEADING")?.double("magneticHeading") ?? .nan)) < 0.01)
        scratch.write("c.json", #"{"source":{"type":"replay","path":"b.csv","loop":true}}"#)
        service.signal(SIGHUP)
        let switched = c.read(until: { o in o.className == "HEADING" && abs(angleDifference(250, o.double("magneticHeading") ?? 0)) < 0.01 }, timeout: 5)
        #expect(switched != nil, "no heading from the new log: \(service.stderr)")
        c.send("?DEVICES;\n")
        let devices = c.read(class: "DEVICES")?["devices"] as? [[String: Any]]
        #expect(devices?.first?.string("path") == b)
        #expect(c.lines.allSatisfy { ProtocolClient.object($0) != nil })
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0)
    }

    @Test func aBadProfileAtStartIsExitCodeOne() throws {
        scratch.write("broken.json", "{\"formatVersion\":1,\"sensor\":\"magnetometer\"}")
        let p = try ServiceProcess(["--source", "simulated", "--calibration", scratch.file("broken.json"), "--socket", scratch.file("x.sock")],
                                   scratch: scratch)
        #expect(p.waitExit() == 1)
        #expect(p.stderr.contains("calibration: \(scratch.file("broken.json")):"), "\(p.stderr)")
        let accel = scratch.write("accel.json", Self.accelerometerProfile(bias: (0, 0, 0)))
        let q = try ServiceProcess(["--source", "simulated", "--calibration", "\(accel),\(accel)", "--socket", scratch.file("y.sock")],
                                   scratch: scratch, name: "accel")
        #expect(q.waitExit() == 2, "two profiles of one sensor are a usage error, as in the CLI")
        #expect(q.stderr.contains("calibration: \(accel) and \(accel) are both accelerometer profiles; give one per sensor"), "\(q.stderr)")
        let missing = try ServiceProcess(["--source", "simulated", "--calibration", scratch.file("none.json"), "--socket", scratch.file("z.sock")],
                                         scratch: scratch, name: "missing")
        #expect(missing.waitExit() == 3 && missing.stderr.contains("none.json: cannot read the calibration profile"), "\(missing.stderr)")
    }
}
