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
                latestRaw = IIORawCounts(magnetometer: mag, accelerometer: ev.accelerometer, gyroscope: gyroscope == nil ? nil : gyroRaw)
                diagnostics.samplesEmitted += 1
                return SensorSample(time: time, acceleration: accel, magneticField: field, angularRate: rate)
            }
        } catch {
            diagnostics.lastError = error.description
            close()
            diagnostics.droppedScans = droppedBeforeReopen
            throw error
        }
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

    private func open() throws(IIOSourceError) {
        let cfg = configuration
        let ctx = try IIOContext(uri: cfg.uri)
        let devices = ctx.devices()
        let fix = cfg.applyDriverCorrections
        guard let mag = try IIODiscovery.resolve(.magnetometer, pin: cfg.magnetometerDevice, preferred: nil, devices: devices, uri: cfg.uri, applyCorrections: fix) else {
            throw .sensorNotFound(kind: .magnetometer, uri: cfg.uri, lookedFor: IIOSensorKind.magnetometer.rawFiles, found: IIODiscovery.summaries(devices))
        }
        guard let acc = try IIODiscovery.resolve(.accelerometer, pin: cfg.accelerometerDevice, preferred: mag.device.id, devices: devices, uri: cfg.uri, applyCorrections: fix) else {
            throw .sensorNotFound(kind: .accelerometer, uri: cfg.uri, lookedFor: IIOSensorKind.accelerometer.rawFiles, found: IIODiscovery.summaries(devices))
        }
        var gyro: SensorBinding? = nil
        if cfg.useGyroscope || cfg.gyroscopeDevice != nil {
            gyro = try IIODiscovery.resolve(.gyroscope, pin: cfg.gyroscopeDevice, preferred: acc.device.id, devices: devices, uri: cfg.uri, applyCorrections: fix)
        }
        let bindings = [mag, acc] + (gyro.map { [$0] } ?? [])
        var notes: [String] = []
        var triggers: [String: String] = [:]

        // Group sensors by device, in first-seen order.
        var groups: [(device: IIODevice, sensors: [SensorBinding])] = []
        for b in bindings {
            if let i = groups.firstIndex(where: { $0.device.id == b.device.id }) { groups[i].sensors.append(b) } else { groups.append((b.device, [b])) }
        }

        // Decide the mode.
        var mode = cfg.mode
        var bufferProblems: [String] = []
        var chosenTriggers: [String: IIODevice] = [:]
        if mode != .polled {
            for g in groups {
                if g.sensors.contains(where: { $0.scanIndices.contains(nil) }) {
                    bufferProblems.append("\(g.device.displayName) has no scan elements (no buffer)")
                    continue
                }
                switch g.device.triggerState() {
                case .notNeeded: break
                case .set(let t): triggers[g.device.id] = t
                case .unset, .error:
                    if let t = IIOSensorSource.pickTrigger(for: g.device, in: devices) {
                        chosenTriggers[g.device.id] = t
                    } else {
                        bufferProblems.append("\(g.device.displayName) needs a trigger and none is available; create one with `mkdir /sys/kernel/config/iio/triggers/hrtimer/lodestone` (CONFIG_IIO_HRTIMER_TRIGGER) and run again")
                    }
                }
            }
            if bufferProblems.isEmpty {
                mode = .buffered
            } else if mode == .buffered {
                throw .unsupported("buffered capture is not possible on \(cfg.uri): \(bufferProblems.joined(separator: "; ")). Use --mode polled or auto.")
            } else {
                notes.append("polled: \(bufferProblems.joined(separator: "; "))")
                mode = .polled
            }
        }

        // Rates: the nearest available value on every device involved.
        var appliedRate: [String: Double] = [:]
        var written: Set<String> = []
        for g in groups {
            let wantsMag = g.sensors.count == 1 && g.sensors[0].kind == .magnetometer
            let want = wantsMag ? (cfg.magnetometerRate ?? cfg.rate) : cfg.rate
            var deviceRate: Double? = nil
            for s in g.sensors {
                guard let file = s.info.samplingFrequencyFile else { continue }
                let key = g.device.id + "/" + file
                if written.contains(key) { deviceRate = deviceRate ?? s.info.samplingFrequency; continue }
                written.insert(key)
                let available = g.device.first(of: IIODiscovery.availableFrequencyFiles(s.kind))
                    .flatMap { try? IIODiscovery.string(g.device, $0) }.map(IIOText.numberList) ?? []
                let text: String
                if let best = available.min(by: { abs($0.value - want) < abs($1.value - want) }) {
                    text = best.text
                } else {
                    text = IIOSourceConfiguration.rateText(want)
                }
                let e = g.device.write(file, text)
                if e == EACCES || e == EPERM {
                    throw IIODiscovery.fileError(g.device, file, e, operation: "writing \(file)", uri: cfg.uri)
                } else if e != 0 {
                    notes.append("\(g.device.displayName): could not set \(file) to \(text): \(errorText(e))")
                }
                let now = (try? IIODiscovery.string(g.device, file)).flatMap(IIOText.double)
                deviceRate = deviceRate ?? now
            }
            if let t = chosenTriggers[g.device.id] {
                if t.has("sampling_frequency") {
                    let text = IIOSourceConfiguration.rateText(want)
                    if t.write("sampling_frequency", text) != 0 { notes.append("could not set \(t.displayName) sampling_frequency") }
                    deviceRate = (try? IIODiscovery.string(t, "sampling_frequency")).flatMap(IIOText.double) ?? deviceRate
                }
            }
            appliedRate[g.device.id] = deviceRate ?? want
        }
        for (id, t) in chosenTriggers {
            guard let g = groups.first(where: { $0.device.id == id }) else { continue }
            let r = iio_device_set_trigger(g.device.pointer, t.pointer)
            if r < 0 {
                let e = Int32(clamping: -r)
                if e == EACCES || e == EPERM { throw IIODiscovery.fileError(g.device, "trigger/current_trigger", e, operation: "setting the trigger", uri: cfg.uri) }
                throw .unsupported("\(g.device.displayName): cannot set trigger \(t.name ?? t.id): \(errorText(e))")
            }
            triggers[id] = t.name ?? t.id
        }

        // Rebind after the rate change so the listing shows what is in force.
        func refreshed(_ b: SensorBinding) throws(IIOSourceError) -> SensorBinding {
            try IIODiscovery.bind(b.kind, on: b.device, applyCorrections: fix) ?? b
        }
        magnetometer = try refreshed(mag)
        accelerometer = try refreshed(acc)
        gyroscope = try gyro.map { b throws(IIOSourceError) in try refreshed(b) }
        magTransform = cfg.boardRotation * magnetometer.mountMatrix
        accelTransform = cfg.boardRotation * accelerometer.mountMatrix
        gyroTransform = cfg.boardRotation * (gyroscope?.mountMatrix ?? .identity)

        let newEngine: CaptureEngine
        staleMagnetometerNs = .max
        if mode == .buffered {
            var plans: [DeviceCapturePlan] = []
            for g in groups {
                // The rate read back from the device may be anything: kept within what the source allows.
                let rate = min(max(0.01, appliedRate[g.device.id] ?? cfg.rate), IIOSourceConfiguration.maximumDeviceRate)
                var offset: Int64 = 0
                let hasTS = g.device.channel("timestamp").map { iio_channel_is_scan_element($0) } ?? false
                if hasTS, g.device.has("current_timestamp_clock"), let name = try? IIODiscovery.string(g.device, "current_timestamp_clock") {
                    offset = Clock.id(named: String(IIOText.trimmed(name))).map(Clock.offsetToRealtime) ?? 0
                }
                let perRefill = min(max(1, Int(saturating: rate * cfg.bufferLatency)), 1 << 20)
                let timeout = min(max(Int(saturating: cfg.readTimeout * 1000), Int(saturating: 3000 * Double(perRefill) / rate)), 3_600_000)
                plans.append(DeviceCapturePlan(deviceID: g.device.id, displayName: g.device.displayName, kinds: g.sensors.map(\.kind),
                                               useTimestamp: hasTS, clockOffsetNs: offset, samplesPerRefill: perRefill,
                                               periodNs: Int64(saturating: 1e9 / rate), timeoutMs: timeout))
            }
            newEngine = try BufferedCapture(context: ctx, plans: plans)
            if magnetometer.device.id != accelerometer.device.id {
                let magRate = min(max(0.01, appliedRate[magnetometer.device.id] ?? cfg.rate), IIOSourceConfiguration.maximumDeviceRate)
                staleMagnetometerNs = Int64(saturating: max(0.5, 3 / magRate + 2 * cfg.bufferLatency) * 1e9)
            }
        } else {
            newEngine = PolledCapture(context: ctx, sensors: [magnetometer, accelerometer] + (gyroscope.map { [$0] } ?? []), rate: cfg.rate)
        }

        context = ctx
        engine = newEngine
        heldMag.reset()
        heldGyro.reset()
        if gyroscope != nil, diagnostics.gyroscope == nil { diagnostics.gyroscope = IIOSensorHealth(kind: .gyroscope) }
        metadata.mode = mode
        metadata.magnetometer = magnetometer.info
        metadata.accelerometer = accelerometer.info
        metadata.gyroscope = gyroscope?.info
        metadata.triggers = triggers
        metadata.notes = notes
    }

    /// A trigger for `device`: its own (`<name>-dev<N>`, `<name>-trigger`), else a
    /// free-standing one such as an hrtimer trigger. Sysfs triggers need manual
    /// firing and are never chosen.
    static func pickTrigger(for device: IIODevice, in devices: [IIODevice]) -> IIODevice? {
        let triggers = devices.filter(\.isTrigger)
        if let name = device.name, let own = triggers.first(where: { ($0.name ?? "").hasPrefix(name + "-") }) { return own }
        let deviceNames = devices.filter { !$0.isTrigger }.compactMap(\.name)
        return triggers.first { t in
            let n = t.name ?? ""
            return !n.hasPrefix("sysfstrig") && !deviceNames.contains { n.hasPrefix($0 + "-") }
        }
    }
}
