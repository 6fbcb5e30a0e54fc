import Foundation
import Testing

@testable import Sift

/// The default query path of a large index: the int8 nominating scan, the selection of its
/// nominees, the bound on keyword candidates with the cosine floor of the matches it leaves out,
/// the split exact re-scoring (`Benchmarks/RESULTS.md`, query-path round).
@Suite("Query path of a large index")
struct QueryPathTests {
    @Test("The m-th largest by quickselect equals the sorted array's, ties and negatives included")
    func quickselectMatchesSort() {
        var rng = SplitMix64(seed: 11)
        for trial in 0..<200 {
            let count = 1 + Int(rng.next() % 300)
            // Few distinct values on some trials: many ties.
            let distinct = trial % 3 == 0 ? 5 : 1_000
            let values = (0..<count).map { _ in Float(Int(rng.next() % UInt64(distinct)) - distinct / 2) / 7 }
            let sorted = values.sorted(by: >)
            for m in Set([1, count, 1 + Int(rng.next() % UInt64(count))]) {
                var copy = values
                #expect(Selection.largest(m, of: &copy) == sorted[m - 1], "count \(count), m \(m)")
            }
        }
    }

    @Test("The m-th largest through a sampled floor, and the rows of the lowest scores, equal a sort's, on few and many values")
    func sampledSelectionMatchesSort() {
        var rng = SplitMix64(seed: 23)
        for (count, distinct) in [(300, 1_000), (9_000, 7), (50_000, 100_000), (50_000, 40)] {
            let values = (0..<count).map { _ in Float(Int(rng.next() % UInt64(distinct)) - distinct / 3) / 11 }
            let sorted = values.sorted(by: >)
            for m in [1, 256, 3_162, count] where m <= count {
                #expect(Ranker.largest(m, of: values) == sorted[m - 1], "count \(count), m \(m)")
            }
            // The rows whose score is at most the 256th lowest (ties kept), in their order.
            let rows = (0..<Int32(count)).reversed().map { $0 }
            let ceiling = values.sorted()[min(256, count) - 1]
            let lowest = values.withUnsafeBufferPointer { Ranker.lowest(min(256, count), of: rows, cosine: $0) }
            #expect(lowest == rows.filter { values[Int($0)] <= ceiling }, "count \(count)")
        }
    }

    @Test("Nominees from the sampled floor are the best occupied rows by score, ties by row, as offering every row, ordered or not")
    func sampledNomineesEqualFullSelection() throws {
        var rng = SplitMix64(seed: 5)
        let capacity = 40_000
        // Coarse scores: many ties; every 97th row free (a zero score, as free rows have).
        var occupied = [Bool](repeating: true, count: capacity)
        var scores = [Float](repeating: 0, count: capacity)
        for r in 0..<capacity {
            if r % 97 == 0 {
                occupied[r] = false
            } else {
                scores[r] = Float(Int(rng.next() % 2_000) - 500) / 1_000
            }
        }
        let precedes = { (a: Int32, b: Int32) in a < b }
        for k in [10, 100, 1_000] {
            let selected = try scores.withUnsafeBufferPointer { cosine in
                let floor = try #require(Ranker.sampledFloor(cosine, capacity: capacity, k: k))
                let rows = try #require(
                    Ranker.nominees(cosine, capacity: capacity, atLeast: floor, k: k, occupied: occupied, precedes: precedes))
                return rows.sorted { scores[Int($0)] != scores[Int($1)] ? scores[Int($0)] > scores[Int($1)] : precedes($0, $1) }
            }
            let reference = (0..<capacity).filter { occupied[$0] }.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
            #expect(selected == reference.prefix(k).map(Int32.init), "k \(k)")
            // The unordered nominees of the int8 path: the same set, ties cut by the same order,
            // here with the larger row first.
            let later = { (a: Int32, b: Int32) in a > b }
            let rows = (0..<capacity).filter { occupied[$0] && scores[$0] >= 0.3 }.map(Int32.init)
            let top = scores.withUnsafeBufferPointer { Ranker.topRows(rows, cosine: $0, k: min(k, rows.count), precedes: later) }
            let expected = rows.sorted { scores[Int($0)] != scores[Int($1)] ? scores[Int($0)] > scores[Int($1)] : $0 > $1 }
            #expect(top.count == min(k, rows.count))
            #expect(Set(top) == Set(expected.prefix(min(k, rows.count))), "k \(k)")
        }
        // Too few rows for a sample to pay: no floor.
        #expect(scores.withUnsafeBufferPointer { Ranker.sampledFloor($0, capacity: 4_000, k: 1_000) } == nil)
    }

    @Test("A list of rows long enough to be split over the cores scores exactly as the scan")
    func splitExactScoresEqualScan() {
        let dim = 64
        for precision in [VectorPrecision.float32, .float16] {
            var index = VectorIndex(dimension: dim, precision: precision)
            let vectors = VectorIndexTests.randomUnitVectors(3_000, dimension: dim, seed: 8)
            for (r, v) in vectors.enumerated() { index.set(row: Int32(r), vector: v) }
            let q = VectorIndexTests.randomUnitVectors(1, dimension: dim, seed: 9)[0]
            var scan: [Float] = []
            index.scores(for: q, into: &scan)
            let rows = (0..<3_000).reversed().filter { $0 % 5 != 0 }.map(Int32.init)
            #expect(rows.count >= VectorIndex.splitRows)
            var exact = [Float](repeating: .nan, count: 3_000)
            index.exactScores(for: q, rows: rows, into: &exact)
            for r in rows { #expect(exact[Int(r)] == scan[Int(r)]) }
            #expect((0..<3_000).filter { $0 % 5 == 0 }.allSatisfy { exact[$0].isNaN })
        }
    }

    @Test("The C coding of a row equals the Swift reference: halves away from zero, scale from the largest magnitude")
    func codingMatchesReference() {
        var rng = SplitMix64(seed: 33)
        var rows = VectorIndexTests.randomUnitVectors(200, dimension: 64, seed: 34)
        // Components that land exactly on halves of the scale, and a zero row.
        rows.append((0..<64).map { Float($0 - 32) / 2 * (1.0 / 127) + (($0 == 0) ? -32.5 / 127 : 0) })
        rows.append([Float](repeating: 0, count: 64))
        rows.append((0..<64).map { _ in Float(Int(rng.next() % 255) - 127) / 254 })
        for v in rows {
            let peak = v.reduce(Float(0)) { max($0, abs($1)) }
            let scale = peak > 0 ? peak / 127 : 0
            let reference = v.map { scale > 0 ? Int8(clamping: Int(($0 / scale).rounded())) : 0 }
            var codes = [Int8](repeating: 1, count: 64)
            let got = v.withUnsafeBufferPointer { p in
                codes.withUnsafeMutableBufferPointer { QuantizedRows.code(p.baseAddress!, components: 64, bits: 8, into: $0.baseAddress!) }
            }
            #expect(got == scale)
            #expect(codes == reference)
        }
        var bad = [Float](repeating: 0.1, count: 64)
        bad[5] = .nan
        var codes = [Int8](repeating: 1, count: 64)
        #expect(
            bad.withUnsafeBufferPointer { p in
                codes.withUnsafeMutableBufferPointer { QuantizedRows.code(p.baseAddress!, components: 64, bits: 8, into: $0.baseAddress!) }
            } == 0)
        #expect(codes.allSatisfy { $0 == 0 })
    }

    @Test("The quantized copy of restored rows has the bits of one made row by row", arguments: [8, 4])
    func restoredCopyEqualsRowByRow(bits: Int) {
        let dim = 64
        let coding = QuantizedCoding(components: 32, bits: bits)
        let vectors = VectorIndexTests.randomUnitVectors(5_000, dimension: dim, seed: 21)
        var built = VectorIndex(dimension: dim, coding: coding, precision: .float16)
        for (r, v) in vectors.enumerated() where r % 7 != 3 { built.set(row: Int32(r), vector: v) }
        built.set(row: 5_001, vector: vectors[0])
        built.remove(row: 5_001)
        let restored = VectorIndex(dimension: dim, coding: coding, halves: built.halves.base, occupied: built.occupied)
        #expect(restored.quantized!.coding == coding)
        #expect(restored.quantized!.codes.count == 5_002 * coding.components * bits / 8)
        #expect(restored.quantized!.codes.array == built.quantized!.codes.array)
        #expect(restored.quantized!.scales.array == built.quantized!.scales.array)
    }

    @Test(
        "The default configuration: the quantized copy codes half a variance-ordered model's components at 4 bits, all of another's at 8, none at odd dimensions"
    )
    func defaultQuantizedComponents() throws {
        let bundledLike = randomModel(dimension: 64)
        #expect(
            SearchIndex.Configuration(directory: nil, embedder: bundledLike).quantizedCoding == QuantizedCoding(components: 32, bits: 4))
        let d = WordDirectionEmbedder().dimension
        #expect(
            SearchIndex.Configuration(directory: nil, embedder: WordDirectionEmbedder()).quantizedCoding
                == QuantizedCoding(components: d, bits: 8))
        #expect(
            SearchIndex.Configuration(directory: nil, embedder: bundledLike, quantizedScanComponents: 64).quantizedCoding
                == QuantizedCoding(components: 64, bits: 8))
        // 4-bit codes for any leading part (every SIMD kernel takes 16-byte steps), int8 for all.
        let wide = randomModel(dimension: 256)
        for (components, bits) in [(128, 4), (192, 4), (96, 4), (256, 8)] {
            #expect(
                SearchIndex.Configuration(directory: nil, embedder: wide, quantizedScanComponents: components).quantizedCoding
                    == QuantizedCoding(components: components, bits: bits))
        }
        var eight = SearchIndex.Configuration(directory: nil, embedder: bundledLike)
        eight.quantizedScanBits = 8
        #expect(eight.quantizedCoding == QuantizedCoding(components: 32, bits: 8))
        #expect(SearchIndex.Configuration(directory: nil, embedder: bundledLike, quantizedScan: false).quantizedCoding == nil)
        struct Odd: Embedder {
            var dimension: Int { 10 }
            var fingerprint: String { "odd" }
            func embed(_ text: String, into output: UnsafeMutableBufferPointer<Float>) { output.update(repeating: 0) }
        }
        #expect(SearchIndex.Configuration(directory: nil, embedder: Odd()).quantizedCoding == nil)
    }

    @Test(
        "The automatic bound on keyword candidates: none on a small index, max(1,000, √(10 · rows)) on a large one, an explicit value as given"
    )
    func automaticKeywordBound() {
        let automatic = FusionParameters.default
        #expect(automatic.keywordCandidates == FusionParameters.automaticKeywordCandidates)
        #expect(automatic.keywordCandidateBound(rows: 5_183) == 0)
        #expect(automatic.keywordCandidateBound(rows: FusionParameters.automaticBoundRows - 1) == 0)
        #expect(automatic.keywordCandidateBound(rows: FusionParameters.automaticBoundRows) == 1_000)
        #expect(automatic.keywordCandidateBound(rows: 100_000) == 1_000)
        #expect(automatic.keywordCandidateBound(rows: 400_000) == 2_000)
        #expect(automatic.keywordCandidateBound(rows: 1_000_000) == 3_162)
        var explicit = FusionParameters.default
        explicit.keywordCandidates = 0
        #expect(explicit.keywordCandidateBound(rows: 1_000_000) == 0)
        explicit.keywordCandidates = 2_000
        #expect(explicit.keywordCandidateBound(rows: 100) == 2_000)
    }

    @Test("The fusion's cosine floor counts the matches the bound left out")
    func floorRowsLowerTheFloor() {
        let keyword: [Float] = [3, 2, 1, 0.5]
        let cosine: [Float] = [0.8, 0.5, 0.4, -0.2]
        let without = MinMaxNormalizer(rows: [0, 1, 2], keyword: keyword, cosine: cosine)
        let with = MinMaxNormalizer(rows: [0, 1, 2], keyword: keyword, cosine: cosine, floorRows: [3])
        #expect(without.floorCosine == 0.4 && with.floorCosine == -0.2)
        #expect(with.topCosine == 0.8 && with.maxKeyword == 3)
    }

    @Test(
        "Without feedback, hybrid on the int8 scan with keyword candidates bounded fuses as the exact scan with every match: the matches left out set the cosine floor"
    )
    func boundedInt8RanksAsExact() async throws {
        let now = utc("2026-12-02T12:00:00Z")
        let filler = ["harbour", "kelp", "tide", "gull", "pier", "rope", "sail", "buoy"]
        let items = (0..<400).map { i in
            SearchableItem(
                id: ItemID(String(format: "item-%03d", i)), domain: "note", title: "Note \(filler[i % 8]) \(i)",
                content: Array(repeating: "walrus", count: 1 + i % 7).joined(separator: " ") + " " + filler[(i * 3) % 8] + " "
                    + filler[(i * 5) % 8] + " " + String(repeating: "x", count: 1 + i % 11))
        }
        func index(bound: Int, quantized: Bool) async throws -> SearchIndex {
            var fusion = FusionParameters.default
            fusion.keywordCandidates = bound
            fusion.semanticCandidates = 5
            // Feedback scores the candidates only: a match left out gains nothing from it.
            fusion.feedbackDocuments = 0
            fusion.keywordFeedbackDocuments = 0
            var configuration = SearchIndex.Configuration(
                directory: nil, embedder: WordDirectionEmbedder(), fusion: fusion, clock: { now }, quantizedScan: quantized)
            configuration.quantizedScanMinimumRows = 0
            let index = try SearchIndex(configuration: configuration)
            try await index.upsert(items)
            return index
        }
        let exact = try await index(bound: 0, quantized: false)
        let bounded = try await index(bound: 30, quantized: true)
        for text in ["walrus kelp", "walrus tide gull", "harbour walrus", "sail rope walrus"] {
            let query = SearchQuery(text, limit: 10, mode: .hybrid, understandsPhrases: false, prefixLastTerm: false)
            let (a, reportA) = try await exact.search(query)
            let (b, reportB) = try await bounded.search(query)
            #expect(reportA.candidates > reportB.candidates, "\(text): the bound applies")
            #expect(a.map(\.id) == b.map(\.id), "\(text)")
            for (x, y) in zip(a, b) { #expect(abs(x.score - y.score) < 1e-5, "\(text): \(x.id) \(x.score) vs \(y.score)") }
        }
        try await bounded.checkInvariants()
    }
}
