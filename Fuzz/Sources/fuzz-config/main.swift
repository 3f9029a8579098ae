import FuzzSupport
import LodestoneJSON
import LodestoneService

// The config file of `lodestone serve`: JSON, then every key applied and validated.
runFuzzer { bytes in
    guard let json = try? JSONParser.parse(bytes) else { return }
    guard let c = try? ServiceConfiguration().applying(json: json, baseDirectory: "/etc/lodestone") else { return }
    do {
        try c.validate()
    } catch {
        preconditionFailure("a configuration that applying(json:) accepted does not validate: \(error)")
    }
}
