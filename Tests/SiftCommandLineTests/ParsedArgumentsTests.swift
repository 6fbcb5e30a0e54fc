import Testing

@testable import SiftCommandLine

/// A command shaped like `sift search`: one repeatable option, an option with two names, flags.
private let search = CommandSpec(
    program: "sift", name: "search", summary: "Search the index. Second sentence.", arguments: "QUERY",
    options: [
        OptionSpec(names: ["--limit", "-n"], value: "N", help: "number of results (default 10)"),
        OptionSpec(names: ["--domain"], value: "D", help: "only items of domain D", repeatable: true),
        OptionSpec(names: ["--weight"], value: "W", help: "a number"),
        OptionSpec(names: ["--sizes"], value: "N,N,...", help: "sizes"),
        OptionSpec(names: ["--modes"], value: "M,M,...", help: "modes"),
        OptionSpec(names: ["--json"], help: "machine-readable output"),
        OptionSpec(names: ["--secret"], help: "internal", hidden: true),
        OptionSpec(names: ["-h", "--help"], help: "show this help"),
    ],
    positionals: 1...Int.max)

/// A command shaped like `sift-bench`: no positionals, last value wins, `1_000` allowed.
private let bench = CommandSpec(
    program: "sift-bench", summary: "Measures.",
    options: [
        OptionSpec(names: ["--queries"], value: "N", help: "queries"),
        OptionSpec(names: ["--model"], value: "FILE", help: "model"),
        OptionSpec(names: ["--no-model"], help: "no model"),
    ],
    repeats: .lastWins, digitSeparators: true)

private func usageError(_ arguments: [String], _ spec: CommandSpec = search) -> String? {
    do {
        _ = try ParsedArguments(arguments, spec: spec)
        return nil
    } catch {
        return error.description
    }
}

@Suite("SiftCommandLine: parsing")
struct ParsingTests {
    @Test("Flags, values under their long name, positionals in order")
    func flagsValuesPositionals() throws {
        let p = try ParsedArguments(["--json", "-n", "5", "red", "--domain", "notes", "fish", "--domain", "mail"], spec: search)
        #expect(p.flag("--json") && !p.flag("--help") && !p.flag("--secret"))
        #expect(p.value("--limit") == "5")
        #expect(p.all("--domain") == ["notes", "mail"])
        #expect(p.positionals == ["red", "fish"])
        #expect(p.given == ["--json", "--limit", "--domain", "--domain"])
    }

    @Test("--opt=VALUE is --opt VALUE; a value may begin with a dash")
    func equalsForm() throws {
        let p = try ParsedArguments(["--limit=7", "--domain=a=b", "--weight", "-0.5", "q"], spec: search)
        #expect(try p.int("--limit", default: 10, range: 1...1000) == 7)
        #expect(p.value("--domain") == "a=b")
        #expect(try p.float("--weight", default: 1) == -0.5)
        #expect(usageError(["--json=yes", "q"]) == "--json takes no value")
    }

    @Test("--, - and negative numbers are positionals")
    func positionalForms() throws {
        let p = try ParsedArguments(["-", "-3", "--", "--json", "-n"], spec: search)
        #expect(p.positionals == ["-", "-3", "--json", "-n"])
        #expect(!p.flag("--json"))
    }

    @Test("A missing value names the option and its value")
    func missingValue() {
        #expect(usageError(["q", "--limit"]) == "--limit needs a value (N)")
        #expect(usageError(["q", "-n"]) == "-n needs a value (N)")
    }

    @Test("An unknown option is named with the command")
    func unknownOption() {
        #expect(usageError(["--bogus", "q"]) == "unknown option --bogus for 'sift search'")
        #expect(usageError(["--bogus=1", "q"]) == "unknown option --bogus for 'sift search'")
        #expect(usageError(["-x"], bench) == "unknown option -x for 'sift-bench'")
    }

    @Test("A repeated option: rejected, or the last wins where the command says so")
    func repeats() throws {
        #expect(usageError(["-n", "2", "--limit", "3", "q"]) == "--limit given more than once")
        let p = try ParsedArguments(["--queries", "5", "--queries", "6"], spec: bench)
        #expect(p.all("--queries") == ["6"])
        #expect(p.last(of: ["--model", "--no-model"]) == nil)
        let q = try ParsedArguments(["--model", "m", "--no-model"], spec: bench)
        #expect(q.last(of: ["--model", "--no-model"]) == "--no-model")
    }

    @Test("The number of positionals is checked, except with --help")
    func positionalCount() throws {
        #expect(usageError([]) == "'sift search' expects at least 1 argument (QUERY), got 0")
        #expect(usageError(["stray"], bench) == "'sift-bench' expects no arguments, got \"stray\"")
        var two = search
        two.positionals = 2...2
        two.arguments = "A B"
        #expect(usageError(["a"], two) == "'sift search' expects 2 arguments (A B), got 1")
        two.positionals = 1...3
        #expect(usageError(["a", "b", "c", "d"], two) == "'sift search' expects 1–3 arguments (A B), got 4")
        #expect(try ParsedArguments(["--help"], spec: search).flag("--help"))
    }
}

@Suite("SiftCommandLine: typed accessors")
struct AccessorTests {
    @Test("Whole numbers: default, range, error naming the option")
    func integers() throws {
        let p = try ParsedArguments(["-n", "5000", "--weight", "x", "q"], spec: search)
        #expect(throws: UsageError("--limit expects a whole number in 1…1000, got \"5000\"")) {
            try p.int("--limit", default: 10, range: 1...1000)
        }
        #expect(try p.int("--limit", default: 10, range: 1...10_000) == 5000)
        #expect(try p.int("--absent", default: 10, range: 1...1000) == 10)
        #expect(try p.int("--absent", range: 1...1000) == nil)
        let many = try ParsedArguments(["-n", "many", "q"], spec: search)
        #expect(throws: UsageError("--limit expects a whole number ≥ 1, got \"many\"")) {
            try many.int("--limit", range: 1...Int.max)
        }
        #expect(throws: UsageError("--limit expects a whole number, got \"many\"")) { try many.int("--limit") }
    }

    @Test("Digit separators only where the command allows them")
    func separators() throws {
        #expect(try ParsedArguments(["--queries", "1_000"], spec: bench).int("--queries") == 1000)
        #expect(throws: UsageError.self) { try ParsedArguments(["-n", "1_000", "q"], spec: search).int("--limit") }
    }

    @Test("Floats")
    func floats() throws {
        let p = try ParsedArguments(["--weight", "0.25", "q"], spec: search)
        #expect(try p.float("--weight", default: 1) == 0.25)
        #expect(try p.float("--absent", default: 1) == 1)
        let bad = try ParsedArguments(["--weight", "heavy", "q"], spec: search)
        #expect(throws: UsageError("--weight expects a number, got \"heavy\"")) { try bad.float("--weight", default: 1) }
    }

    @Test("Lists: strings, whole numbers, choices")
    func lists() throws {
        let p = try ParsedArguments(["--sizes", "10, 2,10", "--modes", "hybrid,keyword", "--domain", "a,,b", "q"], spec: search)
        #expect(p.list("--domain") == ["a", "b"])
        #expect(p.list("--absent") == nil)
        #expect(try p.ints("--sizes", range: 1...Int.max) == [10, 2, 10])
        #expect(try p.choices("--modes", from: ["keyword", "semantic", "hybrid"]) == ["hybrid", "keyword"])
        let bad = try ParsedArguments(["--sizes", "1,x", "--modes", "psychic", "q"], spec: search)
        #expect(throws: UsageError("--sizes expects whole numbers ≥ 1 separated by commas, got \"1,x\"")) {
            try bad.ints("--sizes", range: 1...Int.max)
        }
        #expect(throws: UsageError("--modes expects some of keyword,hybrid, got \"psychic\"")) {
            try bad.choices("--modes", from: ["keyword", "hybrid"])
        }
    }

    @Test("required names the missing option")
    func required() throws {
        let p = try ParsedArguments(["q"], spec: search)
        #expect(throws: UsageError("missing --limit")) { try p.required("--limit") }
    }
}

@Suite("SiftCommandLine: help")
struct HelpTests {
    @Test("Usage line, summary, one line per visible option")
    func help() {
        let lines = search.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "usage: sift search [options] QUERY")
        #expect(lines[2] == "Search the index. Second sentence.")
        #expect(lines.contains("  --limit, -n N           number of results (default 10)"))
        #expect(lines.contains("  --domain D …            only items of domain D"))
        #expect(lines.contains("  -h, --help              show this help"))
        #expect(!search.help.contains("--secret"))
        #expect(bench.help.hasPrefix("usage: sift-bench [options]\n"))
    }

    @Test("Long help wraps under its column; sections follow the options")
    func wrapping() {
        var spec = bench
        spec.options = [OptionSpec(names: ["--long"], value: "X", help: String(repeating: "word ", count: 60))]
        spec.sections = [HelpSection(title: "profiling", options: [OptionSpec(names: ["--profile"], help: "profile")])]
        let lines = spec.help.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= HelpText.width })
        let continued = lines.filter { $0.hasPrefix(String(repeating: " ", count: 26) + "word") }
        #expect(continued.count >= 2)
        #expect(spec.help.hasSuffix("profiling:\n  --profile               profile"))
    }

    @Test("The overview lists each command with its summary's first sentence")
    func overview() {
        let text = HelpText.overview(program: "sift", about: "on-device semantic search", commands: [search])
        #expect(text.contains("usage: sift COMMAND [options]"))
        #expect(text.contains("  search    Search the index\n"))
        #expect(text.hasSuffix("Run `sift COMMAND --help` for a command's options."))
    }
}
