#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneCore

/// Reads the `*_raw` attributes of every sensor at a fixed rate, on the caller's thread.
final class PolledCapture: CaptureEngine {
    private let context: IIOContext
    private let sensors: [SensorBinding]
    private let periodNs: Int64
    private var nextTick: Int64 = 0
    private let offsetNs: Int64
    let droppedScans = 0
    /// Polling reads one scan per call, when it is due.
    let hasQueuedAccelerometerScan = false

    init(context: IIOContext, sensors: [SensorBinding], rate: Double) {
        self.context = context
        self.sensors = sensors
        periodNs = Int64(saturating: (1e9 / max(0.01, rate)).rounded())
        offsetNs = Clock.offsetToRealtime(CLOCK_MONOTONIC)
    }

    func next(_ cancellation: IIOCancellation) throws(IIOSourceError) -> CaptureEvent? {
        let now = Clock.nanoseconds(CLOCK_MONOTONIC)
        if nextTick == 0 || now - nextTick > 2 * periodNs {
            nextTick = now
        } else {
            // Sleep to the tick in slices of at most 50 ms, watching for a cancellation.
            while true {
                if cancellation.isCancelled { return nil }
                let t = Clock.nanoseconds(CLOCK_MONOTONIC)
                guard t < nextTick else { break }
                Clock.sleep(untilMonotonic: min(nextTick, t + 50_000_000))
            }
        }
        let stamp = Clock.nanoseconds(CLOCK_MONOTONIC)
        nextTick += periodNs
        var event = CaptureEvent()
        event.timeNs = stamp + offsetNs
        for s in sensors {
            let raw = try read(s)
            switch s.kind {
            case .magnetometer: event.magnetometer = raw; event.hasMagnetometer = true
            case .accelerometer: event.accelerometer = raw; event.hasAccelerometer = true
            case .gyroscope: event.gyroscope = raw; event.hasGyroscope = true
            }
        }
        return event
    }

    private func read(_ s: SensorBinding) throws(IIOSourceError) -> RawTriple {
        var v: (Int64, Int64, Int64) = (0, 0, 0)
        for axis in 0..<3 {
            switch s.device.readInteger(s.rawAttributes[axis]) {
            case .success(let x):
                if axis == 0 { v.0 = x } else if axis == 1 { v.1 = x } else { v.2 = x }
            case .failure(let e):
                throw IIODiscovery.fileError(s.device, s.info.channels[axis].rawFile, e.code,
                                             operation: "reading \(s.info.channels[axis].rawFile)", uri: context.uri)
            }
        }
        return RawTriple(v.0, v.1, v.2)
    }

    func stop() {}
}
