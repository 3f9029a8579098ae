/// A small command-line parser: `--opt value`, `--opt=value`, flags and positionals.
///
/// A value is taken verbatim even when it starts with `-`, so `--lat -33.86`
/// works; a lone `-` is a positional (standard input); `--` ends the options.
struct CommandLineArguments {
    struct Option {
        let name: String
        let short: Character?
        let valueName: String?
        let help: String

        /// An option that takes a value, shown as `--name VALUE`.
        static func value(_ name: String, _ valueName: String, short: Character? = nil, _ help: String) -> Option {
            Option(name: name, short: short, valueName: valueName, help: help)
        }

        /// An option without a value.
        static func flag(_ name: String, short: Character? = nil, _ help: String) -> Option {
            Option(name: name, short: short, valueName: nil, help: help)
        }
    }

    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    init(_ arguments: [String], options: [Option]) throws(UsageError) {
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
                let suggestion = Self.closest(to: name, among: options.map(\.name)).map { "; did you mean --\($0)?" } ?? ""
                throw UsageError("unknown option '--\(name)'\(suggestion)")
            }
            if option.valueName == nil {
                guard inline == nil else { throw UsageError("option --\(name) takes no value") }
                flags.insert(name)
            } else if let inline {
                values[name] = inline
            } else {
                guard i < arguments.count else { throw UsageError("option --\(name) needs a value (\(option.valueName!))") }
                values[name] = arguments[i]
                i += 1
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func string(_ name: String) -> String? { values[name] }

    /// A finite number, or nil when absent.
    func double(_ name: String) throws(UsageError) -> Double? {
        guard let text = values[name] else { return nil }
        guard let v = Double(text), v.isFinite else {
            throw UsageError("--\(name) needs a number, got '\(text)'")
        }
        return v
    }

    func double(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let v = try double(name) else { return nil }
        guard range.contains(v) else {
            throw UsageError("--\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(v)")
        }
        return v
    }

    func integer(_ name: String, minimum: Int = Int.min) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let v = Int(text), v >= minimum else {
            throw UsageError("--\(name) needs a whole number ≥ \(minimum), got '\(text)'")
        }
        return v
    }

    /// Exactly `names.count` positionals, or fewer when the rest are optional.
    func positionals(required: Int, optional: Int = 0, _ names: String) throws(UsageError) -> [String] {
        guard positionals.count >= required else { throw UsageError("missing \(names)") }
        guard positionals.count <= required + optional else {
            throw UsageError("unexpected argument '\(positionals[required + optional])'")
        }
        return positionals
    }

    private static func isNumber(_ s: String) -> Bool {
        s.count > 1 && Double(s) != nil
    }

    private static func closest(to name: String, among names: [String]) -> String? {
        let scored = names.map { ($0, editDistance(name, $0)) }.min { $0.1 < $1.1 }
        guard let (best, d) = scored, d <= max(2, name.count / 3) else { return nil }
        return best
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                let next = min(row[j] + 1, row[j - 1] + 1, previous + cost)
                previous = row[j]
                row[j] = next
            }
        }
        return row[b.count]
    }
}

/// A mistake in how the command was called (exit code 2).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
