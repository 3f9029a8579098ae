#if canImport(Glibc)
import Glibc
#endif
import LodestoneCore
import Testing
import Lodestone
import LodestoneLogs
import LodestoneGeomagnetism
import LodestoneSimulation

/// A source that fails transiently a few times, then works.
struct FlakySource: SensorSource {
    struct Fault: SensorSourceError {
        var isTransient: Bool { true }
        var description: String { "simulated EIO" }
    }
    var inner: SyntheticRecording
    var failuresLeft: Int

    mutating func nextSample() throws -> SensorSample? {
        if failuresLeft > 0 {
            failuresLeft -= 1
            throw Fault()
        }
        return inner.nextSample()
    }
}


/// A level board spinning at 10 °/s without end: 300 samples at once, so that the reader
/// runs well ahead of its consumer, then one every 10 ms. It never ends, however long a
/// loaded machine keeps a test's task from running (the suite's tasks have waited 14 minutes
/// under the address sanitizer), and it does not keep a core busy meanwhile.
struct EndlessSpin: SensorSource {
    var index = 0

    mutating func nextSample() -> SensorSample? {
        index += 1
        if index > 300 { usleep(10_000) }
        let t = Double(index) / 100
        let heading = 10 * t * Angle.radiansPerDegree
        // The earth's field, 20 µT north and 45 µT down, on a level board turned clockwise by `heading`.
        return SensorSample(time: t, acceleration: Vector3(0, 0, 9.81),
                            magneticField: Vector3(-20 * sin(heading), 20 * cos(heading), -45),
                            angularRate: Vector3(0, 0, -10 * Angle.radiansPerDegree))
    }
}

@Suite struct HeadingManagerTests {
    @Test func streamsFilteredHeadingsFromAReplay() async {
        let recording = SyntheticRecording(profile: .spin(rate: 30, duration: 12), rate: 50, errors: .typical)
        let manager = HeadingManager(source: recording)
        manager.headingFilter = 15
        var headings: [Heading] = []
        for await h in manager.headings() { headings.append(h) }
        // 360° of turning in 15° steps (plus the first).
        #expect(headings.count >= 23 && headings.count <= 26, "\(headings.count)")
        for (a, b) in zip(headings, headings.dropFirst()) {
            #expect(abs(Angle.difference(from: a.magneticHeading, to: b.magneticHeading)) >= 15)
        }
        #expect(manager.heading == headings.last)
    }

    @Test func aFixedPositionFillsTrueHeadingFromTheModel() async throws {
        let recording = SyntheticRecording(profile: MotionProfile([.hold(BoardAttitude(heading: 350), duration: 1)]))
        let manager = HeadingManager(source: recording)
        manager.position = .fixed(latitude: 52.5, longitude: 13.4, height: 0)
        manager.settings.trueNorth.modelDate = DecimalYear.unixTime(fromDecimalYear: 2026.5)
        var first: Heading?
        for await h in manager.headings() where first == nil { first = h }
        let declination = try GeomagneticModel.wmm2025.elements(latitude: 52.5, longitude: 13.4, height: 0, decimalYear: 2026.5).declination
        let h = try #require(first)
        #expect(abs(Angle.difference(from: h.magneticHeading + declination, to: h.trueHeading ?? .nan)) < 1e-9)
        #expect(h.reportedDeclination.map { abs($0 - declination) < 1e-9 } == true)
    }

    @Test func transientFaultsAreReportedOnceAndResumed() async {
        let source = FlakySource(inner: SyntheticRecording(profile: MotionProfile([.hold(BoardAttitude(heading: 5), duration: 1)])),
                                 failuresLeft: 2)
        let manager = HeadingManager(source: source)
        let events = manager.events()
        var count = 0
        for await _ in manager.headings() { count += 1 }
        #expect(count >= 1)
        var seen: [String] = []
        for await e in events { seen.append("\(e.name.rawValue) \(e.reason.rawValue)") }
        #expect(seen == ["sourceFault ioError", "sourceResumed recovered", "calibrationNeeded neverCalibrated", "sourceEnded endOfLog"])
    }

    /// Runs `manager` to the end of its source with a delegate; returns the delegate and
    /// how many headings were streamed.
    func runWithDelegate(_ manager: HeadingManager) async -> (delegate: Recorder, streamed: Int) {
        let delegate = Recorder()
        manager.delegate = delegate
        let events = manager.events()
        var streamed = 0
        for await _ in manager.headings() { streamed += 1 }
        for await _ in events {}
        return (delegate, streamed)
    }

    @Test func theDelegateGetsHeadingsAndEvents() async {
        let manager = HeadingManager(source: SyntheticRecording(profile: MotionProfile([.hold(BoardAttitude(heading: 5), duration: 1)])))
        let (delegate, streamed) = await runWithDelegate(manager)
        #expect(delegate.headings == streamed && streamed > 0)
        #expect(delegate.events.contains("calibrationNeeded neverCalibrated"))
        #expect(delegate.events.last == "sourceEnded endOfLog")
    }

    /// A board left upright: the delegate hears why the top edge has no heading, and
    /// not when the heading is of the back.
    @Test func theDelegateHearsThatTheForwardAxisIsVertical() async {
        let upright = SyntheticRecording(profile: MotionProfile([.hold(BoardAttitude(heading: 5, pitch: 90), duration: 3)]))
        let top = await runWithDelegate(HeadingManager(source: upright)).delegate
        #expect(top.events.contains("headingUnavailable forwardAxisVertical"), "\(top.events)")
        let manager = HeadingManager(source: upright)
        manager.headingOrientation = .minusZ
        let back = await runWithDelegate(manager).delegate
        #expect(!back.events.contains { $0.hasPrefix("headingUnavailable") }, "\(back.events)")
    }

    @Test func badLogEndsWithTheError() async throws {
        let path = "/tmp/lodestone-manager-\(UInt64.random(in: 0...UInt64.max)).csv"
        let text = "time,accel_x,accel_y,accel_z,mag_x,mag_y,mag_z\n0,0,0,9.81,20,0,-40\n1,oops,0,9.81,20,0,-40\n"
        #expect(text.withCString { p in
            guard let f = fopen(path, "w") else { return false }
            fputs(p, f)
            fclose(f)
            return true
        })
        defer { unlink(path) }
        let manager = HeadingManager(.log(path: path))
        #expect(manager.headingAvailable)
        let events = manager.events()
        for await _ in manager.headings() {}
        var last: HeadingEvent?
        for await e in events { last = e }
        #expect(last?.name == .sourceFailed)
        #expect(last?.detail == "\(path):3: column accel_x: 'oops' is not a number")
        #expect(!HeadingManager(.log(path: path + ".missing")).headingAvailable)
    }

    /// The simulated board, paced in real time: true heading from a fixed position and
    /// advice toward a target, until the caller stops.
    @Test func theSimulatedBoardGivesTrueHeadingAndSteering() async throws {
        let manager = HeadingManager(.simulated(rate: 50))
        manager.position = .fixed(latitude: 52.5, longitude: 13.4, height: 0)
        manager.steeringTarget = try GeoCoordinate(latitude: 52.6, longitude: 13.4)
        manager.headingFilter = 0
        var headings: [Heading] = [], steering: [SteeringAdvice] = []
        for await update in manager.updates() {
            headings.append(update.heading)
            if let advice = update.advice { steering.append(advice) }
            if headings.count == 25 { manager.stopUpdatingHeading() }
        }
        #expect(headings.count == 25 && headings.allSatisfy { $0.trueHeading != nil })
        let first = try #require(steering.first)
        #expect(abs(first.bearing) < 1e-6 || abs(first.bearing - 360) < 1e-6, "due north: \(first.bearing)")
        #expect(abs(first.distance - 11_131) < 20, "0.1° of latitude at 52.5° N: \(first.distance)")
        #expect(first.turn != nil && first.delta != nil)
        #expect(steering.count >= 20, "advice with the headings: \(steering.count) for \(headings.count)")
        let elapsed = (headings.last?.timestamp ?? 0) - (headings.first?.timestamp ?? 0)
        #expect(elapsed >= 0.4, "real time: 25 samples at 50 Hz")
    }

    /// Core Location delivers nothing after stopUpdatingHeading: a stream ends at once, even
    /// when the reader (here unpaced, far ahead of its consumer) had made more headings.
    @Test func nothingIsDeliveredAfterAStop() async {
        let manager = HeadingManager(source: EndlessSpin())
        manager.headingFilter = 0
        let updates = manager.updates()
        var headings = 0
        for await _ in manager.headings() {
            headings += 1
            if headings == 40 { manager.stopUpdatingHeading() }
        }
        var late = 0
        for await _ in updates { late += 1 }
        #expect(headings == 40)
        #expect(late == 0, "a stream handed out before the stop ends there too: \(late)")
    }

    /// A start just after a stop, while the stopped reader still lets go of the source,
    /// starts again for the new streams instead of ending them with the old reader.
    @Test func aStartJustAfterAStopStartsAgain() async {
        let manager = HeadingManager(source: EndlessSpin())
        manager.headingFilter = 0
        var first = 0
        for await _ in manager.headings() {
            first += 1
            if first == 10 { manager.stopUpdatingHeading() }
        }
        var second: [Heading] = []
        for await h in manager.headings() {
            second.append(h)
            if second.count == 10 { manager.stopUpdatingHeading() }
        }
        #expect(first == 10)
        #expect(second.count == 10)
    }

    /// A headingFilter set while running applies from the next sample: the source itself sets
    /// it half-way, on the reading thread, so that the test does not depend on timing.
    @Test func settingsChangeWhileRunning() async {
        final class Later: @unchecked Sendable {
            var manager: HeadingManager?
        }
        struct Switching: SensorSource {
            var inner = SyntheticRecording(profile: .spin(rate: 30, duration: 10), rate: 50, errors: .typical)
            let later: Later
            var count = 0
            mutating func nextSample() -> SensorSample? {
                count += 1
                if count == 250 { later.manager?.headingFilter = 20 }
                return inner.nextSample()
            }
        }
        let later = Later()
        let manager = HeadingManager(source: Switching(later: later))
        later.manager = manager
        manager.headingFilter = 0
        var headings: [Heading] = []
        for await h in manager.headings() { headings.append(h) }
        let after = headings.filter { $0.timestamp > 250 / 50.0 }
        #expect(headings.count - after.count >= 240, "every sample before the change: \(headings.count - after.count)")
        #expect((6...10).contains(after.count), "150° in 20° steps: \(after.count)")
        for (a, b) in zip(after, after.dropFirst()) {
            #expect(abs(Angle.difference(from: a.magneticHeading, to: b.magneticHeading)) >= 20 - 1e-6)
        }
    }
}

/// Collects delegate calls from the manager's thread.
final class Recorder: HeadingManagerDelegate {
    private let state = Locked<(headings: Int, events: [String])>((0, []))
    var headings: Int { state.withLock { $0.headings } }
    var events: [String] { state.withLock { $0.events } }

    func headingManager(_ manager: HeadingManager, didUpdate heading: Heading) {
        state.withLock { $0.headings += 1 }
    }

    func headingManager(_ manager: HeadingManager, didReceive event: HeadingEvent) {
        state.withLock { $0.events.append("\(event.name.rawValue) \(event.reason.rawValue)") }
    }
}
