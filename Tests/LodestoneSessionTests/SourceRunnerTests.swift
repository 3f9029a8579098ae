import LodestoneCore
import LodestoneSession
import Testing

/// A source that plays a script: samples, transient faults, a fatal error, the end.
struct ScriptedSource: SensorSource {
    enum Step {
        case sample(Double)
        case transient(String)
        case fatal(String)
    }

    struct Failure: SensorSourceError {
        var isTransient: Bool
        var description: String
    }

    var steps: [Step]

    mutating func nextSample() throws -> SensorSample? {
        guard !steps.isEmpty else { return nil }
        switch steps.removeFirst() {
        case .sample(let t): return SensorSample(time: t, acceleration: Vector3(0, 0, 9.81), magneticField: Vector3(0, 20, -40))
        case .transient(let text): throw Failure(isTransient: true, description: text)
        case .fatal(let text): throw Failure(isTransient: false, description: text)
        }
    }
}

/// A source whose health the test sets.
final class AilingSource: SensorSource, SensorHealthReporting {
    var healthSignature: UInt32 = 0
    var healthProblems: [SensorProblem] = []
    var time = 0.0

    func nextSample() throws -> SensorSample? {
        defer { time += 0.01 }
        return SensorSample(time: time, acceleration: Vector3(0, 0, 9.81), magneticField: Vector3(0, 20, -40))
    }
}

@Suite struct SourceRunnerTests {
    /// Steps until the end, as short strings.
    func run(_ steps: [ScriptedSource.Step], clock: ManualClock, settings: SourceRunner<ScriptedSource>.Settings = .init()) -> [String] {
        var runner = SourceRunner(ScriptedSource(steps: steps), settings: settings, clock: clock)
        var out: [String] = []
        while out.count < 100 {
            switch runner.next() {
            case .sample(let s): out.append("sample \(s.time)")
            case .event(let e): out.append("\(e.name.rawValue) \(e.reason.rawValue): \(e.detail)")
            case .ended: out.append("ended"); return out
            case .failed(let e): out.append("failed: \(e.description)"); return out
            case .interrupted: out.append("interrupted")
            }
        }
        return out
    }

    @Test func aFaultIsReportedOnceRetriedWithBackOffAndTheRecoverySaid() {
        let clock = ManualClock()
        let out = run([.sample(0), .transient("EIO"), .transient("EIO"), .transient("EIO"), .sample(1), .sample(2)], clock: clock)
        #expect(out == ["sample 0.0", "sourceFault ioError: EIO", "sourceResumed recovered: the source works again", "sample 1.0", "sample 2.0", "ended"])
        #expect(clock.sleeps == [0.1, 0.2, 0.4])
    }

    @Test func aDifferentFaultIsReportedAgainAndTheDelayIsCapped() {
        let clock = ManualClock()
        let faults = Array(repeating: ScriptedSource.Step.transient("EIO"), count: 8) + [.transient("ETIMEDOUT"), .sample(5)]
        let out = run(faults, clock: clock, settings: .init(firstRetryDelay: 0.1, maximumRetryDelay: 2))
        #expect(out == ["sourceFault ioError: EIO", "sourceFault ioError: ETIMEDOUT", "sourceResumed recovered: the source works again", "sample 5.0", "ended"])
        #expect(clock.sleeps == [0.1, 0.2, 0.4, 0.8, 1.6, 2, 2, 2, 2])
    }

    @Test func aFatalErrorEndsTheRunWithItsText() {
        let out = run([.sample(0), .fatal("walk.csv:3: column accel_x: 'oops' is not a number")], clock: ManualClock())
        #expect(out == ["sample 0.0", "failed: walk.csv:3: column accel_x: 'oops' is not a number"])
    }

    @Test func pacingFollowsTheSamplesTimestamps() {
        let clock = ManualClock()
        let out = run([.sample(10), .sample(10.5), .sample(11), .sample(11.25)], clock: clock, settings: .init(pacing: 2))
        #expect(out.filter { $0.hasPrefix("sample") }.count == 4)
        #expect(clock.sleeps == [0.25, 0.25, 0.125], "half a second of log at twice the speed is a quarter second")
    }

    @Test func aSensorsHealthIsReportedWhenItChanges() {
        let source = AilingSource()
        var runner = SourceRunner(source, clock: ManualClock())
        guard case .sample = runner.next() else { Issue.record("no sample"); return }
        source.healthSignature = 1
        let stuck = "magnetometer stuck: identical raw values for 100 samples"
        source.healthProblems = [SensorProblem(.stuck, stuck)]
        guard case .event(let e) = runner.next() else { Issue.record("no event"); return }
        #expect(e.name == .sensorHealth && e.reason == .sensorStuck && e.flags == [stuck] && e.timestamp == 0.01)
        guard case .sample(let s) = runner.next() else { Issue.record("the sample is kept"); return }
        #expect(s.time == 0.01)
        source.healthSignature = 0
        source.healthProblems = []
        guard case .event(let well) = runner.next() else { Issue.record("no event"); return }
        #expect(well.reason == .sensorsHealthy && well.flags.isEmpty)
    }

    /// Each kind of problem has its reason, a stuck sensor outranking the
    /// rest; the kind is carried, so a thermometer's failure whose text holds
    /// "stuck" or "saturated" (a device's name, an error's) stays one.
    @Test func eachProblemHasItsReason() {
        let stuck = SensorProblem(.stuck, "accelerometer stuck: identical raw values for 100 samples")
        let saturated = SensorProblem(.saturated, "magnetometer saturated: an axis is at the end of its range")
        let thermometer = SensorProblem(.thermometerFailed,
                                        "imu-stuck-saturated (iio:device0): reading in_temp_raw failed (No such file or directory (errno 2))")
        let source = AilingSource()
        var runner = SourceRunner(source, clock: ManualClock())
        guard case .sample = runner.next() else { Issue.record("no sample"); return }
        for (signature, problems, reason) in [(UInt32(64), [thermometer], HeadingEvent.Reason.thermometerFailed),
                                              (66, [saturated, thermometer], .sensorSaturated),
                                              (65, [thermometer, stuck], .sensorStuck), (0, [], .sensorsHealthy)] {
            source.healthSignature = signature
            source.healthProblems = problems
            guard case .event(let e) = runner.next() else { Issue.record("no event for \(problems)"); return }
            #expect(e.name == .sensorHealth && e.reason == reason && e.flags == problems.map(\.sentence))
            guard case .sample = runner.next() else { Issue.record("the sample is kept"); return }
        }
    }
}
