import CLibIIO
import LodestoneCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Everything a log header needs to say where samples came from.
public struct IIOSourceMetadata: Codable, Sendable, Hashable {
    public var uri: String
    /// `buffered` or `polled` (never `auto`).
    public var mode: IIOCaptureMode
    public var requestedRate: Double
    /// Row-major device → body rotation applied after the mount matrices.
    public var boardRotation: [Double]
    public var magnetometer: IIOSensorInfo
    public var accelerometer: IIOSensorInfo
    public var gyroscope: IIOSensorInfo?
    /// Trigger chosen or found per device id (buffered mode).
    public var triggers: [String: String]
    /// Things the user may want to know (a rate that could not be set …).
    public var notes: [String]
    public var libiioVersion: String
}

/// A ``SensorSource`` reading a magnetometer, an accelerometer and optionally a
/// gyroscope through libiio.
///
/// Samples are emitted at the accelerometer's pace, each paired with the latest
/// magnetometer (and separate gyroscope) reading taken at or before its time, held
/// between their own samples; nothing is emitted before the first magnetometer
/// reading. A magnetometer on a device of its own that falls silent while the
/// accelerometer runs on is a transient timeout (after 3 of its periods, at least
/// 0.5 s), not a frozen heading. `time` counts seconds since the
/// first sample (``startWallClock``), from `in_timestamp` when the device has one,
/// else CLOCK_MONOTONIC. After a transient error the devices are closed and
/// reopened on the next call.
public final class IIOSensorSource: SensorSource {
    public let configuration: IIOSourceConfiguration
    public private(set) var metadata: IIOSourceMetadata
    public private(set) var diagnostics: IIOSourceDiagnostics
    /// Unix seconds of the first sample, once there is one.
    public private(set) var startWallClock: Double?
    /// Raw counts behind the latest sample.
    public private(set) var latestRaw: IIORawCounts?
    /// Cancel it from any thread to make ``nextSample()`` return nil (end of stream) promptly.
    public let cancellation = IIOCancellation()

    private var context: IIOContext?
    private var engine: CaptureEngine?
    private var magnetometer: SensorBinding!
    private var accelerometer: SensorBinding!
    private var gyroscope: SensorBinding?
    /// The gyroscope's temperature sensor, where its device has one.
    private var thermometer: IIOThermometer?
    private var magTransform = Matrix3.identity
    private var accelTransform = Matrix3.identity
    private var gyroTransform = Matrix3.identity
    private var startNs: Int64?
    private var heldMag = HeldSeries()
    private var heldGyro = HeldSeries()
    private var previousMag: RawTriple?
    private var previousAccel: RawTriple?
    private var previousGyro: RawTriple?
    private var droppedBeforeReopen = 0
    /// A magnetometer reading older than this, paired with a new accelerometer sample,
    /// means the magnetometer stalled while the accelerometer runs on (separate buffers).
    private var staleMagnetometerNs: Int64 = .max

    /// Opens the devices now, so that configuration errors surface at once.
    public init(configuration: IIOSourceConfiguration) throws(IIOSourceError) {
        self.configuration = configuration
        let placeholder = IIOSensorInfo(kind: .magnetometer, deviceID: "", deviceName: nil, channels: [], unitsPerCount: [],
                                        mountMatrix: [], mountMatrixFile: nil, samplingFrequency: nil, samplingFrequencyFile: nil,
                                        availableSamplingFrequencies: [], corrections: [], saturationLimit: 0)
        metadata = IIOSourceMetadata(uri: configuration.uri, mode: configuration.mode, requestedRate: configuration.rate,
                                     boardRotation: IIOMountMatrix.entries(configuration.boardRotation), magnetometer: placeholder,
                                     accelerometer: placeholder, gyroscope: nil, triggers: [:], notes: [], libiioVersion: IIOSensorSource.libiioVersion)
        diagnostics = IIOSourceDiagnostics(magnetometer: IIOSensorHealth(kind: .magnetometer), accelerometer: IIOSensorHealth(kind: .accelerometer),
                                           gyroscope: nil, samplesEmitted: 0, droppedScans: 0, reopenCount: 0, lastError: nil)
        try open()
    }

    deinit { close() }

    /// libiio's version, e.g. `0.24 (v0.24)`.
    public static var libiioVersion: String {
        var major: UInt32 = 0, minor: UInt32 = 0
        let tag = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 16) { buf -> String in
            buf.initialize(repeating: 0)
            iio_library_get_version(&major, &minor, buf.baseAddress)
            return String(cString: buf.baseAddress!)
        }
        return "\(major).\(minor) (\(tag))"
    }

    /// True when the next ``nextSample()`` has its accelerometer scan already read, and
    /// so returns at once: buffered capture reads a refill of several scans at a time
    /// (`bufferLatency`), and those samples follow each other within microseconds. A
    /// consumer can gather the output of such a burst and write it in one go.
    public var hasQueuedSample: Bool { engine?.hasQueuedAccelerometerScan ?? false }

    /// Releases the devices; a later ``nextSample()`` reopens them.
    public func close() {
        if let e = engine { droppedBeforeReopen += e.droppedScans }
        engine?.stop()
        engine = nil
        context = nil
    }

    public func nextSample() throws(IIOSourceError) -> SensorSample? {
        do throws(IIOSourceError) {
            if cancellation.isCancelled { return nil }
            if engine == nil {
                diagnostics.reopenCount += 1
                try reopen()
            }
            while true {
                guard let ev = try engine!.next(cancellation) else { return nil }
                let c = configuration.stuckSampleCount
                if ev.hasMagnetometer {
                    diagnostics.magnetometer.observe(ev.magnetometer, previous: previousMag, limit: magnetometer.info.saturationLimit,
                                                     overflow: magnetometer.overflowValue, stuckAfter: c)
                    previousMag = ev.magnetometer
                    heldMag.append(time: ev.timeNs, ev.magnetometer)
                }
                if ev.hasGyroscope, let g = gyroscope {
                    diagnostics.gyroscope?.observe(ev.gyroscope, previous: previousGyro, limit: g.info.saturationLimit,
                                                   overflow: g.overflowValue, stuckAfter: c)
                    previousGyro = ev.gyroscope
                    heldGyro.append(time: ev.timeNs, ev.gyroscope)
                }
                guard ev.hasAccelerometer else { continue }
                diagnostics.accelerometer.observe(ev.accelerometer, previous: previousAccel, limit: accelerometer.info.saturationLimit,
                                                  overflow: accelerometer.overflowValue, stuckAfter: c)
                previousAccel = ev.accelerometer
                // Times come from the device's buffer: wrapping arithmetic, never a trap on a wild one.
                if let t = heldMag.latestTime, ev.timeNs &- t > staleMagnetometerNs {
                    throw .timeout(uri: configuration.uri, device: magnetometer.device.displayName,
                                   seconds: Double(staleMagnetometerNs) / 1e9)
                }
                guard let mag = heldMag.value(at: ev.timeNs) else { continue }
                let gyroRaw = heldGyro.value(at: ev.timeNs)
                if startNs == nil {
                    startNs = ev.timeNs
                    startWallClock = Double(ev.timeNs) / 1e9
                }
                let time = Double(ev.timeNs &- (startNs ?? ev.timeNs)) / 1e9
                let field = magTransform * magnetometer.chipValue(mag)
                let accel = accelTransform * accelerometer.chipValue(ev.accelerometer)
                var rate: Vector3? = nil
                if let g = gyroscope, let raw = gyroRaw { rate = gyroTransform * g.chipValue(raw) }
                let temperature = rate == nil ? nil : readTemperature(atNs: ev.timeNs)
                latestRaw = IIORawCounts(magnetometer: mag, accelerometer: ev.accelerometer, gyroscope: gyroscope == nil ? nil : gyroRaw)
                diagnostics.samplesEmitted += 1
                return SensorSample(time: time, acceleration: accel, magneticField: field, angularRate: rate,
                                    temperature: temperature)
            }
        } catch {
            diagnostics.lastError = error.description
            close()
            diagnostics.droppedScans = droppedBeforeReopen
            throw error
        }
    }

    /// The gyroscope's temperature for a sample at `timeNs`, °C; a thermometer that fails says so once, in the notes.
    private func readTemperature(atNs timeNs: Int64) -> Double? {
        guard var t = thermometer else { return nil }
        let value = t.temperature(atNs: timeNs)
        if let failure = t.failure {
            metadata.notes.append(failure)
            diagnostics.thermometerFailure = failure
            thermometer = nil
            return nil
        }
        thermometer = t
        return value
    }

    private func reopen() throws(IIOSourceError) {
        do {
            try open()
        } catch {
            // Once running, a missing device is a device that went away: retry later.
            if case .sensorNotFound = error { throw .io(uri: configuration.uri, device: error.description, operation: "reopening", errno: ENODEV) }
            if case .pinnedDeviceNotFound = error { throw .io(uri: configuration.uri, device: error.description, operation: "reopening", errno: ENODEV) }
            if case .contextUnavailable(let u, let e) = error, e == EACCES || e == EPERM {
                throw .permissionDenied(uri: u, device: "context", file: "/sys/bus/iio/devices")
            }
            throw error
        }
    }

    /// Opens the devices: resolve → mode → rates → triggers → engine (``IIOSourceSetup``).
    private func open() throws(IIOSourceError) {
        let cfg = configuration
        let context = try IIOContext(uri: cfg.uri)
        let devices = context.devices()
        let found = try IIOSourceSetup.resolve(cfg, devices: devices)
        var plan = try IIOSourceSetup.mode(cfg, found, devices: devices)
        try IIOSourceSetup.rates(cfg, found, plan: &plan)
        try IIOSourceSetup.triggers(cfg, found, plan: &plan)
        // Bound again after the rate change, so that the metadata shows what is in force.
        let sensors = try found.rebound(applyCorrections: cfg.applyDriverCorrections)
        let (engine, staleMagnetometerNs) = try IIOSourceSetup.engine(cfg, context: context, sensors, plan: plan)
        start(engine, on: context, sensors: sensors, plan: plan, staleMagnetometerNs: staleMagnetometerNs)
    }

    /// Takes an opened engine into use: the sensors' transforms, fresh held readings, the metadata.
    private func start(_ engine: CaptureEngine, on context: IIOContext, sensors: ResolvedSensors, plan: CapturePlan,
                       staleMagnetometerNs: Int64) {
        magnetometer = sensors.magnetometer
        accelerometer = sensors.accelerometer
        gyroscope = sensors.gyroscope
        thermometer = gyroscope.flatMap { IIOThermometer(device: $0.device) }
        magTransform = configuration.boardRotation * magnetometer.mountMatrix
        accelTransform = configuration.boardRotation * accelerometer.mountMatrix
        gyroTransform = configuration.boardRotation * (gyroscope?.mountMatrix ?? .identity)
        self.staleMagnetometerNs = staleMagnetometerNs
        self.context = context
        self.engine = engine
        heldMag.reset()
        heldGyro.reset()
        if gyroscope != nil, diagnostics.gyroscope == nil { diagnostics.gyroscope = IIOSensorHealth(kind: .gyroscope) }
        metadata.mode = plan.mode
        metadata.magnetometer = magnetometer.info
        metadata.accelerometer = accelerometer.info
        metadata.gyroscope = gyroscope?.info
        metadata.triggers = plan.triggers
        metadata.notes = plan.notes
    }
}
