import Foundation

/// Turns an item's donations into a ranking boost: each donation counts
/// `2^(−age / halfLife)` (1 now, ½ after one half-life), summed; the boost factor is
/// `1 + strength · s / (1 + s)` for a decayed sum `s`, so it grows with use but stays below
/// `1 + strength`. Donations in the future count as now.
package struct DonationBoost: Sendable, Equatable {
    /// Seconds after which a donation counts half (default 14 days).
    package var halfLife: TimeInterval
    /// The most a donation history can multiply a relevance score by, minus one.
    package var strength: Float

    package init(halfLife: TimeInterval = 14 * 86_400, strength: Float = 0.25) {
        precondition(halfLife > 0)
        self.halfLife = halfLife
        self.strength = strength
    }

    /// The weight of one donation made at `date`, seen at `now`: 1 … 0.
    package func weight(of date: Date, now: Date) -> Double {
        let age = max(0, now.timeIntervalSince(date))
        return exp2(-age / halfLife)
    }

    /// The decayed sum of `dates` at `now`.
    package func score(_ dates: [Date], now: Date) -> Double {
        dates.reduce(0) { $0 + weight(of: $1, now: now) }
    }

    /// The multiplicative factor for a decayed sum.
    package func factor(forScore s: Double) -> Float {
        1 + strength * Float(s / (1 + s))
    }
}
