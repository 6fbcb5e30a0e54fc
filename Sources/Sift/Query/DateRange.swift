import Foundation

/// A half-open interval of time, `[start, end)`, used to filter items by their date.
///
/// `nil` on either side means unbounded on that side; a range with `start == end` holds nothing.
/// Ranges that come from ``QueryParser`` start and end on midnights of the parser's time zone.
package struct DateRange: Sendable, Equatable {
    /// The first instant inside the range, or `nil` for no lower bound.
    package var start: Date?
    /// The first instant after the range, or `nil` for no upper bound.
    package var end: Date?

    package init(start: Date?, end: Date?) {
        self.start = start
        self.end = end
    }

    /// Whether `date` lies in `[start, end)`.
    /// - Complexity: O(1).
    package func contains(_ date: Date) -> Bool {
        if let start, date < start { return false }
        if let end, date >= end { return false }
        return true
    }

    /// Whether no instant lies in the range.
    package var isEmpty: Bool {
        guard let start, let end else { return false }
        return start >= end
    }

    /// The instants in both ranges, or `nil` when they do not overlap.
    func intersection(_ other: DateRange) -> DateRange? {
        let lower = [start, other.start].compactMap { $0 }.max()
        let upper = [end, other.end].compactMap { $0 }.min()
        let result = DateRange(start: lower, end: upper)
        return result.isEmpty ? nil : result
    }

    /// The smallest range that covers both.
    func hull(_ other: DateRange) -> DateRange {
        let lower = start.flatMap { a in other.start.map { b in min(a, b) } }
        let upper = end.flatMap { a in other.end.map { b in max(a, b) } }
        return DateRange(start: lower, end: upper)
    }
}
