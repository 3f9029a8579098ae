import Foundation
import LodestoneTestSupport
import Testing
@testable import LodestoneService

/// The gpsd installed here, and whether it decodes `$--XDR` (gpsd 3.25 added PTCH/PITCH and
/// ROLL to its ATT reports, NEWS 3.25; Debian 12 ships 3.22).
enum GPSDVersion {
    static let number: (major: Int, minor: Int)? = {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/sbin/gpsd")
        p.arguments = ["-V"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        guard (try? p.run()) != nil else { return nil }
        p.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // "gpsd: 3.22 (revision 3.22)"
        guard let word = text.split(separator: " ").dropFirst().first else { return nil }
        let parts = word.split(separator: ".").compactMap { Int($0) }
        return parts.count >= 2 ? (parts[0], parts[1]) : nil
    }()

    static var decodesXDR: Bool { number.map { $0.major > 3 || ($0.major == 3 && $0.minor >= 25) } ?? false }
    static var text: String { number.map { "\($0.major).\($0.minor)" } ?? "unknown" }
}

/// Our HDT and XDR sentences, served over TCP on the loopback of a private network
/// namespace, read by a real gpsd; gpspipe shows what gpsd made of them.
@Suite(.serialized, .enabled(if: GPSDTools.problem == nil || SharedData.isInCI, "skipped: \(GPSDTools.problem ?? "")"))
struct NMEAXDRGpsdTests {
    static let pitch = 12.34, roll = -4.46, trueHeading = 34.5

    /// Runs gpsd on our sentences for a few seconds; returns its ATT reports.
    func gpsdReports() throws -> [[String: Any]] {
        try #require(GPSDTools.problem == nil, "gpsd integration cannot run: \(GPSDTools.problem ?? "")")
        let scratch = ScratchDirectory()
        var bytes: [UInt8] = []
        let encoder = NMEAEncoder()
        encoder.append(magneticHeading: Self.trueHeading - 4, trueHeading: Self.trueHeading, variation: 4, to: &bytes)
        encoder.appendAttitude(pitch: Self.pitch, roll: Self.roll, to: &bytes)
        scratch.write("group.nmea", String(decoding: bytes, as: UTF8.self))
        let serve = """
            import socket, time
            data = open("group.nmea", "rb").read()
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", 10110)); s.listen(1)
            open("listening", "w").close()
            c, _ = s.accept()
            for _ in range(600):
                c.sendall(data); time.sleep(0.05)
            """
        scratch.write("serve.py", serve)
        // Waits for each step instead of sleeping: the machine may be busy. SIGKILL for
        // timeouts: children of the test inherit its blocked SIGTERM.
        let script = """
            set -u
            cd '\(scratch.path)'
            ip link set lo up
            python3 serve.py &
            for i in $(seq 100); do [ -e listening ] && break; sleep 0.1; done
            gpsd -N -n -S 29471 tcp://127.0.0.1:10110 > gpsd.log 2>&1 &
            for i in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/29471) 2>/dev/null && break; sleep 0.1; done
            timeout -s KILL 20 gpspipe -w 127.0.0.1:29471 2> gpspipe.err | grep --line-buffered -m 5 '"class":"ATT"' > gpspipe.json
            """
        let run = try ServiceProcess([], scratch: scratch, wrapper: ["unshare", "--net", "--pid", "--fork", "--kill-child", "bash", "-c", script],
                                     name: "namespace")
        #expect(run.waitExit(timeout: 40) != nil, "the namespace script did not finish: \(run.stderr)")
        let reports = scratch.read("gpspipe.json").split(whereSeparator: \.isNewline).compactMap { ProtocolClient.object(String($0)) }
            .filter { $0.className == "ATT" }
        #expect(!reports.isEmpty, "gpsd reported no ATT: \(scratch.read("gpsd.log")) \(scratch.read("gpspipe.err"))")
        return reports
    }

    /// With XDR among them, gpsd still reads our true heading (on 3.22, which ignores XDR, too).
    @Test func gpsdStillReadsTheHeadingBesideXDR() throws {
        for report in try gpsdReports() {
            #expect(abs((report.double("heading") ?? .nan) - Self.trueHeading) < 0.051, "\(report)")
        }
    }

    @Test(.enabled(if: GPSDVersion.decodesXDR, "skipped: gpsd \(GPSDVersion.text) does not decode XDR (gpsd 3.25 added it)"))
    func gpsdReadsPitchAndRollFromXDR() throws {
        let withAttitude = try gpsdReports().filter { $0["pitch"] != nil }
        #expect(!withAttitude.isEmpty, "no ATT with pitch")
        for report in withAttitude {
            #expect(abs((report.double("pitch") ?? .nan) - 12.3) < 0.051, "\(report)")
            #expect(abs((report.double("roll") ?? .nan) - -4.5) < 0.051, "\(report)")
        }
    }
}
