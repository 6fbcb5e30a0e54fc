// The one file that talks to BLAS. On Linux that is OpenBLAS (CBLAS module); on Apple
// platforms Accelerate provides the same CBLAS functions (not built or tested by our CI).
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

    /// `Σ x[i] · y[i]`.
    static func dot(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, count: Int) -> Float {
        cblas_sdot(Int32(count), x, 1, y, 1)
    }
}
