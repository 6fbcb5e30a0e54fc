/// What `sift-bench` needs to compare the vector scan with the memory-bandwidth bound of its
/// matrix: the size of the row buffer and one read of all of it. Package-internal: not API.
extension VectorIndex {
    /// Bytes of the row buffer (capacity × dimension × 4), free rows included: what one scan reads.
    package var matrixByteCount: Int { capacity * dimension * MemoryLayout<Float>.stride }

    /// Reads the whole row buffer once — the BLAS dot product of the buffer with itself, which
    /// streams every byte once and does two flops per float, as the scan does — and returns the
    /// sum of squares (so that the read cannot be optimised away).
    /// - Complexity: O(capacity · dimension); memory-bandwidth bound.
    package func streamMatrixOnce() -> Float {
        matrix.withUnsafeBufferPointer { m in
            guard let base = m.baseAddress, !m.isEmpty else { return 0 }
            return LinearAlgebra.dot(base, base, count: m.count)
        }
    }
}
