import Foundation

/// Keeps records in memory, for the tests and the bench (package-only: an app writes its own
/// in a few lines).
package final class MemoryLogger: SiftLogger, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [LogRecord] = []
    package init() {}
    package func log(_ record: LogRecord) { lock.withLock { stored.append(record) } }
    package var records: [LogRecord] { lock.withLock { stored } }
}
