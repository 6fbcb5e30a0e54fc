import Foundation

/// Opening an index: the configuration check, the snapshot or the rebuild from the store, the
/// re-embedding when the model changed, and where named indexes live.
extension SearchIndex {
    /// What opening found: the projections, the generation they reflect, the generation of the
    /// snapshot they were loaded from (if they were), and the outcome to log.
    struct Opened {
        var state: IndexState
        var generation: StoreGeneration?
        var snapshotGeneration: StoreGeneration?
        var outcome: String
    }

    /// Refuses a configuration the index cannot honour.
    static func validate(_ configuration: Configuration) throws {
        if configuration.quantizedScan, let p = configuration.quantizedScanComponents, let d = configuration.embedder?.dimension,
            p <= 0 || (p < d && p % 32 != 0)
        {
            throw IndexError.invalidConfiguration(
                "quantizedScanComponents must be a positive multiple of 32 (or at least the model's \(d) dimensions), got \(p)")
        }
    }

    /// The projections of `store`: from the snapshot when it reflects the store's generation and
    /// this configuration, otherwise rebuilt from the store (and re-embedded, the new vectors
    /// committed, when the model changed); with the donations of live items.
    static func load(_ store: Store, configuration: Configuration) throws -> Opened {
        let fingerprint = configuration.vectorFingerprint
        var loaded: IndexState?
        var rebuiltWhy: String?
        var reembed = false
        var rewritten: [StoreMutation] = []
        var generation: StoreGeneration?
        var donations: [Donation] = []
        var state = IndexState(
            keyword: KeywordIndex(parameters: configuration.bm25),
            vectors: configuration.embedder.map {
                VectorIndex(dimension: $0.dimension, coding: configuration.quantizedCoding, precision: configuration.vectorPrecision)
            })
        // One read transaction: the generation, the snapshot's check against it and whatever is
        // read from the store are one committed state.
        try store.reading {
            generation = try store.generation()
            let storedFingerprint = try store.meta(Self.modelKey)
            reembed = fingerprint != nil && storedFingerprint != fingerprint
            (loaded, rebuiltWhy) = snapshot(configuration, generation: generation, reembed: reembed)
            if let loaded {
                state = loaded
            } else {
                rewritten = try rebuild(&state, from: store, configuration: configuration, reembed: reembed)
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
        state.keyword.prepareForQueries()
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
        return Opened(state: state, generation: generation, snapshotGeneration: loaded != nil ? generation : nil, outcome: outcome)
    }

    /// The snapshot's projections, or nil and why they must be rebuilt.
    private static func snapshot(
        _ configuration: Configuration, generation: StoreGeneration?, reembed: Bool
    ) -> (IndexState?, String?) {
        if let why = IndexSnapshot.unavailability(configuration) { return (nil, why) }
        if reembed { return (nil, "the model changed") }
        guard let generation, let directory = configuration.directory else {
            return (nil, "the store has no generation (schema 1, opened read-only)")
        }
        switch IndexSnapshot.load(
            in: directory, expected: Self.snapshotKey(configuration, generation), coding: configuration.quantizedCoding,
            verifyAsReadFrom: configuration.quantizedScanMinimumRows)
        {
        case .success(let s): return (s, nil)
        case .failure(let rejection): return (nil, rejection.description)
        }
    }

    /// Projects every stored item into `state`, analysed (and re-embedded where needed) a chunk
    /// at a time across the cores; returns the upserts of the items given a new vector.
    private static func rebuild(
        _ state: inout IndexState, from store: Store, configuration: Configuration, reembed: Bool
    ) throws -> [StoreMutation] {
        var rewritten: [StoreMutation] = []
        let dimension = configuration.embedder?.dimension
        let everything = reembed
        let needsVector: @Sendable (StoredItem) -> Bool = { stored in dimension != nil && (everything || stored.vector?.count != dimension)
        }
        var chunk: [StoredItem] = []
        func flush() {
            let prepared = state.prepare(
                chunk, embedder: configuration.embedder, titleWeight: configuration.titleEmbeddingWeight, needsVector: needsVector)
            for (stored, p) in zip(chunk, prepared) where needsVector(stored) { rewritten.append(.upsert(p.stored)) }
            state.project(prepared)
            chunk.removeAll(keepingCapacity: true)
        }
        try store.forEachItem { stored in
            chunk.append(stored)
            if chunk.count == Self.openChunk { flush() }
        }
        flush()
        return rewritten
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
}
