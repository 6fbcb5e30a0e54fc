/// What `sift-bench` needs to compare the vector scan with the memory-bandwidth bound of its
/// matrix: the size of the row buffer and one read of all or part of it. Package-internal: not API.
extension VectorIndex {
    /// Bytes of the row buffer (capacity × dimension × 4 or 2), free rows included: what one scan reads.
    package var matrixByteCount: Int { capacity * dimension * precision.bytesPerComponent }

    /// Reads rows `rows` of the buffer once — the BLAS dot product of that part of the buffer with
    /// itself, which streams every byte once at two flops per float, as the scan does — and
    /// returns the sum of squares (so that the read cannot be optimised away). Callers split the
    /// rows between threads to measure the bandwidth of several cores.
    /// - Complexity: O(rows.count · dimension); memory-bandwidth bound.
    package func streamRows(_ rows: Range<Int>) -> Float {
        precondition(precision == .float32, "the bound is measured on fp32 rows")
        precondition(rows.lowerBound >= 0 && rows.upperBound <= capacity, "rows \(rows) outside 0..<\(capacity)")
        guard !rows.isEmpty else { return 0 }
        return matrix.withUnsafeBufferPointer { m in
            let base = m.baseAddress! + rows.lowerBound * dimension
            return LinearAlgebra.dot(base, base, count: rows.count * dimension)
        }
    }

    /// Reads the whole buffer once on the calling thread (``streamRows(_:)`` of every row).
    package func streamMatrixOnce() -> Float { streamRows(0..<capacity) }

    /// Reads one byte of every 64 of the rows and of the int8 copy (a byte of every cache line
    /// and so of every page), returning their sum: makes every page of rows kept in a mapped
    /// snapshot resident, as a while of queries would, before memory is measured.
    package func touchEveryPage() -> UInt64 {
        func touch(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            stride(from: 0, to: bytes.count, by: 64).reduce(0) { $0 &+ UInt64(bytes[$1]) }
        }
        var sum = matrix.withUnsafeBytes(touch) &+ halves.withUnsafeBytes(touch)
        if let q = quantized { sum &+= q.codes.withUnsafeBytes(touch) &+ q.scales.withUnsafeBytes(touch) }
        return sum
    }
}
