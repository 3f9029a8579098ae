import LodestoneCalibration
import LodestoneCalibrationStore
import LodestoneCore
import LodestoneLogs
import LodestoneSession

/// `calibrate --from LOG`: fit a recorded log (anything `replay` reads).
enum OfflineCalibration {
    /// Samples kept for the magnetometer fit: a longer log is thinned evenly.
    static let magnetometerCapacity = 100_000
    /// Samples kept for the still-position search (they must stay in time order).
    static let accelerometerCapacity = 1_000_000

    struct Recording {
        var samples: [SensorSample]
        var read: Int
        var span: ClosedRange<Double>?
        var devices: SourceDevices
        var start: Double?
    }

    static func read(_ path: String, window: ClosedRange<Double>?, capacity: Int) throws -> Recording {
        let reader = try LogReader(path: path)
        var kept = EvenlyThinned<SensorSample>(capacity: capacity)
        var first: Double?, last = 0.0
        while let s = try reader.nextSample() {
            if let window {
                if s.time < window.lowerBound { continue }
                if s.time > window.upperBound { break }
            }
            first = first ?? s.time
            last = s.time
            kept.append(s)
        }
        if kept.items.isEmpty, let window {
            throw CommandFailure(.badInput, "\(path): no samples between \(window.lowerBound) s and \(window.upperBound) s (--window)")
        }
        return Recording(samples: kept.items, read: kept.offered, span: first.map { $0...last },
                         devices: SourceDevices(log: reader.metadata), start: reader.metadata?.startUnixSeconds)
    }

    static func magnetometer(path: String, window: ClosedRange<Double>?, position: TrueNorth.Settings) throws -> CalibrationOutcome {
        let r = try read(path, window: window, capacity: magnetometerCapacity)
        let expected = try ModelField(position, unixTime: r.start ?? WallClock.now())
        let fields = r.samples.map(\.magneticField)
        var o = CalibrationOutcome(sensor: .magnetometer, source: "log \(path)", device: r.devices.magnetometer,
                                   samplesRead: r.read, timeSpan: r.span, expected: expected, plotPoints: fields, ending: .endOfLog)
        do {
            let fit = try CalibrationFitter(settings: .magnetometer).fit(fields, expectedMagnitude: expected?.totalIntensity)
            o.takeMagnetometerFit(fit, samples: r.samples)
        } catch {
            o.rejection = error
        }
        return o
    }

    static func accelerometer(path: String, window: ClosedRange<Double>?, position: TrueNorth.Settings) throws -> CalibrationOutcome {
        let r = try read(path, window: window, capacity: accelerometerCapacity)
        let gravity = Self.gravity(position)
        let calibrator = AccelerometerCalibrator(gravity: gravity.value)
        let hasGyro = r.samples.first?.angularRate != nil
        let segments = calibrator.detector.segments(times: r.samples.map(\.time), accelerations: r.samples.map(\.acceleration),
                                                    angularRates: hasGyro ? r.samples.map { $0.angularRate ?? .zero } : nil)
        var o = CalibrationOutcome(sensor: .accelerometer, source: "log \(path)", device: r.devices.accelerometer,
                                   samplesRead: r.read, timeSpan: r.span, gravity: gravity, positions: segments,
                                   plotPoints: segments.flatMap { s in s.indices.map { r.samples[$0].acceleration } },
                                   ending: .endOfLog)
        do {
            o.fit = try calibrator.fit(positions: segments.map(\.meanAcceleration))
        } catch {
            o.rejection = error
        }
        return o
    }

    /// Normal gravity at the position, else standard gravity.
    static func gravity(_ position: TrueNorth.Settings) -> (value: Double, origin: String) {
        guard let (lat, _, height) = position.fixedPosition else { return (9.80665, "standard gravity; give --lat for local normal gravity") }
        return (ModelField.normalGravity(latitude: lat, height: height), "WGS 84 normal gravity at \(Format.fixed(lat, 2))°")
    }
}
