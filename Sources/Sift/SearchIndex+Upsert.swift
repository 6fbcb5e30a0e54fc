import Foundation

extension SearchIndex {
    /// Upserts of at least this many items store each prepared item while the rest of the
    /// batch is still being embedded (``upsert(_:)``); smaller ones prepare, then store.
    static let overlapMinimum = Parallel.minimumCount

    /// Adds or replaces items (same id replaces). Private and hidden items are refused and,
    /// if they were indexed, deleted; already-expired items are not stored. An empty array
    /// does not touch the store.
    ///
    /// The items to store are embedded and analysed across the cores; meanwhile, for a batch
    /// of ``overlapMinimum`` items or more, a thread of its own writes them to the store in
    /// order as they are ready (first checkpointing the store's log if the last commit left
    /// that due), so that the store's waits for the disk overlap the embedding. It is still one
    /// transaction, committed before anything changes in memory.
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
        if batch == nil && accepted.count >= Self.overlapMinimum {
            try storeWhilePreparing(decisions, accepted, count: newItems.count)
            return summary
        }
        let prepared = state.prepare(
            accepted, embedder: configuration.embedder, titleWeight: configuration.titleEmbeddingWeight, needsVector: { _ in true })
        try commit(Self.pending(decisions, prepared), operation: "upsert", count: newItems.count)
        return summary
    }

    /// The upsert's mutations in order: each decision, or (nil) the next prepared item.
    private static func pending(_ decisions: [Pending?], _ prepared: [PreparedItem]) -> [Pending] {
        var pending: [Pending] = []
        pending.reserveCapacity(decisions.count)
        var next = 0
        for decision in decisions {
            if let decision {
                pending.append(decision)
            } else {
                pending.append(.upsert(prepared[next]))
                next += 1
            }
        }
        return pending
    }

    /// Prepares `accepted` across the cores while a thread of its own checkpoints the store if
    /// due and writes the upsert's mutations in one transaction, each prepared item as soon as
    /// it is ready; then, once the transaction committed, projects them into memory. The
    /// transaction and its mutations are exactly those of preparing first and committing after.
    private func storeWhilePreparing(_ decisions: [Pending?], _ accepted: [StoredItem], count: Int) throws {
        let started = Date()
        let store = self.store
        let meta = commitMeta([:])
        // The store is this actor's: while the helper thread uses it, the actor waits in this
        // call and touches nothing of the store until the helper has returned.
        let (prepared, written) = state.prepare(
            accepted, embedder: configuration.embedder, titleWeight: configuration.titleEmbeddingWeight, needsVector: { _ in true }
        ) { element in
            store.checkpointIfDue()
            return Result {
                try store.apply(meta: meta, checkpointing: false) { apply in
                    var next = 0
                    for decision in decisions {
                        if let decision {
                            try apply(Self.mutation(decision))
                        } else {
                            try apply(.upsert(element(next).stored))
                            next += 1
                        }
                    }
                }
            }
        }
        try finishCommit(Self.pending(decisions, prepared), written: written, operation: "upsert", count: count, started: started)
    }

    func pendingContains(_ id: ItemID) -> Bool {
        batchItems.contains { if case .upsert(let p) = $0 { return p.stored.item.id == id } else { return false } }
    }
}
