import LodestoneCore
import LodestoneLogs
import LodestoneSession

/// What gpsd clients get per sample: an ATT object and, for those that asked with
/// `"nmea":true`, the NMEA 0183 sentences of the same heading (HDM, HDT, HDG, XDR).
///
/// Each is encoded at most once per sample, on the first client that needs it, and
/// written without blocking like every other line. Touched only under the hub's lock.
final class GPSDOutput {
    /// gpsd's `device`: the magnetometer's path (set when the source is described).
    var device = "lodestone"
    private let attLine = JSONLineBuilder(capacity: 1024)
    private var sentences: [UInt8] = []
    private var encoder = NMEAEncoder()
    private var encodedATT = false
    private var encodedNMEA = false

    init() {
        sentences.reserveCapacity(256)
    }

    /// The source's devices changed: ATT names the magnetometer (or the log, or the simulated board).
    func describe(_ devices: [DeviceDescription]) {
        device = (devices.first { $0.kind == "magnetometer" } ?? devices.first)?.path ?? "lodestone"
    }

    /// A new sample: nothing is encoded for it yet.
    func begin() {
        encodedATT = false
        encodedNMEA = false
    }

    /// Sends `c` this sample's heading if its policy lets it through. `wakeLoop`: the event
    /// loop must look at the client (output left pending, or a failed socket).
    func deliver(to c: ClientSession, _ h: Heading, direction: HeadingDirection, now: Double, wall: Double, gather: Bool,
                 context: () -> GPSDMessages.Context) -> (delivered: Bool, wakeLoop: Bool) {
        guard var watch = c.gpsd, watch.shouldDeliver(direction, filter: &c.filter, now: now) else { return (false, false) }
        c.gpsd = watch
        var wake = false
        if watch.json {
            if !encodedATT {
                attLine.removeAll()
                GPSDMessages.att(attLine, h, context(), time: wall)
                encodedATT = true
            }
            wake = write(attLine.bytes, to: c, gather: gather) || wake
        }
        if watch.nmea, h.isValid {
            if !encodedNMEA {
                sentences.removeAll(keepingCapacity: true)
                encoder.appendGroup(h, tilt: context().attitude.tilt, to: &sentences)
                encodedNMEA = true
            }
            wake = sentences.withUnsafeBufferPointer { write($0, to: c, gather: gather) } || wake
        }
        return (true, wake)
    }

    private func write(_ bytes: UnsafeBufferPointer<UInt8>, to c: ClientSession, gather: Bool) -> Bool {
        guard !bytes.isEmpty else { return false }
        if gather {
            c.gather(bytes)
            return false
        }
        return c.send(bytes)
    }
}
