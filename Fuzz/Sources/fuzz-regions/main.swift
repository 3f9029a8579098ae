import FuzzSupport
import LodestoneLocation

// The saved regions of `serve` and `lodestone regions --file`: what the reader accepts,
// the writer writes, and reads back as the same set.
runFuzzer { bytes in
    guard let regions = try? RegionSet(json: bytes) else { return }
    guard let text = try? regions.jsonBytes() else {
        preconditionFailure("a region set that was read does not validate for writing")
    }
    guard let again = try? RegionSet(json: text) else {
        preconditionFailure("a written region set cannot be read back")
    }
    precondition(again == regions, "a region set changed on a write and read")
}
