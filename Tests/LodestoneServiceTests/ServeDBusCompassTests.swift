import Foundation
import LodestoneTestSupport
import Testing

/// `lodestone serve --dbus-address` on a private dbus-daemon with the installed policy:
/// the compass is read only while a GDBus client (GeoClue's library) claims it, its
/// headings change with the simulated board and are true headings, and the release stops
/// the sensors. Runs as root in CI (fails there without the tools); skips elsewhere.
@Suite(.serialized, .enabled(if: DBusTools.problem == nil || SharedData.isInCI, "skipped: \(DBusTools.problem ?? "")"))
struct ServeDBusCompassTests {
    /// Seattle: declination about 15° east, so a magnetic heading would be far off.
    static let latitude = 47.6, longitude = -122.3

    @Test func claimReadsChangingTrueHeadingsAndReleaseStopsTheSensors() throws {
        try #require(DBusTools.problem == nil, "\(DBusTools.problem ?? "")")
        let bus = try PrivateBus(.systemLike(including: PrivateBus.lodestonePolicyForThisUser))
        let scratch = ScratchDirectory()
        let socket = scratch.file("s.sock")
        let service = try ServiceProcess(["--source", "simulated", "--socket", socket, "--dbus-address", bus.address, "-v",
                                          "--lat", "\(Self.latitude)", "--lon", "\(Self.longitude)"], scratch: scratch)
        try #require(ServiceProcess.waitForSocket(socket), "serve did not start: \(service.stderr)")
        let property = { (name: String) in
            Command.run(["busctl", "--address=\(bus.address)", "get-property", "net.hadess.SensorProxy",
                         "/net/hadess/SensorProxy/Compass", "net.hadess.SensorProxy.Compass", name]).stdout
        }
        #expect(waitUntil { property("HasCompass") == "b true\n" }, "\(service.stderr) \(bus.log)")
        #expect(property("CompassHeading") == "d -1\n", "unknown while nobody claims")
        #expect(!service.stderr.contains("sensors claimed"), "read before any claim: \(service.stderr)")

        let client = try CompassWatcher(address: bus.address)
        #expect(client.perform("claim", method: "ClaimCompass")?["event"] as? String == "ClaimCompass")
        #expect(waitUntil { service.stderr.contains("sensors claimed") }, "\(service.stderr)")
        // The sensors start with the claim, and the demo motion opens with a 5 s hold in
        // which only noise moves the heading: wait through it for the turns that follow.
        var headings: [Double] = []
        let deadline = Deadline(40)
        while headings.count < 20, !deadline.hasPassed,
              let line = client.next(timeout: deadline.remaining, where: { $0["CompassHeading"] != nil }) {
            headings.append(line["CompassHeading"] as? Double ?? .nan)
        }
        #expect(headings.count == 20 && headings.allSatisfy { (0..<360).contains($0) }, "\(headings) \(client.all)")
        #expect(Set(headings.map { Int($0) }).count >= 5, "the heading changes with the board: \(headings)")

        // True north: the compass agrees with the protocol's trueHeading of the same moment.
        let watcher = try ProtocolClient(path: socket)
        watcher.send(#"?WATCH={"enable":true,"headingFilter":0};"# + "\n")
        _ = watcher.read(class: "HEADING")
        client.send("get CompassHeading")
        let value = try #require(client.next(where: { $0["event"] as? String == "value" })?["CompassHeading"] as? Double)
        let around = TestLogs.headings(watcher.collect(for: 0.3)).compactMap { $0.double("trueHeading") }
        let nearest = around.map { abs(angleDifference($0, value)) }.min() ?? .infinity
        #expect(nearest < 4, "CompassHeading \(value)° vs trueHeading \(around)")
        watcher.close()

        #expect(client.perform("release", method: "ReleaseCompass")?["event"] as? String == "ReleaseCompass")
        #expect(waitUntil { service.stderr.components(separatedBy: "sensors released").count >= 3 },
                "the release stops the sensors: \(service.stderr)")
        #expect(property("CompassHeading") == "d -1\n")
        service.signal(SIGTERM)
        #expect(service.waitExit() == 0, "\(service.stderr)")
        print("measured D-Bus compass from serve: \(headings.count) headings, \(Set(headings.map { Int($0) }).count) distinct degrees; CompassHeading \(value)° vs trueHeading within \(nearest)°")
    }
}
