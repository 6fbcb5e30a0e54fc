import Foundation
import Sift
import SiftEvaluation

/// `sift-bench --profile-queries DIR`: opens an existing store (one a run left with `--keep
/// --work-dir`) and runs the size's query set in each `--modes` mode `--profile-repeat` times,
/// printing p50/p95 per mode — for profilers (`perf record`, `valgrind --tool=callgrind`) and for
/// before/after comparisons of query-side changes without re-indexing. `--profile-exact` opens it
/// on the exact path (no int8 scan, every keyword match) instead of the default.
enum QueryProfile {
    static func run(directory: String, options: BenchOptions) async throws {
        let (embedder, modelLabel) = BenchModel.load(options.model)
        let n = options.sizes.max() ?? 100_000
        let source: CorpusSource = try options.corpus.map(CorpusSource.load) ?? .synthetic(SyntheticCorpus(seed: options.seed))
        let items = source.items(n)
        let queries = BenchQueries.make(from: items, count: options.queries, seed: options.seed ^ UInt64(n))
        let start = monotonicNanoseconds()
        var fusion = options.fusion
        if options.profileExact { fusion.keywordCandidates = 0 }
        var configuration = SearchIndex.Configuration(
            directory: URL(fileURLWithPath: directory, isDirectory: true), embedder: embedder,
            fusion: fusion, quantizedScan: !options.profileExact, readOnly: true, vectorPrecision: options.profileHalf ? .float16 : .float32
        )
        options.applyScan(to: &configuration)
        let index = try SearchIndex(configuration: configuration)
        Progress.log(
            "opened \(directory) (\(modelLabel)\(options.profileExact ? ", exact path" : "")\(options.profileHalf ? ", fp16 rows" : "")) in \(String(format: "%.0f", millisecondsSince(start))) ms"
        )
        if let path = options.profileDump {
            // Every result of every query, to compare two builds' rankings line by line.
            var lines: [String] = []
            for mode in options.modes.compactMap(SearchMode.init(rawValue:)) {
                for (i, q) in queries.enumerated() {
                    let (results, report) = try await index.search(SearchQuery(q.text, limit: 10, mode: mode, prefixLastTerm: q.isPrefix))
                    let ranked = results.map { "\($0.id.rawValue)=\(String(format: "%.6g", $0.score))" }.joined(separator: " ")
                    lines.append("\(mode.rawValue) \(i) [\(report.candidates)] \(ranked)")
                }
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            Progress.log("wrote \(path)")
            return
        }
        for mode in options.modes.compactMap(SearchMode.init(rawValue:)) {
            var all: [Double] = []
            for _ in 0..<options.profileRepeat {
                let (latencies, hits) = try await BenchRunner.latencies(index, queries, mode: mode, warmUp: 20, budget: .infinity)
                all += latencies
                let s = LatencySummary(latencies)
                print(String(format: "%@ p50 %.3f p95 %.3f mean %.3f ms, hits %.2f", mode.rawValue, s.p50, s.p95, s.mean, hits))
            }
            let s = LatencySummary(all)
            print(String(format: "%@ all: p50 %.3f p95 %.3f mean %.3f ms over %d", mode.rawValue, s.p50, s.p95, s.mean, all.count))
        }
    }
}

/// `sift-bench --profile-memory`: resident bytes per item of each in-memory structure, built one
/// after another from the synthetic corpus at the largest `--sizes` (after `malloc_trim` each):
/// the item cache, the keyword index, the vector index. Where the memory figure's bytes go.
enum MemoryProfile {
    static func run(options: BenchOptions) throws {
        let n = options.sizes.max() ?? 100_000
        let source: CorpusSource = try options.corpus.map(CorpusSource.load) ?? .synthetic(SyntheticCorpus(seed: options.seed))
        func rss() -> Int {
            Machine.trimHeap()
            return Machine.residentBytes() ?? 0
        }
        func report(_ what: String, _ bytes: Int) {
            print(String(format: "%-28@ %8.1f B/item  (%.1f MB)", what, Double(bytes) / Double(n), Double(bytes) / 1e6))
        }
        var base = rss()
        var items: [SearchableItem?] = source.items(n)
        print("SearchableItem? stride \(MemoryLayout<SearchableItem?>.stride) B")
        var textBytes = 0
        for case let item? in items {
            textBytes +=
                item.id.rawValue.utf8.count + item.domain.utf8.count + item.title.utf8.count
                + item.content.utf8.count + item.keywords.reduce(0) { $0 + $1.utf8.count }
                + (item.url?.utf8.count ?? 0) + (item.displayName?.utf8.count ?? 0)
        }
        var now = rss()
        report("items (with text)", now - base)
        report("items beyond text", now - base - textBytes)
        base = now
        var keyword = KeywordIndex()
        for (r, item) in items.enumerated() { keyword.insert(item!, at: Int32(r)) }
        keyword.prepareForQueries()
        now = rss()
        report("keyword index", now - base)
        base = now
        let dimension = 256
        var vectors = VectorIndex(dimension: dimension, precision: options.profileHalf ? .float16 : .float32)
        var v = [Float](repeating: 0.0625, count: dimension)
        for r in 0..<n {
            v[0] = Float(r)
            vectors.set(row: Int32(r), vector: v)
        }
        now = rss()
        report("vector index", now - base)
        if !options.profileExact {
            base = now
            var q = VectorIndex(
                dimension: dimension, quantized: true, quantizedComponents: options.quantizedComponents ?? dimension / 2,
                precision: options.profileHalf ? .float16 : .float32)
            for r in 0..<n {
                v[0] = Float(r)
                q.set(row: Int32(r), vector: v)
            }
            now = rss()
            report("vector index, int8 too", now - base)
            withExtendedLifetime(q) {}
        }
        withExtendedLifetime((items, keyword, vectors)) {}
        items.removeAll()
    }
}

/// `sift-bench --profile-postings`: how many postings the size's queries touch, and how many
/// index terms their prefixes expand to — what the keyword half's work is proportional to.
enum PostingsProfile {
    static func run(options: BenchOptions) throws {
        let n = options.sizes.max() ?? 100_000
        let source: CorpusSource = try options.corpus.map(CorpusSource.load) ?? .synthetic(SyntheticCorpus(seed: options.seed))
        let items = source.items(n)
        let queries = BenchQueries.make(from: items, count: options.queries, seed: options.seed ^ UInt64(n))
        var keyword = KeywordIndex()
        for (r, item) in items.enumerated() { keyword.insert(item, at: Int32(r)) }
        keyword.prepareForQueries()
        print("terms, postings:", keyword.statistics)
        var sums: [Int] = []
        var expansions: [Int] = []
        for q in queries {
            let terms = keyword.queryTerms(q.text, prefixLastTerm: q.isPrefix)
            var s = 0
            for t in terms { for x in t.terms { s += keyword.documentFrequency(x) } }
            sums.append(s)
            expansions.append(terms.last?.terms.count ?? 0)
        }
        sums.sort()
        print(
            "postings per query: p10 \(sums[sums.count/10]) p50 \(sums[sums.count/2]) p90 \(sums[sums.count*9/10]) p99 \(sums[sums.count*99/100]) mean \(sums.reduce(0,+)/sums.count)"
        )
        let pe = zip(queries, expansions).filter { $0.0.isPrefix }.map(\.1).sorted()
        print("prefix expansions: p50 \(pe[pe.count/2]) p90 \(pe[pe.count*9/10]) max \(pe.last!)")
    }
}

/// `sift-bench --profile-scan`: the bare scans at the largest `--sizes` over random unit rows —
/// fp32, fp16 and the int8 mirror — p50 of 21 runs each, beside one read of the fp32 matrix
/// (the bound), on one thread and as the index runs them (split over the cores).
enum ScanProfile {
    static func run(options: BenchOptions) {
        let n = options.sizes.max() ?? 100_000
        let dimension = 256
        var rng = BenchRandom(seed: 0xB0_0D)
        var f32 = VectorIndex(dimension: dimension, quantized: true, precision: .float32)
        var f16 = VectorIndex(dimension: dimension, precision: .float16)
        var v = [Float](repeating: 0, count: dimension)
        for r in 0..<n {
            for j in 0..<dimension { v[j] = rng.signedFloat() }
            let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            for j in 0..<dimension { v[j] /= norm }
            f32.set(row: Int32(r), vector: v)
            f16.set(row: Int32(r), vector: v)
        }
        for j in 0..<dimension { v[j] = rng.signedFloat() }
        var scores = [Float](repeating: 0, count: n)
        var sink: Float = 0
        func time(_ label: String, bytes: Int, _ body: () -> Void) {
            body()
            var samples: [Double] = []
            for _ in 0..<21 {
                let start = monotonicNanoseconds()
                body()
                samples.append(millisecondsSince(start))
                sink += scores[n / 2]
            }
            let p50 = LatencySummary(samples).p50
            print(
                String(
                    format: "%-34@ p50 %6.3f ms  %5.1f GB/s  (%.1f MB)", label, p50, Double(bytes) / (p50 / 1e3) / 1e9, Double(bytes) / 1e6)
            )
        }
        let rows = (0..<4000).map { _ in Int32(rng.below(n)) }
        let split = VectorIndex.splitsScans
        for threads in split ? ["all cores", "1 thread"] : ["1 thread"] {
            VectorIndex.splitsScans = threads == "all cores"
            time("scan fp32, \(threads)", bytes: f32.matrixByteCount) { f32.scores(for: v, into: &scores) }
            time("scan fp16, \(threads)", bytes: f16.matrixByteCount) { f16.scores(for: v, into: &scores) }
            time("scan int8, \(threads)", bytes: n * (dimension + 4)) { f32.quantized!.approximateScores(for: v, into: &scores) }
        }
        VectorIndex.splitsScans = split
        _ = rows
        // Rows the scan has not just read, a new set each run, as a query's candidates are.
        let sets = (0..<22).map { _ in (0..<5000).map { _ in Int32(rng.below(n)) } }
        var next = 0
        time("5000 scattered rows fp32", bytes: 5000 * dimension * 4) {
            f32.exactScores(for: v, rows: sets[next % 22], into: &scores)
            next += 1
        }
        time("5000 scattered rows fp16", bytes: 5000 * dimension * 2) {
            f16.exactScores(for: v, rows: sets[next % 22], into: &scores)
            next += 1
        }
        let sorted = sets.map { $0.sorted() }
        time("5000 scattered rows fp16, sorted", bytes: 5000 * dimension * 2) {
            f16.exactScores(for: v, rows: sorted[next % 22], into: &scores)
            next += 1
        }
        // Last: BLAS's threads spin for a while after a call and would slow what follows.
        time("read fp32 matrix (BLAS sdot)", bytes: f32.matrixByteCount) { sink += f32.streamMatrixOnce() }
        if sink.isNaN { print("(NaN)") }
    }
}
