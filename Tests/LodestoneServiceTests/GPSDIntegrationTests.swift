import Foundation
import LodestoneGeomagnetism
import LodestoneTestSupport
import Testing

/// What the gpsd integration test needs: root for a private network namespace, and
/// Debian's gpsd and gpsd-clients (gpsfake, gpspipe).
enum GPSDTools {
    static let problem: String? = {
        if let p = Lodestone.networkNamespaceProblem { return p }
        let missing = ["gpsd", "gpsfake", "gpspipe", "bash", "timeout", "setpriv"].filter { !Lodestone.available($0) }
        return missing.isEmpty ? nil : "missing \(missing.joined(separator: ", ")) (apt-get install gpsd gpsd-clients)"
    }()

    /// Shell lines that start gpsfake on `log` in `directory` with gpsd on 127.0.0.1:29470;
    /// `$GPSFAKE` is then its process group. gpsfake 3.22 adds its pty to gpsd through gpsd's
    /// control socket as soon as the socket file exists, which can be too early, and gpsd
    /// started as root drops its privileges and then cannot open root's pty. So gpsfake runs
    /// as nobody (its gpsd then keeps the same user) and is restarted until gpsd lists the
    /// device (each attempt given 5 s: gpsfake is a Python program, slow to start on a busy
    /// machine). Needs a world-writable `gpsfake-tmp` in `directory`.
    static func startGpsfake(directory: String, log: String, options: String) -> String {
        """
        set -m
        for attempt in 1 2 3 4 5 6 7 8 9 10; do
            TMPDIR='\(directory)/gpsfake-tmp' setpriv --reuid=65534 --regid=65534 --clear-groups \\
                gpsfake -q -n \(options) -P 29470 \(log) > gpsfake.log 2>&1 &
            GPSFAKE=$!
            if timeout 5 bash -c 'until gpspipe -w -n 2 127.0.0.1:29470 2>/dev/null | grep -q /dev/pts; do sleep 0.05; done'; then
                break
            fi
            echo "attempt $attempt: gpsd got no device from gpsfake" >> gpsfake-retries.log
            kill -9 -$GPSFAKE
            wait $GPSFAKE 2>/dev/null
        done
        """
    }
}

/// gpsfake replays an NMEA track into a real gpsd on the loopback of a private network
/// namespace; `lodestone serve` takes its position from that gpsd, serves a client over
/// its Unix socket and TCP, and writes NMEA 0183 that a second gpsd reads back.
/// Runs in CI (fails there without the tools); skips elsewhere with the reason.
@Suite(.serialized, .enabled(if: GPSDTools.problem == nil || SharedData.isInCI, "skipped: \(GPSDTools.problem ?? "")"))
struct GPSDIntegrationTests {
    let scratch = ScratchDirectory()
    static let latitude = 52.512, longitude = 13.327, heightHAE = 74.0, year = 2026.9
    static let speedKnots = 2.5, course = 45.0
    static let magneticHeading = 30.0

    func nmea(_ body: String) -> String {
        let c = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + "*" + String(format: "%02X", c) + "\r\n"
    }

    /// A fixed position moving nowhere but reporting 2.5 kn on course 45° (RMC), 34 m above
    /// mean sea level with a 40 m geoid separation (GGA): altHAE 74 m.
    func track(fixes: Int) -> String {
        (0..<fixes).map { i in
            let t = String(format: "12%02d%02d.00", i / 60, i % 60)
            return nmea("GPRMC,\(t),A,5230.7200,N,01319.6200,E,2.5,45.0,301126,,,A")
                + nmea("GPGGA,\(t),5230.7200,N,01319.6200,E,1,08,0.9,34.0,M,40.0,M,,")
        }.joined()
    }

    @Test func trueHeadingAndSteeringFromGpsdAndNMEAReadBackByGpsd() throws {
        try #require(GPSDTools.problem == nil, "gpsd integration cannot run: \(GPSDTools.problem ?? "")")
        let dir = scratch.path
        let log = scratch.file("hold.csv")
        TestLogs.spin(log, start: Self.magneticHeading, rate: 0, seconds: 60)
        scratch.write("track.nmea", track(fixes: 20)) // gpsfake repeats it until stopped
        try FileManager.default.createDirectory(atPath: scratch.file("gpsfake-tmp"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o777])
        // A private network and PID namespace: loopback ports cannot clash with anything else, and
        // everything in it dies with the script. gpsd comes up after the service, so the
        // service's first connection is refused and it must reconnect. The test tells the
        // script when to stop gpsfake (the fix then grows old) and the service.
        let script = """
            set -u
            cd '\(dir)'
            ip link set lo up
            '\(Lodestone.executable)' serve --source replay:hold.csv --loop --gpsd 127.0.0.1:29470 --max-fix-age 2 \\
                --socket '\(dir)/s.sock' --listen 127.0.0.1:29480 --nmea 127.0.0.1:10110 --nmea-rate 5 \\
                --year \(Self.year) 2> serve.stderr &
            SERVE=$!
            for i in $(seq 200); do [ -S s.sock ] && break; sleep 0.05; done
            gpsd -N -n -S 29471 tcp://127.0.0.1:10110 > gpsd-nmea.log 2>&1 &
            timeout 6 bash -c 'cat < /dev/tcp/127.0.0.1/10110' > nmea-raw.txt 2>&1 &
            (exec 3<>/dev/tcp/127.0.0.1/29480; printf '?VERSION;\\n' >&3; timeout 1 cat <&3) > tcp.txt 2>&1 &
            sleep 0.5
            gpspipe -w 127.0.0.1:29471 > gpspipe.json 2> gpspipe.err &
            sleep 0.2
            \(GPSDTools.startGpsfake(directory: dir, log: "track.nmea", options: "-c 0.1"))
            while [ ! -e stop-gps ]; do sleep 0.05; done
            kill -9 -$GPSFAKE
            while [ ! -e stop-serve ]; do sleep 0.05; done
            kill -TERM $SERVE
            wait $SERVE
            echo $? > serve.status
            """
        let namespace = try ServiceProcess([], scratch: scratch, wrapper: ["unshare", "--net", "--pid", "--fork", "--kill-child", "bash", "-c", script],
                                           name: "namespace")
        defer {
            scratch.write("stop-gps", "")
            scratch.write("stop-serve", "")
        }
        guard ServiceProcess.waitForSocket(scratch.file("s.sock"), timeout: 15) else {
            Issue.record("the service did not start: \(scratch.read("serve.stderr")) \(namespace.stderr)")
            return
        }
        let client = try ProtocolClient(path: scratch.file("s.sock"))
        client.send(#"?WATCH={"enable":true,"headingFilter":0};"# + "\n")
        let target = (Self.latitude + 0.01, Self.longitude)
        client.send(#"?STEER={"lat":\#(target.0),"lon":\#(target.1)};"# + "\n")

        let elements = try GeomagneticModel.wmm2025.elements(latitude: Self.latitude, longitude: Self.longitude,
                                                              height: Self.heightHAE / 1000, decimalYear: Self.year)
        let declination = elements.declination
        let trueHeading = Self.magneticHeading + declination
        let speed = Self.speedKnots * 1852 / 3600

        // 1. True heading once gpsd has a fix.
        let heading = try #require(client.read(until: { $0.className == "HEADING" && !($0["trueHeading"] is NSNull) }, timeout: 40),
                                   "no true heading: \(scratch.read("serve.stderr")) \(scratch.read("gpsfake-retries.log"))")
        #expect(abs(angleDifference(Self.magneticHeading, heading.double("magneticHeading") ?? .nan)) < 0.01)
        #expect(abs((heading.double("declination") ?? .nan) - declination) < 0.001, "\(heading)")
        #expect(abs(angleDifference(trueHeading, heading.double("trueHeading") ?? .nan)) < 0.01)
        #expect(abs((heading.double("speed") ?? .nan) - speed) < 0.002 && heading.double("course") == Self.course, "\(heading)")

        // 2. STEER objects with the bearing, distance and turn to the target, speed and ETA.
        let steer = try #require(client.read(until: { $0.className == "STEER" && !($0["delta"] is NSNull) }, timeout: 5))
        let a = 6_378_137.0, e2 = 0.00669437999014, phi = (Self.latitude + 0.005) * Double.pi / 180
        let arc = a * (1 - e2) / pow(1 - e2 * sin(phi) * sin(phi), 1.5) * (0.01 * Double.pi / 180)
        #expect(abs(angleDifference(0, steer.double("bearing") ?? .nan)) < 1e-6)
        #expect(abs((steer.double("distance") ?? .nan) - arc) < 0.05, "\(steer)")
        #expect(abs((steer.double("delta") ?? .nan) - angleDifference(trueHeading, 0)) < 0.01)
        #expect(steer.string("turn") == "slightLeft", "\(steer)")
        #expect(abs((steer.double("eta") ?? .nan) - arc / speed) < 1, "\(steer)")

        // 3. gpsfake stops; the fix grows old: trueHeading turns null, with the reason.
        scratch.write("stop-gps", "")
        let stale = try #require(client.read(until: { $0.string("event") == "trueHeadingUnavailable" }, timeout: 20))
        #expect(stale.string("reason") == "fixTooOld", "\(stale)")
        let after = try #require(client.read(class: "HEADING"))
        #expect(after["trueHeading"] is NSNull && after["declination"] is NSNull)

        scratch.write("stop-serve", "")
        let rest = client.readToEnd(timeout: 10)
        #expect(rest.last?.string("event") == "serviceStopping", "\(rest.suffix(2))")
        #expect(namespace.waitExit(timeout: 10) != nil)
        #expect(scratch.read("serve.status").hasPrefix("0"), "serve exit status \(scratch.read("serve.status")): \(scratch.read("serve.stderr"))")
        let serveLog = scratch.read("serve.stderr")
        let refused = serveLog.range(of: "gpsd at 127.0.0.1:29470: Connection refused; retrying")
        let connected = serveLog.range(of: "connected to gpsd at 127.0.0.1:29470")
        #expect(refused != nil && connected != nil && refused!.lowerBound < connected!.lowerBound, "reconnection with back-off: \(serveLog)")
        let retries = scratch.read("gpsfake-retries.log")
        if !retries.isEmpty { print("note: gpsfake needed restarting: \(retries)") }

        // 4. NMEA: every sentence has a valid checksum; HDM, HDT and HDG carry the headings.
        let raw = scratch.read("nmea-raw.txt").split(whereSeparator: \.isNewline).map(String.init)
        #expect(raw.count >= 6, "NMEA output: \(raw)")
        #expect(raw.allSatisfy(nmeaChecksumOK), "\(raw.filter { !nmeaChecksumOK($0) })")
        #expect(raw.contains("$HCHDM,30.0,M*1A"))
        let hdt = raw.filter { $0.hasPrefix("$HCHDT,") }
        #expect(!hdt.isEmpty, "no HDT while the fix was fresh: \(raw)")
        for s in hdt {
            #expect(abs(angleDifference(trueHeading, Double(s.dropFirst(7).prefix { $0 != "," }) ?? .nan)) <= 0.051, "\(s)")
        }
        // XDR after each group: pitch and roll of the flat board.
        #expect(raw.contains { $0.hasPrefix("$HCXDR,A,0.0,D,PTCH,A,0.0,D,ROLL*") }, "no XDR: \(raw)")

        // 5. gpsd parsed our sentences: its ATT reports carry our true heading.
        let att = scratch.read("gpspipe.json").split(whereSeparator: \.isNewline).compactMap { ProtocolClient.object(String($0)) }
            .filter { $0.className == "ATT" }
        #expect(!att.isEmpty, "gpsd reported no ATT from our NMEA: \(scratch.read("gpsd-nmea.log")) \(scratch.read("gpspipe.err"))")
        for o in att {
            #expect(abs(angleDifference(trueHeading, o.double("heading") ?? .nan)) <= 0.051, "\(o)")
        }
        // gpsd 3.25 and later decode XDR's PTCH and ROLL into ATT as well (Debian 12 has 3.22).
        if GPSDVersion.decodesXDR {
            let tilted = att.filter { $0["pitch"] != nil }
            #expect(!tilted.isEmpty && tilted.allSatisfy { $0.double("pitch") == 0 && $0.double("roll") == 0 }, "\(att)")
        }
        print("measured gpsd cross-check: \(att.count) ATT reports from our HDT, heading \(att.first?.double("heading") ?? .nan)° vs \(trueHeading)° expected")

        // 6. The protocol over TCP.
        #expect(scratch.read("tcp.txt").contains(#"{"class":"VERSION""#), "TCP: \(scratch.read("tcp.txt"))")
    }
}
