import FuzzSupport
import LodestoneLocation

// NMEA 0183 logs read into fixes, with and without stopping at the first bad line.
runFuzzer { bytes in
    let text = String(decoding: bytes, as: UTF8.self)
    let stop = bytes.first.map { $0 & 1 == 1 } ?? false
    guard let (locations, _) = try? NMEAReader.locations(in: text, stopAtFirstError: stop) else { return }
    for l in locations {
        precondition((-90...90).contains(l.latitude) && (-180...360).contains(l.longitude), "a fix out of range")
        precondition(l.timestamp.isFinite, "a fix without a finite time")
    }
}
