import FuzzSupport
import LodestoneCore
import LodestoneLogs

let file = MemoryFile()

// CSV and native logs: the header, the metadata line, every sample line; the first
// byte's low bit chooses whether bad lines are skipped or end the log.
runFuzzer { bytes in
    file.write(bytes)
    let skip = bytes.first.map { $0 & 1 == 1 } ?? false
    guard let reader = try? LogReader(path: file.path, options: .init(skipBadLines: skip, bufferSize: 4096)) else { return }
    var last = -Double.infinity
    while let sample = try? reader.nextSample() {
        precondition(sample.time.isFinite && sample.time >= last, "a sample out of time order got through")
        precondition(sample.acceleration.x.isFinite && sample.magneticField.z.isFinite, "a non-finite sample got through")
        last = sample.time
    }
}
