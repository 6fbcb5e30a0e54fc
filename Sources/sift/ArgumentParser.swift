import Foundation
import Sift

/// One option of a subcommand: the same table parses the command line and prints `--help`.
struct OptionSpec {
    var names: [String]
    /// Name of the value, or nil for a flag.
    var value: String?
    var help: String
    var repeatable = false
}

/// A subcommand's interface.
struct CommandSpec {
    var name: String
    var summary: String
    var arguments: String
    var options: [OptionSpec]
    /// Smallest and largest number of positional arguments.
    var positionals: ClosedRange<Int>

    static let common: [OptionSpec] = [
        OptionSpec(names: ["--store"], value: "DIR", help: "directory holding the indexes (default $SIFT_STORE, else ~/.local/share/sift)"),
        OptionSpec(names: ["--index"], value: "NAME", help: "name of the index (default \"default\")"),
        OptionSpec(names: ["--model"], value: "FILE", help: "embedding model file (default $SIFT_MODEL, else the bundled model)"),
        OptionSpec(names: ["--key-file"], value: "FILE", help: "key of a protected index: 32 raw bytes or 64 hex characters (default $SIFT_KEY_FILE; none: not protected)"),
        OptionSpec(names: ["--json"], value: nil, help: "machine-readable output"),
        OptionSpec(names: ["--verbose"], value: nil, help: "log each operation to standard error"),
        OptionSpec(names: ["-h", "--help"], value: nil, help: "show this help"),
    ]

    var allOptions: [OptionSpec] { options + CommandSpec.common }

    var help: String {
        var lines = ["usage: sift \(name) [options] \(arguments)", "", summary, "", "options:"]
        for o in allOptions {
            let left = o.names.joined(separator: ", ") + (o.value.map { " \($0)" } ?? "") + (o.repeatable ? " …" : "")
            lines.append("  " + left.padding(toLength: max(24, left.count + 2), withPad: " ", startingAt: 0) + o.help)
        }
        return lines.joined(separator: "\n")
    }
}

/// A usage mistake: printed with the command's help, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The parsed command line of one subcommand.
struct ParsedArguments {
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    func int(_ name: String, default d: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = value(name) else { return d }
        guard let v = Int(text), range.contains(v) else {
            throw UsageError("\(name) expects a whole number in \(range.lowerBound)…\(range.upperBound), got \"\(text)\"")
        }
        return v
    }

    func date(_ name: String) throws -> Date? {
        guard let text = value(name) else { return nil }
        guard let d = ISO8601Parse(text) else { throw UsageError("\(name) expects an ISO 8601 date such as 2026-12-02T12:00:00Z, got \"\(text)\"") }
        return d
    }

    /// Parses `arguments` against `spec`. `--` ends options; `-` is a positional (stdin).
    init(_ arguments: [String], spec: CommandSpec) throws {
        var byName: [String: OptionSpec] = [:]
        for o in spec.allOptions { for n in o.names { byName[n] = o } }
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" || (Double(arg) != nil) {
                positionals.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            guard let option = byName[name] else { throw UsageError("unknown option \(name) for 'sift \(spec.name)'") }
            let key = option.names.first { $0.hasPrefix("--") } ?? option.names.last!
            if option.value != nil {
                let v: String
                if let inline { v = inline } else {
                    guard i < arguments.count else { throw UsageError("\(name) needs a value (\(option.value!))") }
                    v = arguments[i]
                    i += 1
                }
                if values[key] != nil && !option.repeatable { throw UsageError("\(name) given more than once") }
                values[key, default: []].append(v)
            } else {
                if inline != nil { throw UsageError("\(name) takes no value") }
                flags.insert(key)
            }
        }
        if flags.contains("--help") { return }
        if !spec.positionals.contains(positionals.count) {
            let r = spec.positionals
            let expected = r.lowerBound == r.upperBound ? "\(r.lowerBound)" : r.upperBound == Int.max ? "at least \(r.lowerBound)" : "\(r.lowerBound)–\(r.upperBound)"
            throw UsageError("'sift \(spec.name)' expects \(expected) argument\(r.upperBound == 1 ? "" : "s") (\(spec.arguments)), got \(positionals.count)")
        }
    }
}

func ISO8601Parse(_ text: String) -> Date? { ISODate.parse(text) }
