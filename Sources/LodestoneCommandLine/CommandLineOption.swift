/// One option of a command: `--name VALUE` or a flag, with its help line.
public struct CommandLineOption: Sendable {
    public let name: String
    public let short: Character?
    /// Shown after the name (`--rate HZ`); nil for a flag.
    public let valueName: String?
    public let help: String

    /// An option that takes a value, shown as `--name VALUE`.
    public static func value(_ name: String, _ valueName: String, short: Character? = nil, _ help: String) -> CommandLineOption {
        CommandLineOption(name: name, short: short, valueName: valueName, help: help)
    }

    /// An option without a value.
    public static func flag(_ name: String, short: Character? = nil, _ help: String) -> CommandLineOption {
        CommandLineOption(name: name, short: short, valueName: nil, help: help)
    }
}
