import Foundation

/// The in-memory projections of the store — identifier table, keyword index, vector index,
/// item cache, donations — changed only together, as the store commits (and changed back when
/// its `COMMIT` fails: `SearchIndex.commitNow`).
struct IndexState: Sendable {
    var table = IdentifierTable()
    var keyword: KeywordIndex
    var vectors: VectorIndex?
    /// The item at each row (nil for free rows).
    var items = ItemCache()
    /// Donations per live item.
    var donationLog: [ItemID: [Donation]] = [:]
    /// Domains and their display names, for query understanding.
    var domainNames: [String: String?] = [:]
    /// The fields filters and ranking priors read, compact, per row (kept with `items`).
    var attributes = RowAttributes()

    init(keyword: KeywordIndex, vectors: VectorIndex?) {
        self.keyword = keyword
        self.vectors = vectors
    }

    /// Projects an item ``prepare(_:embedder:titleWeight:needsVector:consumingInOrder:)`` made.
    mutating func project(_ prepared: PreparedItem) {
        let (row, _) = table.assign(prepared.stored.item.id)
        keyword.insert(prepared.analysis, at: row)
        place(prepared, at: row)
    }

    /// Projects prepared items in order: the same as projecting them one after another. When
    /// every one takes a new row, the keyword index takes them on one thread while the item
    /// cache, attributes and vectors take them on another (the two share nothing), and the
    /// keyword postings go in on two threads (`KeywordIndex.insertNew(_:at:)`).
    mutating func project(_ batch: [PreparedItem]) {
        var rows: [Int32] = []
        rows.reserveCapacity(batch.count)
        var allNew = true
        for p in batch {
            let (row, isNew) = table.assign(p.stored.item.id)
            rows.append(row)
            allNew = allNew && isNew && !keyword.contains(row: row)
        }
        guard allNew else {
            for (p, row) in zip(batch, rows) { keyword.insert(p.analysis, at: row) }
            for (p, row) in zip(batch, rows) { place(p, at: row) }
            return
        }
        // The keyword index is taken out of `self` so that each half touches its own memory.
        var keyword = KeywordIndex(parameters: self.keyword.parameters, analyzer: self.keyword.analyzer)
        swap(&keyword, &self.keyword)
        let analyses = batch.map(\.analysis)
        Parallel.forEach(iterations: batch.count >= Self.parallelProjectionMinimum ? 2 : 1) { half in
            if half == 0 { keyword.insertNew(analyses, at: rows) }
            if half == 1 || batch.count < Self.parallelProjectionMinimum {
                for (p, row) in zip(batch, rows) { place(p, at: row) }
            }
        }
        swap(&keyword, &self.keyword)
    }

    /// Items below which ``project(_:)`` runs on one thread.
    static let parallelProjectionMinimum = 64

    /// The item cache, attributes, vector (as the preparation coded it for this index) and domain
    /// name of an item at its row.
    private mutating func place(_ prepared: PreparedItem, at row: Int32) {
        let stored = prepared.stored
        items.set(stored.item, at: Int(row))
        attributes.set(row: row, item: stored.item)
        if let coded = prepared.coded { vectors?.set(row: row, coded: coded) }
        if domainNames[stored.item.domain] == nil || stored.item.displayName != nil {
            domainNames[stored.item.domain] = stored.item.displayName
        }
    }

    mutating func unproject(_ id: ItemID) {
        guard let row = table.remove(id) else { return }
        items.set(nil, at: Int(row))
        attributes.remove(row: row)
        keyword.remove(row: row)
        vectors?.remove(row: row)
        donationLog[id] = nil
    }

    mutating func unproject(domains: [String]) {
        let doomed = attributes.rows(inDomains: Set(domains)).compactMap { table.id(at: $0) }
        doomed.forEach { unproject($0) }
        for d in domains { domainNames[d] = nil }
    }

    mutating func removeAll() {
        table.removeAll()
        items.removeAll()
        attributes.removeAll()
        keyword.removeAll()
        vectors?.removeAll()
        donationLog.removeAll()
        domainNames.removeAll()
    }

    mutating func record(_ donations: [Donation]) {
        for d in donations where table.row(of: d.itemID) != nil {
            donationLog[d.itemID, default: []].append(d)
        }
    }
}
