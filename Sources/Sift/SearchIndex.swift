import Foundation

/// One named index: the store (source of truth) and its in-memory projections — the identifier
/// table, the keyword index and the vector index — kept in step by this actor, and persisted as a
/// snapshot beside the store for fast opens (``saveSnapshot()``, ``IndexSnapshot``).
///
/// Every mutation is one SQLite transaction, applied to memory only after it commits, so a
/// failed write leaves both the store and the in-memory halves as they were. Private and
/// hidden items never reach the store; upserting one that was indexed deletes it.
public actor SearchIndex {
    /// How an index is opened.
    public struct Configuration: Sendable {
        /// The index's directory, or nil for a throw-away in-memory index.
        public var directory: URL?
        /// The model for the semantic half; nil for keyword search only.
        public var embedder: (any Embedder)?
        package var bm25: BM25Parameters
        package var donations: DonationBoost
        package var fusion: FusionParameters
        /// The present; tests pass a fixed clock.
        public var clock: @Sendable () -> Date
        /// Where operations are reported (never with user text).
        public var logger: any SiftLogger
        /// How records are sealed at rest (``PlainCodec``, or encryption for a protected index).
        package var codec: any RecordCodec
        /// Scan an int8 copy of the vectors and re-score the best exactly (faster at large
        /// sizes, 256 more bytes an item at 256 dimensions).
        package var quantizedScan: Bool
        /// With ``quantizedScan``: how many leading components of each vector the int8 copy
        /// codes (a multiple of 32); nil, all of them. For a model whose components are ordered
        /// by decreasing variance, such as the bundled one (principal components), 128 of 256
        /// halve the scan's bytes again and still nominate the exact top 10 (``QuantizedRows``);
        /// for other models keep nil.
        package var quantizedScanComponents: Int?
        /// The int8 copy's coded components, nil without the quantized scan.
        var int8Components: Int? {
            guard quantizedScan, let d = embedder?.dimension else { return nil }
            return min(quantizedScanComponents ?? d, d)
        }
        /// How the vectors are kept in memory (the store keeps them as fp32 either way). fp16 by
        /// default: half the memory and half the bytes a scan reads, with the same hybrid and
        /// keyword nDCG@10 on SciFact and Cranfield (see ``VectorPrecision``); `.float32` keeps
        /// the embedder's exact components.
        package var vectorPrecision: VectorPrecision
        /// Open the store for reading only: searches work, every mutation throws a
        /// ``StoreError`` naming the store and SQLite's reason; nothing on disk is created or
        /// changed (a model change re-embeds in memory only).
        public var readOnly: Bool
        /// How many times an item's title counts in its vector (1: once, as in the text).
        /// 5 was best on SciFact train and Cranfield (semantic and hybrid nDCG@10; see
        /// `Benchmarks/RESULTS.md`). Part of ``vectorFingerprint``: changing it re-embeds.
        package var titleEmbeddingWeight: Float

        /// What the stored vectors depend on: the model's fingerprint and the title weight.
        package var vectorFingerprint: String? {
            guard let f = embedder?.fingerprint else { return nil }
            return titleEmbeddingWeight == 1 ? f : "\(f)+title×\(titleEmbeddingWeight)"
        }

        /// The configuration a host app sets; the ranking and storage tuning keeps its defaults
        /// (BM25F and fusion parameters, donation boost, quantized scan, vector precision, title
        /// embedding weight).
        /// - Parameters:
        ///   - logger: where operations are reported; nil discards them.
        ///   - protectionKey: when given, every record's text is sealed with AES-256-GCM under it.
        public init(
            directory: URL?, embedder: (any Embedder)? = nil, clock: @escaping @Sendable () -> Date = { Date() },
            logger: (any SiftLogger)? = nil, protectionKey: ProtectionKey? = nil, readOnly: Bool = false
        ) {
            self.init(
                directory: directory, embedder: embedder, bm25: .default, donations: DonationBoost(),
                fusion: .default, clock: clock, logger: logger, codec: PlainCodec(), protectionKey: protectionKey,
                quantizedScan: false, quantizedScanComponents: nil, readOnly: readOnly, titleEmbeddingWeight: 5,
                vectorPrecision: .float16)
        }

        /// Every setting, tuning included (the CLI, the bench, the trainer and the tests). A
        /// `protectionKey` replaces `codec` with ``AESGCMCodec`` under that key.
        package init(
            directory: URL?, embedder: (any Embedder)? = nil, bm25: BM25Parameters = .default,
            donations: DonationBoost = DonationBoost(), fusion: FusionParameters = .default,
            clock: @escaping @Sendable () -> Date = { Date() }, logger: (any SiftLogger)? = nil,
            codec: any RecordCodec = PlainCodec(), protectionKey: ProtectionKey? = nil,
            quantizedScan: Bool = false, quantizedScanComponents: Int? = nil,
            readOnly: Bool = false, titleEmbeddingWeight: Float = 5, vectorPrecision: VectorPrecision = .float16
        ) {
            self.quantizedScanComponents = quantizedScanComponents
            self.vectorPrecision = vectorPrecision
            self.titleEmbeddingWeight = titleEmbeddingWeight
            self.codec = protectionKey.map { AESGCMCodec(key: $0) } ?? codec
            self.readOnly = readOnly
            self.quantizedScan = quantizedScan
            self.directory = directory
            self.embedder = embedder
            self.bm25 = bm25
            self.donations = donations
            self.fusion = fusion
            self.clock = clock
            self.logger = logger ?? NullLogger()
        }
    }

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
    var items: [SearchableItem?] { state.items }
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
    private var batch: [StoreMutation]? = nil
    private var batchItems: [Pending] = []
    let name: String

    private enum Pending {
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
            configuration.logger.log(LogRecord(operation: "open", index: configuration.directory?.lastPathComponent ?? ":memory:", itemCount: 0, duration: Date().timeIntervalSince(started), outcome: "failed: \(Self.describe(error))"))
            throw error
        }
    }

    private init(opening configuration: Configuration) throws {
        if configuration.quantizedScan, let p = configuration.quantizedScanComponents, let d = configuration.embedder?.dimension,
           p <= 0 || (p < d && p % 32 != 0) {
            throw IndexError.invalidConfiguration("quantizedScanComponents must be a positive multiple of 32 (or at least the model's \(d) dimensions), got \(p)")
        }
        self.configuration = configuration
        self.name = configuration.directory?.lastPathComponent ?? ":memory:"
        let started = Date()
        let store = try Store(directory: configuration.directory, codec: configuration.codec, readOnly: configuration.readOnly)
        self.store = store
        Self.logPermissions(store.permissionNotes, configuration: configuration, name: name)
        let fingerprint = configuration.vectorFingerprint
        var loaded: IndexState?
        var rebuiltWhy: String?
        var reembed = false
        var rewritten: [StoreMutation] = []
        var generation: StoreGeneration?
        var donations: [Donation] = []
        var state = IndexState(keyword: KeywordIndex(parameters: configuration.bm25), vectors: configuration.embedder.map { VectorIndex(dimension: $0.dimension, int8Components: configuration.int8Components, precision: configuration.vectorPrecision) })
        // One read transaction: the generation, the snapshot's check against it and whatever is
        // read from the store are one committed state.
        try store.reading {
            generation = try store.generation()
            let storedFingerprint = try store.meta(Self.modelKey)
            reembed = fingerprint != nil && storedFingerprint != fingerprint
            if let why = IndexSnapshot.unavailability(configuration) {
                rebuiltWhy = why
            } else if reembed {
                rebuiltWhy = "the model changed"
            } else if let generation, let directory = configuration.directory {
                switch IndexSnapshot.load(in: directory, expected: Self.snapshotKey(configuration, generation), int8Components: configuration.int8Components) {
                case .success(let s): loaded = s
                case .failure(let rejection): rebuiltWhy = rejection.description
                }
            } else {
                rebuiltWhy = "the store has no generation (schema 1, opened read-only)"
            }
            if let loaded {
                state = loaded
            } else {
                // Analysed (and re-embedded where needed) a chunk at a time, across the cores.
                let dimension = configuration.embedder?.dimension
                let everything = reembed
                let needsVector: @Sendable (StoredItem) -> Bool = { stored in dimension != nil && (everything || stored.vector?.count != dimension) }
                var chunk: [StoredItem] = []
                func flush() {
                    let prepared = state.prepare(chunk, embedder: configuration.embedder, titleWeight: configuration.titleEmbeddingWeight, needsVector: needsVector)
                    for (stored, p) in zip(chunk, prepared) {
                        if needsVector(stored) { rewritten.append(.upsert(p.stored)) }
                        state.project(p)
                    }
                    chunk.removeAll(keepingCapacity: true)
                }
                try store.forEachItem { stored in
                    chunk.append(stored)
                    if chunk.count == Self.openChunk { flush() }
                }
                flush()
            }
            donations = try store.donations()
        }
        if let directory = configuration.directory, !configuration.readOnly, IndexSnapshot.unavailability(configuration) == nil {
            // A snapshot that was not used is stale or damaged: of no further use, and it may
            // hold text the store has since deleted. Temporary files of interrupted writes go too.
            if loaded == nil { IndexSnapshot.remove(in: directory) }
            IndexSnapshot.removeTemporaryFiles(in: directory)
        }
        if let fingerprint, reembed, !configuration.readOnly {
            let committed = try store.apply(rewritten, meta: [Self.modelKey: fingerprint])
            generation = committed.previous == generation ? committed.current : nil
        }
        for donation in donations where state.table.row(of: donation.itemID) != nil {
            state.donationLog[donation.itemID, default: []].append(donation)
        }
        self.generation = generation
        self.snapshotGeneration = loaded != nil ? generation : nil
        state.keyword.prepareForQueries()
        self.state = state
        let outcome: String
        if loaded != nil {
            outcome = "ok, from the snapshot"
        } else if reembed {
            outcome = "ok, re-embedded \(rewritten.count)"
        } else if configuration.directory == nil || (state.table.count == 0 && rebuiltWhy == IndexSnapshot.missing) {
            outcome = "ok"
        } else {
            outcome = "ok, rebuilt: \(rebuiltWhy ?? "no snapshot")"
        }
        configuration.logger.log(LogRecord(operation: "open", index: name, itemCount: state.table.count, duration: Date().timeIntervalSince(started), outcome: outcome))
    }

    /// What a snapshot of this index at `generation` must have been made for.
    static func snapshotKey(_ configuration: Configuration, _ generation: StoreGeneration) -> IndexSnapshot.Key {
        IndexSnapshot.Key(
            generation: generation, vectorFingerprint: configuration.vectorFingerprint,
            titleEmbeddingWeight: configuration.titleEmbeddingWeight, bm25: configuration.bm25,
            analysis: KeywordIndex.analysisFingerprint, dimension: configuration.embedder?.dimension ?? 0,
            precision: configuration.vectorPrecision)
    }

    /// Opens the index called `name` under `root` (default: ``SearchIndex/defaultStoreRoot()``).
    public init(name: String, root: URL? = nil, embedder: (any Embedder)? = nil) throws {
        let root = root ?? SearchIndex.defaultStoreRoot()
        try self.init(configuration: Configuration(directory: root.appendingPathComponent(name, isDirectory: true), embedder: embedder))
    }

    /// `$SIFT_STORE` if set, else the user's data directory (`$XDG_DATA_HOME/sift` or
    /// `~/.local/share/sift` on Linux, Application Support on Apple platforms).
    public static func defaultStoreRoot() -> URL {
        let env = ProcessInfo.processInfo.environment
        if let path = env["SIFT_STORE"], !path.isEmpty { return URL(fileURLWithPath: path, isDirectory: true) }
        #if os(Linux)
        if let xdg = env["XDG_DATA_HOME"], !xdg.isEmpty { return URL(fileURLWithPath: xdg).appendingPathComponent("sift") }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/sift")
        #else
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first!
        return base.appendingPathComponent("sift")
        #endif
    }

    private func applyInMemory(_ pending: [Pending]) {
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

    private static func mutation(_ p: Pending) -> StoreMutation {
        switch p {
        case .upsert(let p): .upsert(p.stored)
        case .delete(let ids): .delete(ids)
        case .deleteDomains(let d): .deleteDomains(d)
        case .deleteAll: .deleteAll
        case .donate(let d): .donate(d)
        }
    }

    /// Commits `pending` (or queues it when a batch is open).
    private func commit(_ pending: [Pending], operation: String, count: Int, meta: [String: String] = [:]) throws {
        guard !pending.isEmpty || !meta.isEmpty else {
            if batch == nil { configuration.logger.log(LogRecord(operation: operation, index: name, itemCount: count, duration: 0, outcome: "ok, nothing to store")) }
            return
        }
        if batch != nil {
            batchItems.append(contentsOf: pending)
            return
        }
        let started = Date()
        do {
            var meta = meta
            if let f = configuration.vectorFingerprint { meta[Self.modelKey] = f }
            let committed = try store.apply(pending.map(Self.mutation), meta: meta)
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
            configuration.logger.log(LogRecord(operation: operation, index: name, itemCount: count, duration: Date().timeIntervalSince(started), outcome: "failed: \(Self.describe(error))"))
            throw error
        }
        applyInMemory(pending)
        configuration.logger.log(LogRecord(operation: operation, index: name, itemCount: count, duration: Date().timeIntervalSince(started), outcome: "ok"))
    }

    static func describe(_ error: any Error) -> String {
        if let e = error as? StoreError { return e.code >= 0 ? "SQLite code \(e.code)" : "store error" }
        return String(describing: type(of: error))
    }

    // MARK: Snapshot

    /// Writes the in-memory projections as the index's snapshot (``IndexSnapshot``), unless the
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
        snapshotGeneration = Self.saveSnapshot(state, generation: generation, onDisk: snapshotGeneration, configuration: configuration, name: name)
        return snapshotGeneration != nil && snapshotGeneration == generation
    }

    /// The snapshot writer shared by ``saveSnapshot()`` and `deinit`; returns the generation of
    /// the snapshot on disk afterwards.
    private static func saveSnapshot(_ state: IndexState, generation: StoreGeneration?, onDisk: StoreGeneration?, configuration: Configuration, name: String) -> StoreGeneration? {
        guard let directory = configuration.directory, !configuration.readOnly, IndexSnapshot.unavailability(configuration) == nil else { return nil }
        guard let generation else { return nil }
        if onDisk == generation { return onDisk }
        let started = Date()
        do {
            let bytes = try IndexSnapshot.write(state, key: snapshotKey(configuration, generation), in: directory)
            configuration.logger.log(LogRecord(operation: "snapshot", index: name, itemCount: state.table.count, duration: Date().timeIntervalSince(started), outcome: "ok, \(bytes) bytes"))
            return generation
        } catch {
            configuration.logger.log(LogRecord(operation: "snapshot", index: name, itemCount: state.table.count, duration: Date().timeIntervalSince(started), outcome: "failed: \(error.description)"))
            return nil
        }
    }

    deinit {
        // The state of an index being released is final: persist it if it is newer than the
        // snapshot on disk (nothing happens when it is not).
        _ = Self.saveSnapshot(state, generation: generation, onDisk: snapshotGeneration, configuration: configuration, name: name)
    }

    // MARK: Lifecycle

    /// Adds or replaces items (same id replaces). Private and hidden items are refused and,
    /// if they were indexed, deleted; already-expired items are not stored. An empty array
    /// does not touch the store.
    /// - Complexity: O(Σ text) to analyse and embed, plus one transaction.
    @discardableResult
    public func upsert(_ newItems: [SearchableItem]) throws -> UpsertSummary {
        var summary = UpsertSummary()
        guard !newItems.isEmpty else { return summary }
        let now = configuration.clock()
        var pending: [Pending] = []
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
                if isIndexed(item.id) { decisions.append(.delete([item.id])); summary.deletedBecausePrivate += 1 }
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
        let prepared = state.prepare(accepted, embedder: configuration.embedder, titleWeight: configuration.titleEmbeddingWeight, needsVector: { _ in true })
        var next = 0
        for decision in decisions {
            if let decision {
                pending.append(decision)
            } else {
                pending.append(.upsert(prepared[next]))
                next += 1
            }
        }
        try commit(pending, operation: "upsert", count: newItems.count)
        return summary
    }

    private func pendingContains(_ id: ItemID) -> Bool {
        batchItems.contains { if case .upsert(let p) = $0 { return p.stored.item.id == id } else { return false } }
    }

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
        let set = Set(domains)
        let count = items.lazy.compactMap { $0 }.filter { set.contains($0.domain) }.count
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
                configuration.logger.log(LogRecord(operation: "batch", index: name, itemCount: pending.count, duration: 0, outcome: "failed: client state mismatch"))
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
        let expired = items.compactMap { $0 }.filter { $0.isExpired(at: now) }.map(\.id)
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

    // MARK: Reading

    /// The item with this id, if indexed.
    public func item(_ id: ItemID) -> SearchableItem? {
        table.row(of: id).flatMap { items[Int($0)] }
    }

    /// Every indexed item that has not expired (by the index's clock), ordered by id: the
    /// export, which like search never shows an expired item, purged or not.
    public func allItems() -> [SearchableItem] {
        let now = configuration.clock()
        return items.compactMap { $0 }.filter { !$0.isExpired(at: now) }.sorted { $0.id < $1.id }
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
        for case let item? in items where !item.isExpired(at: now) {
            domains[item.domain, default: 0] += 1
            live += 1
        }
        let k = keyword.statistics
        var bytes = 0
        if let dir = configuration.directory, let files = try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: [.fileSizeKey]) {
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
        try table.checkInvariants()
        var live = Set<Int32>()
        var storedIDs = Set<ItemID>()
        try store.forEachItem { storedIDs.insert($0.item.id) }
        for id in table.ids { live.insert(table.row(of: id)!) }
        if Set(table.ids) != storedIDs {
            throw InvariantViolation("store holds \(storedIDs.count) items, identifier table \(table.count); differing: \(Array(storedIDs.symmetricDifference(Set(table.ids)).prefix(5)))")
        }
        for (r, item) in items.enumerated() {
            if (item != nil) != live.contains(Int32(r)) || (item.map { table.row(of: $0.id) != Int32(r) } ?? false) {
                throw InvariantViolation("item cache disagrees with the identifier table at row \(r)")
            }
        }
        try state.attributes.checkInvariants(items: items)
        try keyword.checkInvariants(liveRows: live)
        try vectors?.checkInvariants(liveRows: live)
        for id in donationLog.keys where table.row(of: id) == nil {
            throw InvariantViolation("donations kept for \(id), which is not indexed")
        }
    }

    /// SQLite's `PRAGMA integrity_check` result ("ok" when sound).
    package func integrityCheck() throws -> String { try store.integrityCheck() }
}

/// Misuse of the index API.
public enum IndexError: Error, CustomStringConvertible, Sendable, Equatable {
    case batchAlreadyOpen
    case noBatchOpen
    case clientStateMismatch(expected: String, found: String?)
    case noModel(String)
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .batchAlreadyOpen: "a batch is already open; end or cancel it first"
        case .noBatchOpen: "no batch is open; call beginBatch() first"
        case .clientStateMismatch(let expected, let found):
            "client state mismatch: expected \(expected), the index has \(found ?? "none"); nothing was committed"
        case .noModel(let why): "semantic search needs an embedding model: \(why)"
        case .invalidConfiguration(let why): "invalid configuration: \(why)"
        }
    }
}

/// The in-memory projections of the store — identifier table, keyword index, vector index,
/// item cache, donations — changed only together, after the store has committed.
struct IndexState: Sendable {
    var table = IdentifierTable()
    var keyword: KeywordIndex
    var vectors: VectorIndex?
    /// The item at each row (nil for free rows).
    var items: [SearchableItem?] = []
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

    /// Projects `stored`, whose keyword analysis is `analysis` (see ``prepare(_:embedder:titleWeight:needsVector:)``).
    mutating func project(_ stored: StoredItem, analysis: AnalyzedDocument) {
        let (row, _) = table.assign(stored.item.id)
        let r = Int(row)
        if r >= items.count { items.append(contentsOf: repeatElement(nil, count: r - items.count + 1)) }
        items[r] = stored.item
        attributes.set(row: row, item: stored.item)
        keyword.insert(analysis, at: row)
        if let v = stored.vector, v.count == vectors?.dimension {
            vectors?.set(row: row, vector: v)
        }
        if domainNames[stored.item.domain] == nil || stored.item.displayName != nil {
            domainNames[stored.item.domain] = stored.item.displayName
        }
    }

    mutating func unproject(_ id: ItemID) {
        guard let row = table.remove(id) else { return }
        items[Int(row)] = nil
        attributes.remove(row: row)
        keyword.remove(row: row)
        vectors?.remove(row: row)
        donationLog[id] = nil
    }

    mutating func unproject(domains: [String]) {
        let set = Set(domains)
        let doomed = items.compactMap { $0 }.filter { set.contains($0.domain) }.map(\.id)
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
