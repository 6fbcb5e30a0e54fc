import Foundation

/// Per row, the few item fields that filters and ranking priors read — domain, date, expiry and
/// ranking hint — in one compact array, kept in step with the item cache by ``IndexState``.
///
/// A query checks every keyword match against the filters; one 24-byte entry a row (one cache
/// line at most) is what that check touches, where the item cache would touch a 160-byte
/// `SearchableItem?` and fetch its optional's tag through an outlined call.
struct RowAttributes: Sendable {
    struct Entry: Sendable, Equatable {
        /// `expires.timeIntervalSinceReferenceDate`, +∞ when the item never expires.
        var expires: Double
        /// `date.timeIntervalSinceReferenceDate`, NaN when the item has no date.
        var date: Double
        /// The code of the item's domain (an index into ``domainNames``), or ``freeRow``.
        var domain: UInt32
        /// The ranking hint clamped to 0…100, or ``noHint``.
        var hint: Int8

        static let free = Entry(expires: .infinity, date: .nan, domain: RowAttributes.freeRow, hint: RowAttributes.noHint)

        static func == (a: Entry, b: Entry) -> Bool {
            a.expires == b.expires && (a.date == b.date || (a.date.isNaN && b.date.isNaN)) && a.domain == b.domain && a.hint == b.hint
        }
    }

    /// The domain code of a free row.
    static let freeRow = UInt32.max
    /// The hint of a row without one.
    static let noHint: Int8 = -1

    private(set) var entries: [Entry] = []
    /// How many live rows have an expiry: when none has, no row can fail the expiry filter.
    private(set) var expiringCount = 0
    /// Every domain name seen, by code (codes are never reused; there are few domains).
    private var domainCodes = DomainCodes()
    var domainNames: [String] { domainCodes.names }

    /// Domain names coded by order of first appearance.
    struct DomainCodes {
        private(set) var names: [String] = []
        private var codes: [String: UInt32] = [:]
        /// The first ``comparedNames`` names as bytes, compared with a name given as bytes.
        private var utf8Names: [[UInt8]] = []
        /// The names an item's domain is compared with byte for byte before it is hashed: an
        /// app has a few domains, and its items come in any order of them.
        static let comparedNames = 8

        /// The code of `domain`, given one if it has none yet. - Complexity: O(1) (a repeat of
        /// the last new name, the common run of one domain, without hashing).
        mutating func code(of domain: String) -> UInt32 {
            if names.last == domain { return UInt32(names.count - 1) }
            if let known = codes[domain] { return known }
            let code = UInt32(names.count)
            codes[domain] = code
            names.append(domain)
            if utf8Names.count < Self.comparedNames { utf8Names.append(Array(domain.utf8)) }
            return code
        }

        /// ``code(of:)`` for a name given as its UTF-8 bytes, made a string only when it is new
        /// or not among the first ``comparedNames`` names (a snapshot's open codes every item's
        /// domain: hashing a string for each was a third of reading the items).
        mutating func code(ofUTF8 bytes: UnsafeRawBufferPointer) -> UInt32 {
            for (code, name) in utf8Names.enumerated() where name.count == bytes.count {
                if bytes.isEmpty || name.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                    return UInt32(code)
                }
            }
            return code(of: String(decoding: bytes, as: UTF8.self))
        }

        /// The code of `domain`, if it has one.
        func existingCode(of domain: String) -> UInt32? { codes[domain] }
    }

    var capacity: Int { entries.count }

    init() {}

    /// Records `item`'s attributes at `row`.
    mutating func set(row: Int32, item: SearchableItem) {
        let r = Int(row)
        if r >= entries.count { entries.append(contentsOf: repeatElement(.free, count: r - entries.count + 1)) }
        if entries[r].expires.isFinite { expiringCount -= 1 }
        entries[r] = entry(for: item)
        if entries[r].expires.isFinite { expiringCount += 1 }
    }

    private mutating func entry(for item: SearchableItem) -> Entry {
        Self.entry(for: item, domain: domainCodes.code(of: item.domain))
    }

    /// The entry of `item` with its domain coded as `domain`.
    static func entry(for item: SearchableItem, domain: UInt32) -> Entry {
        entry(expires: item.expires, date: item.date, rankingHint: item.rankingHint, domain: domain)
    }

    /// The entry of an item with these attributes and its domain coded as `domain`.
    static func entry(expires: Date?, date: Date?, rankingHint: Int?, domain: UInt32) -> Entry {
        Entry(
            expires: expires?.timeIntervalSinceReferenceDate ?? .infinity,
            date: date?.timeIntervalSinceReferenceDate ?? .nan,
            domain: domain,
            hint: rankingHint.map { Int8(min(max($0, 0), 100)) } ?? Self.noHint)
    }

    /// The attributes of restored rows: `entries`, one per row, whose domains are coded by
    /// position in the `domains` list of the run of rows they are in (runs in row order, each
    /// list in order of first appearance). The same codes, in the same order, as setting the
    /// rows one by one.
    /// - Complexity: O(rows + runs' domains); `entries` is recoded in place when this is its
    /// only reference (a snapshot's open hands its array over: 24 MB at 1M rows not copied).
    init(entries: consuming [Entry], runs: [(rows: Range<Int>, domains: [String])]) {
        self.entries = consume entries
        for run in runs {
            let global = run.domains.map { domainCodes.code(of: $0) }
            self.entries.withUnsafeMutableBufferPointer { e in
                for r in run.rows where e[r].domain != Self.freeRow { e[r].domain = global[Int(e[r].domain)] }
            }
        }
        expiringCount = self.entries.count(where: { $0.expires.isFinite })
    }

    /// Marks `row` free.
    mutating func remove(row: Int32) {
        let r = Int(row)
        guard r < entries.count else { return }
        if entries[r].expires.isFinite { expiringCount -= 1 }
        entries[r] = .free
    }

    mutating func removeAll() {
        self = RowAttributes()
    }

    /// The live rows whose item is in one of `domains`, in row order. - Complexity: O(rows).
    func rows(inDomains domains: Set<String>) -> [Int32] {
        let member = membership(domains)
        return entries.indices.filter { r in
            let code = entries[r].domain
            return code != Self.freeRow && member[Int(code)]
        }.map { Int32($0) }
    }

    /// The live rows whose item has expired at `now`, in row order. - Complexity: O(rows).
    func expiredRows(at now: Date) -> [Int32] {
        let t = now.timeIntervalSinceReferenceDate
        guard expiringCount > 0 else { return [] }
        return entries.indices.filter { entries[$0].domain != Self.freeRow && entries[$0].expires <= t }.map { Int32($0) }
    }

    /// A per-code membership table for a set of domain names (names no item ever had are absent).
    func membership(_ domains: Set<String>) -> [Bool] {
        var table = [Bool](repeating: false, count: domainNames.count)
        for d in domains { if let c = domainCodes.existingCode(of: d) { table[Int(c)] = true } }
        return table
    }

    /// Verifies every row's attributes are those of the item cached at that row.
    func checkInvariants(items: [SearchableItem?]) throws(InvariantViolation) {
        var copy = self
        for (r, item) in items.enumerated() {
            let entry = r < entries.count ? entries[r] : .free
            guard let item else {
                if entry.domain != Self.freeRow { throw InvariantViolation("row attributes: free row \(r) is marked live") }
                continue
            }
            guard entry.domain != Self.freeRow, domainNames[Int(entry.domain)] == item.domain, entry == copy.entry(for: item) else {
                throw InvariantViolation("row attributes disagree with the item at row \(r)")
            }
        }
        for r in items.count..<max(items.count, capacity) where entries[r].domain != Self.freeRow {
            throw InvariantViolation("row attributes: row \(r) past the item cache is marked live")
        }
        if expiringCount != entries.count(where: { $0.expires.isFinite }) {
            throw InvariantViolation(
                "row attributes: \(expiringCount) expiring rows counted, \(entries.count(where: { $0.expires.isFinite })) found")
        }
    }
}
