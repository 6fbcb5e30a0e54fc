import CSQLite
import Foundation

/// Which committed state of the store the in-memory projections (and a snapshot of them)
/// reflect. `counter` goes up by one with every committed transaction; `tag` is drawn at random
/// by each, so that a store replaced by another one, or restored from a backup and written
/// again, never shows a generation an older snapshot carries.
struct StoreGeneration: Sendable, Equatable, CustomStringConvertible {
    var counter: UInt64
    var tag: UInt64

    static func random(counter: UInt64) -> StoreGeneration {
        StoreGeneration(counter: counter, tag: UInt64.random(in: .min ... .max))
    }

    /// `counter.tag` with the tag in 16 hexadecimal digits: how the settings table holds it.
    var description: String {
        let hex = String(tag, radix: 16)
        return "\(counter).\(String(repeating: "0", count: 16 - hex.count))\(hex)"
    }

    init(counter: UInt64, tag: UInt64) {
        self.counter = counter
        self.tag = tag
    }

    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let counter = UInt64(parts[0]), parts[1].count == 16, let tag = UInt64(parts[1], radix: 16) else {
            return nil
        }
        self.init(counter: counter, tag: tag)
    }
}
