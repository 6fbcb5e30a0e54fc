import Foundation

extension SearchIndex {
    /// Upserts of at least this many items store each prepared item while the rest of the
    /// batch is still being embedded (``upsert(_:)``); smaller ones prepare, then store.
    static let overlapMinimum = Parallel.minimumCount

    /// The meta values a commit records: `meta` and the model's fingerprint.
    func commitMeta(_ meta: [String: String]) -> [String: String] {
        var meta = meta
        if let f = configuration.vectorFingerprint { meta[Self.modelKey] = f }
        return meta
    }

    /// The upsert's mutations in order: each decision, or (nil) the next prepared item.
    static func pending(_ decisions: [Pending?], _ prepared: [PreparedItem]) -> [Pending] {
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
    func storeWhilePreparing(_ decisions: [Pending?], _ accepted: [StoredItem], count: Int) throws {
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
