import Foundation

/// Misuse of the index API.
public enum IndexError: Error, CustomStringConvertible, Sendable, Equatable {
    case batchAlreadyOpen
    case noBatchOpen
    case clientStateMismatch(expected: String, found: String?)
    case noModel(String)
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .batchAlreadyOpen: "a batch is already open; end or cancel it first"
        case .noBatchOpen: "no batch is open; call beginBatch() first"
        case .clientStateMismatch(let expected, let found):
            "client state mismatch: expected \(expected), the index has \(found ?? "none"); nothing was committed"
        case .noModel(let why): "semantic search needs an embedding model: \(why)"
        case .invalidConfiguration(let why): "invalid configuration: \(why)"
        }
    }
}
