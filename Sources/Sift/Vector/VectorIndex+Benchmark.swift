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
        precondition(!matrix.hasChangedRows, "the bound is measured on rows of one buffer")
        return matrix.withBase { m in
            let base = m.baseAddress! + rows.lowerBound * dimension
            return LinearAlgebra.dot(base, base, count: rows.count * dimension)
        }
    }

    /// Reads the whole buffer once on the calling thread (``streamRows(_:)`` of every row).
    package func streamMatrixOnce() -> Float { streamRows(0..<capacity) }

    /// Reads one byte of every 64 of what queries read in place — the quantized and re-scoring
    /// copies, and the rows when `rowsInPlace` — (a byte of every cache line and so of every
    /// page), returning their sum: makes every page of them kept in a mapped snapshot resident,
    /// as a while of queries would, before memory is measured. Queries that go through the
    /// re-scoring copy read rows from the file instead (``storedRows(_:)``): pass false then.
    package func touchEveryPage(rowsInPlace: Bool = true) -> UInt64 {
        func touch(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            stride(from: 0, to: bytes.count, by: 64).reduce(0) { $0 &+ UInt64(bytes[$1]) }
        }
        var sum: UInt64 = 0
        if rowsInPlace {
            for touched in [matrix.withBase { touch(UnsafeRawBufferPointer($0)) }, halves.withBase { touch(UnsafeRawBufferPointer($0)) }] {
                sum &+= touched
            }
        }
        sum &+= matrix.withChanged { touch(UnsafeRawBufferPointer($0)) } &+ halves.withChanged { touch(UnsafeRawBufferPointer($0)) }
        for copy in [quantized, rescoring].compactMap({ $0 }) {
            sum &+= copy.codes.withUnsafeBytes(touch) &+ copy.scales.withUnsafeBytes(touch)
        }
        return sum
    }

    /// Cosines of a batch of queries (row-major `queries.count / dimension` × dimension) with
    /// every row: result is queries × capacity, row-major (BLAS `sgemm` over fp32 rows of one
    /// buffer; one scan per query otherwise). - Complexity: O(q · capacity · dimension).
    package func scores(forBatch queries: [Float]) -> [Float] {
        let q = queries.count / dimension
        var result = [Float](repeating: 0, count: q * capacity)
        guard capacity > 0, q > 0 else { return result }
        let rows = capacity
        switch precision {
        case .float32 where !matrix.hasChangedRows:
            queries.withUnsafeBufferPointer { a in
                matrix.withBase { b in
                    result.withUnsafeMutableBufferPointer { c in
                        LinearAlgebra.multiplyTransposed(
                            a.baseAddress!, rows: q, b.baseAddress!, rows: rows, columns: dimension, into: c.baseAddress!)
                    }
                }
            }
        case .float16, .float32:
            var one: [Float] = []
            for i in 0..<q {
                scores(for: Array(queries[(i * dimension)..<((i + 1) * dimension)]), into: &one)
                result.replaceSubrange((i * rows)..<((i + 1) * rows), with: one.prefix(rows))
            }
        }
        return result
    }
}
