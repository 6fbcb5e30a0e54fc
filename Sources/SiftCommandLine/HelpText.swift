/// Renders help from a ``CommandSpec``: the usage line, the summary, then one line per option
/// (names and value on the left, help on the right), wrapped to ``width`` columns.
public enum HelpText {
    /// Lines are wrapped to this many columns (a longer word stays whole).
    public static let width = 100
    /// The option column is at least this wide (two spaces of indent included).
    static let optionColumn = 26

    /// A command's `--help`.
    public static func render(_ spec: CommandSpec) -> String {
        let usage = ["usage: \(spec.invocation) [options]", spec.arguments].filter { !$0.isEmpty }.joined(separator: " ")
        var lines = [usage, ""]
        lines += paragraph(spec.summary)
        lines += ["", "options:"] + optionLines(spec.options)
        for section in spec.sections {
            lines += ["", section.title + ":"] + optionLines(section.options)
        }
        return lines.joined(separator: "\n")
    }

    /// A program's overview: what it is, its usage, and each command with the first sentence
    /// of its summary.
    public static func overview(program: String, about: String, commands: [CommandSpec], footer: String? = nil) -> String {
        var lines = ["\(program) — \(about)", "", "usage: \(program) COMMAND [options]", "", "commands:"]
        for command in commands {
            let first = command.summary.split(separator: ".").first.map(String.init) ?? ""
            lines += wrap(first, first: "  " + pad(command.name, to: 10), indent: String(repeating: " ", count: 12))
        }
        lines += ["", footer ?? "Run `\(program) COMMAND --help` for a command's options."]
        return lines.joined(separator: "\n")
    }

    /// The lines of `options` that are not hidden.
    static func optionLines(_ options: [OptionSpec]) -> [String] {
        options.filter { !$0.hidden }.flatMap { option in
            let left = "  " + option.synopsis
            let column = max(optionColumn, left.count + 2)
            return wrap(option.help, first: pad(left, to: column), indent: String(repeating: " ", count: column))
        }
    }

    /// `text` wrapped to ``width``, each of its lines a paragraph of its own.
    static func paragraph(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { wrap(String($0), first: "", indent: "") }
    }

    /// Words of `text` filled into lines of at most ``width`` columns: the first starts with
    /// `first`, the others with `indent`.
    static func wrap(_ text: String, first: String, indent: String) -> [String] {
        var lines: [String] = []
        var line = first
        var empty = true
        for word in text.split(separator: " ") {
            if !empty && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines
    }

    static func pad(_ text: String, to count: Int) -> String {
        text.count >= count ? text : text + String(repeating: " ", count: count - text.count)
    }
}
