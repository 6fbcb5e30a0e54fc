import CSQLite
import Foundation

/// A failure reported by SQLite or by the store, with everything needed to act on it.
public struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// SQLite result code (extended), or -1 for errors the store itself detects.
    public let code: Int32
    public let message: String
    /// The SQL statement that failed, if any.
    public let statement: String?
    /// The database file concerned.
    public let path: String

    public init(code: Int32, message: String, statement: String? = nil, path: String) {
        self.code = code
        self.message = message
        self.statement = statement
        self.path = path
    }

    public var description: String {
        var text = "\(path): \(message)"
        if code >= 0 { text += " (SQLite code \(code))" }
        if let statement { text += " in `\(statement)`" }
        return text
    }
}
