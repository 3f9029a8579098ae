import LodestoneCalibrationStore
import LodestoneCore
import LodestoneSession
import LodestoneSteering

/// A ``HeadingManager``'s reading thread: opens the source, runs the session
/// sample by sample through the library's ``SourceRunner`` (retries, pacing,
/// health), feeds it gpsd's fixes, applies changed settings, and publishes.
struct HeadingReader {
    let manager: HeadingManager
    let stop: StopFlag

    func run() {
        var endError: String?
        var stoppedByCaller = false
        defer {
            if !stoppedByCaller {
                manager.post(endError.map { HeadingEvent(.sourceFailed, .fatal, $0) }
                             ?? HeadingEvent(.sourceEnded, .endOfLog, "the source ended"))
            }
            manager.finish(ended: !stoppedByCaller)
        }
        do {
            var loop = try Loop(manager: manager, stop: stop)
            stoppedByCaller = try loop.run()
        } catch {
            endError = error.description
            stoppedByCaller = manager.state.withLock { $0.stopRequested }
        }
    }

    /// What one run holds: the source, the session, the position feed, the steering.
    struct Loop {
        let manager: HeadingManager
        var runner: SourceRunner<SampleReader>
        var session: HeadingSession
        var devices: SourceDevices
        var position: PositionFeed?
        var generation: Int
        var advisor: (generation: Int, target: GeoCoordinate, advisor: TurnAdvisor)?

        init(manager: HeadingManager, stop: StopFlag) throws(SessionError) {
            self.manager = manager
            let (settings, generation) = manager.state.withLock { ($0.settings, $0.generation) }
            let reader: SampleReader
            let pacing: Double?
            switch manager.origin {
            case .configured(let source):
                let opened = try SessionSources.open(source.configuration, fusion: settings.estimator.fusion)
                try settings.check(hasGyroscope: opened.hasGyroscope)
                if let iio = opened as? IIOSessionSource {
                    let cancellation = iio.source.cancellation
                    manager.state.withLock { $0.cancelRead = { cancellation.cancel() } }
                }
                reader = .session(opened)
                devices = opened.calibrationDevices
                pacing = opened.pacing
            case .custom(let box, let d):
                reader = .custom(box)
                devices = d
                pacing = nil
            }
            session = try HeadingSession(settings: settings, devices: devices, clock: SystemClock(stop: stop))
            let notes = session.notes
            manager.state.withLock { $0.notes = notes }
            runner = SourceRunner(reader, settings: .init(pacing: pacing), clock: SystemClock(stop: stop), health: reader.health)
            position = try PositionFeed(settings.trueNorth.position)
            self.generation = generation
            if case .session(let s) = reader { session.start(wallClockStart: s.startWallClock) }
        }

        /// Reads until the source ends or the caller stops; true when the caller stopped it.
        mutating func run() throws(SessionError) -> Bool {
            defer { position?.close() }
            while true {
                if manager.state.withLock({ $0.stopRequested }) { return true }
                try applyChangedSettings()
                switch runner.next() {
                case .sample(let sample): process(sample)
                case .event(let e): manager.post(e)
                case .interrupted: continue
                case .ended: return manager.state.withLock { $0.stopRequested }
                case .failed(let error): throw error
                }
            }
        }

        private mutating func process(_ sample: SensorSample) {
            let before = session.trueNorth.position
            _ = position?.deliver(to: &session)
            if session.settings.trueNorth.position.isLive, session.trueNorth.position != before, session.trueNorth.position != nil,
               let advice = steer(manager.heading) {
                // Steering follows the position as well as the heading: a new fix gives advice at once.
                manager.publish(advice)
            }
            let heading = session.process(sample)
            if session.hasEvents {
                for e in session.takeEvents() { manager.post(e) }
            }
            guard let heading else { return }
            manager.publish(heading, advice: steer(heading))
        }

        /// Advice toward the target for a delivered heading (nil: none yet), once the position is known.
        private mutating func steer(_ heading: Heading?) -> SteeringAdvice? {
            let (target, settings, generation) = manager.state.withLock { ($0.target, $0.steeringSettings, $0.steeringGeneration) }
            guard let target else {
                advisor = nil
                return nil
            }
            if advisor?.generation != generation {
                guard let fresh = try? TurnAdvisor(settings: settings) else { return nil }
                advisor = (generation, target, fresh)
            }
            guard let p = session.trueNorth.position, let here = try? GeoCoordinate(latitude: p.latitude, longitude: p.longitude) else { return nil }
            return advisor!.advisor.advise(from: here, to: advisor!.target, heading: heading?.trueHeading, groundSpeed: p.speed)
        }

        /// Settings changed by the caller: the session takes them (profiles read again when
        /// their choice changed), and gpsd is reconnected when the position changed.
        private mutating func applyChangedSettings() throws(SessionError) {
            let (settings, newGeneration) = manager.state.withLock { ($0.settings, $0.generation) }
            guard newGeneration != generation else { return }
            generation = newGeneration
            let calibration = settings.calibration == session.settings.calibration
                ? session.calibration
                : try SessionCalibration.load(settings.calibration, for: devices)
            if settings.trueNorth.position != session.settings.trueNorth.position {
                position?.close()
                position = try PositionFeed(settings.trueNorth.position)
            }
            session.reconfigure(settings: settings, calibration: calibration)
        }
    }

    /// The runner's source: one the session opened, or the caller's.
    enum SampleReader: SensorSource {
        case session(any SessionSource)
        case custom(SourceBox)

        mutating func nextSample() throws -> SensorSample? {
            switch self {
            case .session(var s): return try s.nextSample()
            case .custom(let box): return try box.next()
            }
        }

        var health: (any SensorHealthReporting)? {
            if case .session(let s) = self { return s as? any SensorHealthReporting }
            return nil
        }
    }
}
