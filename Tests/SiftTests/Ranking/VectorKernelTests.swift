import CSiftKernels
import Foundation
import Testing

@testable import Sift

/// The scan kernels (CSiftKernels, through LinearAlgebra) against plain Swift loops: the SIMD
/// kernels (dimensions the CPU's widest kernel takes) and the portable ones (dimensions it
/// does not), fp32 to float rounding, int8 exactly.
@Suite("Vector scan kernels")
struct VectorKernelTests {
    static func randomFloats(_ n: Int, seed: UInt64) -> [Float] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { _ in Float(Double(rng.next() >> 11) / Double(1 << 53)) * 2 - 1 }
    }

    @Test("The rows at or above a threshold that are kept: those of a plain loop, in order, across calls that fill the output")
    func rowsAtLeast() {
        let n = 10_037
        var x = Self.randomFloats(n, seed: 41)
        x[5] = .nan
        x[n - 1] = 0.999
        var rng = SplitMix64(seed: 5)
        let keep = (0..<(n - 300)).map { _ in rng.next() % 5 != 0 }  // shorter than x: the rest are not kept
        for threshold: Float in [-2, 0.5, 0.99, 0.999, 2] {
            let expected = (0..<n).filter { x[$0] >= threshold && $0 < keep.count && keep[$0] }.map(Int32.init)
            var rows: [Int32] = []
            x.withUnsafeBufferPointer { LinearAlgebra.rowsAtLeast($0.baseAddress!, count: n, threshold, keep: keep, into: &rows) }
            #expect(rows == expected, "threshold \(threshold)")
            // Small outputs: the AVX2 path returns before a block it has no room for; each call resumes.
            for capacity in [1, 31, 32, 33, 100] {
                var found: [Int32] = []
                var out = [Int32](repeating: -1, count: capacity)
                var start = 0
                var calls = 0
                while start < n {
                    let written = x.withUnsafeBufferPointer { x in
                        keep.withUnsafeBufferPointer { k in
                            k.withMemoryRebound(to: UInt8.self) { k in
                                sift_rows_at_least(x.baseAddress, n, threshold, k.baseAddress, k.count, &out, capacity, &start)
                            }
                        }
                    }
                    found += out[0..<written]
                    calls += 1
                    if calls > n + 1 { break }
                }
                #expect(found == expected, "threshold \(threshold), capacity \(capacity)")
            }
        }
    }

    @Test("fp32 row dots equal a plain loop, over every row and over a list of rows", arguments: [8, 48, 64, 256, 264])
    func float32(dimension: Int) {
        let rows = 203
        let matrix = Self.randomFloats(rows * dimension, seed: UInt64(dimension))
        let query = Self.randomFloats(dimension, seed: 99)
        var all = [Float](repeating: .nan, count: rows)
        matrix.withUnsafeBufferPointer { m in
            query.withUnsafeBufferPointer { q in
                all.withUnsafeMutableBufferPointer { o in
                    LinearAlgebra.rowDots(
                        matrix: m.baseAddress!, rows: rows, columns: dimension, vector: q.baseAddress!, into: o.baseAddress!)
                }
            }
        }
        let picked: [Int32] = [202, 0, 17, 17, 101, 5]
        var some = [Float](repeating: .nan, count: rows)
        matrix.withUnsafeBufferPointer { m in
            query.withUnsafeBufferPointer { q in
                some.withUnsafeMutableBufferPointer { o in
                    picked.withUnsafeBufferPointer { p in
                        LinearAlgebra.rowDots(
                            matrix: m.baseAddress!, columns: dimension, rows: p, vector: q.baseAddress!, into: o.baseAddress!)
                    }
                }
            }
        }
        for r in 0..<rows {
            var reference: Double = 0
            for j in 0..<dimension { reference += Double(matrix[r * dimension + j]) * Double(query[j]) }
            #expect(abs(Double(all[r]) - reference) < 1e-5 * Double(dimension), "row \(r)")
            if picked.contains(Int32(r)) {
                #expect(some[r] == all[r], "row \(r): the list kernel sums as the scan does")
            } else {
                #expect(some[r].isNaN)
            }
        }
    }

    @Test(
        "int8 row dots equal the exact integer sums, scaled, on every kernel this machine has",
        arguments: [32, 64, 96, 160, 256, 992, 1024, 1056])
    func int8(dimension: Int) {
        let rows = 37
        var rng = SplitMix64(seed: UInt64(dimension) &* 31)
        // The full range, extremes included.
        let codes = (0..<(rows * dimension)).map { i in
            i % 97 == 0 ? Int8.min : i % 89 == 0 ? Int8.max : Int8(truncatingIfNeeded: rng.next())
        }
        let query = (0..<dimension).map { j in j % 13 == 0 ? Int8(-127) : Int8(truncatingIfNeeded: rng.next() >> 7) }
        let scales = (0..<rows).map { Float($0 + 1) / 512 }
        // The default dispatch, then each kernel family capped: portable, AVX2, AVX-512.
        for level in [Int32?.none, 0, 2, 3] {
            var out = [Float](repeating: .nan, count: rows)
            codes.withUnsafeBufferPointer { c in
                scales.withUnsafeBufferPointer { s in
                    query.withUnsafeBufferPointer { q in
                        out.withUnsafeMutableBufferPointer { o in
                            if let level {
                                sift_scores_i8_at_most(
                                    level, c.baseAddress!, s.baseAddress!, rows, dimension, q.baseAddress!, 0.25, o.baseAddress!)
                            } else {
                                LinearAlgebra.int8RowDots(
                                    codes: c.baseAddress!, scales: s.baseAddress!, rows: rows, columns: dimension, query: q.baseAddress!,
                                    queryScale: 0.25, into: o.baseAddress!)
                            }
                        }
                    }
                }
            }
            for r in 0..<rows {
                var sum: Int32 = 0
                for j in 0..<dimension { sum += Int32(codes[r * dimension + j]) * Int32(query[j]) }
                #expect(out[r] == Float(sum) * scales[r] * 0.25, "row \(r), kernel level \(level.map(String.init) ?? "default")")
            }
        }
    }

    @Test("fp32 → fp16 rounds to nearest even, as binary16 defines, and back is exact")
    func halfConversions() {
        // Edge cases: zeros, the subnormal range, halfway cases, the largest half, overflow, ∞, NaN.
        var values: [Float] = [
            0, -0, 1, -1, 0.1, 1e-8, 5.96e-8, 2.98e-8, 2.99e-8, 6.1e-5, 6.103e-5, -6.0e-5,
            1.00048828125, 1.0009765625, 1.00146484375, 65504, 65519.99, 65520, 1e6, -1e6, .infinity, -.infinity,
        ]
        values += Self.randomFloats(4000, seed: 5).map { $0 * 4 }
        values += Self.randomFloats(1000, seed: 6).map { $0 * 1e-4 }
        var halves = [UInt16](repeating: 0, count: values.count)
        values.withUnsafeBufferPointer { v in
            halves.withUnsafeMutableBufferPointer { h in LinearAlgebra.toHalf(v.baseAddress!, into: h.baseAddress!, count: v.count) }
        }
        var back = [Float](repeating: .nan, count: values.count)
        halves.withUnsafeBufferPointer { h in
            back.withUnsafeMutableBufferPointer { b in LinearAlgebra.fromHalf(h.baseAddress!, into: b.baseAddress!, count: h.count) }
        }
        // And the portable fallbacks (the code path of CPUs without F16C) give the same bits.
        var portable = [UInt16](repeating: 0, count: values.count)
        values.withUnsafeBufferPointer { v in
            portable.withUnsafeMutableBufferPointer { h in sift_f32_to_f16_portable(v.baseAddress!, h.baseAddress!, v.count) }
        }
        var portableBack = [Float](repeating: .nan, count: values.count)
        halves.withUnsafeBufferPointer { h in
            portableBack.withUnsafeMutableBufferPointer { b in sift_f16_to_f32_portable(h.baseAddress!, b.baseAddress!, h.count) }
        }
        for (i, x) in values.enumerated() {
            #expect(halves[i] == Self.referenceHalf(x), "\(x)")
            #expect(portable[i] == halves[i], "\(x)")
            #expect(back[i] == Self.referenceFloat(halves[i]), "\(x)")
            #expect(portableBack[i] == back[i], "\(x)")
        }
        var nan: Float = .nan
        var h: UInt16 = 0
        LinearAlgebra.toHalf(&nan, into: &h, count: 1)
        #expect(h & 0x7C00 == 0x7C00 && h & 0x03FF != 0, "NaN stays NaN")
    }

    /// binary16 by the definition: the nearest representable value, ties to the even significand.
    static func referenceHalf(_ x: Float) -> UInt16 {
        let sign: UInt16 = x.sign == .minus ? 0x8000 : 0
        let a = Double(abs(x))
        if a.isInfinite || a >= 65520 { return sign | 0x7C00 }
        var lo: UInt16 = 0
        var hi: UInt16 = 0x7BFF
        while lo < hi {  // the largest half ≤ a
            let mid = (lo + hi + 1) / 2
            if referenceDouble(mid) <= a { lo = mid } else { hi = mid - 1 }
        }
        var best = lo
        let bestValue = referenceDouble(lo)
        if best < 0x7BFF {
            let up = referenceDouble(best + 1)
            if up - a < a - bestValue || (up - a == a - bestValue && best & 1 == 1) { best += 1 }
        } else if a - bestValue >= 16 {
            return sign | 0x7C00
        }
        return sign | best
    }

    static func referenceDouble(_ h: UInt16) -> Double {
        let e = Int(h >> 10 & 0x1F)
        let m = Double(h & 0x3FF)
        if e == 31 { return m == 0 ? .infinity : .nan }
        return e == 0 ? m * 0x1p-24 : (1 + m / 1024) * Double(sign: .plus, exponent: e - 15, significand: 1)
    }

    static func referenceFloat(_ h: UInt16) -> Float {
        let v = Float(referenceDouble(h & 0x7FFF))
        return h & 0x8000 != 0 ? -v : v
    }

    @Test(
        "A list long enough to split over the cores is scored as row by row, at either precision",
        arguments: [VectorPrecision.float32, .float16])
    func splitList(precision: VectorPrecision) {
        let rows = 3 * VectorIndex.splitRows
        let dimension = 64
        var index = VectorIndex(dimension: dimension, precision: precision)
        for r in 0..<rows { index.set(row: Int32(r), vector: Self.randomFloats(dimension, seed: UInt64(77 + r))) }
        let query = Self.randomFloats(dimension, seed: 3)
        // Scattered and out of order, as nominees and candidates come.
        let list = (0..<(2 * VectorIndex.splitRows + 5)).map { Int32(($0 * 7919) % rows) }
        #expect(Set(list).count == list.count)
        for cached in [false, true] {
            var scores = [Float](repeating: .nan, count: rows)
            index.exactScores(for: query, rows: list, into: &scores, cached: cached)
            for r in list { #expect(scores[Int(r)] == index.exactScore(for: query, row: r), "row \(r), cached \(cached)") }
            let untouched = Set(0..<rows).subtracting(list.map(Int.init))
            #expect(untouched.allSatisfy { scores[$0].isNaN })
        }
    }

    @Test("fp16 rows score as their fp32 conversions, over every row and over a list", arguments: [48, 256])
    func half(dimension: Int) {
        let rows = 131
        var index = VectorIndex(dimension: dimension, precision: .float16)
        var exact = VectorIndex(dimension: dimension, precision: .float32)
        for r in 0..<rows {
            var v = Self.randomFloats(dimension, seed: UInt64(1000 + r))
            index.set(row: Int32(r), vector: v)
            v = index.vector(at: Int32(r))  // the stored, rounded components
            exact.set(row: Int32(r), vector: v)
        }
        let query = Self.randomFloats(dimension, seed: 7)
        var a: [Float] = []
        var b: [Float] = []
        index.scores(for: query, into: &a)
        exact.scores(for: query, into: &b)
        #expect(a == b, "the same sums over the same values")
        var some = [Float](repeating: .nan, count: rows)
        index.exactScores(for: query, rows: [3, 130, 64], into: &some)
        #expect(some[3] == a[3] && some[130] == a[130] && some[64] == a[64])
        #expect(index.exactScore(for: query, row: 9) == a[9])
        // One row alone (the first, one inside, the last) as in a list, at either precision.
        var listed = [Float](repeating: .nan, count: rows)
        exact.exactScores(for: query, rows: [0, 9, 130], into: &listed)
        for r: Int32 in [0, 9, 130] {
            #expect(index.exactScore(for: query, row: r) == a[Int(r)])
            #expect(exact.exactScore(for: query, row: r) == listed[Int(r)])
        }
    }
}
