#if canImport(Glibc)
import Glibc
#endif
import Testing
import Synchronization
import Lodestone
import LodestoneLogs
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

/// Collects handler calls from the manager's thread.
final class Prompts: Sendable {
    private let reasons = Mutex<[String]>([])
    func add(_ r: String) { reasons.withLock { $0.append(r) } }
    var all: [String] { reasons.withLock { $0 } }
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

    @Test func declinationFillsTrueHeading() async {
        let recording = SyntheticRecording(profile: MotionProfile([.hold(BoardAttitude(heading: 350), duration: 1)]))
        let manager = HeadingManager(source: recording)
        manager.declination = Declination(degrees: 20)
        var first: Heading?
        for await h in manager.headings() {
            if first == nil { first = h }
        }
        #expect(first?.trueHeading.map { abs($0 - 10) < 0.01 } == true)
    }

    @Test func transientFaultsAreReportedAndResumed() async {
        let source = FlakySource(inner: SyntheticRecording(profile: MotionProfile([.hold(BoardAttitude(heading: 5), duration: 1)])),
                                 failuresLeft: 2)
        let manager = HeadingManager(source: source)
        let events = manager.events()
        var count = 0
        for await _ in manager.headings() { count += 1 }
        #expect(count >= 1)
        var seen: [HeadingEvent] = []
        for await e in events { seen.append(e) }
        #expect(seen == [.sourceFault(message: "simulated EIO"), .sourceFault(message: "simulated EIO"),
                         .sourceResumed, .calibrationNeeded(reason: "neverCalibrated"), .sourceEnded(error: nil)])
    }

    @Test func calibrationPromptReachesTheHandlerAndTheStream() async {
        let manager = HeadingManager(source: SyntheticRecording(profile: MotionProfile([.hold(BoardAttitude(heading: 5), duration: 1)])))
        let prompts = Prompts()
        manager.onCalibrationNeeded = { prompts.add($0) }
        let events = manager.events()
        for await _ in manager.headings() {}
        var seen: [HeadingEvent] = []
        for await e in events { seen.append(e) }
        #expect(seen.contains(.calibrationNeeded(reason: "neverCalibrated")))
        #expect(prompts.all == ["neverCalibrated"])
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
        let manager = HeadingManager(source: try LogReader(path: path))
        let events = manager.events()
        for await _ in manager.headings() {}
        var last: HeadingEvent?
        for await e in events { last = e }
        #expect(last == .sourceEnded(error: "\(path):3: column accel_x: 'oops' is not a number"))
    }
}
