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

/// Keeps records in memory, for the tests and the bench (package-only: an app writes its own
/// in a few lines).
package final class MemoryLogger: SiftLogger, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [LogRecord] = []
    package init() {}
    package func log(_ record: LogRecord) { lock.withLock { stored.append(record) } }
    package var records: [LogRecord] { lock.withLock { stored } }
}

/// Writes one line per record to standard error, for `sift --verbose`.
package struct StandardErrorLogger: SiftLogger {
    package init() {}
    package func log(_ r: LogRecord) {
        let line =
            "sift: \(r.operation) index=\(r.index) items=\(r.itemCount) ms=\(String(format: "%.1f", r.duration * 1000)) \(r.outcome)\n"
        FileHandle.standardError.write(line.data(using: .utf8)!)
    }
}
