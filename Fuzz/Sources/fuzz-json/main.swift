import FuzzSupport
import LodestoneJSON

// The JSON parser: never traps; what it accepts, the writer writes back to the same value.
runFuzzer { bytes in
    guard let value = try? JSONParser.parse(bytes) else { return }
    let writer = JSONLineBuilder(capacity: 64)
    writer.append(value)
    let again = try? JSONParser.parse(bytes: Array(writer.bytes))
    precondition(again == value, "the JSON writer's text reads back as another value")
}
