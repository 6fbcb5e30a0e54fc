import CSiftKernels
import Foundation
import Testing

@testable import Sift

/// The 4-bit codes of the quantized scan's first pass: how a row is coded and packed, and the
/// scan kernels (every family this machine has) against a plain Swift loop over the nibbles.
@Suite("4-bit scan codes")
struct NibbleKernelTests {
    /// Component `j` of a packed row of `n` codes, as a signed code -8…7.
    static func code(_ row: ArraySlice<UInt8>, _ j: Int, n: Int) -> Int32 {
        let byte = row[row.startIndex + (j < n / 2 ? j : j - n / 2)]
        return Int32(j < n / 2 ? byte & 15 : byte >> 4) - 8
    }

    @Test("A row codes to ±7 steps of its largest magnitude over 7, halves packed low and high; a zero or non-finite row to zero bytes")
    func coding() {
        let n = 64
        var v = VectorKernelTests.randomFloats(n, seed: 7)
        v[5] = -1.5  // the peak, negative
        var bytes = [UInt8](repeating: 0xAA, count: n / 2)
        let scale = sift_code_u4(v, n, &bytes)
        #expect(scale == 1.5 / 7)
        for j in 0..<n {
            let c = Self.code(bytes[...], j, n: n)
            #expect(c >= -7 && c <= 7)
            #expect(c == Int32((v[j] / scale).rounded()), "component \(j): \(v[j])")
        }
        #expect(Self.code(bytes[...], 5, n: n) == -7)
        for bad in [
            [Float](repeating: 0, count: n), [Float](repeating: .nan, count: n), [1, .infinity] + [Float](repeating: 0, count: n - 2),
        ] {
            var out = [UInt8](repeating: 0xAA, count: n / 2)
            #expect(sift_code_u4(bad, n, &out) == 0)
            #expect(out.allSatisfy { $0 == 0 })
        }
    }

    @Test(
        "4-bit row dots equal the exact integer sums, scaled, on every kernel this machine has",
        arguments: [32, 40, 64, 96, 128, 160, 192, 256, 1024, 1088])
    func scores(components n: Int) {
        let rows = 37
        var rng = SplitMix64(seed: UInt64(n) &* 17)
        // Every nibble value, zero bytes (a free row's) included.
        let codes = (0..<(rows * n / 2)).map { i in
            i % 53 == 0 ? UInt8(0) : i % 47 == 0 ? UInt8(0xFF) : UInt8(truncatingIfNeeded: rng.next())
        }
        let query = (0..<n).map { j in j % 13 == 0 ? Int8.min : j % 11 == 0 ? Int8.max : Int8(truncatingIfNeeded: rng.next() >> 9) }
        let scales = (0..<rows).map { Float($0 + 1) / 512 }
        // The default dispatch, then each kernel family capped: portable, AVX2, AVX-512.
        for level in [Int32?.none, 0, 2, 3] {
            var out = [Float](repeating: .nan, count: rows)
            if let level {
                sift_scores_u4_at_most(level, codes, scales, rows, n, query, 0.25, &out)
            } else {
                codes.withUnsafeBufferPointer { c in
                    scales.withUnsafeBufferPointer { s in
                        query.withUnsafeBufferPointer { q in
                            out.withUnsafeMutableBufferPointer { o in
                                LinearAlgebra.nibbleRowDots(
                                    codes: c.baseAddress!, scales: s.baseAddress!, rows: rows, columns: n, query: q.baseAddress!,
                                    queryScale: 0.25, into: o.baseAddress!)
                            }
                        }
                    }
                }
            }
            for r in 0..<rows {
                let row = codes[(r * n / 2)..<((r + 1) * n / 2)]
                var sum: Int32 = 0
                for j in 0..<n { sum += Self.code(row, j, n: n) * Int32(query[j]) }
                #expect(out[r] == Float(sum) * scales[r] * 0.25, "row \(r), kernel level \(level.map(String.init) ?? "default")")
            }
        }
    }

    @Test("The 4-bit copy's scan, split over the cores and beside other work, gives one pass's scores; a removed row scores 0")
    func splitScan() {
        var rng = SplitMix64(seed: 5)
        let (d, n) = (64, 200_000)  // over one 4 MB chunk of codes (VectorIndex.forEachChunk)
        var rows = QuantizedRows(dimension: d, components: 64, bits: 4)
        for r in 0..<n { rows.set(row: Int32(r), vector: (0..<d).map { _ in Float(Int(rng.next() % 2001) - 1000) / 1000 }) }
        #expect(rows.codes.count == n * 32 && rows.bytesPerRow == 32)
        rows.remove(row: 17)
        let query = (0..<d).map { _ in Float(Int(rng.next() % 2001) - 1000) / 1000 }
        let qScale = query.map(abs).max()! / 127
        let q8 = query.map { Int8(clamping: Int(($0 / qScale).rounded())) }
        let (codes, scales) = (rows.codes.array.map { UInt8(bitPattern: $0) }, rows.scales.array)
        var serial = [Float](repeating: 0, count: n)
        for r in 0..<n {
            let row = codes[(r * 32)..<((r + 1) * 32)]
            var sum: Int32 = 0
            for j in 0..<d { sum += Self.code(row, j, n: d) * Int32(q8[j]) }
            serial[r] = Float(sum) * scales[r] * qScale
        }
        var split = [Float]()
        rows.approximateScores(for: query, into: &split)
        #expect(split.map(\.bitPattern) == serial.map(\.bitPattern))
        #expect(split[17] == 0)
        var beside = [Float]()
        var runs = 0
        rows.approximateScores(for: query, into: &beside) { runs += 1 }
        #expect(runs == 1 && beside.map(\.bitPattern) == serial.map(\.bitPattern))
    }
}
