/// The text of `lodestone help COMMAND`.
public enum CommandHelp {
    public static func text(usage: String, summary: String, discussion: String, options: [CommandLineOption]) -> String {
        var text = "Usage: lodestone \(usage)\n\n\(summary)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let all = options.filter { $0.refusal == nil } + [.flag("help", short: "h", "Show this help.")]
        text += "\nOptions:\n"
        let labels = all.map { o -> String in
            let short = o.short.map { "-\($0), " } ?? "    "
            return "  \(short)--\(o.name)" + (o.valueName.map { " \($0)" } ?? "")
        }
        let width = min(34, (labels.map(\.count).max() ?? 0) + 2)
        for (label, o) in zip(labels, all) {
            let pad = label.count < width ? String(repeating: " ", count: width - label.count) : "\n" + String(repeating: " ", count: width)
            text += label + pad + o.help + "\n"
        }
        return text
    }
}
