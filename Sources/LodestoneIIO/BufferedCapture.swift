import CLibIIO
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What to capture from one device's buffer.
struct DeviceCapturePlan {
    var deviceID: String
    var displayName: String
    var kinds: [IIOSensorKind]
    var useTimestamp: Bool
    /// Unix ns minus the device's timestamp clock ns.
    var clockOffsetNs: Int64
    var samplesPerRefill: Int
    var periodNs: Int64
    var timeoutMs: Int
}

/// One capture thread per device, each with its own libiio context (libiio
/// contexts are not thread-safe), all feeding one ``EventQueue``.
final class BufferedCapture: CaptureEngine {
    private let queue: EventQueue
    private var readers: [DeviceReader] = []
    private let waitNs: Int64
    private let uri: String

    init(context: IIOContext, plans: [DeviceCapturePlan]) throws(IIOSourceError) {
        uri = context.uri
        queue = EventQueue(capacity: 4096)
        waitNs = Int64(plans.map(\.timeoutMs).max() ?? 2000) * 2_000_000 + 1_000_000_000
        do {
            for plan in plans {
                readers.append(try DeviceReader(context: try context.clone(), plan: plan, queue: queue))
            }
        } catch {
            readers.forEach { $0.stop() }
            throw error
        }
        readers.forEach { $0.start() }
    }

    func next(_ cancellation: IIOCancellation) throws(IIOSourceError) -> CaptureEvent? {
        switch try queue.pop(timeoutNs: waitNs, cancellation: cancellation) {
        case .event(let e): return e
        case .cancelled: return nil
        case .timedOut:
            throw .timeout(uri: uri, device: readers.map(\.plan.displayName).joined(separator: ", "), seconds: Double(waitNs) / 1e9)
        }
    }

    var droppedScans: Int { queue.droppedCount }

    var hasQueuedAccelerometerScan: Bool { queue.hasAccelerometerEvent }

    func stop() {
        readers.forEach { $0.stop() }
        readers.removeAll()
    }

    deinit { stop() }
}

/// Reads one device's buffer on its own thread.
final class DeviceReader: @unchecked Sendable {
    let plan: DeviceCapturePlan
    private let context: IIOContext
    private let queue: EventQueue
    private let device: OpaquePointer
    private let buffer: OpaquePointer
    /// Per kind in `plan.kinds`: x, y, z channels and their formats.
    private let channels: [[OpaquePointer]]
    private let formats: [[IIOScanType]]
    private let timestamp: (OpaquePointer, IIOScanType)?
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private var thread: pthread_t? = nil

    init(context: IIOContext, plan: DeviceCapturePlan, queue: EventQueue) throws(IIOSourceError) {
        self.context = context
        self.plan = plan
        self.queue = queue
        guard let dev = iio_context_find_device(context.pointer, plan.deviceID) else {
            throw .io(uri: context.uri, device: plan.displayName, operation: "finding the device again", errno: ENODEV)
        }
        device = dev
        let n = iio_device_get_channels_count(dev)
        for i in 0..<n { if let c = iio_device_get_channel(dev, i) { iio_channel_disable(c) } }
        var chans: [[OpaquePointer]] = []
        var fmts: [[IIOScanType]] = []
        for kind in plan.kinds {
            var cs: [OpaquePointer] = []
            var fs: [IIOScanType] = []
            for id in kind.channelIDs {
                guard let c = iio_device_find_channel(dev, id, false), iio_channel_is_scan_element(c),
                      let f = iio_channel_get_data_format(c)?.pointee else {
                    throw .unsupported("\(plan.displayName) on \(context.uri): channel \(id) is not a scan element; use --mode polled")
                }
                guard let type = DeviceReader.scanType(f) else { throw DeviceReader.unusableFormat(f, channel: id, plan: plan, context: context) }
                iio_channel_enable(c)
                cs.append(c)
                fs.append(type)
            }
            chans.append(cs)
            fmts.append(fs)
        }
        channels = chans
        formats = fmts
        if plan.useTimestamp, let t = iio_device_find_channel(dev, "timestamp", false), iio_channel_is_scan_element(t),
           let f = iio_channel_get_data_format(t)?.pointee, let type = DeviceReader.scanType(f) {
            iio_channel_enable(t)
            timestamp = (t, type)
        } else {
            timestamp = nil
        }
        context.setTimeout(milliseconds: plan.timeoutMs)
        errno = 0
        guard let buf = iio_device_create_buffer(dev, plan.samplesPerRefill, false) else {
            let e = errno == 0 ? EIO : errno
            if e == EACCES || e == EPERM {
                throw .permissionDenied(uri: context.uri, device: plan.displayName, file: "/dev/\(plan.deviceID) (and buffer/enable, scan_elements/*_en)")
            }
            throw .io(uri: context.uri, device: plan.displayName, operation: "opening the buffer /dev/\(plan.deviceID)", errno: e)
        }
        buffer = buf
        _ = iio_buffer_set_blocking_mode(buf, true)
    }

    /// The channel's format as libiio read it from the `*_type` file; nil when it cannot be decoded.
    static func scanType(_ f: iio_data_format) -> IIOScanType? {
        IIOScanType.checked(isBigEndian: f.is_be, isSigned: f.is_signed, realBits: Int(f.bits), storageBits: Int(f.length),
                            shift: Int(f.shift), repeatCount: Int(max(1, f.repeat)))
    }

    static func unusableFormat(_ f: iio_data_format, channel: String, plan: DeviceCapturePlan, context: IIOContext) -> IIOSourceError {
        let sign = f.is_signed ? "s" : "u", order = f.is_be ? "be" : "le"
        return .unsupported("\(plan.displayName) on \(context.uri): channel \(channel) has a scan format no scan can be decoded with (\(order):\(sign)\(f.bits)/\(f.length)X\(f.repeat)>>\(f.shift) in its scan_elements/*_type file); use --mode polled, and report the driver")
    }

    func start() {
        let box = Unmanaged.passRetained(self).toOpaque()
        var tid = pthread_t()
        let r = pthread_create(&tid, nil, { arg in
            let reader = Unmanaged<DeviceReader>.fromOpaque(arg!).takeRetainedValue()
            reader.run()
            return nil
        }, box)
        if r == 0 {
            thread = tid
        } else {
            Unmanaged<DeviceReader>.fromOpaque(box).release()
            queue.fail(.io(uri: context.uri, device: plan.displayName, operation: "starting a capture thread", errno: r))
        }
    }

    private func run() {
        defer { finished.store(true, ordering: .releasing) }
        while !stopping.load(ordering: .relaxed) {
            let r = iio_buffer_refill(buffer)
            if stopping.load(ordering: .relaxed) { return }
            if r < 0 {
                let e = Int32(clamping: -r)
                if e == ETIMEDOUT {
                    queue.fail(.timeout(uri: context.uri, device: plan.displayName, seconds: Double(plan.timeoutMs) / 1000))
                } else {
                    queue.fail(.io(uri: context.uri, device: plan.displayName, operation: "reading the buffer", errno: e))
                }
                return
            }
            deliver()
        }
    }

    /// Decodes the scans of the last refill into events.
    private func deliver() {
        guard let start = iio_buffer_start(buffer), let end = iio_buffer_end(buffer) else { return }
        let step = iio_buffer_step(buffer)
        guard step > 0 else { return }
        let count = (end - start) / step
        guard count > 0 else { return }
        let readTime = Clock.nanoseconds(CLOCK_REALTIME)
        let tsOffset = timestamp.flatMap { iio_buffer_first(buffer, $0.0) }.map { $0 - start }
        queue.push { append in
            for k in 0..<count {
                let scan = start + k * step
                var e = CaptureEvent()
                if let off = tsOffset, let t = timestamp {
                    e.timeNs = t.1.decode(UnsafeRawPointer(scan + off)) &+ plan.clockOffsetNs
                } else {
                    e.timeNs = readTime - Int64(count - 1 - k) * plan.periodNs
                }
                for (i, kind) in plan.kinds.enumerated() {
                    let cs = channels[i], fs = formats[i]
                    guard let p0 = iio_buffer_first(buffer, cs[0]), let p1 = iio_buffer_first(buffer, cs[1]),
                          let p2 = iio_buffer_first(buffer, cs[2]) else { continue }
                    let raw = RawTriple(fs[0].decode(UnsafeRawPointer(p0 + k * step)),
                                        fs[1].decode(UnsafeRawPointer(p1 + k * step)),
                                        fs[2].decode(UnsafeRawPointer(p2 + k * step)))
                    switch kind {
                    case .magnetometer: e.magnetometer = raw; e.hasMagnetometer = true
                    case .accelerometer: e.accelerometer = raw; e.hasAccelerometer = true
                    case .gyroscope: e.gyroscope = raw; e.hasGyroscope = true
                    }
                }
                append(e)
            }
        }
    }

    /// Stops the thread and releases the buffer. The refill under way is given the time
    /// it needs to finish (about `samplesPerRefill` periods); only a stalled one is
    /// cancelled, because a cancelled buffer over `ip:` makes libiio print errors when
    /// the buffer is then destroyed.
    func stop() {
        if stopping.exchange(true, ordering: .relaxed) { return }
        if thread != nil {
            let deadline = Clock.nanoseconds(CLOCK_MONOTONIC) + 2 * Int64(plan.samplesPerRefill) * plan.periodNs + 100_000_000
            while !finished.load(ordering: .acquiring), Clock.nanoseconds(CLOCK_MONOTONIC) < deadline { usleep(2000) }
        }
        if !finished.load(ordering: .acquiring) { iio_buffer_cancel(buffer) }
        if let t = thread { pthread_join(t, nil) }
        thread = nil
        iio_buffer_destroy(buffer)
    }
}
