import CSiftKernels

// The one file that talks to BLAS and to the scan kernels. On Linux BLAS is OpenBLAS (CBLAS
// module); on Apple platforms Accelerate provides the same CBLAS functions (not built or tested
// by our CI). The scan kernels (CSiftKernels, plain C with run-time dispatch to AVX2 and
// AVX-512) replace sgemv for one query on x86-64: OpenBLAS's sgemv ran at a third of the memory
// bandwidth on the benchmark machine (see Benchmarks/RESULTS.md).
#if canImport(Accelerate)
    import Accelerate
#else
    import CBLAS
#endif

/// Dense single-precision kernels over row-major matrices.
enum LinearAlgebra {
    /// `result[i] = Σ_j matrix[i, j] · vector[j]` for a `rows × columns` row-major matrix.
    /// - Complexity: O(rows · columns); memory-bandwidth bound.
    static func multiply(
        matrix: UnsafePointer<Float>, rows: Int, columns: Int, vector: UnsafePointer<Float>,
        into result: UnsafeMutablePointer<Float>
    ) {
        guard rows > 0, columns > 0 else { return }
        cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(rows), Int32(columns), 1, matrix, Int32(columns), vector, 1, 0, result, 1)
    }

    /// `C (m × n) = A (m × k) · Bᵀ` where `B` is `n × k`: a batch of queries against a matrix.
    /// - Complexity: O(m · n · k).
    static func multiplyTransposed(
        _ a: UnsafePointer<Float>, rows m: Int, _ b: UnsafePointer<Float>, rows n: Int, columns k: Int,
        into c: UnsafeMutablePointer<Float>
    ) {
        guard m > 0, n > 0, k > 0 else { return }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(n), Int32(k), 1, a, Int32(k), b, Int32(k), 0, c, Int32(n))
    }

    /// `result[i] = Σ_j matrix[i, j] · vector[j]`: one query against every row, at the memory
    /// bandwidth. On x86-64 the scan kernel, elsewhere ``multiply(matrix:rows:columns:vector:into:)``.
    static func rowDots(
        matrix: UnsafePointer<Float>, rows: Int, columns: Int, vector: UnsafePointer<Float>,
        into result: UnsafeMutablePointer<Float>
    ) {
        guard rows > 0, columns > 0 else { return }
        #if arch(x86_64)
            sift_scores_f32(matrix, rows, columns, vector, result)
        #else
            multiply(matrix: matrix, rows: rows, columns: columns, vector: vector, into: result)
        #endif
    }

    /// `result[r] = Σ_j matrix[r, j] · vector[j]` for each `r` in `rows` (written at `result[r]`,
    /// or at `result[i]` for `rows[i]` when `packed`).
    static func rowDots(
        matrix: UnsafePointer<Float>, columns: Int, rows: UnsafeBufferPointer<Int32>, vector: UnsafePointer<Float>,
        into result: UnsafeMutablePointer<Float>, packed: Bool = false
    ) {
        guard rows.count > 0, columns > 0 else { return }
        #if arch(x86_64)
            sift_scores_f32_rows(matrix, columns, rows.baseAddress!, rows.count, vector, result, packed ? 1 : 0)
        #else
            for (i, r) in rows.enumerated() { result[packed ? i : Int(r)] = dot(matrix + Int(r) * columns, vector, count: columns) }
        #endif
    }

    /// ``rowDots(matrix:rows:columns:vector:into:)`` over fp16 rows (binary16 bit patterns).
    static func halfRowDots(
        matrix: UnsafePointer<UInt16>, rows: Int, columns: Int, vector: UnsafePointer<Float>,
        into result: UnsafeMutablePointer<Float>
    ) {
        guard rows > 0, columns > 0 else { return }
        sift_scores_f16(matrix, rows, columns, vector, result)
    }

    /// ``rowDots(matrix:columns:rows:vector:into:packed:)`` over fp16 rows.
    static func halfRowDots(
        matrix: UnsafePointer<UInt16>, columns: Int, rows: UnsafeBufferPointer<Int32>, vector: UnsafePointer<Float>,
        into result: UnsafeMutablePointer<Float>, packed: Bool = false
    ) {
        guard rows.count > 0, columns > 0 else { return }
        sift_scores_f16_rows(matrix, columns, rows.baseAddress!, rows.count, vector, result, packed ? 1 : 0)
    }

    /// fp32 → fp16 bit patterns, rounded to nearest even.
    static func toHalf(_ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<UInt16>, count: Int) {
        sift_f32_to_f16(source, destination, count)
    }

    /// fp16 bit patterns → fp32, exact.
    static func fromHalf(_ source: UnsafePointer<UInt16>, into destination: UnsafeMutablePointer<Float>, count: Int) {
        sift_f16_to_f32(source, destination, count)
    }

    /// `result[r] = Float(Σ_j codes[r, j] · query[j]) · scales[r] · queryScale`, the integer sum exact.
    static func int8RowDots(
        codes: UnsafePointer<Int8>, scales: UnsafePointer<Float>, rows: Int, columns: Int,
        query: UnsafePointer<Int8>, queryScale: Float, into result: UnsafeMutablePointer<Float>
    ) {
        guard rows > 0, columns > 0 else { return }
        sift_scores_i8(codes, scales, rows, columns, query, queryScale, result)
    }

    /// `result[r] = (Σ_j code(r, j) · query[j]) · scales[r] · queryScale` over 4-bit rows of
    /// `columns` codes (`columns / 2` bytes a row, as ``codeNibbles(_:count:into:)`` writes them).
    @inline(__always)
    static func nibbleRowDots(
        codes: UnsafePointer<UInt8>, scales: UnsafePointer<Float>, rows: Int, columns: Int,
        query: UnsafePointer<Int8>, queryScale: Float, into result: UnsafeMutablePointer<Float>
    ) {
        guard rows > 0, columns > 0 else { return }
        sift_scores_u4(codes, scales, rows, columns, query, queryScale, result)
    }

    /// Codes `count` floats (an even number) as 4-bit codes ±7 scaled by their largest magnitude,
    /// component i in the low nibble of byte i and component i + count / 2 in its high nibble;
    /// returns the scale, 0 (and zero bytes) for a zero or non-finite vector.
    static func codeNibbles(_ source: UnsafePointer<Float>, count: Int, into codes: UnsafeMutablePointer<UInt8>) -> Float {
        sift_code_u4(source, count, codes)
    }

    /// Codes `count` floats as int8 scaled to ±127 by their largest magnitude (`roundf`, halves
    /// away from zero, as Swift's `rounded()`); returns the scale, 0 for a zero or non-finite vector.
    static func codeInt8(_ source: UnsafePointer<Float>, count: Int, into codes: UnsafeMutablePointer<Int8>) -> Float {
        sift_code_i8(source, count, codes)
    }

    /// The first index `i < count` with `x[i] >= threshold`, or `count`.
    @inline(__always)
    static func nextAtLeast(_ x: UnsafePointer<Float>, count: Int, _ threshold: Float) -> Int {
        count > 0 ? sift_next_at_least(x, count, threshold) : count
    }

    /// Every index `i < count` with `x[i] >= threshold` and `keep[i]` (false past its end), in
    /// ascending order, appended to `rows`: one SIMD pass (`sift_rows_at_least`), not a call
    /// per index found.
    static func rowsAtLeast(_ x: UnsafePointer<Float>, count: Int, _ threshold: Float, keep: [Bool], into rows: inout [Int32]) {
        guard count > 0 else { return }
        let room = 4096
        keep.withUnsafeBufferPointer { keep in
            keep.withMemoryRebound(to: UInt8.self) { keep in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: room) { found in
                    var start = 0
                    while start < count {
                        let n = sift_rows_at_least(x, count, threshold, keep.baseAddress, keep.count, found.baseAddress, room, &start)
                        rows.append(contentsOf: found[0..<n])
                    }
                }
            }
        }
    }

    /// `Σ x[i] · y[i]`.
    static func dot(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, count: Int) -> Float {
        cblas_sdot(Int32(count), x, 1, y, 1)
    }
}
