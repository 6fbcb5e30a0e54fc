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

    @Test("fp32 row dots equal a plain loop, over every row and over a list of rows", arguments: [8, 48, 64, 256, 264])
    func float32(dimension: Int) {
        let rows = 203
        let matrix = Self.randomFloats(rows * dimension, seed: UInt64(dimension))
        let query = Self.randomFloats(dimension, seed: 99)
        var all = [Float](repeating: .nan, count: rows)
        matrix.withUnsafeBufferPointer { m in
            query.withUnsafeBufferPointer { q in
                all.withUnsafeMutableBufferPointer { o in
                    LinearAlgebra.rowDots(matrix: m.baseAddress!, rows: rows, columns: dimension, vector: q.baseAddress!, into: o.baseAddress!)
                }
            }
        }
        let picked: [Int32] = [202, 0, 17, 17, 101, 5]
        var some = [Float](repeating: .nan, count: rows)
        matrix.withUnsafeBufferPointer { m in
            query.withUnsafeBufferPointer { q in
                some.withUnsafeMutableBufferPointer { o in
                    picked.withUnsafeBufferPointer { p in
                        LinearAlgebra.rowDots(matrix: m.baseAddress!, columns: dimension, rows: p, vector: q.baseAddress!, into: o.baseAddress!)
                    }
                }
            }
        }
        for r in 0..<rows {
            var reference: Double = 0
            for j in 0..<dimension { reference += Double(matrix[r * dimension + j]) * Double(query[j]) }
            #expect(abs(Double(all[r]) - reference) < 1e-5 * Double(dimension), "row \(r)")
            if picked.contains(Int32(r)) { #expect(some[r] == all[r], "row \(r): the list kernel sums as the scan does") } else { #expect(some[r].isNaN) }
        }
    }

    @Test("int8 row dots equal the exact integer sums, scaled", arguments: [64, 96, 256, 1024])
    func int8(dimension: Int) {
        let rows = 37
        var rng = SplitMix64(seed: UInt64(dimension) &* 31)
        // The full range, extremes included.
        let codes = (0..<(rows * dimension)).map { i in i % 97 == 0 ? Int8.min : i % 89 == 0 ? Int8.max : Int8(truncatingIfNeeded: rng.next()) }
        let query = (0..<dimension).map { j in j % 13 == 0 ? Int8(-127) : Int8(truncatingIfNeeded: rng.next() >> 7) }
        let scales = (0..<rows).map { Float($0 + 1) / 512 }
        var out = [Float](repeating: .nan, count: rows)
        codes.withUnsafeBufferPointer { c in
            scales.withUnsafeBufferPointer { s in
                query.withUnsafeBufferPointer { q in
                    out.withUnsafeMutableBufferPointer { o in
                        LinearAlgebra.int8RowDots(codes: c.baseAddress!, scales: s.baseAddress!, rows: rows, columns: dimension, query: q.baseAddress!, queryScale: 0.25, into: o.baseAddress!)
                    }
                }
            }
        }
        for r in 0..<rows {
            var sum: Int32 = 0
            for j in 0..<dimension { sum += Int32(codes[r * dimension + j]) * Int32(query[j]) }
            #expect(out[r] == Float(sum) * scales[r] * 0.25, "row \(r)")
        }
    }
}
