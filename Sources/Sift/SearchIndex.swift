import Foundation

/// One named index: the store (source of truth) and its in-memory projections — the identifier
/// table, the keyword index and the vector index — kept in step by this actor, and persisted as a
/// snapshot beside the store for fast opens (``saveSnapshot()``, `IndexSnapshot`).
///
/// Every mutation is one SQLite transaction, applied to memory only after it commits, so a
/// failed write leaves both the store and the in-memory halves as they were. Private and
/// hidden items never reach the store; upserting one that was indexed deletes it.
public actor SearchIndex {
    /// What an upsert did.
    public struct UpsertSummary: Sendable, Equatable {
        public var indexed = 0
        /// Private or hidden items refused; those that were indexed before are deleted.
        public var refusedPrivate = 0
        public var deletedBecausePrivate = 0
        /// Items already expired, not stored.
        public var expired = 0
    }

    public let configuration: Configuration
    let store: Store
    var state: IndexState
    var table: IdentifierTable { state.table }
    var keyword: KeywordIndex { state.keyword }
    var vectors: VectorIndex? { state.vectors }
    var items: ItemCache { state.items }
    var donationLog: [ItemID: [Donation]] { state.donationLog }
    var domainNames: [String: String?] { state.domainNames }
    /// The store generation the in-memory state reflects; nil when unknown (a version 1 store
    /// read-only) or when another connection wrote the store behind this index's back, so that
    /// the state is not a faithful projection of any generation and must never be persisted.
    var generation: StoreGeneration?
    /// The generation of the snapshot this index knows to be on disk (loaded or written by it),
    /// or nil. Every commit removes the snapshot file, which it has made stale.
    var snapshotGeneration: StoreGeneration?
    /// Buffers the query path reuses from one search to the next (see SearchIndex+Search).
    let scratch = SearchScratch()
    private(set) var batch: [StoreMutation]? = nil
    private(set) var batchItems: [Pending] = []
    let name: String

    enum Pending {
        case upsert(PreparedItem)
        case delete([ItemID])
        case deleteDomains([String])
        case deleteAll
        case donate([Donation])
    }

    static let clientStateKey = "client_state"
    /// Stored items analysed together when an open rebuilds the projections.
    static let openChunk = 4096
    static let modelKey = "model_fingerprint"

    /// Opens (creating if needed) the index in `configuration.directory`: loads the in-memory
    /// structures from the snapshot beside the store when it reflects the store's current
    /// generation and this configuration (``saveSnapshot()``), and otherwise rebuilds them from
    /// the store, logging why. Re-embeds every item when the model changed. A failure to open is
    /// logged too; a missing, stale or damaged snapshot is never a failure.
    /// - Complexity: O(n) in the stored items: one read of the snapshot, or the analysis (and
    ///   with a new model, the embedding) of every item.
    public init(configuration: Configuration) throws {
        let started = Date()
        do {
            try self.init(opening: configuration)
        } catch {
            configuration.logger.log(
                LogRecord(
                    operation: "open", index: configuration.directory?.lastPathComponent ?? ":memory:", itemCount: 0,
                    duration: Date().timeIntervalSince(started), outcome: "failed: \(Self.describe(error))"))
            throw error
        }
    }

    private init(opening configuration: Configuration) throws {
        try Self.validate(configuration)
        self.configuration = configuration
        self.name = configuration.directory?.lastPathComponent ?? ":memory:"
        let started = Date()
        let store = try Store(directory: configuration.directory, codec: configuration.codec, readOnly: configuration.readOnly)
        store.halfVectors = configuration.vectorPrecision == .float16
        self.store = store
        Self.logPermissions(store.permissionNotes, configuration: configuration, name: name)
        let opened = try Self.load(store, configuration: configuration)
        self.generation = opened.generation
        self.snapshotGeneration = opened.snapshotGeneration
        self.state = opened.state
        configuration.logger.log(
            LogRecord(
                operation: "open", index: name, itemCount: opened.state.table.count, duration: Date().timeIntervalSince(started),
                outcome: opened.outcome))
    }

    private func applyInMemory(_ pending: [Pending]) {
        // Upserts alone (the usual batch): projected together.
        let upserts = pending.compactMap { if case .upsert(let p) = $0 { p } else { nil } }
        if upserts.count == pending.count {
            state.project(upserts)
            state.keyword.prepareForQueries()
            return
        }
        for p in pending {
            switch p {
            case .upsert(let prepared): state.project(prepared)
            case .delete(let ids): ids.forEach { state.unproject($0) }
            case .deleteDomains(let domains): state.unproject(domains: domains)
            case .deleteAll: state.removeAll()
            case .donate(let donations): state.record(donations)
            }
        }
        state.keyword.prepareForQueries()
    }

    /// What ``projectBesideCommit(_:)`` projected: the ids it added, and the domain names as
    /// they were before.
    struct ProjectedBeside {
        var ids: [ItemID]
        var domainNames: [String: String?]
    }

    /// Whether `pending` can be projected while its `COMMIT` runs: every change is an upsert of
    /// an id this index does not hold, what a failed `COMMIT` undoes by taking those ids out
    /// again (an id upserted twice in it is taken out once, as it was not held before either).
    private func projectsBesideCommit(_ pending: [Pending]) -> Bool {
        guard !pending.isEmpty else { return false }
        for p in pending {
            guard case .upsert(let prepared) = p, state.table.row(of: prepared.stored.item.id) == nil else { return false }
        }
        return true
    }

    /// Projects `pending`, which ``projectsBesideCommit(_:)`` accepted, and returns what it did.
    private func projectBesideCommit(_ pending: [Pending]) -> ProjectedBeside {
        let ids = pending.compactMap { if case .upsert(let p) = $0 { p.stored.item.id } else { nil } }
        let domainNames = state.domainNames
        applyInMemory(pending)
        return ProjectedBeside(ids: ids, domainNames: domainNames)
    }

    /// Takes out what ``projectBesideCommit(_:)`` projected, after its `COMMIT` failed: the
    /// projections hold what the store holds again.
    private func undo(_ projected: ProjectedBeside) {
        for id in projected.ids { state.unproject(id) }
        state.domainNames = projected.domainNames
        state.keyword.prepareForQueries()
    }

    static func mutation(_ p: Pending) -> StoreMutation {
        switch p {
        case .upsert(let p): .upsert(p.stored)
        case .delete(let ids): .delete(ids)
        case .deleteDomains(let d): .deleteDomains(d)
        case .deleteAll: .deleteAll
        case .donate(let d): .donate(d)
        }
    }

    /// Commits `pending` (or queues it when a batch is open).
    func commit(_ pending: [Pending], operation: String, count: Int, meta: [String: String] = [:]) throws {
        guard !pending.isEmpty || !meta.isEmpty else {
            if batch == nil {
                configuration.logger.log(
                    LogRecord(operation: operation, index: name, itemCount: count, duration: 0, outcome: "ok, nothing to store"))
            }
            return
        }
        if batch != nil {
            batchItems.append(contentsOf: pending)
            return
        }
        try commitNow(operation: operation, count: count, meta: meta) { write in
            for p in pending { try write(Self.mutation(p)) }
            return pending
        }
    }

    /// Commits, in one transaction, what `produce` writes to the store through the function it
    /// is given (``Store/apply(meta:runsBeside:beside:_:)``), and projects into memory what it
    /// returns: the changes it wrote, in the same order. Changes that are all upserts of ids this
    /// index does not hold (an import, a batch of new items) are projected while the `COMMIT`
    /// runs on another thread, and taken out again if it fails (``projectBesideCommit(_:)``);
    /// others after it, committed on this thread. Either way the projections hold nothing the
    /// store did not commit once this returns or throws.
    func commitNow(
        operation: String, count: Int, meta: [String: String], _ produce: ((StoreMutation) throws -> Void) throws -> [Pending]
    ) throws {
        let started = Date()
        let pending: [Pending]
        var projected: ProjectedBeside?
        do {
            var meta = meta
            if let f = configuration.vectorFingerprint { meta[Self.modelKey] = f }
            let committed = try store.apply(
                meta: meta, runsBeside: { self.projectsBesideCommit($0) }, beside: { projected = self.projectBesideCommit($0) },
                produce)
            pending = committed.result
            // Another connection committed in between: this state no longer projects one generation.
            generation = committed.previous == generation ? committed.current : nil
            // Whoever wrote a snapshot (this index, or another one on the same store), it is
            // stale now, and may hold text this commit deleted: remove it (an unlink, usually of
            // nothing, beside the commit's fsync).
            if let directory = configuration.directory, IndexSnapshot.unavailability(configuration) == nil {
                IndexSnapshot.remove(in: directory)
                snapshotGeneration = nil
            }
        } catch {
            if let projected { undo(projected) }
            configuration.logger.log(
                LogRecord(
                    operation: operation, index: name, itemCount: count, duration: Date().timeIntervalSince(started),
                    outcome: "failed: \(Self.describe(error))"))
            throw error
        }
        if projected == nil { applyInMemory(pending) }
        configuration.logger.log(
            LogRecord(operation: operation, index: name, itemCount: count, duration: Date().timeIntervalSince(started), outcome: "ok"))
    }

    static func describe(_ error: any Error) -> String {
        if let e = error as? StoreError { return e.code >= 0 ? "SQLite code \(e.code)" : "store error" }
        return String(describing: type(of: error))
    }

    // MARK: Snapshot

    /// Writes the in-memory projections as the index's snapshot (`IndexSnapshot`), unless the
    /// one on disk is already of the current generation, so that the next open loads them in one
    /// read instead of re-analysing every item. Also done when the index is released; call it
    /// where a host app would close the index (going to the background, quitting), or after a
    /// large import. Never for in-memory, protected or read-only indexes, nor when another
    /// connection wrote the store behind this index's back. A failure is logged, not thrown:
    /// without a snapshot the next open rebuilds from the store, which is only slower.
    /// - Returns: whether the snapshot on disk now reflects the current state.
    /// - Complexity: O(items + postings + vectors), one sequential write (about 170 MB at 100k
    ///   items with 256-dimensional vectors).
    @discardableResult
    public func saveSnapshot() -> Bool {
        snapshotGeneration = Self.saveSnapshot(
            state, generation: generation, onDisk: snapshotGeneration, configuration: configuration, name: name)
        return snapshotGeneration != nil && snapshotGeneration == generation
    }

    /// The snapshot writer shared by ``saveSnapshot()`` and `deinit`; returns the generation of
    /// the snapshot on disk afterwards.
    private static func saveSnapshot(
        _ state: IndexState, generation: StoreGeneration?, onDisk: StoreGeneration?, configuration: Configuration, name: String
    ) -> StoreGeneration? {
        guard let directory = configuration.directory, !configuration.readOnly, IndexSnapshot.unavailability(configuration) == nil else {
            return nil
        }
        guard let generation else { return nil }
        if onDisk == generation { return onDisk }
        let started = Date()
        do {
            let bytes = try IndexSnapshot.write(state, key: snapshotKey(configuration, generation), in: directory)
            configuration.logger.log(
                LogRecord(
                    operation: "snapshot", index: name, itemCount: state.table.count, duration: Date().timeIntervalSince(started),
                    outcome: "ok, \(bytes) bytes"))
            return generation
        } catch {
            configuration.logger.log(
                LogRecord(
                    operation: "snapshot", index: name, itemCount: state.table.count, duration: Date().timeIntervalSince(started),
                    outcome: "failed: \(error.description)"))
            return nil
        }
    }

    deinit {
        // The state of an index being released is final: persist it if it is newer than the
        // snapshot on disk (nothing happens when it is not).
        _ = Self.saveSnapshot(state, generation: generation, onDisk: snapshotGeneration, configuration: configuration, name: name)
    }

    // MARK: Lifecycle

    /// Deletes the items with these ids (unknown ids are ignored); their donations go too.
    /// Returns how many were indexed.
    @discardableResult
    public func delete(ids: [ItemID]) throws -> Int {
        let known = ids.filter { table.row(of: $0) != nil }
        guard !ids.isEmpty else { return 0 }
        try commit([.delete(ids)], operation: "delete", count: ids.count)
        return known.count
    }

    /// Deletes every item of these domains. Returns how many there were.
    @discardableResult
    public func delete(domains: [String]) throws -> Int {
        guard !domains.isEmpty else { return 0 }
        let count = state.attributes.rows(inDomains: Set(domains)).count
        try commit([.deleteDomains(domains)], operation: "delete-domains", count: count)
        return count
    }

    /// Deletes every item and donation. Returns how many items there were.
    @discardableResult
    public func deleteAll() throws -> Int {
        let count = table.count
        try commit([.deleteAll], operation: "delete-all", count: count)
        return count
    }

    // MARK: Batches (Core Spotlight's client state)

    /// Starts a batch: later mutations are held until ``endBatch(clientState:expectedClientState:)``
    /// and then committed all together, or not at all.
    public func beginBatch() throws {
        guard batch == nil else { throw IndexError.batchAlreadyOpen }
        batch = []
        batchItems = []
    }

    /// Commits the batch with `clientState` recorded in the same transaction. Fails, committing
    /// nothing and closing the batch, when `expectedClientState` differs from the stored one
    /// (pass nil to skip the check).
    public func endBatch(clientState: String, expectedClientState: String? = nil) throws {
        guard batch != nil else { throw IndexError.noBatchOpen }
        let pending = batchItems
        batch = nil
        batchItems = []
        if let expectedClientState {
            let current = try store.meta(Self.clientStateKey)
            guard current == expectedClientState else {
                configuration.logger.log(
                    LogRecord(
                        operation: "batch", index: name, itemCount: pending.count, duration: 0, outcome: "failed: client state mismatch"))
                throw IndexError.clientStateMismatch(expected: expectedClientState, found: current)
            }
        }
        let count = pending.reduce(0) { n, p in if case .upsert = p { return n + 1 } else { return n } }
        try commit(pending, operation: "batch", count: count, meta: [Self.clientStateKey: clientState])
    }

    /// Drops the open batch without committing anything.
    public func cancelBatch() {
        batch = nil
        batchItems = []
    }

    /// The client state of the last committed batch, or nil.
    public func lastClientState() throws -> String? {
        try store.meta(Self.clientStateKey)
    }

    // MARK: Expiry

    /// Deletes every item whose expiry is at or before `now`. Returns how many.
    @discardableResult
    public func purgeExpired(now: Date? = nil) throws -> Int {
        let now = now ?? configuration.clock()
        let expired = state.attributes.expiredRows(at: now).compactMap { table.id(at: $0) }
        guard !expired.isEmpty else { return 0 }
        try commit([.delete(expired)], operation: "purge-expired", count: expired.count)
        return expired.count
    }

    // MARK: Donations

    /// Records that the user performed `intent` on these items at `date` (App Intents'
    /// `donate()`). Donations naming items that are not indexed are dropped.
    /// Returns how many were recorded.
    @discardableResult
    public func donate(intent: String, itemIDs: [ItemID], surface: String? = nil, at date: Date? = nil) throws -> Int {
        let date = date ?? configuration.clock()
        let donations = itemIDs.filter { table.row(of: $0) != nil }.map {
            Donation(intent: intent, itemID: $0, surface: surface, date: date)
        }
        guard !donations.isEmpty else { return 0 }
        try commit([.donate(donations)], operation: "donate", count: donations.count)
        return donations.count
    }

    /// Items by decayed donation score, highest first (ties by id): the "suggestions" view.
    public func suggestions(limit: Int = 10, now: Date? = nil) -> [(item: SearchableItem, score: Double)] {
        let now = now ?? configuration.clock()
        var scored: [(SearchableItem, Double)] = []
        for (id, list) in donationLog {
            guard let row = table.row(of: id), let item = items[Int(row)], !item.isExpired(at: now) else { continue }
            scored.append((item, configuration.donations.score(list.map(\.date), now: now)))
        }
        scored.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.id < $1.0.id }
        return Array(scored.prefix(max(0, limit)))
    }

    /// Donations recorded for `id`.
    package func donations(for id: ItemID) -> [Donation] { donationLog[id] ?? [] }
}
