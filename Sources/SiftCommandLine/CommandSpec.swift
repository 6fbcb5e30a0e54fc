// The option parser shared by `sift`, `sift-bench` and `sift-train`: one table of options per
// command both parses its command line and prints its `--help`.

/// One option: its names, the name of its value (nil for a flag) and a line of help.
public struct OptionSpec: Sendable {
    /// Every spelling, e.g. `["--limit", "-n"]`; the first long one is the option's key.
    public var names: [String]
    /// Name of the value shown in the help (`N`, `FILE`), or nil for a flag.
    public var value: String?
    public var help: String
    /// May be given more than once; every value is kept (see ``ParsedArguments/all(_:)``).
    public var repeatable: Bool
    /// Parsed but left out of the help (internal options).
    public var hidden: Bool

    public init(names: [String], value: String? = nil, help: String, repeatable: Bool = false, hidden: Bool = false) {
        self.names = names
        self.value = value
        self.help = help
        self.repeatable = repeatable
        self.hidden = hidden
    }

    /// The name values and flags are stored under: the first `--` name, else the last name.
    public var key: String { names.first { $0.hasPrefix("--") } ?? names.last ?? "" }

    /// `--limit, -n N …` as the help shows it.
    public var synopsis: String {
        names.joined(separator: ", ") + (value.map { " \($0)" } ?? "") + (repeatable ? " …" : "")
    }
}

/// A titled group of options printed after the main ones (e.g. profiling options).
public struct HelpSection: Sendable {
    public var title: String
    public var options: [OptionSpec]

    public init(title: String, options: [OptionSpec]) {
        self.title = title
        self.options = options
    }
}

/// A command's interface: what it is called, what it does, its options and positionals.
public struct CommandSpec: Sendable {
    /// What a non-repeatable option given twice does.
    public enum Repeats: Sendable {
        /// A usage error: `--limit given more than once`.
        case rejected
        /// The last value wins.
        case lastWins
    }

    /// The executable, e.g. `sift`.
    public var program: String
    /// The subcommand, e.g. `search`; empty for a program without subcommands.
    public var name: String
    /// One paragraph; its first sentence is the command's line in ``HelpText/overview(program:about:commands:footer:)``.
    public var summary: String
    /// The positional arguments as the usage line shows them, e.g. `QUERY` or `FILE|-`.
    public var arguments: String
    public var options: [OptionSpec]
    public var sections: [HelpSection]
    /// Smallest and largest number of positional arguments.
    public var positionals: ClosedRange<Int>
    public var repeats: Repeats
    /// Whole numbers may be written with `_` separators (`100_000`).
    public var digitSeparators: Bool

    public init(
        program: String, name: String = "", summary: String, arguments: String = "", options: [OptionSpec],
        sections: [HelpSection] = [], positionals: ClosedRange<Int> = 0...0, repeats: Repeats = .rejected,
        digitSeparators: Bool = false
    ) {
        self.program = program
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.options = options
        self.sections = sections
        self.positionals = positionals
        self.repeats = repeats
        self.digitSeparators = digitSeparators
    }

    /// `sift search`, or `sift-bench`.
    public var invocation: String { name.isEmpty ? program : "\(program) \(name)" }

    /// The options of the main list and of every section.
    public var allOptions: [OptionSpec] { options + sections.flatMap(\.options) }

    /// The `--help` text.
    public var help: String { HelpText.render(self) }
}

/// A usage mistake: reported with the command's help, exit status 2.
public struct UsageError: Error, CustomStringConvertible, Equatable, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Exit statuses of the three executables: 0 success, 1 something failed, 2 usage error.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
}
