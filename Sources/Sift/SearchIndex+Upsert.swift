import Foundation

extension SearchIndex {
    /// Adds or replaces items (same id replaces). Private and hidden items are refused and,
    /// if they were indexed, deleted; already-expired items are not stored. An empty array
    /// does not touch the store.
    /// - Complexity: O(Σ text) to analyse and embed, plus one transaction.
    @discardableResult
    public func upsert(_ newItems: [SearchableItem]) throws -> UpsertSummary {
        var summary = UpsertSummary()
        guard !newItems.isEmpty else { return summary }
        let now = configuration.clock()
        // Deletes stay in sequence with the upserts, so the last version of an id wins; an id
        // upserted earlier in this call or in the open batch counts as indexed.
        var upserted = Set<ItemID>()
        func isIndexed(_ id: ItemID) -> Bool { table.row(of: id) != nil || upserted.contains(id) || pendingContains(id) }
        // First what happens to each item (nil: store it), then the items to store are embedded
        // and analysed together, across the cores.
        var decisions: [Pending?] = []
        var accepted: [StoredItem] = []
        for item in newItems {
            if !item.isIndexable {
                summary.refusedPrivate += 1
                if isIndexed(item.id) {
                    decisions.append(.delete([item.id]))
                    summary.deletedBecausePrivate += 1
                }
                continue
            }
            if item.isExpired(at: now) {
                summary.expired += 1
                if isIndexed(item.id) { decisions.append(.delete([item.id])) }
                continue
            }
            decisions.append(nil)
            accepted.append(StoredItem(item: item, vector: nil))
            upserted.insert(item.id)
            summary.indexed += 1
        }
        let (embedder, titleWeight) = (configuration.embedder, configuration.titleEmbeddingWeight)
        guard batch == nil, !decisions.isEmpty else {
            let prepared = state.prepare(accepted, embedder: embedder, titleWeight: titleWeight, needsVector: { _ in true })
            try commit(Self.pending(decisions, prepared), operation: "upsert", count: newItems.count)
            return summary
        }
        try commitPipelined(decisions, accepted, count: newItems.count)
        return summary
    }

    /// The decisions in order, each nil one the upsert of the next prepared item.
    static func pending(_ decisions: [Pending?], _ prepared: [PreparedItem]) -> [Pending] {
        var next = 0
        return decisions.map { decision in
            if let decision { return decision }
            defer { next += 1 }
            return .upsert(prepared[next])
        }
    }

    func pendingContains(_ id: ItemID) -> Bool {
        batchItems.contains { if case .upsert(let p) = $0 { return p.stored.item.id == id } else { return false } }
    }

    /// Commits `decisions` now (no batch is open), each nil one the upsert of the next of
    /// `accepted`: each chunk of items is written to the store as soon as it and those before it
    /// are prepared (embedded and analysed), while the cores prepare the next ones — the
    /// store's inserts run beside the embedding instead of after it. The same writes in the same
    /// order as preparing everything first; the projections hold nothing that did not commit
    /// (``commitNow(operation:count:meta:_:)``).
    private func commitPipelined(_ decisions: [Pending?], _ accepted: [StoredItem], count: Int) throws {
        let (embedder, titleWeight) = (configuration.embedder, configuration.titleEmbeddingWeight)
        try commitNow(operation: "upsert", count: count, meta: [:]) { write in
            var written = 0  // decisions written
            var upserts = 0  // of them, upserts
            var failure: (any Error)?
            /// Writes the decisions that follow, up to the upsert of an item not prepared yet.
            func writeDecisions(preparedUpTo end: Int, _ prepared: (Int) -> PreparedItem) {
                guard failure == nil else { return }
                do {
                    while written < decisions.count {
                        if let decision = decisions[written] {
                            try write(Self.mutation(decision))
                        } else {
                            guard upserts < end else { return }
                            try write(.upsert(prepared(upserts).stored))
                            upserts += 1
                        }
                        written += 1
                    }
                } catch {
                    failure = error
                }
            }
            let prepared = state.prepare(accepted, embedder: embedder, titleWeight: titleWeight, needsVector: { _ in true }) {
                range, chunk in writeDecisions(preparedUpTo: range.upperBound) { chunk[$0 - range.lowerBound] }
            }
            writeDecisions(preparedUpTo: prepared.count) { prepared[$0] }
            if let failure { throw failure }
            return Self.pending(decisions, prepared)
        }
    }
}
