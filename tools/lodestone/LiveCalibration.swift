#if canImport(Glibc)
import Glibc
#endif
import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCore
import LodestoneIIO
import LodestoneSession

/// `calibrate` on a live IIO sensor: read while the user turns the board,
/// refit twice a second, show progress, stop when done.
enum LiveCalibration {
    /// Seconds between refits (and progress updates).
    static let refitInterval = 0.5
    /// How long to wait for an IIO context that is not there yet (iiod starting).
    static let openPatience = 10.0

    static func magnetometer(_ configuration: IIOSourceConfiguration, position: TrueNorth.Settings, timeout: Double,
                             view: ProgressView, coverage: CoverageView? = nil) throws -> CalibrationOutcome {
        let expected = try ModelField(position, unixTime: WallClock.now())
        var session = MagnetometerSession(expected: expected, timeout: timeout, view: view)
        session.coverageView = coverage
        return try calibrate(configuration, timeout: timeout, view: view, instructions: """
            Turn the board slowly through every orientation: each face up and down, at
            many headings, away from iron and magnets. It stops by itself once coverage
            ≥ 75 % and the fit is good (full model, fit error ≤ 2.5 %, stable); Ctrl-C
            aborts without saving.
            """, session: session, device: \.magnetometer)
    }

    static func accelerometer(_ configuration: IIOSourceConfiguration, position: TrueNorth.Settings, timeout: Double,
                              view: ProgressView) throws -> CalibrationOutcome {
        let session = AccelerometerSession(gravity: OfflineCalibration.gravity(position), timeout: timeout, view: view)
        return try calibrate(configuration, timeout: timeout, view: view, instructions: """
            Hold the board still in six or more positions, about 2 s each: flat, upside
            down, and standing on each of its four edges (a support helps). It stops by
            itself once the fit is good (per-axis scales, fit error ≤ 0.5 %, six
            orientations); Ctrl-C aborts without saving.
            """, session: session, device: \.accelerometer)
    }

    /// Opens the sensors, shows `instructions`, runs `session` until it is done, the
    /// timeout passes or Ctrl-C, and says which device the outcome is for.
    static func calibrate<Session: LiveSession>(_ configuration: IIOSourceConfiguration, timeout: Double, view: ProgressView,
                                                instructions: String, session: Session,
                                                device: KeyPath<SourceDevices, SourceDevices.Identity?>) throws -> CalibrationOutcome {
        let stop = StopSignals()
        let source = try open(configuration, view: view)
        let cancellation = source.cancellation
        stop.onStop { cancellation.cancel() }
        var session = session
        view.note(instructions)
        let (ending, seconds) = try pump(source, session: &session, timeout: timeout, stop: stop)
        var o = session.outcome(ending: ending)
        o.source = "IIO \(configuration.uri)"
        o.device = SourceDevices(iio: source)[keyPath: device]
        o.seconds = seconds
        return o
    }

    static func open(_ configuration: IIOSourceConfiguration, view: ProgressView) throws -> IIOSensorSource {
        let start = monotonicSeconds()
        var said = false
        while true {
            do {
                return try IIOSensorSource(configuration: configuration)
            } catch {
                guard error.isTransient, monotonicSeconds() - start < openPatience else {
                    throw CommandFailure(error.exitCode, error.description)
                }
                if !said {
                    view.note("lodestone: waiting for the IIO context: \(error.description)")
                    said = true
                }
                usleep(200_000)
            }
        }
    }

    /// Feeds samples to `session` until it is done, the timeout passes or a
    /// stop signal (which also cancels the source, so a blocked read returns).
    /// Transient source errors are retried with back-off (``SourceRunner``) and noted.
    static func pump<Session: LiveSession>(_ source: IIOSensorSource, session: inout Session,
                                           timeout: Double, stop: StopSignals) throws -> (CalibrationOutcome.Ending, Double) {
        let start = monotonicSeconds()
        var nextRefit = start + refitInterval
        var runner = SourceRunner(source, settings: .init(maximumRetryDelay: 2), clock: SystemClock(stop: stop.flag))
        while true {
            let now = monotonicSeconds()
            if stop.isRequested { return (.interrupted, now - start) }
            if now - start >= timeout {
                _ = session.refit(elapsed: now - start)
                return (.timeout, now - start)
            }
            if now >= nextRefit {
                nextRefit = now + refitInterval
                if session.refit(elapsed: now - start) { return (.converged, now - start) }
            }
            switch runner.next() {
            case .sample(let sample):
                session.add(sample)
            case .event(let e):
                if e.name != .sensorHealth || !e.flags.isEmpty { session.view.note("lodestone: \(e.detail)") }
            case .ended, .interrupted:
                if stop.isRequested { return (.interrupted, monotonicSeconds() - start) }
                throw CommandFailure(.failure, "the sensor source ended unexpectedly")
            case .failed(let error):
                throw CommandFailure(error)
            }
        }
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// One kind of live calibration: takes samples, refits, shows progress.
protocol LiveSession {
    var view: ProgressView { get }
    mutating func add(_ sample: SensorSample)
    /// Refits and shows the progress; true when the calibration is done.
    mutating func refit(elapsed: Double) -> Bool
    /// The result, once the run has ended.
    func outcome(ending: CalibrationOutcome.Ending) -> CalibrationOutcome
}

/// Live magnetometer calibration: `MagnetometerCalibrator` plus the stop rule.
struct MagnetometerSession: LiveSession {
    /// The offset must move less than this share of the field between two
    /// good refits in a row for the calibration to count as settled.
    static let settledOffsetChange = 0.01

    let view: ProgressView
    let expected: ModelField?
    let timeout: Double
    var calibrator: MagnetometerCalibrator
    /// Raw readings with their acceleration and turn rate, for the alignment, the dip and the plot.
    var pairs = EvenlyThinned<SensorSample>(capacity: 20_000)
    var goodInARow = 0
    var previousOffset: Vector3?
    /// `calibrate --http`: the live view's coverage sphere.
    var coverageView: CoverageView?

    init(expected: ModelField?, timeout: Double, view: ProgressView) {
        self.view = view
        self.expected = expected
        self.timeout = timeout
        calibrator = MagnetometerCalibrator(expectedMagnitude: expected?.totalIntensity)
    }

    mutating func add(_ sample: SensorSample) {
        calibrator.add(sample.magneticField)
        pairs.append(sample)
    }

    mutating func refit(elapsed: Double) -> Bool {
        let p = calibrator.refit()
        var done = false
        if p.rejection == nil, let fit = p.fit, fit.grade == .good {
            let moved = previousOffset.map { (fit.offset - $0).length } ?? .infinity
            goodInARow = moved <= Self.settledOffsetChange * fit.correctedMagnitude ? goodInARow + 1 : 1
            done = goodInARow >= 2
        } else {
            goodInARow = 0
        }
        previousOffset = p.rejection == nil ? p.fit?.offset : nil
        view.show(block: block(p, elapsed: elapsed), summary: summary(p, elapsed: elapsed), now: elapsed)
        coverageView?.publish(regionCounts: calibrator.coverage.counts, percent: p.coveragePercent)
        return done
    }

    func block(_ p: CalibrationProgress, elapsed: Double) -> [String] {
        let t = CalibrationFitSettings.magnetometer.gradeThresholds
        var lines: [String] = []
        let coverage = calibrator.coverage
        lines.append("  coverage  \(Format.fixed(p.coveragePercent, 0)) % of 100 regions (\(coverage.gaps.count) empty; need ≥ \(Format.fixed(t.goodCoveragePercent, 0)) %)")
        if let fit = p.fit, p.rejection == nil {
            lines.append("  fit       \(fit.model.rawValue) model, fit error \(Format.fixed(fit.fitErrorPercent, 2)) % (need ≤ \(Format.fixed(t.goodFitErrorPercent, 1)) %), grade \(fit.grade.rawValue)")
            var field = "  field     |B| \(Format.fixed(fit.fittedMagnitude, 1)) µT"
            if let e = expected {
                field += ", model F \(Format.fixed(e.totalIntensity, 1)) µT (ratio \(Format.fixed(fit.fittedMagnitude / e.totalIntensity, 3)))"
            } else {
                field += " (no --lat/--lon: no model F)"
            }
            field += "; residual \(Format.fixed(fit.residualRMS, 2)) µT RMS"
            lines.append(field)
        } else {
            lines.append("  fit       not yet: \(p.rejection?.description ?? "waiting for samples")")
            lines.append("  field     –")
        }
        lines.append("  samples   \(p.offeredSamples) read, \(p.keptSamples) kept; \(Int(elapsed)) s of \(Int(timeout)) s")
        if let gap = p.suggestedDirection {
            lines.append("  next      aim \(CoverageMapText.boardPart(gap)) \(CoverageMapText.fieldDirection(dip: expected?.inclination))")
        } else {
            lines.append("  next      every region is covered")
        }
        return lines + (CoverageMapText.rows(coverage) + CoverageMapText.legend()).map { "            " + $0 }
    }

    func summary(_ p: CalibrationProgress, elapsed: Double) -> String {
        var s = "calibrate: \(Format.fixed(elapsed, 1)) s  coverage \(Format.fixed(p.coveragePercent, 0)) %  empty \(calibrator.coverage.gaps.count)"
        if let fit = p.fit, p.rejection == nil {
            s += "  fit error \(Format.fixed(fit.fitErrorPercent, 2)) % (\(fit.model.rawValue), \(fit.grade.rawValue))  |B| \(Format.fixed(fit.fittedMagnitude, 1)) µT"
            if let e = expected { s += " (model \(Format.fixed(e.totalIntensity, 1)))" }
        } else {
            s += "  no fit yet"
        }
        return s + "  kept \(p.keptSamples)/\(p.offeredSamples)"
    }

    func outcome(ending: CalibrationOutcome.Ending) -> CalibrationOutcome {
        var o = CalibrationOutcome(sensor: .magnetometer, source: "", samplesRead: calibrator.offeredCount,
                                   expected: expected, plotPoints: pairs.items.map(\.magneticField), ending: ending)
        if let rejection = calibrator.latestRejection {
            o.rejection = rejection
        } else if let fit = calibrator.latestFit {
            o.takeMagnetometerFit(fit, samples: pairs.items)
        } else {
            o.rejection = .tooFewSamples(count: calibrator.keptCount, needed: CalibrationFitSettings.magnetometer.minimumSamples[.sphere] ?? 12)
        }
        return o
    }
}

/// Live accelerometer calibration: still positions, found as they happen.
struct AccelerometerSession: LiveSession {
    let view: ProgressView
    let gravity: (value: Double, origin: String)
    let timeout: Double
    let calibrator: AccelerometerCalibrator
    var times: [Double] = []
    var accelerations: [Vector3] = []
    var rates: [Vector3] = []
    var hasGyroscope = true
    var segments: [StillSegment] = []
    var fit: CalibrationFit?
    var rejection: CalibrationRejection?

    init(gravity: (value: Double, origin: String), timeout: Double, view: ProgressView) {
        self.view = view
        self.gravity = gravity
        self.timeout = timeout
        calibrator = AccelerometerCalibrator(gravity: gravity.value)
    }

    mutating func add(_ sample: SensorSample) {
        times.append(sample.time)
        accelerations.append(sample.acceleration)
        rates.append(sample.angularRate ?? .zero)
        hasGyroscope = hasGyroscope && sample.angularRate != nil
    }

    mutating func refit(elapsed: Double) -> Bool {
        segments = calibrator.detector.segments(times: times, accelerations: accelerations, angularRates: hasGyroscope ? rates : nil)
        let minimum = calibrator.settings.minimumSamples[.sphere] ?? 4
        if segments.count >= minimum {
            do {
                fit = try calibrator.fit(positions: segments.map(\.meanAcceleration))
                rejection = nil
            } catch {
                fit = nil
                rejection = error
            }
        } else {
            fit = nil
            rejection = .tooFewSamples(count: segments.count, needed: minimum)
        }
        view.show(block: block(elapsed: elapsed), summary: summary(elapsed: elapsed), now: elapsed)
        return fit?.grade == .good
    }

    var stillFor: Double? {
        guard let last = segments.last, last.indices.upperBound >= times.count - 3 else { return nil }
        return last.duration
    }

    func block(elapsed: Double) -> [String] {
        let t = calibrator.settings.gradeThresholds
        let faces = CalibrationOutcome.faces(segments.map(\.meanAcceleration)).map { "\($0.name) \($0.seen ? "✓" : "·")" }
        let regions = SphereCoverage(directions: segments.map(\.meanAcceleration)).filledRegions
        var lines = ["  up        " + faces.joined(separator: "   "),
                     "  positions \(segments.count) still positions in \(regions) orientations (need ≥ \(Format.fixed(t.goodCoveragePercent, 0)))",
                     "  now       " + (stillFor.map { "still for \(Format.fixed($0, 1)) s: hold it" } ?? "moving (hold still ≥ 1 s to record a position)")]
        if let fit {
            lines.append("  fit       \(fit.model.rawValue) model, fit error \(Format.fixed(fit.fitErrorPercent, 2)) % (need ≤ \(Format.fixed(t.goodFitErrorPercent, 1)) %), |a| \(Format.fixed(fit.fittedMagnitude, 3)) m/s², grade \(fit.grade.rawValue)")
        } else {
            lines.append("  fit       not yet: \(rejection?.description ?? "waiting")")
        }
        lines.append("  time      \(Int(elapsed)) s of \(Int(timeout)) s")
        return lines
    }

    func summary(elapsed: Double) -> String {
        var s = "calibrate: \(Format.fixed(elapsed, 1)) s  positions \(segments.count)"
        if let fit { s += "  fit error \(Format.fixed(fit.fitErrorPercent, 2)) % (\(fit.model.rawValue), \(fit.grade.rawValue))" }
        return s + (stillFor != nil ? "  still" : "  moving")
    }

    func outcome(ending: CalibrationOutcome.Ending) -> CalibrationOutcome {
        CalibrationOutcome(sensor: .accelerometer, source: "", samplesRead: times.count,
                           fit: fit, rejection: fit == nil ? rejection : nil, gravity: gravity, positions: segments,
                           plotPoints: segments.flatMap { s in s.indices.map { accelerations[$0] } }, ending: ending)
    }
}
