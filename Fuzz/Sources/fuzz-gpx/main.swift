import FuzzSupport
import LodestoneLocation

// GPX files (and the XML reader under them).
runFuzzer { bytes in
    _ = try? GPXReader.read(bytes: Array(bytes))
}
