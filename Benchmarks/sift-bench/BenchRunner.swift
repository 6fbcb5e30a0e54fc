import Foundation
import Sift
import SiftEvaluation

/// Runs every measurement of the suite, in order, and collects the result rows.
struct BenchRunner {
    let options: BenchOptions
    let embedder: HashedNGramEmbedder?
    let modelLabel: String
    let source: CorpusSource
    let work: String
    private(set) var rows: [ResultRow] = []
    private(set) var queryMix = ""

    init(options: BenchOptions, embedder: HashedNGramEmbedder?, modelLabel: String, source: CorpusSource, work: String) {
        self.options = options
        self.embedder = embedder
        self.modelLabel = modelLabel
        self.source = source
        self.work = work
    }

    static let noModel = "not measured: no model"
    static let ftsPeer = "SQLite FTS5 (in-process, porter unicode61, WAL, synchronous=FULL)"

    mutating func run() async throws {
        rows.append(measureEmbedding())
        for n in source.sizes(requested: options.sizes, given: options.sizesGiven) {
            try await measure(size: n)
        }
    }

    // MARK: Embedding

    /// Texts/s of the model on `embedTexts` 30-word texts, one thread (best of 3 passes), and the
    /// teacher on the first `teacherTexts` of the same texts.
    func measureEmbedding() -> ResultRow {
        var row = ResultRow(n: options.embedTexts, measure: "embed")
        let generator = SyntheticCorpus(seed: options.seed)
        let texts = (0..<options.embedTexts).map { generator.text(words: 30, index: $0) }
        row.set("texts", texts.count)
        row.set("words_per_text", 30)
        row.set("threads", 1)
        guard let embedder else {
            row.set("note", BenchRunner.noModel)
            return row
        }
        Progress.log("embed: \(texts.count) texts of 30 words, 1 thread, best of 3 passes")
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: embedder.dimension)
        defer { buffer.deallocate() }
        var sink: Float = 0
        /// (wall-clock texts/s, texts per CPU-second of this thread)
        func pass(_ texts: ArraySlice<String>) -> (Double, Double) {
            let start = monotonicNanoseconds()
            let cpu = threadCPUNanoseconds()
            for t in texts {
                embedder.embed(t, into: buffer)
                sink += buffer[0]
            }
            let n = Double(texts.count)
            return (n / (Double(monotonicNanoseconds() - start) / 1e9), n / (Double(max(threadCPUNanoseconds() - cpu, 1)) / 1e9))
        }
        _ = pass(texts.prefix(500))
        let passes = (0..<3).map { _ in pass(texts[...]) }
        let perSecond = passes.map(\.0).max()!
        row.set("cpu_per_s", passes.map(\.1).max()!)
        let subset = texts.prefix(options.teacherTexts)
        if sink.isNaN { Progress.log("(embedding produced NaN)") }
        row.set("per_s", perSecond)
        row.set("model", modelLabel)
        guard options.teacher else {
            row.set("peer_note", "teacher skipped (--no-teacher)")
            return row
        }
        Progress.log("embed: teacher peer on \(subset.count) of the same texts (Python, 1 thread)…")
        let teacher = TeacherPeer.run(texts: Array(subset), python: options.teacherPython, workDirectory: work)
        if let peer = teacher.perSecond {
            row.set("peer", "teacher: \(teacher.model)")
            row.set("peer_per_s", peer)
            row.set("peer_texts", teacher.texts)
            // Sift's figure over all the texts (the teacher's are the first of them): a small
            // subset would flatter Sift, its table rows staying in cache between passes.
            row.set("ratio", perSecond / peer)
        } else {
            let reason = teacher.skipped ?? "no figure"
            Progress.log("embed: teacher peer skipped: \(reason)")
            row.set("peer_note", "teacher skipped: \(reason)")
        }
        return row
    }

    // MARK: One corpus size

    mutating func measure(size n: Int) async throws {
        Progress.log("N=\(n): generating the corpus and \(options.queries) queries")
        let items = source.items(n)
        let queries = BenchQueries.make(from: items, count: options.queries, seed: options.seed ^ UInt64(n))
        let kinds = Dictionary(grouping: queries, by: \.kind).mapValues(\.count)
        queryMix =
            "\(queries.count) queries per mode: \(kinds[.plain] ?? 0) plain, \(kinds[.prefix] ?? 0) prefix, \(kinds[.typo] ?? 0) typo; 1–4 words from one item; limit 10\(options.keywordCandidates >= 0 ? "; hybrid keyword candidates bounded at \(options.keywordCandidates) (--keyword-candidates; 0: none)" : "")"
        let warmUp = min(20, queries.count)
        let budget = options.queryBudgetSeconds

        // Sift: index end to end, committed.
        let directory = work + "/sift-\(n)"
        try? FileManager.default.removeItem(atPath: directory)
        var indexRow = ResultRow(n: n, measure: "index")
        let start = monotonicNanoseconds()
        var configuration = SearchIndex.Configuration(
            directory: URL(fileURLWithPath: directory, isDirectory: true), embedder: embedder, fusion: options.fusion)
        options.applyScan(to: &configuration)
        var index: SearchIndex? = try SearchIndex(configuration: configuration)
        var done = 0
        var reported = 0
        while done < items.count {
            let end = min(done + options.batch, items.count)
            try await index!.upsert(Array(items[done..<end]))
            done = end
            if done * 10 / items.count > reported && items.count >= 10_000 {
                reported = done * 10 / items.count
                Progress.log(
                    "N=\(n): Sift indexed \(done) items (\(TableFormat.rate(Double(done) / (Double(monotonicNanoseconds() - start) / 1e9))) items/s)"
                )
            }
        }
        let indexSeconds = Double(monotonicNanoseconds() - start) / 1e9
        indexRow.set("per_s", Double(n) / indexSeconds)
        indexRow.set("seconds", indexSeconds)
        indexRow.set("batch", options.batch)
        indexRow.set("embeds", embedder != nil ? "yes" : "no (no model)")

        // Sift: queries on the index just built.
        var queryRows: [SearchMode: ResultRow] = [:]
        // The default's top 10 for the first queries, compared with the exact path's.
        var defaultTop: [SearchMode: [[String]]] = [:]
        for mode in SearchMode.allCases {
            var row = ResultRow(n: n, measure: "query.\(mode.rawValue)")
            if mode != .keyword && embedder == nil {
                row.set("note", BenchRunner.noModel)
            } else if !options.modes.contains(mode.rawValue) {
                row.set("note", "not measured: --modes")
            } else {
                Progress.log("N=\(n): Sift \(mode.rawValue) queries")
                let (latencies, hits) = try await Self.latencies(index!, queries, mode: mode, warmUp: warmUp, budget: budget)
                let s = LatencySummary(latencies)
                if latencies.count < queries.count { row.set("note", Self.budgetNote(latencies.count, queries.count, budget)) }
                row.set("p50_ms", s.p50)
                row.set("p95_ms", s.p95)
                row.set("p99_ms", s.p99)
                row.set("mean_ms", s.mean)
                row.set("queries", latencies.count)
                row.set("mean_hits", hits)
                if mode != .keyword && options.exact {
                    defaultTop[mode] = try await Self.topIDs(index!, queries.prefix(Self.agreementQueries), mode: mode)
                }
            }
            queryRows[mode] = row
        }
        // The snapshot the cold opens load (the index would also write it when released), timed
        // on its own: it is neither indexing nor opening.
        let snapshotStart = monotonicNanoseconds()
        let snapshotSaved = await index!.saveSnapshot()
        let snapshotMilliseconds = Double(monotonicNanoseconds() - snapshotStart) / 1e6
        let snapshotBytes =
            (try? FileManager.default.attributesOfItem(atPath: directory + "/index.snapshot")[.size] as? NSNumber)?.intValue ?? 0
        index = nil  // closes the store (checkpointing the WAL)
        let siftDisk = Machine.diskBytes(directory)

        // The same store opened on the exact path (read-only): no int8 scan, every keyword
        // match a candidate; same queries.
        let exactModes = [SearchMode.semantic, .hybrid].filter { options.modes.contains($0.rawValue) }
        if options.exact, embedder != nil, !exactModes.isEmpty {
            Progress.log("N=\(n): opening the store on the exact path")
            var fusion = options.fusion
            fusion.keywordCandidates = 0
            let exact = try SearchIndex(
                configuration: .init(
                    directory: URL(fileURLWithPath: directory, isDirectory: true), embedder: embedder, fusion: fusion,
                    quantizedScan: false, readOnly: true))
            for mode in exactModes {
                Progress.log("N=\(n): Sift \(mode.rawValue) queries, exact path")
                let (latencies, hits) = try await Self.latencies(exact, queries, mode: mode, warmUp: warmUp, budget: budget)
                let s = LatencySummary(latencies)
                var row = queryRows[mode]!
                if latencies.count < queries.count { row.set("exact_note", Self.budgetNote(latencies.count, queries.count, budget)) }
                row.set("exact_queries", latencies.count)
                row.set("exact_p50_ms", s.p50)
                row.set("exact_p95_ms", s.p95)
                row.set("exact_p99_ms", s.p99)
                row.set("exact_mean_hits", hits)
                if let ours = defaultTop[mode] {
                    // The share of the exact path's top 10 that the default's top 10 holds.
                    let reference = try await Self.topIDs(exact, queries.prefix(Self.agreementQueries), mode: mode)
                    var shared = 0
                    var total = 0
                    for (a, b) in zip(reference, ours) {
                        shared += Set(a).intersection(b).count
                        total += a.count
                    }
                    row.set("agreement_at_10", total > 0 ? Double(shared) / Double(total) : 1)
                }
                queryRows[mode] = row
            }
        }

        // Cold opens, each in a fresh process; memory from the first.
        var openRow = ResultRow(n: n, measure: "open")
        var opens: [OpenProbe.Figures] = []
        for run in 0..<options.openRuns {
            Progress.log("N=\(n): cold open \(run + 1)/\(options.openRuns) in a fresh process")
            opens.append(try OpenProbe.measure(directory: directory, options: options))
        }
        let openSummary = LatencySummary(opens.map(\.openMilliseconds))
        openRow.set("p50_ms", openSummary.p50)
        openRow.set("p95_ms", openSummary.p95)
        openRow.set("p99_ms", openSummary.p99)
        openRow.set("runs", opens.count)
        openRow.set("outcomes", opens.map(\.outcome).joined(separator: " | "))
        openRow.set("from_snapshot", opens.filter { $0.outcome == "ok, from the snapshot" }.count)
        openRow.set("snapshot_saved", snapshotSaved ? "yes" : "no")
        openRow.set("snapshot_write_ms", snapshotMilliseconds)
        openRow.set("snapshot_bytes", snapshotBytes)
        openRow.set(
            "note",
            "new SearchIndex on the store in a fresh process; store and snapshot pages in the OS cache; snapshot written by saveSnapshot() after the queries, timed apart (snapshot_write_ms)"
        )
        var memoryRow = ResultRow(n: n, measure: "memory")
        if let first = opens.first {
            memoryRow.set("bytes_per_item", first.bytesPerItemBeyondText)
            memoryRow.set("untrimmed_bytes_per_item", first.untrimmedBytesPerItemBeyondText)
            if let split = first.splitPerItemBeyondText {
                memoryRow.set("anonymous_bytes_per_item", split.anonymous)
                memoryRow.set("mapped_file_bytes_per_item", split.file)
            }
            memoryRow.set("rss_delta_bytes", first.residentAfter - first.residentBefore)
            memoryRow.set("rss_delta_after_open_bytes", first.residentAfterOpen - first.residentBefore)
            memoryRow.set("text_bytes", first.textBytes)
            memoryRow.set("text_bytes_per_item", Double(first.textBytes) / Double(max(first.items, 1)))
            memoryRow.set("items", first.items)
        }
        memoryRow.set("disk_bytes_per_item", Double(siftDisk) / Double(n))
        memoryRow.set("snapshot_bytes_per_item", Double(snapshotBytes) / Double(n))
        memoryRow.set(
            "note",
            "RSS after opening, reading every item once and touching every page of the vectors that queries read in place (the quantized and re-scoring copies; the rows too below the quantized path's minimum, where queries scan them), minus before (both after malloc_trim), minus the items' text, per item: every page of the index resident that queries use in place — the rows and the rows' term lists of a large index are read from the snapshot file for the few rows a query needs (pread: the page cache, not the process); untrimmed_bytes_per_item: before the trim and the reads; rss_delta_after_open_bytes: right after the open, before any item or vector page was read (a snapshot's text and vectors are mapped, resident once used); anonymous_bytes_per_item and mapped_file_bytes_per_item: the same figure split by what backs the pages (RssAnon; RssFile less the text): the process's own memory, and the snapshot's mapped pages, which the system can drop and read again"
        )

        // Peer: SQLite FTS5 on the same items and queries.
        var keywordPeerNote: String?
        if options.fts5 {
            let path = work + "/fts5-\(n).sqlite"
            Progress.log("N=\(n): FTS5 insert")
            let peer = try FTS5Peer(path: path)
            let seconds = try peer.insert(items, batch: options.batch) { _ in }
            let peerRate = Double(n) / seconds
            indexRow.set("peer", BenchRunner.ftsPeer)
            indexRow.set("peer_per_s", peerRate)
            indexRow.set("ratio", (Double(n) / indexSeconds) / peerRate)
            Progress.log("N=\(n): FTS5 queries")
            let (latencies, hits) = try peer.queryLatencies(queries, warmUp: warmUp, budget: budget)
            let s = LatencySummary(latencies)
            if latencies.count < queries.count { keywordPeerNote = Self.budgetNote(latencies.count, queries.count, budget) }
            var keyword = queryRows[.keyword]!
            keyword.set("peer", BenchRunner.ftsPeer + ": SELECT rowid … MATCH ? ORDER BY bm25(fts) LIMIT 10, terms OR-ed")
            keyword.set("peer_p50_ms", s.p50)
            keyword.set("peer_p95_ms", s.p95)
            keyword.set("peer_p99_ms", s.p99)
            keyword.set("peer_mean_hits", hits)
            keyword.set("peer_queries", latencies.count)
            if let note = keywordPeerNote { keyword.set("peer_note", note) }
            if let p50 = keyword.number("p50_ms") { keyword.set("ratio", s.p50 / p50) }
            queryRows[.keyword] = keyword
            peer.close()
            memoryRow.set("peer", BenchRunner.ftsPeer)
            memoryRow.set("peer_disk_bytes_per_item", Double(Machine.diskBytes(path)) / Double(n))
            if !options.keepWorkDirectory { try? FileManager.default.removeItem(atPath: path) }
        } else {
            indexRow.set("peer_note", "FTS5 skipped (--no-fts5)")
        }

        // Bound: one read of a matrix of the same shape, and the bare scans over it.
        let dimension = embedder?.dimension ?? 256
        Progress.log("N=\(n): bandwidth bound of a \(n) × \(dimension) fp32 matrix")
        // The copy the index kept, as the library chooses it; without a model (no copy), the
        // options' components, 4-bit for a leading part.
        var scanChoice = SearchIndex.Configuration(directory: nil, embedder: embedder)
        options.applyScan(to: &scanChoice)
        let fallback = options.quantizedComponents ?? dimension
        let coding =
            scanChoice.quantizedCoding
            ?? QuantizedCoding(components: fallback, bits: options.quantizedBits ?? (fallback < dimension ? 4 : 8))
        let components = coding.components
        let bound = Self.bandwidthBound(rows: n, dimension: dimension, coding: coding)
        for mode in [SearchMode.semantic, .hybrid] {
            var row = queryRows[mode]!
            row.set("bound_ms", bound.boundMs)
            if let p50 = row.number("p50_ms") { row.set("bound_ratio", p50 / bound.boundMs) }
            row.set("scan_ms", bound.scanMs)
            row.set("scan_ratio", bound.scanMs / bound.boundMs)
            row.set("scan_fp16_ms", bound.scanHalfMs)
            row.set("scan_int8_ms", bound.scanInt8Ms)
            row.set("scan_int8_components", components)
            let boundRate = Double(bound.bytes) / bound.boundMs
            row.set("scan_int8_bandwidth_share", Double(n * (components + 4)) / bound.scanInt8Ms / boundRate)
            // The default's own scan (the same as the int8 one when it codes 8 bits).
            row.set("scan_quantized_bits", coding.bits)
            row.set("scan_quantized_ms", bound.scanQuantizedMs)
            row.set("scan_quantized_bandwidth_share", Double(n * (coding.bytesPerRow + 4)) / bound.scanQuantizedMs / boundRate)
            row.set("matrix_bytes", bound.bytes)
            row.set("bound_gb_per_s", Double(bound.bytes) / (bound.boundMs / 1e3) / 1e9)
            queryRows[mode] = row
        }

        rows.append(indexRow)
        rows.append(openRow)
        for mode in SearchMode.allCases { rows.append(queryRows[mode]!) }
        rows.append(memoryRow)
        if !options.keepWorkDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// Latency in ms of each query through `SearchIndex.search` (actor hop included), after
    /// `warmUp` untimed queries, in order until all are done or `budget` seconds have passed (at
    /// least 100 are always timed); and the mean number of results of the timed queries.
    static func latencies(_ index: SearchIndex, _ queries: [BenchQuery], mode: SearchMode, warmUp: Int, budget: Double) async throws -> (
        [Double], Double
    ) {
        func query(_ q: BenchQuery) -> SearchQuery {
            SearchQuery(q.text, limit: 10, mode: mode, prefixLastTerm: q.isPrefix)
        }
        for q in queries.prefix(warmUp) { _ = try await index.search(query(q)) }
        var latencies: [Double] = []
        latencies.reserveCapacity(queries.count)
        var hits = 0
        let began = monotonicNanoseconds()
        for q in queries {
            let request = query(q)
            let start = monotonicNanoseconds()
            let (results, _) = try await index.search(request)
            latencies.append(millisecondsSince(start))
            hits += results.count
            if latencies.count >= 100 && Double(monotonicNanoseconds() - began) / 1e9 > budget { break }
        }
        return (latencies, Double(hits) / Double(max(latencies.count, 1)))
    }

    /// How many queries the default's top 10 is compared on with the exact path's.
    static let agreementQueries = 300

    /// The ids of each query's top 10 (untimed).
    static func topIDs(_ index: SearchIndex, _ queries: ArraySlice<BenchQuery>, mode: SearchMode) async throws -> [[String]] {
        var all: [[String]] = []
        for q in queries {
            all.append(
                try await index.search(SearchQuery(q.text, limit: 10, mode: mode, prefixLastTerm: q.isPrefix)).results.map(\.id.rawValue))
        }
        return all
    }

    static func budgetNote(_ done: Int, _ all: Int, _ budget: Double) -> String {
        "stopped after \(done) of \(all) queries: \(Int(budget)) s budget per mode and size"
    }

    /// The memory-bandwidth bound of the scan: the best of 9 reads of a `rows × dimension` fp32
    /// matrix (BLAS dot of the buffer with itself, on one thread and split over every core), and
    /// the median bare `VectorIndex.scores` (the scan kernel, split over the cores as the index
    /// runs it) over the same matrix kept as fp32 and as fp16 (the index's rows), and of its int8
    /// copy of the first `coding.components` and its copy as `coding` codes them (the default's
    /// nominating scan; the int8 one again when `coding` is 8 bits). The scans are timed first:
    /// OpenBLAS's threads spin for a while after a call and would slow them.
    static func bandwidthBound(rows: Int, dimension: Int, coding: QuantizedCoding) -> (
        boundMs: Double, scanMs: Double, scanHalfMs: Double, scanInt8Ms: Double, scanQuantizedMs: Double, bytes: Int
    ) {
        var vectors = VectorIndex(dimension: dimension, precision: .float32)
        var halves = VectorIndex(dimension: dimension, quantized: true, quantizedComponents: coding.components, precision: .float16)
        var coded = QuantizedRows(dimension: dimension, components: coding.components, bits: coding.bits)
        var rng = BenchRandom(seed: 0xB0_0D)
        var v = [Float](repeating: 0, count: dimension)
        for r in 0..<rows {
            for j in 0..<dimension { v[j] = rng.signedFloat() }
            vectors.set(row: Int32(r), vector: v)
            halves.set(row: Int32(r), vector: v)
            coded.set(row: Int32(r), vector: v)
        }
        var sink: Float = 0
        var scores = [Float](repeating: 0, count: rows)
        for j in 0..<dimension { v[j] = rng.signedFloat() }
        func scan(_ body: () -> Void) -> Double {
            body()
            var scans: [Double] = []
            for _ in 0..<21 {
                let start = monotonicNanoseconds()
                body()
                scans.append(millisecondsSince(start))
                sink += scores[0]
            }
            return LatencySummary(scans).p50
        }
        let scanMs = scan { vectors.scores(for: v, into: &scores) }
        let scanHalfMs = scan { halves.scores(for: v, into: &scores) }
        let scanInt8Ms = scan { halves.quantized!.approximateScores(for: v, into: &scores) }
        let scanQuantizedMs = coding.bits == 8 ? scanInt8Ms : scan { coded.approximateScores(for: v, into: &scores) }
        sink += vectors.streamMatrixOnce()
        // One thread, and every core reading its share: the bound is the faster of the two.
        let threads = max(1, Machine.processors)
        let parts = (0..<threads).map { t in (rows * t / threads)..<(rows * (t + 1) / threads) }
        let shared = vectors
        var best = Double.infinity
        for _ in 0..<9 {
            var start = monotonicNanoseconds()
            sink += vectors.streamMatrixOnce()
            best = min(best, millisecondsSince(start))
            if threads > 1 {
                start = monotonicNanoseconds()
                DispatchQueue.concurrentPerform(iterations: threads) { t in _ = shared.streamRows(parts[t]) }
                best = min(best, millisecondsSince(start))
            }
        }
        if sink.isNaN { Progress.log("(bound produced NaN)") }
        return (best, scanMs, scanHalfMs, scanInt8Ms, scanQuantizedMs, vectors.matrixByteCount)
    }

    /// "int8" or "4-bit": the codes of the quantized scan a row's figures measured.
    func quantizedLabel(_ row: ResultRow) -> String {
        row.number("scan_quantized_bits") == 4 ? "4-bit" : "int8"
    }

    // MARK: Targets

    /// The issue's targets, judged on this run's figures (at 100k items unless stated; at the
    /// largest N when 100k was not run).
    func targets(totalSeconds: Double) -> [TargetCheck] {
        let sizes = Set(rows.map(\.n))
        let at = sizes.contains(100_000) ? 100_000 : (rows.filter { $0.measure == "index" }.map(\.n).max() ?? 0)
        let suffix = at == 100_000 ? "" : " (judged at N=\(at): 100k not run)"
        func row(_ measure: String, _ n: Int) -> ResultRow? { rows.first { $0.measure == measure && $0.n == n } }
        var checks: [TargetCheck] = []
        let ms = TableFormat.milliseconds

        if let h = row("query.hybrid", at), let bound = h.number("bound_ms") {
            if let p50 = h.number("p50_ms"), let scan = h.number("scan_fp16_ms") {
                let exact = h.number("exact_p50_ms").map { "; exact path \(ms($0)) ms" } ?? ""
                checks.append(
                    TargetCheck(
                        name: "hybrid p50 at 100k\(suffix)",
                        target: "≤ 1.0 ms and ≤ 1.2 × the bare scan of the stored fp16 rows (\(ms(1.2 * scan)) ms here)",
                        measured:
                            "p50 \(ms(p50)) ms = \(TableFormat.ratio(p50 / scan)) the fp16 scan, \(TableFormat.ratio(p50 / bound)) the bound \(ms(bound)) ms (bare scan fp32 \(ms(h.number("scan_ms"))), fp16 \(ms(scan)), int8 \(ms(h.number("scan_int8_ms"))), \(quantizedLabel(h)) \(ms(h.number("scan_quantized_ms"))) ms)\(exact)",
                        met: p50 <= 1.0 && p50 <= 1.2 * scan))
            } else {
                checks.append(
                    TargetCheck(
                        name: "hybrid p50 at 100k\(suffix)", target: "≤ 1.0 ms", measured: BenchRunner.noModel, met: nil))
            }
            if let share = h.number("scan_quantized_bandwidth_share") ?? h.number("scan_int8_bandwidth_share") {
                checks.append(
                    TargetCheck(
                        name: "\(quantizedLabel(h)) scan bandwidth\(suffix)", target: "≥ 70% of the bound's GB/s",
                        measured: String(format: "%.0f%%", share * 100), met: share >= 0.7))
            }
        }
        if let h = row("query.hybrid", 1_000_000) {
            let best = h.number("p50_ms")
            let exact = h.number("exact_p50_ms").map { p50 in
                let agreement = h.number("agreement_at_10").map { String(format: ", top-10 agreement %.3f", $0) } ?? ""
                return "; exact path \(ms(p50)) ms\(agreement)"
            }
            let bounded = options.keywordCandidates >= 0 ? "; keyword candidates bounded at \(options.keywordCandidates)" : ""
            let measured = h.number("p50_ms").map { "p50 \(ms($0)) ms" + (exact ?? "") + bounded }
            checks.append(
                TargetCheck(
                    name: "hybrid p50 at 1M", target: "≤ 15 ms", measured: measured ?? BenchRunner.noModel, met: best.map { $0 <= 15 }))
        }
        if let k = row("query.keyword", at), let p50 = k.number("p50_ms") {
            checks.append(TargetCheck(name: "keyword p50\(suffix)", target: "≤ 0.5 ms", measured: "p50 \(ms(p50)) ms", met: p50 <= 0.5))
            if let peer = k.number("peer_p50_ms") {
                checks.append(
                    TargetCheck(
                        name: "keyword vs FTS5\(suffix)", target: "≥ 5× faster than FTS5 p50",
                        measured: "FTS5 p50 \(ms(peer)) ms → \(TableFormat.ratio(peer / p50))", met: peer / p50 >= 5))
            }
        }
        if let e = rows.first(where: { $0.measure == "embed" }) {
            if let perSecond = e.number("per_s") {
                checks.append(
                    TargetCheck(
                        name: "embedding", target: "≥ 30,000 texts/s on one core (30-word texts)",
                        measured: "\(TableFormat.rate(perSecond)) texts/s", met: perSecond >= 30_000))
                if let ratio = e.number("ratio") {
                    checks.append(
                        TargetCheck(
                            name: "embedding vs teacher", target: "≥ 300× the teacher",
                            measured: "\(TableFormat.ratio(ratio)) (teacher \(TableFormat.rate(e.number("peer_per_s"))) texts/s)",
                            met: ratio >= 300))
                } else {
                    checks.append(
                        TargetCheck(
                            name: "embedding vs teacher", target: "≥ 300× the teacher",
                            measured: e.string("peer_note") ?? "no teacher figure", met: nil))
                }
            } else {
                checks.append(
                    TargetCheck(name: "embedding", target: "≥ 30,000 texts/s on one core", measured: BenchRunner.noModel, met: nil))
            }
        }
        if let i = row("index", at), let perSecond = i.number("per_s") {
            let how = embedder == nil ? " (keyword only: no model, nothing embedded)" : ""
            checks.append(
                TargetCheck(
                    name: "indexing\(suffix)", target: "≥ 10,000 items/s end to end, committed",
                    measured: "\(TableFormat.rate(perSecond)) items/s\(how)", met: perSecond >= 10_000))
        }
        if let o = row("open", at), let p50 = o.number("p50_ms") {
            checks.append(TargetCheck(name: "cold open\(suffix)", target: "≤ 300 ms", measured: "p50 \(ms(p50)) ms", met: p50 <= 300))
        }
        if let m = row("memory", at), let bytes = m.number("bytes_per_item") {
            checks.append(
                TargetCheck(
                    name: "memory\(suffix)", target: "≤ 1.5 KB (1,536 B) per item beyond the stored text",
                    measured: "\(TableFormat.rate(bytes)) B/item", met: bytes <= 1_536))
        }
        let defaultSuite = !options.sizesGiven && options.corpus == nil && !options.quick
        checks.append(
            TargetCheck(
                name: "whole suite", target: "under 15 minutes",
                measured: String(format: "%.1f min%@", totalSeconds / 60, defaultSuite ? "" : " (not the default suite)"),
                met: defaultSuite ? totalSeconds < 900 : nil))
        return checks
    }
}
