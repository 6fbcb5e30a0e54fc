import CSiftKernels

/// The bucket rows of a hashed n-gram model: `bucketCount` rows of `dimension` weights, either
/// int8 with an fp32 scale stored just before each row, or fp32. Backed by a memory-mapped model
/// file or by owned memory. (The bytes are little-endian, as on every platform Sift runs on.)
final class EmbeddingTable: @unchecked Sendable {
    // Immutable after init and never written through: safe to share across threads.
    let dimension: Int
    let bucketCount: Int
    let quantization: ModelFileFormat.Quantization
    /// Bytes from one row to the next.
    let stride: Int
    let rows: UnsafeRawPointer
    private let owner: AnyObject?
    private let owned: UnsafeMutableRawPointer?

    /// A view of a mapped file's rows section (kept alive by `file`).
    init(
        file: MappedFile, dimension: Int, bucketCount: Int,
        quantization: ModelFileFormat.Quantization, layout: ModelFileFormat.Layout
    ) {
        self.dimension = dimension
        self.bucketCount = bucketCount
        self.quantization = quantization
        self.stride = quantization.rowStride(dimension: dimension)
        self.rows = file.base + layout.rowsOffset
        self.owner = file
        self.owned = nil
    }

    /// An owned table from full-precision weights (row-major), quantised when asked: each int8
    /// row gets scale max|w| / 127 and weights round(w / scale).
    init(
        weights: UnsafeBufferPointer<Float>, dimension: Int, bucketCount: Int,
        quantization: ModelFileFormat.Quantization
    ) {
        precondition(weights.count == dimension * bucketCount, "weights must be buckets × dimension")
        self.dimension = dimension
        self.bucketCount = bucketCount
        self.quantization = quantization
        let stride = quantization.rowStride(dimension: dimension)
        self.stride = stride
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, stride * bucketCount), alignment: 64)
        self.owned = memory
        self.owner = nil
        self.rows = UnsafeRawPointer(memory)
        switch quantization {
        case .float32:
            memory.copyMemory(from: weights.baseAddress!, byteCount: stride * bucketCount)
        case .int8RowScaled:
            for r in 0..<bucketCount {
                let row = weights.baseAddress! + r * dimension
                var maxAbs: Float = 0
                for j in 0..<dimension { maxAbs = max(maxAbs, abs(row[j])) }
                let scale = maxAbs / 127
                let inv = scale > 0 ? 1 / scale : 0
                let dst = memory + r * stride
                dst.storeBytes(of: scale, as: Float.self)
                let q = (dst + 4).assumingMemoryBound(to: Int8.self)
                for j in 0..<dimension {
                    q[j] = Int8(clamping: Int((row[j] * inv).rounded()))
                }
            }
        }
    }

    deinit { owned?.deallocate() }

    /// A bucket and the weight its row is added with (`bucket`, `weight`).
    typealias Term = sift_term

    /// `acc += Σ weight × row(bucket)` over `terms`. Rows are added four at a time, so that four
    /// cache misses are in flight at once (the table is far larger than the caches and a random
    /// row is a miss: memory latency, not arithmetic, bounds this loop).
    /// - Complexity: O(terms × dimension).
    @inline(__always)
    func accumulate(_ terms: UnsafeBufferPointer<Term>, into acc: UnsafeMutablePointer<Float>) {
        let d = dimension
        let n = terms.count
        let stride = self.stride
        var i = 0
        switch quantization {
        case .int8RowScaled:
            // In C (`CSiftKernels`): AVX2 where the CPU has it, chosen at run time, with the
            // next four rows prefetched; the same sums, in the same order, as the fp32 path.
            sift_accumulate_int8_rows(acc, rows, stride, terms.baseAddress, n, d)
        case .float32:
            @inline(__always) func row(_ k: Int) -> (UnsafePointer<Float>, Float) {
                ((rows + Int(terms[k].bucket) * stride).assumingMemoryBound(to: Float.self), terms[k].weight)
            }
            while i + 4 <= n {
                let (q0, s0) = row(i)
                let (q1, s1) = row(i + 1)
                let (q2, s2) = row(i + 2)
                let (q3, s3) = row(i + 3)
                for j in 0..<d { acc[j] += (q0[j] * s0 + q1[j] * s1) + (q2[j] * s2 + q3[j] * s3) }
                i += 4
            }
            while i < n {
                let (q, s) = row(i)
                for j in 0..<d { acc[j] += q[j] * s }
                i += 1
            }
        }
    }

    /// Row `bucket` in full precision (dequantised for int8).
    func row(_ bucket: Int) -> [Float] {
        var out = [Float](repeating: 0, count: dimension)
        var term = Term(bucket: Int32(bucket), weight: 1)
        out.withUnsafeMutableBufferPointer { o in
            withUnsafePointer(to: &term) { accumulate(UnsafeBufferPointer(start: $0, count: 1), into: o.baseAddress!) }
        }
        return out
    }

    /// The raw bytes of the rows section, for writing a model file.
    func withRowBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        body(UnsafeRawBufferPointer(start: rows, count: bucketCount * stride))
    }
}
