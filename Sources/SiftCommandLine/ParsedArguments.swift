import Foundation

/// A command line parsed against a ``CommandSpec``: flags, option values and positionals,
/// read back through typed accessors that throw a ``UsageError`` naming the option.
public struct ParsedArguments: Sendable {
    /// Keys (see ``OptionSpec/key``) of the flags given.
    public var flags: Set<String> = []
    /// Every value given, by key, in order.
    public var values: [String: [String]] = [:]
    public var positionals: [String] = []
    /// Keys of the options and flags in the order given (for options that override each other).
    public var given: [String] = []
    /// Whole numbers may use `_` separators (``CommandSpec/digitSeparators``).
    public var digitSeparators = false

    public init() {}

    /// Parses `arguments` against `spec`. `--` ends the options; `-` and negative numbers are
    /// positionals; `--opt=VALUE` is `--opt VALUE`. With `--help` given, the positionals are not
    /// counted (the caller prints the help).
    public init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        digitSeparators = spec.digitSeparators
        var byName: [String: OptionSpec] = [:]
        for option in spec.allOptions { for name in option.names { byName[name] = option } }
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" || Double(argument) != nil {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            }
            guard let option = byName[name] else { throw UsageError("unknown option \(name) for '\(spec.invocation)'") }
            guard let placeholder = option.value else {
                if inline != nil { throw UsageError("\(name) takes no value") }
                flags.insert(option.key)
                given.append(option.key)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < arguments.count else { throw UsageError("\(name) needs a value (\(placeholder))") }
                value = arguments[i]
                i += 1
            }
            try store(value, for: option, as: name, repeats: spec.repeats)
            given.append(option.key)
        }
        if flags.contains("--help") { return }
        try checkPositionals(spec)
    }

    private mutating func store(_ value: String, for option: OptionSpec, as name: String, repeats: CommandSpec.Repeats) throws(UsageError) {
        if values[option.key] != nil && !option.repeatable {
            guard repeats == .lastWins else { throw UsageError("\(name) given more than once") }
            values[option.key] = nil
        }
        values[option.key, default: []].append(value)
    }

    private func checkPositionals(_ spec: CommandSpec) throws(UsageError) {
        let range = spec.positionals
        guard !range.contains(positionals.count) else { return }
        if range.upperBound == 0 {
            throw UsageError("'\(spec.invocation)' expects no arguments, got \"\(positionals[0])\"")
        }
        let expected =
            range.lowerBound == range.upperBound
            ? "\(range.lowerBound)"
            : range.upperBound == Int.max ? "at least \(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
        let singular = range.lowerBound == 1 && (range.upperBound == 1 || range.upperBound == Int.max)
        throw UsageError(
            "'\(spec.invocation)' expects \(expected) argument\(singular ? "" : "s") (\(spec.arguments)), got \(positionals.count)")
    }

    // MARK: Accessors. `name` is the option's key, e.g. "--limit".

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Of `names`, the one given last, or nil when none was given.
    public func last(of names: [String]) -> String? { given.last(where: names.contains) }

    /// The last value given, or nil.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given, in order.
    public func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The value, or a usage error `missing NAME` when the option was not given.
    public func required(_ name: String) throws(UsageError) -> String {
        guard let text = value(name) else { throw UsageError("missing \(name)") }
        return text
    }

    /// The whole number given, checked against `range`; nil when not given.
    public func int(_ name: String, range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = wholeNumber(text), range.contains(number) else {
            throw UsageError("\(name) expects \(Self.describe(range)), got \"\(text)\"")
        }
        return number
    }

    /// The whole number given, checked against `range`, else `defaultValue`.
    public func int(_ name: String, default defaultValue: Int, range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> Int {
        try int(name, range: range) ?? defaultValue
    }

    /// The number given, else `defaultValue`.
    public func float(_ name: String, default defaultValue: Float) throws(UsageError) -> Float {
        guard let text = value(name) else { return defaultValue }
        guard let number = Float(text) else { throw UsageError("\(name) expects a number, got \"\(text)\"") }
        return number
    }

    /// The value split at `separator`, each part trimmed of spaces, empty parts dropped; nil
    /// when not given.
    public func list(_ name: String, separator: Character = ",") -> [String]? {
        value(name).map { text in
            text.split(separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    /// A comma-separated list of whole numbers in `range` (at least one); nil when not given.
    public func ints(_ name: String, range: ClosedRange<Int> = Int.min...Int.max) throws(UsageError) -> [Int]? {
        guard let text = value(name), let parts = list(name) else { return nil }
        let numbers = parts.compactMap(wholeNumber).filter(range.contains)
        guard !numbers.isEmpty, numbers.count == parts.count else {
            throw UsageError("\(name) expects \(Self.describe(range, plural: true)) separated by commas, got \"\(text)\"")
        }
        return numbers
    }

    /// A comma-separated list drawn from `choices` (at least one); nil when not given.
    public func choices(_ name: String, from choices: [String]) throws(UsageError) -> [String]? {
        guard let text = value(name), let parts = list(name) else { return nil }
        guard !parts.isEmpty, parts.allSatisfy(choices.contains) else {
            throw UsageError("\(name) expects some of \(choices.joined(separator: ",")), got \"\(text)\"")
        }
        return parts
    }

    private func wholeNumber(_ text: String) -> Int? {
        Int(digitSeparators ? text.filter { $0 != "_" } : text)
    }

    /// `a whole number in 1…1000`, `a whole number ≥ 0`, `a whole number`.
    static func describe(_ range: ClosedRange<Int>, plural: Bool = false) -> String {
        let noun = plural ? "whole numbers" : "a whole number"
        switch (range.lowerBound, range.upperBound) {
        case (Int.min, Int.max): return noun
        case (_, Int.max): return "\(noun) ≥ \(range.lowerBound)"
        case (Int.min, _): return "\(noun) ≤ \(range.upperBound)"
        default: return "\(noun) in \(range.lowerBound)…\(range.upperBound)"
        }
    }
}
