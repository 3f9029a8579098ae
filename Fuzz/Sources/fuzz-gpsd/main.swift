import FuzzSupport
import LodestoneCore
import LodestoneNetwork
import LodestonePosition

// gpsd's JSON reports as they arrive on the socket: lines, then TPV, VERSION, ERROR …;
// every fix that comes out is one the rest of the service can use.
runFuzzer { bytes in
    var lines = LineAssembler(limit: 1 << 16)
    lines.feed(UnsafeRawBufferPointer(bytes)) { item, line in
        guard item == .line, let report = GPSDReport.parse(line, receivedAt: 1.7e9) else { return }
        switch report {
        case .fix(let f):
            precondition((-90...90).contains(f.latitude) && (-180...360).contains(f.longitude), "a fix out of range")
            if let c = f.course { precondition(c >= 0 && c < 360, "a course out of [0, 360)") }
            if let s = f.speed { precondition(s.isFinite && s >= 0, "a bad speed") }
            precondition(f.timestamp.isFinite, "a fix without a finite time")
        case .noFix(let mode):
            precondition((0...3).contains(mode), "a mode out of range")
        case .version, .error, .other:
            break
        }
    }
}
