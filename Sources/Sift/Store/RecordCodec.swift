/// How the store turns identifiers and records into bytes at rest: the seam where a protected
/// index encrypts.
///
/// Lookup keys must be deterministic (the same id always gives the same key, so SQL can find
/// a row); payloads are sealed with the row's key as context, so a sealed record cannot be
/// moved to another row unnoticed.
package protocol RecordCodec: Sendable {
    /// Names the scheme; recorded in the store so it is never opened with another one.
    var scheme: String { get }
    /// The at-rest lookup key of an identifier, domain or other name.
    func lookupKey(_ name: String) -> [UInt8]
    /// Seals `plaintext`, bound to `context`.
    func seal(_ plaintext: [UInt8], context: [UInt8]) throws -> [UInt8]
    /// Opens what ``seal(_:context:)`` produced for the same context, or throws.
    func open(_ sealed: [UInt8], context: [UInt8]) throws -> [UInt8]
}

/// No protection: keys are the UTF-8 of the name, payloads are stored as they are.
package struct PlainCodec: RecordCodec {
    package init() {}
    package var scheme: String { "plain" }
    package func lookupKey(_ name: String) -> [UInt8] { Array(name.utf8) }
    package func seal(_ plaintext: [UInt8], context: [UInt8]) -> [UInt8] { plaintext }
    package func open(_ sealed: [UInt8], context: [UInt8]) -> [UInt8] { sealed }
}
