import FuzzSupport
import LodestoneNetwork
import LodestoneService

// Protocol command lines as a client sends them: bytes in arbitrary pieces, split
// into lines (with the server's length limit), each line parsed as a command.
runFuzzer { bytes in
    var lines = LineAssembler(limit: 1024)
    var rest = UnsafeRawBufferPointer(bytes)
    var piece = 1
    while !rest.isEmpty {
        // Piece sizes follow the input, so that the fuzzer also explores how lines are cut.
        let n = min(rest.count, piece)
        lines.feed(UnsafeRawBufferPointer(rebasing: rest[0..<n])) { item, line in
            guard item == .line else { return }
            precondition(line.count <= 1025, "a line longer than the limit was handed out")
            _ = try? ClientCommand.parse(line)
        }
        piece = Int(rest[0] % 61) + 1
        rest = UnsafeRawBufferPointer(rebasing: rest[n...])
    }
}
