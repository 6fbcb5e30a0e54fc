/// An int8 copy of the vector matrix for a faster, approximate scan: each row is scaled by
/// its largest magnitude to ±127. A quarter of the fp32 bytes stream through the scan; the
/// best candidates are then re-scored exactly against the fp32 rows.
public struct QuantizedRows: Sendable {
    public let dimension: Int
    private(set) var codes: [Int8] = []
    private(set) var scales: [Float] = []

    public init(dimension: Int) { self.dimension = dimension }

    /// Rows in the buffer, free ones included.
    public var capacity: Int { scales.count }

    /// Quantises `vector` into `row`. - Complexity: O(dimension), amortised.
    public mutating func set(row: Int32, vector: [Float]) {
        let r = Int(row)
        if r >= scales.count {
            let grow = r - scales.count + 1
            scales.append(contentsOf: repeatElement(0, count: grow))
            codes.append(contentsOf: repeatElement(0, count: grow * dimension))
        }
        let peak = vector.reduce(Float(0)) { max($0, abs($1)) }
        let scale = peak > 0 ? peak / 127 : 0
        scales[r] = scale
        codes.withUnsafeMutableBufferPointer { c in
            for j in 0..<dimension {
                c[r * dimension + j] = scale > 0 ? Int8(clamping: Int((vector[j] / scale).rounded())) : 0
            }
        }
    }

    /// Zeroes `row`. - Complexity: O(dimension).
    public mutating func remove(row: Int32) {
        let r = Int(row)
        guard r < scales.count else { return }
        scales[r] = 0
        codes.withUnsafeMutableBufferPointer { c in
            for j in 0..<dimension { c[r * dimension + j] = 0 }
        }
    }

    public mutating func removeAll() {
        codes.removeAll()
        scales.removeAll()
    }

    /// Approximate dot products of `query` with every row, into `scores[0..<capacity]`.
    /// - Complexity: O(capacity · dimension) over int8 data.
    public func approximateScores(for query: [Float], into scores: inout [Float]) {
        precondition(query.count == dimension && dimension % 16 == 0)
        if scores.count < capacity { scores += repeatElement(0, count: capacity - scores.count) }
        let peak = query.reduce(Float(0)) { max($0, abs($1)) }
        guard peak > 0 else {
            for r in 0..<capacity { scores[r] = 0 }
            return
        }
        let qScale = peak / 127
        var q32 = [Int32](repeating: 0, count: dimension)
        for j in 0..<dimension { q32[j] = Int32(clamping: Int((query[j] / qScale).rounded())) }
        let blocks = dimension / 16
        let rows = capacity
        codes.withUnsafeBufferPointer { c in
            q32.withUnsafeBufferPointer { q in
                scales.withUnsafeBufferPointer { s in
                    scores.withUnsafeMutableBufferPointer { out in
                        let qRaw = UnsafeRawPointer(q.baseAddress!)
                        let cRaw = UnsafeRawPointer(c.baseAddress!)
                        for r in 0..<rows {
                            // Widen int8 → int32 lane-wise (one sign-extending load per 16
                            // codes) and multiply-accumulate; |code · q| ≤ 127², no overflow.
                            var acc = SIMD16<Int32>()
                            let rowBase = cRaw + r * dimension
                            for b in 0..<blocks {
                                let codes8 = rowBase.loadUnaligned(fromByteOffset: b * 16, as: SIMD16<Int8>.self)
                                let query32 = qRaw.loadUnaligned(fromByteOffset: b * 64, as: SIMD16<Int32>.self)
                                acc &+= SIMD16<Int32>(truncatingIfNeeded: codes8) &* query32
                            }
                            out[r] = Float(acc.wrappedSum()) * s[r] * qScale
                        }
                    }
                }
            }
        }
    }
}

extension VectorIndex {
    /// The exact cosines of `query` with `rows`, each written to `scores[row]` — the same values
    /// as ``exactScore(for:row:)``. - Complexity: O(rows.count · dimension).
    public func exactScores(for query: [Float], rows: [Int32], into scores: inout [Float]) {
        precondition(query.count == dimension)
        let dimension = self.dimension
        matrix.withUnsafeBufferPointer { m in
            query.withUnsafeBufferPointer { q in
                scores.withUnsafeMutableBufferPointer { out in
                    for row in rows {
                        out[Int(row)] = LinearAlgebra.dot(m.baseAddress! + Int(row) * dimension, q.baseAddress!, count: dimension)
                    }
                }
            }
        }
    }

    /// The exact cosine of `query` with one row. - Complexity: O(dimension).
    public func exactScore(for query: [Float], row: Int32) -> Float {
        matrix.withUnsafeBufferPointer { m in
            query.withUnsafeBufferPointer { q in
                LinearAlgebra.dot(m.baseAddress! + Int(row) * dimension, q.baseAddress!, count: dimension)
            }
        }
    }
}
