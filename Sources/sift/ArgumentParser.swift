import Foundation
import Sift
import SiftCommandLine

// The parser itself is SiftCommandLine's; here are what `sift`'s subcommands share.

extension CommandSpec {
    /// Options every subcommand takes.
    static let common: [OptionSpec] = [
        OptionSpec(names: ["--store"], value: "DIR", help: "directory holding the indexes (default $SIFT_STORE, else ~/.local/share/sift)"),
        OptionSpec(names: ["--index"], value: "NAME", help: "name of the index (default \"default\")"),
        OptionSpec(names: ["--model"], value: "FILE", help: "embedding model file (default $SIFT_MODEL, else the bundled model)"),
        OptionSpec(
            names: ["--key-file"], value: "FILE",
            help: "key of a protected index: 32 raw bytes or 64 hex characters (default $SIFT_KEY_FILE; none: not protected)"),
        OptionSpec(names: ["--json"], value: nil, help: "machine-readable output"),
        OptionSpec(names: ["--verbose"], value: nil, help: "log each operation to standard error"),
        OptionSpec(names: ["-h", "--help"], value: nil, help: "show this help"),
    ]

    /// A `sift` subcommand: its own options, then the common ones.
    init(name: String, summary: String, arguments: String, options: [OptionSpec], positionals: ClosedRange<Int>) {
        self.init(
            program: "sift", name: name, summary: summary, arguments: arguments, options: options + CommandSpec.common,
            positionals: positionals)
    }
}

extension ParsedArguments {
    func date(_ name: String) throws -> Date? {
        guard let text = value(name) else { return nil }
        guard let date = ISODate.parse(text) else {
            throw UsageError("\(name) expects an ISO 8601 date such as 2026-12-02T12:00:00Z, got \"\(text)\"")
        }
        return date
    }
}
