import CLibIIO
import LodestoneCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The sensors found for a configuration, and the devices that hold them.
struct ResolvedSensors {
    /// One IIO device and the sensors read from it (a combined part holds several).
    struct DeviceGroup {
        let device: IIODevice
        var sensors: [SensorBinding]
    }

    var magnetometer: SensorBinding
    var accelerometer: SensorBinding
    var gyroscope: SensorBinding?

    var all: [SensorBinding] { [magnetometer, accelerometer] + (gyroscope.map { [$0] } ?? []) }

    /// The sensors by device, in first-seen order (magnetometer, accelerometer, gyroscope).
    var groups: [DeviceGroup] {
        var groups: [DeviceGroup] = []
        for b in all {
            if let i = groups.firstIndex(where: { $0.device.id == b.device.id }) {
                groups[i].sensors.append(b)
            } else {
                groups.append(DeviceGroup(device: b.device, sensors: [b]))
            }
        }
        return groups
    }

    /// The same sensors bound again, so that scales and rates show what is in force now.
    func rebound(applyCorrections: Bool) throws(IIOSourceError) -> ResolvedSensors {
        func again(_ b: SensorBinding) throws(IIOSourceError) -> SensorBinding {
            try IIODiscovery.bind(b.kind, on: b.device, applyCorrections: applyCorrections) ?? b
        }
        return ResolvedSensors(magnetometer: try again(magnetometer), accelerometer: try again(accelerometer),
                               gyroscope: try gyroscope.map { b throws(IIOSourceError) in try again(b) })
    }
}

/// How the devices will be read, as the steps of opening decide it.
struct CapturePlan {
    /// `buffered` or `polled` (never `auto`).
    var mode: IIOCaptureMode
    /// Trigger in force per device id, found or set.
    var triggers: [String: String] = [:]
    /// Triggers still to be set, per device id (buffered mode).
    var triggersToSet: [String: IIODevice] = [:]
    /// The rate each device runs at, per device id.
    var rates: [String: Double] = [:]
    /// Things the user may want to know (a rate that could not be set …).
    var notes: [String] = []
}

/// Opening an ``IIOSensorSource``, as a sequence of named steps:
/// resolve → mode → rates → triggers → engine.
enum IIOSourceSetup {
    /// Finds the magnetometer, the accelerometer (preferably on the magnetometer's
    /// device) and, when wanted, the gyroscope (preferably on the accelerometer's).
    static func resolve(_ cfg: IIOSourceConfiguration, devices: [IIODevice]) throws(IIOSourceError) -> ResolvedSensors {
        let fix = cfg.applyDriverCorrections
        guard let mag = try IIODiscovery.resolve(.magnetometer, pin: cfg.magnetometerDevice, preferred: nil, devices: devices,
                                                 uri: cfg.uri, applyCorrections: fix) else {
            throw .sensorNotFound(kind: .magnetometer, uri: cfg.uri, lookedFor: IIOSensorKind.magnetometer.rawFiles,
                                  found: IIODiscovery.summaries(devices))
        }
        guard let acc = try IIODiscovery.resolve(.accelerometer, pin: cfg.accelerometerDevice, preferred: mag.device.id, devices: devices,
                                                 uri: cfg.uri, applyCorrections: fix) else {
            throw .sensorNotFound(kind: .accelerometer, uri: cfg.uri, lookedFor: IIOSensorKind.accelerometer.rawFiles,
                                  found: IIODiscovery.summaries(devices))
        }
        var gyro: SensorBinding? = nil
        if cfg.useGyroscope || cfg.gyroscopeDevice != nil {
            gyro = try IIODiscovery.resolve(.gyroscope, pin: cfg.gyroscopeDevice, preferred: acc.device.id, devices: devices,
                                            uri: cfg.uri, applyCorrections: fix)
        }
        return ResolvedSensors(magnetometer: mag, accelerometer: acc, gyroscope: gyro)
    }

    /// Buffered when every device involved has a buffer and a trigger (its own, one
    /// already set, or one to pick); else polled, with a note, unless buffered was asked for.
    static func mode(_ cfg: IIOSourceConfiguration, _ sensors: ResolvedSensors, devices: [IIODevice]) throws(IIOSourceError) -> CapturePlan {
        var plan = CapturePlan(mode: cfg.mode)
        guard cfg.mode != .polled else { return plan }
        var problems: [String] = []
        for g in sensors.groups {
            if g.sensors.contains(where: { $0.scanIndices.contains(nil) }) {
                problems.append("\(g.device.displayName) has no scan elements (no buffer)")
                continue
            }
            switch g.device.triggerState() {
            case .notNeeded: break
            case .set(let t): plan.triggers[g.device.id] = t
            case .unset, .error:
                if let t = pickTrigger(for: g.device, in: devices) {
                    plan.triggersToSet[g.device.id] = t
                } else {
                    problems.append("\(g.device.displayName) needs a trigger and none is available; create one with `mkdir /sys/kernel/config/iio/triggers/hrtimer/lodestone` (CONFIG_IIO_HRTIMER_TRIGGER) and run again")
                }
            }
        }
        if problems.isEmpty {
            plan.mode = .buffered
        } else if cfg.mode == .buffered {
            throw .unsupported("buffered capture is not possible on \(cfg.uri): \(problems.joined(separator: "; ")). Use --mode polled or auto.")
        } else {
            plan.notes.append("polled: \(problems.joined(separator: "; "))")
            plan.mode = .polled
        }
        return plan
    }

    /// Sets every device (and each trigger to be set) to the offered rate nearest the
    /// one asked for (a magnetometer alone on its device: its own rate, when given), and
    /// records the rate each device runs at.
    static func rates(_ cfg: IIOSourceConfiguration, _ sensors: ResolvedSensors, plan: inout CapturePlan) throws(IIOSourceError) {
        var written: Set<String> = []
        for g in sensors.groups {
            let magnetometerAlone = g.sensors.count == 1 && g.sensors[0].kind == .magnetometer
            let want = magnetometerAlone ? (cfg.magnetometerRate ?? cfg.rate) : cfg.rate
            var deviceRate: Double? = nil
            for s in g.sensors {
                guard let file = s.info.samplingFrequencyFile else { continue }
                let key = g.device.id + "/" + file
                if written.contains(key) {
                    deviceRate = deviceRate ?? s.info.samplingFrequency
                    continue
                }
                written.insert(key)
                let now = try setNearestRate(want, file: file, of: s.kind, on: g.device, cfg: cfg, notes: &plan.notes)
                deviceRate = deviceRate ?? now
            }
            if let t = plan.triggersToSet[g.device.id], t.has("sampling_frequency") {
                if t.write("sampling_frequency", IIOSourceConfiguration.rateText(want)) != 0 { plan.notes.append("could not set \(t.displayName) sampling_frequency") }
                deviceRate = (try? IIODiscovery.string(t, "sampling_frequency")).flatMap(IIOText.double) ?? deviceRate
            }
            plan.rates[g.device.id] = deviceRate ?? want
        }
    }

    /// Writes the offered rate nearest `want` (or `want` itself when none are listed) to
    /// `file`; returns the rate the device reports afterwards. A refusal for lack of
    /// permission is an error; any other is a note.
    static func setNearestRate(_ want: Double, file: String, of kind: IIOSensorKind, on device: IIODevice,
                               cfg: IIOSourceConfiguration, notes: inout [String]) throws(IIOSourceError) -> Double? {
        let available = device.first(of: IIODiscovery.availableFrequencyFiles(kind))
            .flatMap { try? IIODiscovery.string(device, $0) }.map(IIOText.numberList) ?? []
        let text = available.min(by: { abs($0.value - want) < abs($1.value - want) })?.text ?? IIOSourceConfiguration.rateText(want)
        let e = device.write(file, text)
        if e == EACCES || e == EPERM {
            throw IIODiscovery.fileError(device, file, e, operation: "writing \(file)", uri: cfg.uri)
        } else if e != 0 {
            notes.append("\(device.displayName): could not set \(file) to \(text): \(errorText(e))")
        }
        return (try? IIODiscovery.string(device, file)).flatMap(IIOText.double)
    }

    /// Sets the triggers the mode step picked.
    static func triggers(_ cfg: IIOSourceConfiguration, _ sensors: ResolvedSensors, plan: inout CapturePlan) throws(IIOSourceError) {
        for (id, t) in plan.triggersToSet {
            guard let g = sensors.groups.first(where: { $0.device.id == id }) else { continue }
            let r = iio_device_set_trigger(g.device.pointer, t.pointer)
            if r < 0 {
                let e = Int32(clamping: -r)
                if e == EACCES || e == EPERM {
                    throw IIODiscovery.fileError(g.device, "trigger/current_trigger", e, operation: "setting the trigger", uri: cfg.uri)
                }
                throw .unsupported("\(g.device.displayName): cannot set trigger \(t.name ?? t.id): \(errorText(e))")
            }
            plan.triggers[id] = t.name ?? t.id
        }
    }

    /// The capture engine for the plan, and how long the magnetometer may stay silent
    /// while the accelerometer runs on (`.max` unless they are separate buffered devices).
    static func engine(_ cfg: IIOSourceConfiguration, context: IIOContext, _ sensors: ResolvedSensors,
                       plan: CapturePlan) throws(IIOSourceError) -> (engine: CaptureEngine, staleMagnetometerNs: Int64) {
        guard plan.mode == .buffered else {
            return (PolledCapture(context: context, sensors: sensors.all, rate: cfg.rate), .max)
        }
        let plans = sensors.groups.map { capturePlan(for: $0, cfg: cfg, rate: plannedRate(plan.rates[$0.device.id], cfg)) }
        let engine = try BufferedCapture(context: context, plans: plans)
        guard sensors.magnetometer.device.id != sensors.accelerometer.device.id else { return (engine, .max) }
        let magRate = plannedRate(plan.rates[sensors.magnetometer.device.id], cfg)
        return (engine, Int64(saturating: max(0.5, 3 / magRate + 2 * cfg.bufferLatency) * 1e9))
    }

    /// The rate read back from a device may be anything: kept within what the source allows.
    static func plannedRate(_ applied: Double?, _ cfg: IIOSourceConfiguration) -> Double {
        min(max(0.01, applied ?? cfg.rate), IIOSourceConfiguration.maximumDeviceRate)
    }

    /// How one device's buffer is read: timestamps (and their clock), refill size, timeout.
    static func capturePlan(for g: ResolvedSensors.DeviceGroup, cfg: IIOSourceConfiguration, rate: Double) -> DeviceCapturePlan {
        var offset: Int64 = 0
        let hasTimestamp = g.device.channel("timestamp").map { iio_channel_is_scan_element($0) } ?? false
        if hasTimestamp, g.device.has("current_timestamp_clock"), let name = try? IIODiscovery.string(g.device, "current_timestamp_clock") {
            offset = Clock.id(named: String(IIOText.trimmed(name))).map(Clock.offsetToRealtime) ?? 0
        }
        let perRefill = min(max(1, Int(saturating: rate * cfg.bufferLatency)), 1 << 20)
        let timeout = min(max(Int(saturating: cfg.readTimeout * 1000), Int(saturating: 3000 * Double(perRefill) / rate)), 3_600_000)
        return DeviceCapturePlan(deviceID: g.device.id, displayName: g.device.displayName, kinds: g.sensors.map(\.kind),
                                 useTimestamp: hasTimestamp, clockOffsetNs: offset, samplesPerRefill: perRefill,
                                 periodNs: Int64(saturating: 1e9 / rate), timeoutMs: timeout)
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
