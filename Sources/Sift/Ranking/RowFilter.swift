import Foundation

/// The filters of one query (expiry, explicit domains, domains named in the query, dates) over
/// the compact ``RowAttributes``, counting what each excludes.
struct RowFilter {
    let entries: [RowAttributes.Entry]
    let now: Double
    /// Per domain code: admitted. nil: no such filter.
    let explicitDomains: [Bool]?
    var wordDomains: [Bool]?
    let start: Double?
    let end: Double?
    /// No item expires, so the expiry test can be skipped.
    let noneExpire: Bool
    var excludedExpired = 0, excludedDomain = 0, excludedNamedDomain = 0, excludedDate = 0

    init(attributes: RowAttributes, now: Date, explicitDomains: Set<String>, range: DateRange) {
        self.entries = attributes.entries
        self.now = now.timeIntervalSinceReferenceDate
        self.explicitDomains = explicitDomains.isEmpty ? nil : attributes.membership(explicitDomains)
        self.start = range.start?.timeIntervalSinceReferenceDate
        self.end = range.end?.timeIntervalSinceReferenceDate
        self.noneExpire = attributes.expiringCount == 0
    }

    /// Whether every live row passes (no filter, nothing expires): then the keyword matches,
    /// which are all live rows, need no test.
    var admitsEveryLiveRow: Bool {
        noneExpire && explicitDomains == nil && wordDomains == nil && start == nil && end == nil
    }

    @inline(__always)
    private static func admitted(_ code: UInt32, _ table: [Bool]) -> Bool {
        Int(code) < table.count && table[Int(code)]
    }

    @inline(__always)
    private func admitsDate(_ date: Double) -> Bool {
        guard start != nil || end != nil else { return true }
        if date.isNaN { return false }
        if let start, date < start { return false }
        if let end, date >= end { return false }
        return true
    }

    /// Whether some live item of the domains `named` (a membership table) passes the other
    /// filters (expiry, explicit domains, dates): then naming the domain in the query filters by it.
    func anyItem(in named: [Bool]) -> Bool {
        for e in entries where e.domain != RowAttributes.freeRow && Self.admitted(e.domain, named) && !(e.expires <= now) {
            if let explicitDomains, !Self.admitted(e.domain, explicitDomains) { continue }
            if admitsDate(e.date) { return true }
        }
        return false
    }

    /// Whether `row` holds an item that passes every filter; counts the first filter that
    /// excludes it.
    @inline(__always)
    mutating func admits(_ row: Int32) -> Bool {
        let r = Int(row)
        guard r < entries.count else { return false }
        let e = entries[r]
        guard e.domain != RowAttributes.freeRow else { return false }
        if !noneExpire && e.expires <= now {
            excludedExpired += 1
            return false
        }
        if let explicitDomains, !Self.admitted(e.domain, explicitDomains) {
            excludedDomain += 1
            return false
        }
        if let wordDomains, !Self.admitted(e.domain, wordDomains) {
            excludedNamedDomain += 1
            return false
        }
        if !admitsDate(e.date) {
            excludedDate += 1
            return false
        }
        return true
    }

    /// What each filter excluded, for ``QueryReport/exclusions``: one line per filter that
    /// excluded any candidate, in a fixed order.
    var exclusions: [String] {
        let counts = [
            ("expiry", excludedExpired), ("domain filter", excludedDomain),
            ("domain named in the query", excludedNamedDomain), ("date filter", excludedDate),
        ]
        return counts.filter { $0.1 > 0 }.map { what, count in "\(what) excluded \(count) candidate\(count == 1 ? "" : "s")" }
    }
}
