import Foundation
import LodestoneCommandLine
import LodestoneIIO

/// `lodestone devices`: what IIO sensors the board has, as Lodestone sees them.
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "List the IIO devices and the sensors Lodestone recognises on them."
    static let usage = "devices [--uri URI] [--json]"
    static let discussion = """
        For every sensor: its channels, scale (and µT, m/s² or rad/s per count after
        driver corrections), buffer scan index and type, sampling rate and the rates
        offered, and its mount matrix (v_device = M · v_chip, from the file named).
        For every device: whether it can be read buffered, and through which trigger.
        --json prints the same as a JSON array (one object per device).
        Exit code 3 (as every command) when the context cannot be opened: no IIO, no
        permission, iiod unreachable.
        """
    static let options: [CommandLineOption] = [
        .value("uri", "URI", "libiio context: local: (default), ip:HOST[:PORT], usb:…, serial:…"),
        .flag("json", "Print JSON instead of text."),
    ]

    static func run(_ arguments: CommandLineArguments) throws -> ExitCode {
        _ = try arguments.positionals(required: 0, "")
        let uri = arguments.string("uri") ?? "local:"
        let devices: [IIODeviceInfo]
        do {
            devices = try IIODeviceCatalog.list(uri: uri)
        } catch {
            throw CommandFailure(error.exitCode, error.description + error.hint(uri: uri))
        }
        let output = OutputStream(fd: 1)
        defer { output.flush() }
        if arguments.flag("json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            output.write(String(decoding: try encoder.encode(devices), as: UTF8.self) + "\n")
        } else {
            output.write(text(devices, uri: uri))
        }
        return .success
    }

    static func text(_ devices: [IIODeviceInfo], uri: String) -> String {
        var out = ""
        let sensors = devices.filter { !$0.isTrigger }
        if sensors.isEmpty { out += "No IIO devices on \(uri).\n" }
        for d in sensors {
            out += "\(d.id)  \(d.name ?? "(no name)")" + (d.label.map { "  label \($0)" } ?? "") + "\n"
            var buffer = d.bufferCapable ? "yes" : "no (polled only)"
            if d.bufferCapable {
                buffer += d.usesTrigger ? ", triggered (trigger: \(d.currentTrigger ?? "none set; Lodestone picks one"))" : ", hardware FIFO"
                if d.hasTimestamp { buffer += ", timestamp clock \(d.timestampClock ?? "realtime")" }
            }
            out += "  buffer        \(buffer)\n"
            let other = d.channels.filter { id in !d.sensors.contains { $0.channels.contains { $0.id == id } } }
            if !other.isEmpty { out += "  channels      \(other.joined(separator: ", ")) (not used)\n" }
            for s in d.sensors {
                out += "  \(s.kind.noun)\n"
                out += "    channels      \(s.channels.map(\.id).joined(separator: ", "))\n"
                let files = Set(s.channels.compactMap(\.scaleFile)).sorted()
                out += "    scale         \(axes(s.channels.map(\.scale))) (\(files.joined(separator: ", ")))"
                out += " → \(axes(s.unitsPerCount)) \(s.kind.unit)/count\n"
                let offsets = s.channels.map(\.offset)
                if offsets.contains(where: { $0 != 0 }) { out += "    offset        \(offsets.map(number).joined(separator: ", "))\n" }
                let types = s.channels.compactMap(\.scanType)
                if !types.isEmpty {
                    let indices = s.channels.map { $0.scanIndex.map(String.init) ?? "-" }
                    out += "    scan          index \(indices.joined(separator: ", ")), type \(Set(types).sorted().joined(separator: " / "))\n"
                }
                var rate = s.samplingFrequency.map { "\(number($0)) Hz" + (s.samplingFrequencyFile.map { " (\($0))" } ?? "") } ?? "not settable"
                if !s.availableSamplingFrequencies.isEmpty {
                    rate += "; offers \(s.availableSamplingFrequencies.map(number).joined(separator: " "))"
                }
                out += "    rate          \(rate)\n"
                out += "    mount matrix  \(matrix(s.mountMatrix)) (\(s.mountMatrixFile ?? "none: identity"))\n"
                for c in s.corrections { out += "    correction    \(c)\n" }
            }
        }
        let triggers = devices.filter(\.isTrigger)
        if !triggers.isEmpty {
            out += "triggers        \(triggers.map { "\($0.id) \($0.name ?? "")" }.joined(separator: ", "))\n"
        }
        let kinds = Set(sensors.flatMap { $0.sensors.map(\.kind) })
        if kinds.contains(.magnetometer) && kinds.contains(.accelerometer) {
            out += "A magnetometer and an accelerometer: 'lodestone watch\(uri == "local:" ? "" : " --uri \(uri)")' can run.\n"
        } else {
            let missing = [IIOSensorKind.magnetometer, .accelerometer].filter { !kinds.contains($0) }.map(\.noun)
            out += "No \(missing.joined(separator: " and ")) found: 'lodestone watch' cannot run here.\n"
        }
        return out
    }

    /// One value when the three axes agree, else three.
    static func axes(_ v: [Double]) -> String {
        Set(v).count == 1 ? number(v[0]) : v.map(number).joined(separator: ", ")
    }

    /// Shortest round-trip digits, without an exponent (scales such as 0.000009174).
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        let text = "\(v)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]) else { return text }
        let negative = text.hasPrefix("-")
        let mantissa = text[..<e].filter { $0 != "-" }
        let dot = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        var digits = mantissa.filter { $0 != "." }
        var point = dot + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        } else if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        var result = String(digits.prefix(point)) + (point < digits.count ? "." + digits.dropFirst(point) : "")
        while result.contains("."), result.hasSuffix("0") { result.removeLast() }
        if result.hasSuffix(".") { result.removeLast() }
        return (negative ? "-" : "") + result
    }

    static func matrix(_ m: [Double]) -> String {
        guard m.count == 9 else { return m.map(number).joined(separator: ", ") }
        return (0..<3).map { r in (0..<3).map { c in number(m[3 * r + c]) }.joined(separator: ", ") }.joined(separator: "; ")
    }
}
