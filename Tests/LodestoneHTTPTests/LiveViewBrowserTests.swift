import Foundation
import LodestoneHTTP
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

/// The live view in a real browser: headless Chromium loads the page from the server,
/// which replays a simulated board with known truth; the rose must turn with the board,
/// within the accuracy it shows, and the magnet's disturbance must appear in the events.
@Suite(.serialized, .enabled(if: BrowserTools.problem == nil || SharedData.isInCI, "skipped: \(BrowserTools.problem ?? "")"))
struct LiveViewBrowserTests {
    @Test func theRoseFollowsTheBoardWithinItsAccuracyAndTheDisturbanceAppears() throws {
        try #require(BrowserTools.problem == nil, "\(BrowserTools.problem ?? "")")
        let feed = ReplayedBoardFeed()
        var settings = HTTPServerSettings()
        settings.listen.port = 0
        let server = try LiveViewServer(settings: settings, feed: feed)
        feed.attach(server)
        try server.start()
        defer { server.stop() }
        #expect(feed.replays == 0, "nothing is read before someone watches")

        let screenshot = BrowserTools.outputDirectory.appendingPathComponent("live-view.png").path
        var arguments = [BrowserTools.script, "--url", "http://127.0.0.1:\(server.port)/", "--seconds", "14",
                         "--event", "magneticDisturbance", "--screenshot", screenshot]
        if ProcessInfo.processInfo.environment["LODESTONE_UPDATE_DOCS"] == "1" {
            arguments += ["--screenshot", SharedData.packageRoot.appendingPathComponent("docs/live-view.png").path]
        }
        let result = try runBrowser(arguments)
        #expect((result["errors"] as? [String] ?? []).isEmpty, "\(result["errors"] ?? "")")
        #expect((result["console"] as? [String] ?? []).isEmpty, "the page logged errors: \(result["console"] ?? "")")
        #expect(result["event"] as? String != nil, "no disturbance in the event list")
        #expect(FileManager.default.fileExists(atPath: screenshot))

        let samples = result["samples"] as? [[String: Any]] ?? []
        #expect(samples.count >= 20, "\(samples.count) samples")
        var shown: [Double] = []
        for s in samples {
            guard let heading = s["heading"] as? Double, let timestamp = s["timestamp"] as? Double,
                  let accuracy = s["accuracy"] as? Double, let rotation = s["rotation"] as? Double else {
                Issue.record("a sample without a heading: \(s)")
                continue
            }
            let truth = try #require(feed.trueHeadingTruth(at: timestamp), "no truth for \(timestamp)")
            let error = abs(angleDifference(heading, truth))
            #expect(error <= accuracy + 0.01, "shown \(heading)° at \(timestamp) s, truth \(truth)°, accuracy ±\(accuracy)°")
            #expect(abs(angleDifference(-rotation, heading)) < 0.01, "the card is drawn at \(rotation)° for \(heading)°")
            #expect(s["north"] as? String == "true")
            shown.append(heading)
        }
        // The rose turned with the board (20° → 110° → 250° during the samples).
        let bins = Set(shown.map { Int($0 / 10) })
        #expect(bins.count >= 10, "the shown heading covered only \(bins.sorted().map { $0 * 10 })")
        print("measured live view: \(samples.count) samples, worst error \(maxError(samples, feed))° within the shown accuracy; screenshot \(screenshot)")
        #expect(waitUntil { server.viewerCount == 0 }, "the browser's stream closed")
    }

    func runBrowser(_ arguments: [String]) throws -> [String: Any] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BrowserTools.python)
        p.arguments = arguments
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "check-live-view.py failed: \(errors)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "no JSON from the browser: \(errors)")
    }

    func maxError(_ samples: [[String: Any]], _ feed: ReplayedBoardFeed) -> Double {
        samples.compactMap { s -> Double? in
            guard let h = s["heading"] as? Double, let t = s["timestamp"] as? Double, let truth = feed.trueHeadingTruth(at: t) else { return nil }
            return abs(angleDifference(h, truth))
        }.max() ?? .nan
    }

    func angleDifference(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d < -180 { d += 360 }
        return d
    }

}
