import Foundation
import LodestoneCore
import LodestoneGeomagnetism
import LodestoneSimulation
import LodestoneTestSupport
import Testing

/// What the browser test needs: Debian's chromium and chromium-driver, and Selenium in
/// tools/.venv (tools/python-env makes it; tools/test runs that first).
enum BrowserTools {
    static let python = SharedData.packageRoot.appendingPathComponent("tools/.venv/bin/python").path
    static let script = SharedData.packageRoot.appendingPathComponent("tools/browser/check-live-view.py").path

    static let problem: String? = {
        let missing = ["/usr/bin/chromium", "/usr/bin/chromedriver"].filter { !FileManager.default.isExecutableFile(atPath: $0) }
        if !missing.isEmpty { return "missing \(missing.joined(separator: ", ")) (apt-get install chromium chromium-driver)" }
        guard FileManager.default.isExecutableFile(atPath: python) else { return "no tools/.venv (run tools/python-env)" }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = ["-c", "import selenium"]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return "cannot run \(python)" }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? nil : "selenium is not in tools/.venv (run tools/python-env)"
    }()

    /// `.build/test-output`, kept after the run for people to look at.
    static let outputDirectory: URL = {
        let url = SharedData.packageRoot.appendingPathComponent(".build/test-output")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
}

/// `lodestone serve --source simulated --http 127.0.0.1:0` in headless Chromium: the rose
/// turns with the simulated board (the heading shown stays within the accuracy shown of
/// the board's truth at the same sample time), pitch follows, and when a reload gives the
/// service a position the `trueHeadingAvailable` event appears and the rose turns to true north.
@Suite(.serialized, .enabled(if: BrowserTools.problem == nil || SharedData.isInCI, "skipped: \(BrowserTools.problem ?? "")"))
struct ServeLiveViewBrowserTests {
    static let latitude = 47.6, longitude = -122.3, year = 2026.5

    @Test func theRoseFollowsTheBoardAndTheEventAppears() throws {
        try #require(BrowserTools.problem == nil, "\(BrowserTools.problem ?? "")")
        let scratch = ScratchDirectory()
        let config = scratch.write("c.json", "{}")
        let socket = scratch.file("s.sock")
        let service = try ServiceProcess(["--config", config, "--source", "simulated", "--socket", socket, "--http", "127.0.0.1:0",
                                          "--year", "\(Self.year)", "-v"], scratch: scratch)
        defer { service.signal(SIGTERM) }
        try #require(ServiceProcess.waitForSocket(socket), "serve did not start: \(service.stderr)")
        // The live view starts after the socket listens: its port is in the log a moment later.
        #expect(waitUntil { ServeLiveViewBrowserTests.port(in: service.stderr) != nil })
        let port = try #require(Self.port(in: service.stderr), "no port in the log: \(service.stderr)")
        #expect(!service.stderr.contains("sensors claimed"), "nothing is read before someone watches")

        let screenshot = BrowserTools.outputDirectory.appendingPathComponent("live-view.png").path
        var arguments = [BrowserTools.script, "--url", "http://127.0.0.1:\(port)/", "--seconds", "14",
                         "--event", "trueHeadingAvailable", "--screenshot", screenshot]
        if ProcessInfo.processInfo.environment["LODESTONE_UPDATE_DOCS"] == "1" {
            arguments += ["--screenshot", SharedData.packageRoot.appendingPathComponent("docs/live-view.png").path]
        }
        let browser = try BrowserRun(arguments)
        // Once the page watches, a reload gives the service a position.
        #expect(waitUntil(30) { service.stderr.contains("sensors claimed") }, "the page never opened its stream: \(service.stderr)")
        Thread.sleep(forTimeInterval: 6)
        scratch.write("c.json", #"{"position":{"lat":\#(Self.latitude),"lon":\#(Self.longitude)}}"#)
        service.signal(SIGHUP)
        let result = try browser.result()

        #expect((result["errors"] as? [String] ?? []).isEmpty, "\(result["errors"] ?? "")")
        #expect((result["console"] as? [String] ?? []).isEmpty, "the page logged errors: \(result["console"] ?? "")")
        #expect(result["event"] as? String != nil, "no trueHeadingAvailable in the event list")
        #expect(FileManager.default.fileExists(atPath: screenshot))
        let declination = try GeomagneticModel.wmm2025.elements(latitude: Self.latitude, longitude: Self.longitude, height: 0,
                                                                 decimalYear: Self.year).declination
        let samples = result["samples"] as? [[String: Any]] ?? []
        #expect(samples.count >= 20, "\(samples.count) samples")
        var worst = 0.0, norths: [String] = []
        for s in samples {
            guard let heading = s["heading"] as? Double, let t = s["timestamp"] as? Double,
                  let accuracy = s["accuracy"] as? Double, let rotation = s["rotation"] as? Double, let north = s["north"] as? String else {
                Issue.record("a sample without a heading: \(s)")
                continue
            }
            let attitude = MotionProfile.demo.attitude(at: t)
            let truth = attitude.heading(of: .unitY) + (north == "true" ? declination : 0)
            let error = abs(angleDifference(heading, truth))
            worst = max(worst, error)
            #expect(error <= accuracy + 0.05, "shown \(heading)° (\(north)) at \(t) s, truth \(truth)°, accuracy ±\(accuracy)°")
            #expect(abs(angleDifference(-rotation, heading)) < 0.01, "the card is drawn at \(rotation)° for \(heading)°")
            // Pitch, worked out here: the forward axis's elevation.
            let pitch = asin(max(-1, min(1, attitude.rotate(.unitY).z))) * 180 / .pi
            let shownPitch = Double((s["pitch"] as? String ?? "").filter { "+-.0123456789".contains($0) }) ?? .nan
            #expect(abs(shownPitch - pitch) < 3, "pitch shown \(s["pitch"] ?? "-") at \(t) s, truth \(pitch)°")
            if norths.last != north { norths.append(north) }
        }
        #expect(norths == ["magnetic", "true"], "magnetic until the position came, then true: \(norths)")
        let bins = Set(samples.compactMap { $0["heading"] as? Double }.map { Int($0 / 10) })
        #expect(bins.count >= 6, "the shown heading covered only \(bins.sorted().map { $0 * 10 })")
        print("measured live view: \(samples.count) samples, worst error \(worst)° (within the shown accuracy); screenshot \(screenshot)")
    }

    /// The port from serve's "live view on http://127.0.0.1:PORT/".
    static func port(in log: String) -> Int? {
        guard let r = log.range(of: "live view on http://127.0.0.1:") else { return nil }
        return Int(log[r.upperBound...].prefix { $0.isNumber })
    }
}

/// tools/browser/check-live-view.py, running while the test acts on the service.
/// (@unchecked: `output` and `errors` are written by one reader each, read after both finished.)
final class BrowserRun: @unchecked Sendable {
    private let process = Process()
    private let out = Pipe(), err = Pipe()
    private var output = Data(), errors = Data()
    private let readers = DispatchGroup()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: BrowserTools.python)
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        readers.enter()
        DispatchQueue.global().async { [self] in
            output = out.fileHandleForReading.readDataToEndOfFile()
            readers.leave()
        }
        readers.enter()
        DispatchQueue.global().async { [self] in
            errors = err.fileHandleForReading.readDataToEndOfFile()
            readers.leave()
        }
    }

    /// Waits for the script; its JSON report.
    func result() throws -> [String: Any] {
        readers.wait()
        process.waitUntilExit()
        let text = String(decoding: errors, as: UTF8.self)
        try #require(process.terminationStatus == 0, "check-live-view.py failed: \(text)")
        return try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any], "no JSON from the browser: \(text)")
    }
}
