import Foundation

extension SearchIndex {
    /// How an index is opened.
    public struct Configuration: Sendable {
        /// The index's directory, or nil for a throw-away in-memory index.
        public var directory: URL?
        /// The model for the semantic half; nil for keyword search only.
        public var embedder: (any Embedder)?
        package var bm25: BM25Parameters
        package var donations: DonationBoost
        public var fusion: FusionParameters
        /// How each result's calibrated ``SearchResult/relevance`` is estimated (fitted on
        /// SciFact's train judgments).
        package var relevance: RelevanceModel = .default
        /// The present; tests pass a fixed clock.
        public var clock: @Sendable () -> Date
        /// Where operations are reported (never with user text).
        public var logger: any SiftLogger
        /// How records are sealed at rest (``PlainCodec``, or encryption for a protected index).
        package var codec: any RecordCodec
        /// Keep a quantized copy of the vectors (a row's leading ``quantizedScanComponents`` as
        /// codes of 4 or 8 bits, and a scale: 68 bytes an item with the bundled model, 4-bit codes
        /// of 128 components) and, on an index of 16,384 rows or more, scan it instead of the
        /// rows: its best nominees and the keyword matches are then re-scored exactly, so the
        /// candidates and their cosines are the exact scan's. On by default: at 100k synthetic
        /// items it reads an eighth of the fp16 rows' bytes, and SciFact and Cranfield ranked on
        /// it as on the exact scan (`Benchmarks/RESULTS.md`, query-path and 4-bit rounds). Needs a
        /// dimension divisible by 32; no copy is kept for another model.
        public var quantizedScan: Bool
        /// With ``quantizedScan``: how many leading components of each vector the quantized copy
        /// codes (a multiple of 32). nil: the model's choice — half of them for a model whose
        /// components are ordered by decreasing variance, such as the bundled one (principal
        /// components: 128 of 256 halve the scan's bytes again and still nominate the exact
        /// top 10, `QuantizedRows`), every one for any other model.
        public var quantizedScanComponents: Int?
        /// With ``quantizedScan``: the fewest rows (free ones included) on which the quantized copy is
        /// scanned; a smaller index scans its rows exactly (its scan is short, and re-scoring the
        /// nominees would cost about as much).
        package var quantizedScanMinimumRows = 16_384
        /// With ``quantizedScan``: bits a code, 8 or 4. nil: the model's choice — 4 when the copy
        /// codes a leading part of a variance-ordered model's components (what the dropped
        /// components leave out outweighs the coarser codes: the bundled model's first 128
        /// components nominate the exact top 10 from 1,000 nominees at 4 bits as at 8, on the
        /// bench corpus), else 8.
        package var quantizedScanBits: Int?
        /// What the quantized copy codes, nil without the quantized scan.
        package var quantizedCoding: QuantizedCoding? {
            guard quantizedScan, let d = embedder?.dimension, d % 32 == 0 else { return nil }
            let components: Int
            if let p = quantizedScanComponents {
                components = min(p, d)
            } else {
                components = embedder is any VarianceOrderedComponents && d % 64 == 0 ? d / 2 : d
            }
            let bits = quantizedScanBits ?? (components < d && embedder is any VarianceOrderedComponents ? 4 : 8)
            return QuantizedCoding(components: components, bits: bits)
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

        /// The configuration a host app sets. The rest of the tuning keeps its defaults (BM25F
        /// parameters, donation boost, vector precision, title embedding weight).
        /// - Parameters:
        ///   - directory: where the index's files live; nil keeps it in memory only.
        ///   - embedder: the model for the semantic half; nil ranks by keywords alone.
        ///   - fusion: how the two halves are blended (``FusionParameters/default`` unless tuned).
        ///   - clock: the present; tests pass a fixed clock.
        ///   - logger: where operations are reported; nil discards them.
        ///   - protectionKey: when given, every record's text is sealed with AES-256-GCM under it.
        ///   - quantizedScan: also keep a quantized copy of the vectors that nominates rows for
        ///     exact re-scoring on a large index (on by default; false scans the rows exactly).
        ///   - quantizedScanComponents: with `quantizedScan`, code only each vector's leading
        ///     components (a multiple of 32); nil: the model's choice (``quantizedScanComponents``).
        ///   - readOnly: open for reading only; nothing on disk is changed.
        public init(
            directory: URL?, embedder: (any Embedder)? = nil, fusion: FusionParameters = .default,
            clock: @escaping @Sendable () -> Date = { Date() }, logger: (any SiftLogger)? = nil,
            protectionKey: ProtectionKey? = nil, quantizedScan: Bool = true, quantizedScanComponents: Int? = nil,
            readOnly: Bool = false
        ) {
            self.init(
                directory: directory, embedder: embedder, bm25: .default, donations: DonationBoost(),
                fusion: fusion, clock: clock, logger: logger, codec: PlainCodec(), protectionKey: protectionKey,
                quantizedScan: quantizedScan, quantizedScanComponents: quantizedScanComponents, readOnly: readOnly,
                titleEmbeddingWeight: 5, vectorPrecision: .float16)
        }

        /// Every setting, tuning included (the CLI, the bench, the trainer and the tests). A
        /// `protectionKey` replaces `codec` with ``AESGCMCodec`` under that key.
        package init(
            directory: URL?, embedder: (any Embedder)? = nil, bm25: BM25Parameters = .default,
            donations: DonationBoost = DonationBoost(), fusion: FusionParameters = .default,
            clock: @escaping @Sendable () -> Date = { Date() }, logger: (any SiftLogger)? = nil,
            codec: any RecordCodec = PlainCodec(), protectionKey: ProtectionKey? = nil,
            quantizedScan: Bool = true, quantizedScanComponents: Int? = nil,
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
}
