import Foundation

/// One named index: the store (source of truth) and its in-memory projections — the identifier
/// table, the keyword index and the vector index — kept in step by this actor.
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
        public var bm25: BM25Parameters
        public var donations: DonationBoost
        public var fusion: FusionParameters
        /// The present; tests pass a fixed clock.
        public var clock: @Sendable () -> Date
        /// Where operations are reported (never with user text).
        public var logger: any SiftLogger
        /// How records are sealed at rest (``PlainCodec``, or encryption for a protected index).
        public var codec: any RecordCodec
        /// Scan an int8 copy of the vectors and re-score the best exactly (faster at large
        /// sizes, 256 more bytes an item at 256 dimensions).
        public var quantizedScan: Bool
        /// How the vectors are kept in memory (the store keeps them as fp32 either way). fp16 by
        /// default: half the memory and half the bytes a scan reads, with the same hybrid and
        /// keyword nDCG@10 on SciFact and Cranfield (see ``VectorPrecision``); `.float32` keeps
        /// the embedder's exact components.
        public var vectorPrecision: VectorPrecision
        /// Open the store for reading only: searches work, every mutation throws a
        /// ``StoreError`` naming the store and SQLite's reason; nothing on disk is created or
        /// changed (a model change re-embeds in memory only).
        public var readOnly: Bool
        /// How many times an item's title counts in its vector (1: once, as in the text).
        /// 5 was best on SciFact train and Cranfield (semantic and hybrid nDCG@10; see
        /// `Benchmarks/RESULTS.md`). Part of ``vectorFingerprint``: changing it re-embeds.
        public var titleEmbeddingWeight: Float

        /// What the stored vectors depend on: the model's fingerprint and the title weight.
        public var vectorFingerprint: String? {
            guard let f = embedder?.fingerprint else { return nil }
            return titleEmbeddingWeight == 1 ? f : "\(f)+title×\(titleEmbeddingWeight)"
        }

        public init(
            directory: URL?, embedder: (any Embedder)? = nil, bm25: BM25Parameters = .default,
            donations: DonationBoost = DonationBoost(), fusion: FusionParameters = .default,
            clock: @escaping @Sendable () -> Date = { Date() }, logger: any SiftLogger = NullLogger(),
            codec: any RecordCodec = PlainCodec(), quantizedScan: Bool = false, readOnly: Bool = false,
            titleEmbeddingWeight: Float = 5, vectorPrecision: VectorPrecision = .float16
        ) {
            self.vectorPrecision = vectorPrecision
            self.titleEmbeddingWeight = titleEmbeddingWeight
            self.codec = codec
            self.readOnly = readOnly
            self.quantizedScan = quantizedScan
            self.directory = directory
            self.embedder = embedder
            self.bm25 = bm25
            self.donations = donations
            self.fusion = fusion
            self.clock = clock
            self.logger = logger
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
    /// Buffers the query path reuses from one search to the next (see SearchIndex+Search).
    let scratch = SearchScratch()
    private var batch: [StoreMutation]? = nil
    private var batchItems: [Pending] = []
    let name: String

    private enum Pending {
        case upsert(StoredItem)
        case delete([ItemID])
        case deleteDomains([String])
        case deleteAll
        case donate([Donation])
    }

    static let clientStateKey = "client_state"
    static let modelKey = "model_fingerprint"

    /// Opens (creating if needed) the index in `configuration.directory` and rebuilds the
    /// in-memory structures from the store. Re-embeds every item when the model changed.
    /// A failure to open is logged too.
    /// - Complexity: O(n) in the stored items.
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
        self.configuration = configuration
        self.name = configuration.directory?.lastPathComponent ?? ":memory:"
        let started = Date()
        store = try Store(directory: configuration.directory, codec: configuration.codec, readOnly: configuration.readOnly)
        var state = IndexState(keyword: KeywordIndex(parameters: configuration.bm25), vectors: configuration.embedder.map { VectorIndex(dimension: $0.dimension, quantized: configuration.quantizedScan, precision: configuration.vectorPrecision) })
        let fingerprint = configuration.vectorFingerprint
        let storedFingerprint = try store.meta(Self.modelKey)
        let reembed = fingerprint != nil && storedFingerprint != fingerprint
        var rewritten: [StoreMutation] = []
        try store.forEachItem { stored in
            var stored = stored
            if let embedder = configuration.embedder, reembed || stored.vector?.count != embedder.dimension {
                stored.vector = embedder.embed(item: stored.item, titleWeight: configuration.titleEmbeddingWeight)
                rewritten.append(.upsert(stored))
            }
            state.project(stored)
        }
        if let fingerprint, reembed, !configuration.readOnly {
            try store.apply(rewritten, meta: [Self.modelKey: fingerprint])
        }
        for donation in try store.donations() where state.table.row(of: donation.itemID) != nil {
            state.donationLog[donation.itemID, default: []].append(donation)
        }
        state.keyword.prepareForQueries()
        self.state = state
        configuration.logger.log(LogRecord(operation: "open", index: name, itemCount: state.table.count, duration: Date().timeIntervalSince(started), outcome: reembed ? "ok, re-embedded \(rewritten.count)" : "ok"))
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
            case .upsert(let stored): state.project(stored)
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
        case .upsert(let s): .upsert(s)
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
            try store.apply(pending.map(Self.mutation), meta: meta)
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
        for item in newItems {
            if !item.isIndexable {
                summary.refusedPrivate += 1
                if isIndexed(item.id) { pending.append(.delete([item.id])); summary.deletedBecausePrivate += 1 }
                continue
            }
            if item.isExpired(at: now) {
                summary.expired += 1
                if isIndexed(item.id) { pending.append(.delete([item.id])) }
                continue
            }
            let vector = configuration.embedder?.embed(item: item, titleWeight: configuration.titleEmbeddingWeight)
            pending.append(.upsert(StoredItem(item: item, vector: vector)))
            upserted.insert(item.id)
            summary.indexed += 1
        }
        try commit(pending, operation: "upsert", count: newItems.count)
        return summary
    }

    private func pendingContains(_ id: ItemID) -> Bool {
        batchItems.contains { if case .upsert(let s) = $0 { return s.item.id == id } else { return false } }
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
    public func donations(for id: ItemID) -> [Donation] { donationLog[id] ?? [] }

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
    public struct Statistics: Sendable, Equatable {
        public var items: Int
        public var domains: [String: Int]
        public var terms: Int
        public var postings: Int
        public var vectors: Int
        public var dimension: Int?
        public var donations: Int
        public var model: String?
        public var lastClientState: String?
        public var storePath: String
        public var storeBytes: Int
    }

    public func statistics() throws -> Statistics {
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
    public func checkInvariants() throws {
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
    public func integrityCheck() throws -> String { try store.integrityCheck() }
}

/// Misuse of the index API.
public enum IndexError: Error, CustomStringConvertible, Sendable, Equatable {
    case batchAlreadyOpen
    case noBatchOpen
    case clientStateMismatch(expected: String, found: String?)
    case noModel(String)

    public var description: String {
        switch self {
        case .batchAlreadyOpen: "a batch is already open; end or cancel it first"
        case .noBatchOpen: "no batch is open; call beginBatch() first"
        case .clientStateMismatch(let expected, let found):
            "client state mismatch: expected \(expected), the index has \(found ?? "none"); nothing was committed"
        case .noModel(let why): "semantic search needs an embedding model: \(why)"
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

    mutating func project(_ stored: StoredItem) {
        let (row, _) = table.assign(stored.item.id)
        let r = Int(row)
        if r >= items.count { items.append(contentsOf: repeatElement(nil, count: r - items.count + 1)) }
        items[r] = stored.item
        attributes.set(row: row, item: stored.item)
        keyword.insert(stored.item, at: row)
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
