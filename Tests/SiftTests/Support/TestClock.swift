import Foundation

/// A clock the test moves by hand, for expiry and donation decay.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_796_212_800)) {  // 2026-12-02T12:00:00Z
        current = start
    }

    var now: Date {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    /// The closure ``SearchIndex/Configuration/clock`` wants.
    var function: @Sendable () -> Date { { self.now } }
}
