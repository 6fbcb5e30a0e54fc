import CSiftKernels
import Foundation
import SiftEvaluation
import Testing

@testable import Sift

/// The re-scoring copy (int8 codes of every component, in memory) and the rows read back from
/// the vectors for the final exact ranking.
@Suite("Re-scoring copy and rows read from the vectors")
struct RescoringTests {
    /// Random unit vectors, row-major.
    static func unitRows(_ rows: Int, dimension: Int, seed: UInt64) -> [Float] {
        var out = VectorKernelTests.randomFloats(rows * dimension, seed: seed)
        for r in 0..<rows {
            let n = out[(r * dimension)..<((r + 1) * dimension)].reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
            for j in 0..<dimension { out[r * dimension + j] /= n }
        }
        return out
    }

    @Test(
        "The kernel's scores are the exact integer sums, the same on the portable and the SIMD kernel, scattered or packed",
        arguments: [32, 64, 256, 48])
    func kernelIsExact(dimension: Int) {
        let rows = 300
        var rng = SplitMix64(seed: UInt64(dimension))
        let codes = (0..<(rows * dimension)).map { _ in Int8(truncatingIfNeeded: rng.next()) }
        let scales = (0..<rows).map { Float($0 % 17 + 1) / 1000 }
        let query = (0..<dimension).map { _ in Int16(truncatingIfNeeded: rng.next() % 60_000) }
        let list: [Int32] = (0..<120).map { Int32(($0 * 37) % rows) }
        let expected = list.map { r -> Float in
            var sum: Int32 = 0
            for j in 0..<dimension { sum += Int32(codes[Int(r) * dimension + j]) * Int32(query[j]) }
            return Float(sum) * scales[Int(r)] * 0.5
        }
        for level: Int32 in [0, 2] {
            var scattered = [Float](repeating: .nan, count: rows)
            var packed = [Float](repeating: .nan, count: list.count)
            sift_rescore_i8_rows_at_most(level, codes, scales, dimension, list, list.count, query, 0.5, &scattered, 0)
            sift_rescore_i8_rows_at_most(level, codes, scales, dimension, list, list.count, query, 0.5, &packed, 1)
            #expect(packed == expected, "level \(level)")
            #expect(list.map { scattered[Int($0)] } == expected, "level \(level)")
        }
    }

    @Test("The query's int16 codes keep every row's sum within int32, at any dimension", arguments: [32, 256, 1024, 4096])
    func queryCodesCannotOverflow(dimension: Int) {
        let query = QuantizedRows.RescoringQuery([Float](repeating: -1, count: dimension))
        let peak = query.codes.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 0 && dimension * 127 * peak <= Int(Int32.max))
        #expect(QuantizedRows.RescoringQuery([Float](repeating: 0, count: dimension)).scale == 0)
    }

    @Test("The copy's scores are within 2·10⁻³ of the exact cosines, split over the cores or not", arguments: VectorPrecision.allCases)
    func rescoresNearExact(precision: VectorPrecision) {
        let (rows, d) = (3000, 256)
        let matrix = Self.unitRows(rows, dimension: d, seed: 3)
        var index = VectorIndex(dimension: d, quantized: true, quantizedComponents: 128, quantizedBits: 4, precision: precision)
        for r in 0..<rows { index.set(row: Int32(r), vector: Array(matrix[(r * d)..<((r + 1) * d)])) }
        let query = Self.unitRows(1, dimension: d, seed: 4)
        let list: [Int32] = (0..<Int32(rows)).filter { $0 % 2 == 1 }
        #expect(list.count >= VectorIndex.splitRows)
        var exact = [Float](repeating: 0, count: rows)
        var split = [Float](repeating: 0, count: rows)
        var single = [Float](repeating: 0, count: rows)
        index.exactScores(for: query, rows: list, into: &exact)
        index.rescores(for: query, rows: list, into: &split)
        index.rescores(for: query, rows: list, into: &single, cached: true)
        #expect(split == single)
        let worst = list.map { abs(split[Int($0)] - exact[Int($0)]) }.max() ?? 1
        #expect(worst < 2e-3, "largest error \(worst)")
        // A removed row's codes are zeros, as a free row's.
        index.remove(row: 1)
        index.rescores(for: query, rows: [1], into: &single)
        #expect(single[1] == 0)
    }

    @Test("Rows read back give the index's own vectors and exact scores, bit for bit", arguments: VectorPrecision.allCases)
    func storedRowsMatchInPlace(precision: VectorPrecision) {
        let (rows, d) = (50, 64)
        let matrix = Self.unitRows(rows, dimension: d, seed: 8)
        var index = VectorIndex(dimension: d, quantized: true, precision: precision)
        for r in 0..<rows { index.set(row: Int32(r), vector: Array(matrix[(r * d)..<((r + 1) * d)])) }
        let query = Self.unitRows(1, dimension: d, seed: 9)
        let list: [Int32] = [7, 3, 49, 0]
        let stored = index.storedRows(list)
        var exact = [Float](repeating: 0, count: rows)
        index.exactScores(for: query, rows: list, into: &exact)
        #expect(stored.scores(for: query) == list.map { exact[Int($0)] })
        for (i, row) in list.enumerated() { #expect(stored.vector(i) == index.vector(at: row)) }
    }

    @Test("An index opened from its snapshot reads its rows from the file: the same vectors and scores, its copies restored as coded")
    func mappedRowsReadFromFile() async throws {
        let fixture = try IndexFixture(.disk, embedder: randomModel())
        let live = try fixture.open()
        try await live.upsert(SyntheticCorpus(seed: 4).items(count: 120))
        #expect(await live.saveSnapshot())
        let made = try #require(await live.vectors)
        let reopened = try fixture.open()
        let vectors = try #require(await reopened.vectors)
        #expect(vectors.rowsAreMapped)
        #expect(vectors.rescoring.map(\.codes.array) == made.rescoring.map(\.codes.array))
        #expect(vectors.rescoring.map(\.scales.array) == made.rescoring.map(\.scales.array))
        let query = made.vector(at: 5)
        let list: [Int32] = [0, 119, 5, 64]
        var inPlace = [Float](repeating: 0, count: vectors.capacity)
        vectors.exactScores(for: query, rows: list, into: &inPlace)
        let stored = vectors.storedRows(list)
        #expect(stored.scores(for: query) == list.map { inPlace[Int($0)] })
        for (i, row) in list.enumerated() { #expect(stored.vector(i) == made.vector(at: row)) }
        // The file goes and another takes its name: reads go to the file the index opened.
        let file = IndexSnapshot.url(in: try #require(fixture.directory))
        let size = try Data(contentsOf: file).count
        try FileManager.default.removeItem(at: file)
        try Data(repeating: 0xA5, count: size).write(to: file, options: .atomic)
        #expect(vectors.storedRows(list).scores(for: query) == list.map { inPlace[Int($0)] })
        try await reopened.checkInvariants()
    }

    @Test("A term list longer than the first read, read back from the snapshot file, names the same terms")
    func longTermListFromFile() async throws {
        let fixture = try IndexFixture(.disk, embedder: randomModel())
        let live = try fixture.open()
        // 400 distinct words: a list of several hundred bytes, past the first read's 256.
        let words = (0..<400).map { "w\(String($0, radix: 26))zq" }
        try await live.upsert([
            SearchableItem(id: "long", domain: "note", title: "Many words", content: words.joined(separator: " ")),
            SearchableItem(id: "short", domain: "note", title: "Few words", content: "walrus kelp"),
        ])
        #expect(await live.saveSnapshot())
        let query = SearchQuery("\(words[0]) \(words[399]) walrus", mode: .keyword)
        let before = try await live.search(query).results
        let reopened = try fixture.open()
        let after = try await reopened.search(query).results
        #expect(after.map(\.id) == before.map(\.id) && after.count == 2)
        #expect(after.map { $0.evidence?.matchedTerms } == before.map { $0.evidence?.matchedTerms })
        #expect(after.first?.evidence?.matchedTerms == 2)
        try await reopened.checkInvariants()
    }

    @Test("With feedback on, hybrid over the quantized scan and the re-scoring copy ranks as the exact scan")
    func rescoredRanksAsExact() async throws {
        let now = utc("2026-12-02T12:00:00Z")
        let items = SyntheticCorpus(seed: 12).items(count: 600)
        func index(quantized: Bool) async throws -> SearchIndex {
            var configuration = SearchIndex.Configuration(
                directory: nil, embedder: randomModel(dimension: 256), clock: { now }, quantizedScan: quantized)
            configuration.quantizedScanMinimumRows = 0
            let index = try SearchIndex(configuration: configuration)
            try await index.upsert(items)
            return index
        }
        let exact = try await index(quantized: false)
        let rescored = try await index(quantized: true)
        #expect(await rescored.vectors?.rescoring != nil)
        for item in items.prefix(12) {
            let query = SearchQuery(item.title, limit: 10, mode: .hybrid)
            let a = try await exact.search(query).results
            let b = try await rescored.search(query).results
            #expect(a.map(\.id) == b.map(\.id), "\(item.title)")
            for (x, y) in zip(a, b) {
                #expect(abs(x.score - y.score) < 1e-4, "\(item.title): \(x.id) \(x.score) vs \(y.score)")
                #expect(x.evidence?.cosine == y.evidence?.cosine)
            }
        }
    }
}

/// The rows of an opened index changed in place: ``RowStore`` keeps a changed or added row apart
/// from the snapshot's mapped pages.
@Suite("Rows changed after an open")
struct RowStoreTests {
    @Test("A row store over mapped rows equals one of its own through changes, additions, removals and consolidation")
    func storeMatchesOwned() throws {
        let width = 4
        let rows = 4096
        let values = (0..<(rows * width)).map { Float($0 % 977) }
        let temporary = try TemporaryDirectory("row-store")
        let file = temporary.url.appendingPathComponent("rows").path
        try values.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: file)) }
        let mapped = try MappedSnapshot(path: file)
        let region = try mapped.keep(0..<(rows * width * 4))
        var store = RowStore(width: width, base: try #require(RowBuffer<Float>(region: region, offset: 0, count: rows * width)))
        var owned = RowStore(width: width, base: RowBuffer(values))
        func check(_ what: String) {
            #expect(store.rows == owned.rows, "\(what)")
            var a = [Float](repeating: 0, count: width)
            var b = [Float](repeating: 0, count: width)
            for r in stride(from: 0, to: store.rows, by: 7) + [store.rows - 1] {
                store.copy(row: r, into: &a)
                owned.copy(row: r, into: &b)
                #expect(a == b, "\(what): row \(r)")
                #expect(store.withRow(r) { Array(UnsafeBufferPointer(start: $0, count: width)) } == b, "\(what): row \(r) in place")
            }
            var runs: [UInt8] = []
            store.forEachRun { runs += $0 }
            var all: [UInt8] = []
            owned.forEachRun { all += $0 }
            #expect(runs == all, "\(what): every row in order")
        }
        for r in [5, 0, 4095, 17] {
            store.withMutableRow(r) { $0[1] = -1 }
            owned.withMutableRow(r) { $0[1] = -1 }
        }
        store.grow(to: rows + 3)
        owned.grow(to: rows + 3)
        store.withMutableRow(rows + 1) { $0[0] = 42 }
        owned.withMutableRow(rows + 1) { $0[0] = 42 }
        #expect(store.isMapped && store.hasChangedRows && store.changedRows.map(\.row) == [0, 5, 17, 4095, 4096, 4097, 4098])
        check("a few rows changed and added")
        // A quarter of the rows changed: one buffer of its own.
        for r in 100..<1200 {
            store.withMutableRow(r) { $0[2] = 7 }
            owned.withMutableRow(r) { $0[2] = 7 }
        }
        #expect(!store.isMapped && !store.hasChangedRows)
        check("consolidated")
    }

    @Test(
        "An opened index that takes new and changed items keeps its other rows in the file, and ranks and snapshots as one built from scratch"
    )
    func changesKeepRowsMapped() async throws {
        let clock = TestClock()
        let fixture = try IndexFixture(.disk, embedder: randomModel(), clock: clock)
        let corpus = SyntheticCorpus(seed: 6).items(count: 300)
        let live = try fixture.open()
        try await live.upsert(Array(corpus.prefix(280)))
        #expect(await live.saveSnapshot())
        let reopened = try fixture.open()
        var changed = corpus[3]
        changed.content += " walrus"
        try await reopened.upsert([changed] + Array(corpus.suffix(20)))
        _ = try await reopened.delete(ids: [corpus[9].id])
        let vectors = try #require(await reopened.vectors)
        #expect(vectors.rowsAreMapped && vectors.halves.hasChangedRows)
        let scratch = try SearchIndex(configuration: .init(directory: nil, embedder: randomModel(), clock: clock.function))
        try await scratch.upsert(Array(corpus.prefix(280)))
        try await scratch.upsert([changed] + Array(corpus.suffix(20)))
        _ = try await scratch.delete(ids: [corpus[9].id])
        for text in ["walrus", corpus[40].title, corpus[290].title] {
            let query = SearchQuery(text, limit: 10, mode: .semantic)
            let a = try await scratch.search(query).results
            let b = try await reopened.search(query).results
            #expect(a.map(\.id) == b.map(\.id), "\(text)")
            #expect(a.map(\.score) == b.map(\.score), "\(text)")
        }
        try await reopened.checkInvariants()
        #expect(await reopened.saveSnapshot())
        let again = try fixture.open()
        for item in [changed, corpus[295], corpus[100]] {
            let row = try #require(await again.table.row(of: item.id))
            let before = try #require(await reopened.table.row(of: item.id))
            #expect(await again.vectors?.vector(at: row) == vectors.vector(at: before))
        }
        try await again.checkInvariants()
    }

    @Test(
        "A row coded apart (an upsert's preparation) stores what coding the rounded row does: components, codes and scales",
        arguments: [VectorPrecision.float16, .float32])
    func codedRowsAreTheRows(precision: VectorPrecision) {
        let (dimension, rows) = (256, 40)
        let data = RescoringTests.unitRows(rows, dimension: dimension, seed: 9)
        for coding in [QuantizedCoding(components: 128, bits: 4), QuantizedCoding(components: 256, bits: 8)] {
            var index = VectorIndex(dimension: dimension, coding: coding, precision: precision)
            let coder = index.coder
            // Rows put in out of order, one of them twice (the second wins).
            for r in (0..<rows).reversed() + [3] {
                let v = Array(data[(r * dimension)..<((r + 1) * dimension)])
                index.set(row: Int32(r), coded: coder.code(r == 3 ? v.map { -$0 } : v))
            }
            for r in 0..<rows {
                var v = Array(data[(r * dimension)..<((r + 1) * dimension)])
                if r == 3 { v = v.map { -$0 } }
                // What the index keeps: the fp16 rounding with that precision.
                var bits = [UInt16](repeating: 0, count: dimension)
                var kept = v
                if precision == .float16 {
                    LinearAlgebra.toHalf(v, into: &bits, count: dimension)
                    LinearAlgebra.fromHalf(bits, into: &kept, count: dimension)
                }
                #expect(index.vector(at: Int32(r)).map(\.bitPattern) == kept.map(\.bitPattern))
                for (copy, c) in [(index.quantized!, coding), (index.rescoring!, QuantizedCoding(components: dimension, bits: 8))] {
                    var codes = [Int8](repeating: 0, count: c.bytesPerRow)
                    let scale = QuantizedRows.code(kept, components: c.components, bits: c.bits, into: &codes)
                    let width = copy.bytesPerRow
                    let stored = copy.codes.withUnsafeBufferPointer { Array($0[(r * width)..<((r + 1) * width)]) }
                    #expect(stored == codes && copy.scales.withUnsafeBufferPointer { $0[r] } == scale, "row \(r), \(c)")
                }
            }
            #expect(index.count == rows)
        }
    }
}
