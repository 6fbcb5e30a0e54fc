import Foundation

/// One logged operation. Carries the contract — operation, index, counts, duration,
/// outcome — and never user text (titles, content, queries).
public struct LogRecord: Sendable, Equatable {
    public var operation: String
    public var index: String
    public var itemCount: Int
    /// Seconds.
    public var duration: TimeInterval
    public var outcome: String

    public init(operation: String, index: String, itemCount: Int, duration: TimeInterval, outcome: String) {
        self.operation = operation
        self.index = index
        self.itemCount = itemCount
        self.duration = duration
        self.outcome = outcome
    }
}

/// Where Sift reports what it did. A seam: apps forward to their logging system, Sift's own tests use
/// `MemoryLogger`.
public protocol SiftLogger: Sendable {
    func log(_ record: LogRecord)
}

/// Discards every record.
package struct NullLogger: SiftLogger {
    package init() {}
    package func log(_ record: LogRecord) {}
}
