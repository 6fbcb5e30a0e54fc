import Foundation

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
        precondition(query.count == dimension)
        if scores.count < capacity { scores += repeatElement(0, count: capacity - scores.count) }
        let peak = query.reduce(Float(0)) { max($0, abs($1)) }
        guard peak > 0 else {
            for r in 0..<capacity { scores[r] = 0 }
            return
        }
        let qScale = peak / 127
        var q8 = [Int8](repeating: 0, count: dimension)
        for j in 0..<dimension { q8[j] = Int8(clamping: Int((query[j] / qScale).rounded())) }
        let rows = capacity, dimension = self.dimension
        codes.withUnsafeBufferPointer { c in
            q8.withUnsafeBufferPointer { q in
                scales.withUnsafeBufferPointer { s in
                    scores.withUnsafeMutableBufferPointer { out in
                        let c = SharedPointer(c.baseAddress!), q = SharedPointer(q.baseAddress!)
                        let s = SharedPointer(s.baseAddress!), out = SharedPointer(out.baseAddress!)
                        // Exact int32 sums of int8 products (|code · q| ≤ 127²), then scaled.
                        VectorIndex.forEachChunk(rows: rows, bytesPerRow: dimension) { range in
                            LinearAlgebra.int8RowDots(
                                codes: c.pointer + range.lowerBound * dimension, scales: s.pointer + range.lowerBound,
                                rows: range.count, columns: dimension, query: q.pointer, queryScale: qScale,
                                into: out.pointer + range.lowerBound)
                        }
                    }
                }
            }
        }
    }
}
