import Foundation

/// Reading an index: items by id, all items, statistics and the consistency checks.
extension SearchIndex {
    /// The item with this id, if indexed.
    public func item(_ id: ItemID) -> SearchableItem? {
        table.row(of: id).flatMap { items[Int($0)] }
    }

    /// Every indexed item that has not expired (by the index's clock), ordered by id: the
    /// export, which like search never shows an expired item, purged or not.
    public func allItems() -> [SearchableItem] {
        let now = configuration.clock()
        return items.all.compactMap { $0 }.filter { !$0.isExpired(at: now) }.sorted { $0.id < $1.id }
    }

    /// Counts for `sift stats`.
    package struct Statistics: Sendable, Equatable {
        package var items: Int
        package var domains: [String: Int]
        package var terms: Int
        package var postings: Int
        package var vectors: Int
        package var dimension: Int?
        package var donations: Int
        package var model: String?
        package var lastClientState: String?
        package var storePath: String
        package var storeBytes: Int
    }

    package func statistics() throws -> Statistics {
        // Expired items not yet purged are not counted: they are gone for every reader.
        let now = configuration.clock()
        var domains: [String: Int] = [:]
        var live = 0
        let attributes = state.attributes
        let t = now.timeIntervalSinceReferenceDate
        // From the attributes: no item is decoded.
        for e in attributes.entries where e.domain != RowAttributes.freeRow && !(e.expires <= t) {
            domains[attributes.domainNames[Int(e.domain)], default: 0] += 1
            live += 1
        }
        let k = keyword.statistics
        var bytes = 0
        if let dir = configuration.directory,
            let files = try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: [.fileSizeKey])
        {
            for f in files { bytes += (try? f.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0 }
        }
        return Statistics(
            items: live, domains: domains, terms: k.terms, postings: k.postings,
            vectors: vectors?.count ?? 0, dimension: vectors?.dimension,
            donations: donationLog.values.reduce(0) { $0 + $1.count },
            model: configuration.embedder?.fingerprint, lastClientState: try lastClientState(),
            storePath: store.path, storeBytes: bytes)
    }

    /// Verifies the store, the identifier table, the keyword index and the vector index agree.
    package func checkInvariants() throws {
        var storedIDs = Set<ItemID>()
        try store.forEachItem { storedIDs.insert($0.item.id) }
        if Set(table.ids) != storedIDs {
            throw InvariantViolation(
                "store holds \(storedIDs.count) items, identifier table \(table.count); differing: \(Array(storedIDs.symmetricDifference(Set(table.ids)).prefix(5)))"
            )
        }
        try state.checkProjections()
    }

    /// ``VectorIndex/touchEveryPage(rowsInPlace:)`` of this index's vectors (sift-bench, before
    /// measuring memory): the rows themselves only when queries read them in place — below
    /// ``Configuration/quantizedScanMinimumRows``, or without the quantized copies.
    package func touchVectorPages() -> UInt64 {
        guard let v = vectors else { return 0 }
        return v.touchEveryPage(rowsInPlace: v.rescoring == nil || v.capacity < configuration.quantizedScanMinimumRows)
    }

    /// SQLite's `PRAGMA integrity_check` result ("ok" when sound).
    package func integrityCheck() throws -> String { try store.integrityCheck() }
}
