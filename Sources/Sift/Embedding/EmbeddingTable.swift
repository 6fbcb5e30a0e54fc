/// The bucket rows of a hashed n-gram model: `bucketCount × dimension` weights, either int8 with
/// one fp32 scale per row, or fp32. Backed by a memory-mapped model file or by owned memory.
final class EmbeddingTable: @unchecked Sendable {
    // Immutable after init and never written through: safe to share across threads.
    let dimension: Int
    let bucketCount: Int
    let quantization: ModelFileFormat.Quantization
    let rows: UnsafeRawPointer
    let scales: UnsafePointer<Float>?
    private let owner: AnyObject?
    private let owned: UnsafeMutableRawPointer?

    /// A view of a mapped file's sections (kept alive by `file`).
    init(
        file: MappedFile, dimension: Int, bucketCount: Int,
        quantization: ModelFileFormat.Quantization, layout: ModelFileFormat.Layout
    ) {
        self.dimension = dimension
        self.bucketCount = bucketCount
        self.quantization = quantization
        self.rows = file.base + layout.rowsOffset
        self.scales =
            quantization == .int8RowScaled
            ? (file.base + layout.scalesOffset).assumingMemoryBound(to: Float.self) : nil
        self.owner = file
        self.owned = nil
    }

    /// An owned table from full-precision weights (row-major), quantised when asked.
    init(weights: UnsafeBufferPointer<Float>, dimension: Int, bucketCount: Int,
         quantization: ModelFileFormat.Quantization) {
        precondition(weights.count == dimension * bucketCount, "weights must be buckets × dimension")
        self.dimension = dimension
        self.bucketCount = bucketCount
        self.quantization = quantization
        let rowBytes = bucketCount * dimension * quantization.bytesPerWeight
        let scaleBytes = quantization == .int8RowScaled ? bucketCount * 4 : 0
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, scaleBytes + rowBytes), alignment: 64)
        self.owned = memory
        self.owner = nil
        switch quantization {
        case .float32:
            memory.copyMemory(from: weights.baseAddress!, byteCount: rowBytes)
            self.rows = UnsafeRawPointer(memory)
            self.scales = nil
        case .int8RowScaled:
            let scales = memory.bindMemory(to: Float.self, capacity: bucketCount)
            let q = (memory + scaleBytes).bindMemory(to: Int8.self, capacity: bucketCount * dimension)
            for r in 0..<bucketCount {
                let row = weights.baseAddress! + r * dimension
                var maxAbs: Float = 0
                for j in 0..<dimension { maxAbs = max(maxAbs, abs(row[j])) }
                let scale = maxAbs / 127
                scales[r] = scale
                let inv = scale > 0 ? 1 / scale : 0
                for j in 0..<dimension {
                    q[r * dimension + j] = Int8(clamping: Int((row[j] * inv).rounded()))
                }
            }
            self.rows = UnsafeRawPointer(memory + scaleBytes)
            self.scales = UnsafePointer(scales)
        }
    }

    deinit { owned?.deallocate() }

    /// `acc += weight × row(bucket)`.
    /// - Complexity: O(dimension).
    @inline(__always)
    func accumulate(bucket: Int, weight: Float, into acc: UnsafeMutablePointer<Float>) {
        let d = dimension
        if let scales {
            let s = scales[bucket] * weight
            let row = rows.assumingMemoryBound(to: Int8.self) + bucket * d
            for j in 0..<d { acc[j] += Float(row[j]) * s }
        } else {
            let row = rows.assumingMemoryBound(to: Float.self) + bucket * d
            for j in 0..<d { acc[j] += row[j] * weight }
        }
    }

    /// Row `bucket` in full precision (dequantised for int8).
    func row(_ bucket: Int) -> [Float] {
        var out = [Float](repeating: 0, count: dimension)
        out.withUnsafeMutableBufferPointer { accumulate(bucket: bucket, weight: 1, into: $0.baseAddress!) }
        return out
    }

    /// The raw bytes of the rows and the scales, for writing a model file.
    func withSections<R>(_ body: (UnsafeBufferPointer<Float>?, UnsafeRawBufferPointer) -> R) -> R {
        let rowBytes = UnsafeRawBufferPointer(
            start: rows, count: bucketCount * dimension * quantization.bytesPerWeight)
        let s = scales.map { UnsafeBufferPointer(start: $0, count: bucketCount) }
        return body(s, rowBytes)
    }
}
