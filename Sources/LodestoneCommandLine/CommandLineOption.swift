/// One option of a command: `--name VALUE` or a flag, with its help line.
public struct CommandLineOption: Sendable {
    public let name: String
    public let short: Character?
    /// Shown after the name (`--rate HZ`); nil for a flag.
    public let valueName: String?
    public let help: String
    /// Why a command refuses this option, for an option users may expect there;
    /// nil for an option the command takes. Refused options are not listed in the help.
    public let refusal: String?
    /// Whether the option may be given more than once, each value kept
    /// (``CommandLineArguments/strings(_:)``); any other given twice is refused.
    public let isRepeatable: Bool

    /// An option that takes a value, shown as `--name VALUE`.
    public static func value(_ name: String, _ valueName: String, short: Character? = nil, _ help: String) -> CommandLineOption {
        CommandLineOption(name: name, short: short, valueName: valueName, help: help, refusal: nil, isRepeatable: false)
    }

    /// An option that takes a value and may be given more than once (one magnet per `--magnet`).
    public static func repeatableValue(_ name: String, _ valueName: String, _ help: String) -> CommandLineOption {
        CommandLineOption(name: name, short: nil, valueName: valueName, help: help, refusal: nil, isRepeatable: true)
    }

    /// An option without a value.
    public static func flag(_ name: String, short: Character? = nil, _ help: String) -> CommandLineOption {
        CommandLineOption(name: name, short: short, valueName: nil, help: help, refusal: nil, isRepeatable: false)
    }

    /// An option the command refuses, with the reason (`--forward does not apply: …`).
    public static func refused(_ name: String, _ reason: String) -> CommandLineOption {
        CommandLineOption(name: name, short: nil, valueName: nil, help: "", refusal: reason, isRepeatable: false)
    }
}
