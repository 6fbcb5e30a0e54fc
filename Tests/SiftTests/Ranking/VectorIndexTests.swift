import Foundation
import Testing

@testable import Sift

@Suite("Vector index")
struct VectorIndexTests {
    static func randomUnitVectors(_ count: Int, dimension: Int, seed: UInt64) -> [[Float]] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            var v = (0..<dimension).map { _ in Float(Double(rng.next() >> 11) / Double(1 << 53)) * 2 - 1 }
            let n = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            for i in v.indices { v[i] /= n }
            return v
        }
    }

    static func bruteForceTop(_ query: [Float], _ rows: [[Float]?], k: Int) -> [Int] {
        var scored: [(Int, Float)] = []
        for (r, v) in rows.enumerated() {
            guard let v else { continue }
            scored.append((r, zip(query, v).reduce(Float(0)) { $0 + $1.0 * $1.1 }))
        }
        scored.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        return scored.prefix(k).map(\.0)
    }

    @Test("BLAS top-k equals a brute-force reference, ids and order, after deletes and reuse")
    func topKMatchesBruteForce() {
        let dim = 64
        let vectors = Self.randomUnitVectors(500, dimension: dim, seed: 7)
        var index = VectorIndex(dimension: dim)
        var reference: [[Float]?] = Array(repeating: nil, count: 500)
        for (r, v) in vectors.enumerated() {
            index.set(row: Int32(r), vector: v)
            reference[r] = v
        }
        for r in stride(from: 0, to: 500, by: 7) {
            index.remove(row: Int32(r))
            reference[r] = nil
        }
        let replacements = Self.randomUnitVectors(20, dimension: dim, seed: 8)
        for (i, v) in replacements.enumerated() {
            index.set(row: Int32(i * 14), vector: v)
            reference[i * 14] = v
        }
        for query in Self.randomUnitVectors(25, dimension: dim, seed: 9) {
            var scores: [Float] = []
            index.scores(for: query, into: &scores)
            var top = TopK<Int>(k: 10)
            for r in 0..<index.capacity where index.contains(row: Int32(r)) { top.insert(score: scores[r], row: Int32(r), key: r) }
            #expect(top.sorted().map { Int($0.row) } == Self.bruteForceTop(query, reference, k: 10))
        }
    }

    @Test("The batch sgemm scores equal the per-query sgemv scores")
    func batchMatchesSingle() {
        let dim = 32
        var index = VectorIndex(dimension: dim)
        for (r, v) in Self.randomUnitVectors(100, dimension: dim, seed: 1).enumerated() { index.set(row: Int32(r), vector: v) }
        let queries = Self.randomUnitVectors(5, dimension: dim, seed: 2)
        let batch = index.scores(forBatch: queries.flatMap { $0 })
        for (qi, q) in queries.enumerated() {
            var single: [Float] = []
            index.scores(for: q, into: &single)
            for r in 0..<100 { #expect(abs(batch[qi * 100 + r] - single[r]) < 1e-5) }
        }
    }

    @Test(
        "The int8 scan with exact re-scoring (from fp32 or fp16 rows) keeps top-10 recall at or above 0.99 against exact fp32",
        arguments: VectorPrecision.allCases)
    func quantizedRecall(precision: VectorPrecision) {
        let dim = 64
        var index = VectorIndex(dimension: dim, quantized: true, precision: precision)
        let vectors = Self.randomUnitVectors(4000, dimension: dim, seed: 11)
        for (r, v) in vectors.enumerated() { index.set(row: Int32(r), vector: v) }
        var found = 0
        var total = 0
        for query in Self.randomUnitVectors(100, dimension: dim, seed: 12) {
            let exact = Set(Self.bruteForceTop(query, vectors, k: 10))
            var approx: [Float] = []
            index.quantized!.approximateScores(for: query, into: &approx)
            var nominated = TopK<Int>(k: 40)
            for r in 0..<index.capacity { nominated.insert(score: approx[r], row: Int32(r), key: r) }
            var rescored = TopK<Int>(k: 10)
            for e in nominated.sorted() { rescored.insert(score: index.exactScore(for: query, row: e.row), row: e.row, key: Int(e.row)) }
            found += Set(rescored.sorted().map { Int($0.row) }).intersection(exact).count
            total += 10
        }
        #expect(Double(found) / Double(total) >= 0.99)
    }

    /// Unit vectors whose component `j` has spread `exp(−j / decay)`, as a model's principal
    /// components have (the bundled model's are ordered by decreasing variance).
    static func decayingUnitVectors(_ count: Int, dimension: Int, decay: Float, seed: UInt64) -> [[Float]] {
        randomUnitVectors(count, dimension: dimension, seed: seed).map { v in
            var w = v.enumerated().map { $0.element * Float(exp(-Double($0.offset) / Double(decay))) }
            let n = w.reduce(0) { $0 + $1 * $1 }.squareRoot()
            for i in w.indices { w[i] /= n }
            return w
        }
    }

    @Test("A copy of a prefix nominates ten times the wanted rows beside keyword matches, forty times alone; a full copy twice either way")
    func nomineeCounts() {
        let prefix = VectorIndex(dimension: 64, quantized: true, quantizedComponents: 32, quantizedBits: 4, precision: .float16)
        #expect(prefix.quantized!.nominees(for: 100) == 1_000)
        #expect(prefix.quantized!.nominees(for: 100, alone: true) == 4_000)
        #expect(prefix.quantized!.nominees(for: 10) == 400 && prefix.quantized!.nominees(for: 10, alone: true) == 1_600)
        let full = VectorIndex(dimension: 64, quantized: true, quantizedComponents: 64, quantizedBits: 8, precision: .float16)
        #expect(full.quantized!.nominees(for: 100) == 200 && full.quantized!.nominees(for: 100, alone: true) == 200)
    }

    @Test(
        "A copy of the leading half of the components (int8 or 4-bit codes), given its nominees, keeps top-10 recall at or above 0.99 when the components are ordered by decreasing variance",
        arguments: [8, 4])
    func prefixQuantizedRecall(bits: Int) {
        let dim = 64
        let rows = 8000
        var index = VectorIndex(dimension: dim, quantized: true, quantizedComponents: 32, quantizedBits: bits, precision: .float16)
        #expect(index.quantized!.components == 32 && index.quantized!.bits == bits)
        let vectors = Self.decayingUnitVectors(rows, dimension: dim, decay: 24, seed: 21)
        for (r, v) in vectors.enumerated() { index.set(row: Int32(r), vector: v) }
        let nominees = index.quantized!.nominees(for: 10)
        #expect(nominees < rows / 10)
        var found = 0
        var total = 0
        var approx: [Float] = []
        for query in Self.decayingUnitVectors(60, dimension: dim, decay: 24, seed: 22) {
            let exact = Set(Self.bruteForceTop(query, vectors, k: 10))
            index.quantized!.approximateScores(for: query, into: &approx)
            var nominated = TopK<Int>(k: nominees)
            for r in 0..<index.capacity { nominated.insert(score: approx[r], row: Int32(r), key: r) }
            var rescored = TopK<Int>(k: 10)
            for e in nominated.sorted() { rescored.insert(score: index.exactScore(for: query, row: e.row), row: e.row, key: Int(e.row)) }
            found += Set(rescored.sorted().map { Int($0.row) }).intersection(exact).count
            total += 10
        }
        #expect(Double(found) / Double(total) >= 0.99, "recall \(Double(found) / Double(total))")
    }

    @Test(
        "The quantized copy of a prefix codes only those components: its scores are the dot products over them, as closely as the codes allow",
        arguments: [8, 4])
    func prefixQuantizedScores(bits: Int) {
        let dim = 64
        var index = VectorIndex(dimension: dim, quantized: true, quantizedComponents: 32, quantizedBits: bits)
        let vectors = Self.randomUnitVectors(20, dimension: dim, seed: 5)
        for (r, v) in vectors.enumerated() { index.set(row: Int32(r), vector: v) }
        let q = Self.randomUnitVectors(1, dimension: dim, seed: 6)[0]
        var approx: [Float] = []
        index.quantized!.approximateScores(for: q, into: &approx)
        for (r, v) in vectors.enumerated() {
            let head = zip(q.prefix(32), v.prefix(32)).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            #expect(abs(approx[r] - head) < (bits == 8 ? 0.02 : 0.1), "row \(r): \(approx[r]) vs \(head)")
        }
        index.remove(row: 3)
        index.quantized!.approximateScores(for: q, into: &approx)
        #expect(approx[3] == 0)
    }

    @Test("A coded prefix that is not a multiple of 32 is refused with a clear error, not a crash")
    func invalidPrefixRefused() {
        for p in [0, 40] {
            #expect(
                throws: IndexError.invalidConfiguration(
                    "quantizedScanComponents must be a positive multiple of 32 (or at least the model's 64 dimensions), got \(p)")
            ) {
                try SearchIndex(
                    configuration: .init(directory: nil, embedder: WordDirectionEmbedder(), quantizedScan: true, quantizedScanComponents: p)
                )
            }
        }
        #expect(throws: Never.self) {
            try SearchIndex(
                configuration: .init(directory: nil, embedder: WordDirectionEmbedder(), quantizedScan: true, quantizedScanComponents: 100))
        }
    }

    @Test(
        "Rows freed by deletes never come back as nominees, even when every live row scores below them (exact and int8 scans)",
        arguments: [false, true])
    func freedRowsNeverNominated(quantized: Bool) async throws {
        // Each item's vector is the negated direction of its word, so a query for the word
        // scores every live item negatively, below the freed rows' zeros.
        struct Negated: Embedder {
            let base = WordDirectionEmbedder()
            var dimension: Int { base.dimension }
            var fingerprint: String { "negated-" + base.fingerprint }
            func embed(_ text: String, into output: UnsafeMutableBufferPointer<Float>) {
                base.embed(text, into: output)
                if !text.hasPrefix("query ") { for i in 0..<output.count { output[i] = -output[i] } }
            }
        }
        let index = try SearchIndex(configuration: .init(directory: nil, embedder: Negated(), quantizedScan: quantized))
        let items = (0..<40).map { SearchableItem(id: ItemID(String(format: "n-%02d", $0)), title: "walrus", content: "walrus") }
        try await index.upsert(items)
        _ = try await index.delete(ids: (0..<40).filter { $0 % 3 == 0 }.map { ItemID(String(format: "n-%02d", $0)) })
        let live = Set((0..<40).filter { $0 % 3 != 0 }.map { String(format: "n-%02d", $0) })
        let results = try await index.search(
            SearchQuery("query walrus", limit: 50, mode: .semantic, understandsPhrases: false, correctsSpelling: false)
        ).results
        #expect(results.count == live.count)
        #expect(Set(results.map(\.id.rawValue)) == live)
        #expect(results.allSatisfy { $0.score < 0 })
        try await index.checkInvariants()
    }

    @Test("Quantised and exact scores agree closely")
    func quantizedScoresClose() {
        let dim = 64
        var index = VectorIndex(dimension: dim, quantized: true)
        for (r, v) in Self.randomUnitVectors(50, dimension: dim, seed: 3).enumerated() { index.set(row: Int32(r), vector: v) }
        let q = Self.randomUnitVectors(1, dimension: dim, seed: 4)[0]
        var approx: [Float] = []
        var exact: [Float] = []
        index.quantized!.approximateScores(for: q, into: &approx)
        index.scores(for: q, into: &exact)
        for r in 0..<50 { #expect(abs(approx[r] - exact[r]) < 0.02) }
    }

    @Test(
        "Semantic search through a quantised index (every component coded, or the first half) returns the same top results as the exact one",
        arguments: [nil, 32] as [Int?])
    func quantizedIndexSearch(components: Int?) async throws {
        let embedder = WordDirectionEmbedder()
        let items = try demoCorpusItems()
        let exact = try SearchIndex(configuration: .init(directory: nil, embedder: embedder, clock: { utc("2026-12-02T12:00:00Z") }))
        let quantized = try SearchIndex(
            configuration: .init(
                directory: nil, embedder: embedder, clock: { utc("2026-12-02T12:00:00Z") }, quantizedScan: true,
                quantizedScanComponents: components))
        try await exact.upsert(items)
        try await quantized.upsert(items)
        for text in ["lentil soup recipe", "coffee", "calm morning walk", "rent payment"] {
            let q = SearchQuery(text, limit: 10, mode: .semantic, understandsPhrases: false)
            let a = try await exact.search(q).results
            let b = try await quantized.search(q).results
            // Same scores rank by rank (to float rounding: sgemv and sdot sum in different
            // orders), and the same items wherever scores are not within rounding of a tie.
            #expect(a.count == b.count)
            for (x, y) in zip(a, b) {
                #expect(abs(x.score - y.score) < 1e-5, "query \(text): \(x.id) \(x.score) vs \(y.id) \(y.score)")
                if x.id != y.id { #expect(a.contains { $0.id == y.id && abs($0.score - y.score) < 1e-5 } || abs(x.score - y.score) < 1e-5) }
            }
        }
        try await quantized.checkInvariants()
    }
}
