import Foundation
import LodestoneGeomagnetism
import LodestoneSimulation
import LodestoneTestSupport
import Testing

/// gpsd's own clients against `lodestone serve`, unchanged, on gpsd's port 2947 in a
/// private network namespace: `gpspipe -w` and `gpspipe -r`, Python's `gps` module
/// (Debian's python3-gps) and `cgps`, all with their defaults (localhost:2947). They read
/// heading and attitude of a board held still at a known attitude from a replayed log.
/// Runs in CI (fails there without the tools); skips elsewhere with the reason.
@Suite(.serialized, .enabled(if: GPSDClientTools.problem == nil || SharedData.isInCI, "skipped: \(GPSDClientTools.problem ?? "")"))
struct ServeGPSDClientsTests {
    static let attitude = BoardAttitude(heading: 30, pitch: 12, roll: -5)
    static let latitude = 52.512, longitude = 13.327, year = 2026.5

    /// Python's gps module as its documentation shows it: iterate over the session's reports.
    static let pythonClient = """
        import json, gps
        session = gps.gps(mode=gps.WATCH_ENABLE)
        reports = []
        for report in session:
            reports.append(None if report is None else report.__dict__)
            if sum(1 for r in reports if r and r.get("class") == "ATT") >= 3:
                break
        print(json.dumps(reports))
        """

    @Test func gpspipePythonGpsAndCgpsReadHeadingAndAttitude() throws {
        try #require(GPSDClientTools.problem == nil, "\(GPSDClientTools.problem ?? "")")
        let scratch = ScratchDirectory()
        TestLogs.held(scratch.file("held.csv"), Self.attitude, seconds: 30)
        scratch.write("client.py", Self.pythonClient)
        let script = """
            set -u
            cd '\(scratch.path)'
            ip link set lo up
            '\(Lodestone.executable)' serve --source replay:held.csv --loop --speed 1 --socket '\(scratch.path)/s.sock' \\
                --listen localhost:2947 --lat \(Self.latitude) --lon \(Self.longitude) --year \(Self.year) 2> serve.stderr &
            SERVE=$!
            for i in $(seq 200); do (exec 3<>/dev/tcp/127.0.0.1/2947) 2>/dev/null && break; sleep 0.05; done
            timeout -s KILL 10 gpspipe -w -n 8 > gpspipe-w.json 2> gpspipe-w.err
            timeout -s KILL 10 gpspipe -r -n 12 > gpspipe-r.txt 2> gpspipe-r.err
            timeout -s KILL 10 /usr/bin/python3 client.py > python.json 2> python.err
            TERM=xterm timeout -s INT 4 script -qfc cgps cgps.out < /dev/null > /dev/null 2>&1
            echo $? > cgps.status
            kill -TERM $SERVE
            wait $SERVE
            echo $? > serve.status
            """
        let run = try ServiceProcess([], scratch: scratch, wrapper: ["unshare", "--net", "--pid", "--fork", "--kill-child", "bash", "-c", script],
                                     name: "namespace")
        #expect(run.waitExit(timeout: 60) != nil, "the namespace script did not finish: \(run.stderr)")
        #expect(scratch.read("serve.status").hasPrefix("0"), "serve: \(scratch.read("serve.stderr"))")
        let declination = try GeomagneticModel.wmm2025.elements(latitude: Self.latitude, longitude: Self.longitude, height: 0,
                                                                 decimalYear: Self.year).declination

        // gpspipe -w: gpsd's VERSION, DEVICES and WATCH, then ATT objects.
        let w = lines(scratch.read("gpspipe-w.json"))
        #expect(w.count == 8, "gpspipe -w: \(w) \(scratch.read("gpspipe-w.err"))")
        let objects = w.compactMap(ProtocolClient.object)
        #expect(objects.map { $0.className ?? "?" } == ["VERSION", "DEVICES", "WATCH", "ATT", "ATT", "ATT", "ATT", "ATT"])
        let version = try #require(objects.first)
        #expect(version.double("proto_major") == 3 && version.double("proto_minor") == 14 && version.string("release") != nil)
        #expect(objects.dropFirst(2).first?["json"] as? Bool == true)
        for att in objects.filter({ $0.className == "ATT" }) { checkATT(att, declination: declination) }
        #expect(!w.joined().contains("null"), "gpsd never sends null")

        // gpspipe -r: the NMEA 0183 sentences of the same heading.
        let nmea = lines(scratch.read("gpspipe-r.txt")).filter { $0.hasPrefix("$") }
        #expect(nmea.count >= 8, "gpspipe -r: \(nmea) \(scratch.read("gpspipe-r.err"))")
        #expect(nmea.allSatisfy(nmeaChecksumOK), "\(nmea)")
        #expect(nmea.contains { $0.hasPrefix("$HCHDM,30.0,M*") } && nmea.contains { $0.hasPrefix("$HCXDR,A,12.0,D,PTCH,A,-5.0,D,ROLL*") }, "\(nmea)")

        // Python's gps module: every report is a dictionary, the first the VERSION.
        let data = Data(scratch.read("python.json").utf8)
        let reports = try #require(try? JSONSerialization.jsonObject(with: data) as? [Any], "python: \(scratch.read("python.err"))")
        let dictionaries = reports.compactMap { $0 as? [String: Any] }
        #expect(dictionaries.count == reports.count, "a report the module did not read: \(reports)")
        #expect(dictionaries.first?.className == "VERSION")
        let pythonATT = dictionaries.filter { $0.className == "ATT" }
        #expect(pythonATT.count == 3)
        for att in pythonATT { checkATT(att, declination: declination) }

        // cgps: still running when stopped (it quits on a report its library cannot read), and
        // showing ATT in its JSON window (curses redraws only what changed: look for ATT's keys).
        #expect(scratch.read("cgps.status").hasPrefix("124"), "cgps ended by itself: \(scratch.read("cgps.out").suffix(400))")
        #expect(scratch.read("cgps.out").contains("acc_"), "\(scratch.read("cgps.out").suffix(400))")
        print("measured gpsd clients: ATT \(objects.last.map { "heading \($0["heading"] ?? "-"), pitch \($0["pitch"] ?? "-"), roll \($0["roll"] ?? "-")" } ?? "none")")
    }

    func checkATT(_ att: [String: Any], declination: Double) {
        let a = Self.attitude
        #expect(abs(angleDifference(a.heading, att.double("mheading") ?? .nan)) < 0.05, "\(att)")
        #expect(abs(angleDifference(a.heading + declination, att.double("heading") ?? .nan)) < 0.05, "\(att)")
        #expect(att.double("yaw") == att.double("mheading"))
        #expect(abs((att.double("pitch") ?? .nan) - a.pitch) < 0.02 && abs((att.double("roll") ?? .nan) - a.roll) < 0.02, "\(att)")
        #expect(abs((att.double("dip") ?? .nan) - atan2(40, 20) * 180 / .pi) < 0.02, "\(att)")
        #expect(abs((att.double("mag_len") ?? .nan) - TestLogs.heldField.length) < 0.005, "\(att)")
        #expect(abs((att.double("acc_len") ?? .nan) - 9.81) < 0.001, "\(att)")
        #expect(att["gyro_x"] == nil, "the log has no gyroscope")
        #expect(att.string("device")?.hasSuffix("held.csv") == true && att.string("time")?.hasSuffix("Z") == true, "\(att)")
        #expect(["N", "C", "L", "P"].contains(att.string("mag_st") ?? ""), "\(att)")
    }

    func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// gpsd's clients: gpspipe and cgps (gpsd-clients), Python's gps module (python3-gps), script (util-linux).
enum GPSDClientTools {
    static let problem: String? = {
        if let p = Lodestone.networkNamespaceProblem { return p }
        let missing = ["gpspipe", "cgps", "script", "bash", "timeout"].filter { !Lodestone.available($0) }
        if !missing.isEmpty { return "missing \(missing.joined(separator: ", ")) (apt-get install gpsd-clients util-linux)" }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import gps"]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return "no /usr/bin/python3" }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? nil : "Debian's python3 has no gps module (apt-get install python3-gps)"
    }()
}
