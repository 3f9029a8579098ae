/// A small command-line parser: `--opt value`, `--opt=value`, flags and positionals.
///
/// A value is taken verbatim even when it starts with `-`, so `--lat -33.86`
/// works; a lone `-` is a positional (standard input); `--` ends the options.
/// An option given twice is refused, unless it is repeatable: a value
/// silently replaced is a setting the user believes in and does not get.
public struct CommandLineArguments: Sendable {
    /// The value of each option given; the last, for a repeatable one.
    public private(set) var values: [String: String] = [:]
    /// Every value of each repeatable option given, in order.
    public private(set) var repeatedValues: [String: [String]] = [:]
    public private(set) var flags: Set<String> = []
    public private(set) var positionals: [String] = []

    public init(_ arguments: [String], options: [CommandLineOption]) throws(UsageError) {
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") || Self.isNumber(arg) {
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inline: String?
            if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    name = String(body[..<eq])
                    inline = String(body[body.index(after: eq)...])
                } else {
                    name = String(body)
                }
            } else {
                let body = arg.dropFirst()
                guard body.count == 1, let option = options.first(where: { $0.short == body.first }) else {
                    throw UsageError("unknown option '\(arg)'")
                }
                name = option.name
            }
            guard let option = byName[name] else {
                let suggestion = ClosestName.closest(to: name, among: options.filter { $0.refusal == nil }.map(\.name))
                    .map { "; did you mean --\($0)?" } ?? ""
                throw UsageError("unknown option '--\(name)'\(suggestion)")
            }
            if let refusal = option.refusal { throw UsageError("--\(name) does not apply here: \(refusal)") }
            if option.valueName == nil {
                guard inline == nil else { throw UsageError("option --\(name) takes no value") }
                flags.insert(name)
            } else if let inline {
                try take(inline, for: option)
            } else {
                guard i < arguments.count else { throw UsageError("option --\(name) needs a value (\(option.valueName!))") }
                try take(arguments[i], for: option)
                i += 1
            }
        }
    }

    private mutating func take(_ value: String, for option: CommandLineOption) throws(UsageError) {
        if let earlier = values[option.name], !option.isRepeatable {
            throw UsageError("--\(option.name) is given twice ('\(earlier)', then '\(value)'); give it once")
        }
        values[option.name] = value
        if option.isRepeatable { repeatedValues[option.name, default: []].append(value) }
    }

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    public func string(_ name: String) -> String? { values[name] }

    /// Every value given for a repeatable option, in order; empty when it is absent.
    public func strings(_ name: String) -> [String] { repeatedValues[name] ?? [] }

    /// A finite number, or nil when absent.
    public func double(_ name: String) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let v = Double(text), v.isFinite else {
            throw UsageError("--\(name) needs a number, got '\(text)'")
        }
        return v
    }

    public func double(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let v = try double(name) else { return nil }
        guard range.contains(v) else {
            throw UsageError("--\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(v)")
        }
        return v
    }

    public func integer(_ name: String, minimum: Int = Int.min) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let v = Int(text), v >= minimum else {
            throw UsageError("--\(name) needs a whole number ≥ \(minimum), got '\(text)'")
        }
        return v
    }

    /// Exactly `names.count` positionals, or fewer when the rest are optional.
    public func positionals(required: Int, optional: Int = 0, _ names: String) throws(UsageError) -> [String] {
        guard positionals.count >= required else { throw UsageError("missing \(names)") }
        guard positionals.count <= required + optional else {
            throw UsageError("unexpected argument '\(positionals[required + optional])'")
        }
        return positionals
    }

    private static func isNumber(_ s: String) -> Bool {
        s.count > 1 && Double(s) != nil
    }
}
