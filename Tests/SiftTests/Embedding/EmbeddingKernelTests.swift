import CSiftKernels
import Foundation
import Testing

@testable import Sift

@Suite("Embedding kernel (C, AVX-512 or AVX2 chosen at run time)")
struct EmbeddingKernelTests {
    /// The documented sums in Swift: rows four at a time, `(p0 + p1) + (p2 + p3)`, then one by one.
    func reference(rows: [UInt8], stride: Int, terms: [sift_term], dimension d: Int) -> [Float] {
        var acc = [Float](repeating: 0.5, count: d)
        func row(_ k: Int) -> (Int, Float) {
            let base = Int(terms[k].bucket) * stride
            let scale = rows.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: base, as: Float.self) }
            return (base + 4, scale * terms[k].weight)
        }
        func q(_ at: Int) -> Float { Float(Int8(bitPattern: rows[at])) }
        var i = 0
        while i + 4 <= terms.count {
            let (b0, s0) = row(i)
            let (b1, s1) = row(i + 1)
            let (b2, s2) = row(i + 2)
            let (b3, s3) = row(i + 3)
            for j in 0..<d { acc[j] += (q(b0 + j) * s0 + q(b1 + j) * s1) + (q(b2 + j) * s2 + q(b3 + j) * s3) }
            i += 4
        }
        while i < terms.count {
            let (b, s) = row(i)
            for j in 0..<d { acc[j] += q(b + j) * s }
            i += 1
        }
        return acc
    }

    @Test("Every path gives the same bits as the documented sums", arguments: [256, 13, 8, 24, 40])
    func pathsAgreeBitForBit(dimension: Int) {
        var rng = SplitMix64(seed: 20_261_203 &+ UInt64(dimension))
        let buckets = 97
        let stride = 4 + dimension
        var rows = [UInt8](repeating: 0, count: buckets * stride)
        for r in 0..<buckets {
            let scale = Float(rng.next() % 1000 + 1) / 7919
            withUnsafeBytes(of: scale) { for k in 0..<4 { rows[r * stride + k] = $0[k] } }
            for j in 0..<dimension { rows[r * stride + 4 + j] = UInt8(truncatingIfNeeded: rng.next()) }
        }
        for count in [0, 1, 3, 4, 5, 11, 64] {
            let terms = (0..<count).map { _ in
                sift_term(bucket: Int32(rng.next() % UInt64(buckets)), weight: Float(Int(rng.next() % 2001) - 1000) / 333)
            }
            let expected = reference(rows: rows, stride: stride, terms: terms, dimension: dimension)
            var dispatched = [Float](repeating: 0.5, count: dimension)
            var portable = dispatched
            rows.withUnsafeBytes { r in
                terms.withUnsafeBufferPointer { t in
                    sift_accumulate_int8_rows(&dispatched, r.baseAddress, stride, t.baseAddress, count, dimension)
                    sift_accumulate_int8_rows_portable(
                        &portable, r.baseAddress!.assumingMemoryBound(to: UInt8.self), stride, t.baseAddress, count, dimension)
                }
            }
            #expect(dispatched.map(\.bitPattern) == expected.map(\.bitPattern), "dispatched (avx2: \(sift_kernels_avx2())), \(count) terms")
            #expect(portable.map(\.bitPattern) == expected.map(\.bitPattern), "portable, \(count) terms")
            // Each kernel family this machine has: portable, AVX2, AVX-512.
            for level: Int32 in [0, 2, 3] {
                var capped = [Float](repeating: 0.5, count: dimension)
                rows.withUnsafeBytes { r in
                    terms.withUnsafeBufferPointer { t in
                        sift_accumulate_int8_rows_at_most(level, &capped, r.baseAddress, stride, t.baseAddress, count, dimension)
                    }
                }
                #expect(capped.map(\.bitPattern) == expected.map(\.bitPattern), "kernel level \(level), \(count) terms")
            }
        }
    }
}

@Suite("Int8 scan split across cores")
struct Int8ScanSplitTests {
    @Test("Above the parallel threshold the split scan, alone or beside other work, gives the same scores as one pass")
    func parallelScanMatchesSerial() {
        var rng = SplitMix64(seed: 99)
        let d = 16
        let n = 300_000  // over one 4 MB chunk of codes (VectorIndex.forEachChunk)
        var rows = QuantizedRows(dimension: d)
        for r in 0..<n { rows.set(row: Int32(r), vector: (0..<d).map { _ in Float(Int(rng.next() % 2001) - 1000) / 1000 }) }
        let query = (0..<d).map { _ in Float(Int(rng.next() % 2001) - 1000) / 1000 }
        var split = [Float]()
        rows.approximateScores(for: query, into: &split)
        let peak = query.map(abs).max()!
        let qScale = peak / 127
        let q8 = query.map { Int8(clamping: Int(($0 / qScale).rounded())) }
        var serial = [Float](repeating: 0, count: n)
        let (codes, scales) = (rows.codes.array, rows.scales.array)
        for r in 0..<n {
            var sum: Int32 = 0
            for j in 0..<d { sum += Int32(codes[r * d + j]) * Int32(q8[j]) }
            serial[r] = Float(sum) * scales[r] * qScale
        }
        #expect(split.count == n)
        #expect(split.map(\.bitPattern) == serial.map(\.bitPattern))

        // Beside other work (a hybrid query's keyword walk): the same scores, the work done once.
        var beside = [Float]()
        var runs = 0
        rows.approximateScores(for: query, into: &beside) { runs += 1 }
        #expect(runs == 1)
        #expect(beside.map(\.bitPattern) == serial.map(\.bitPattern))
        var zero = [Float](repeating: 1, count: n)
        rows.approximateScores(for: [Float](repeating: 0, count: d), into: &zero) { runs += 1 }
        #expect(runs == 2, "a zero query still runs the work beside it")
        #expect(zero.allSatisfy { $0 == 0 })
    }
}
