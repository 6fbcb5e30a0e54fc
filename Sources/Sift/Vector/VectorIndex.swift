/// Every item's vector in one contiguous row-major buffer, row numbers owned by the
/// ``IdentifierTable``; exact cosine scores for all rows with one BLAS `sgemv`.
///
/// Vectors are unit length, so the dot product is the cosine. Free rows hold zeros.
public struct VectorIndex: Sendable {
    public let dimension: Int
    private(set) var matrix: [Float] = []
    private(set) var occupied: [Bool] = []
    public private(set) var count = 0
    /// The int8 mirror used for the approximate scan, when enabled.
    public private(set) var quantized: QuantizedRows?

    /// - Parameter quantized: also keep an int8 copy (256 more bytes a row at 256 dimensions)
    ///   for the approximate scan with exact re-scoring; needs a dimension divisible by 32.
    public init(dimension: Int, quantized: Bool = false) {
        precondition(dimension > 0)
        precondition(!quantized || dimension % 32 == 0, "the quantized scan needs a dimension divisible by 32")
        self.dimension = dimension
        self.quantized = quantized ? QuantizedRows(dimension: dimension) : nil
    }

    /// An index over `matrix` (row-major, `occupied.count` rows; free rows hold zeros), as a
    /// snapshot recorded it; with `quantized`, its int8 copy is made from it.
    /// - Complexity: O(rows · dimension) with `quantized`, else O(rows).
    init(dimension: Int, quantized: Bool, matrix: [Float], occupied: [Bool]) {
        self.init(dimension: dimension, quantized: quantized)
        precondition(matrix.count == occupied.count * dimension)
        self.matrix = matrix
        self.occupied = occupied
        self.count = occupied.lazy.filter { $0 }.count
        if quantized, !occupied.isEmpty {
            for (r, o) in occupied.enumerated() where o {
                self.quantized!.set(row: Int32(r), vector: Array(matrix[(r * dimension)..<((r + 1) * dimension)]))
            }
            // The same capacity as rows set one by one: a trailing free row quantises to zeros.
            if !occupied[occupied.count - 1] {
                self.quantized!.set(row: Int32(occupied.count - 1), vector: [Float](repeating: 0, count: dimension))
            }
        }
    }

    /// Number of rows in the buffer, free ones included.
    public var capacity: Int { occupied.count }

    public func contains(row: Int32) -> Bool { Int(row) < occupied.count && occupied[Int(row)] }

    /// Stores `vector` at `row`, growing the buffer as needed.
    /// - Complexity: O(dimension), amortised.
    public mutating func set(row: Int32, vector: [Float]) {
        precondition(vector.count == dimension, "vector has \(vector.count) components, index has \(dimension)")
        let r = Int(row)
        if r >= occupied.count {
            let grow = r - occupied.count + 1
            occupied.append(contentsOf: repeatElement(false, count: grow))
            matrix.append(contentsOf: repeatElement(0, count: grow * dimension))
        }
        if !occupied[r] { count += 1 }
        occupied[r] = true
        quantized?.set(row: row, vector: vector)
        matrix.withUnsafeMutableBufferPointer { m in
            for j in 0..<dimension { m[r * dimension + j] = vector[j] }
        }
    }

    /// Clears `row`. - Complexity: O(dimension).
    public mutating func remove(row: Int32) {
        let r = Int(row)
        guard r < occupied.count, occupied[r] else { return }
        occupied[r] = false
        count -= 1
        quantized?.remove(row: row)
        matrix.withUnsafeMutableBufferPointer { m in
            for j in 0..<dimension { m[r * dimension + j] = 0 }
        }
    }

    public mutating func removeAll() {
        matrix.removeAll()
        occupied.removeAll()
        count = 0
        quantized?.removeAll()
    }

    /// The vector at `row`.
    public func vector(at row: Int32) -> [Float] {
        let start = Int(row) * dimension
        return Array(matrix[start..<(start + dimension)])
    }

    /// Cosine of `query` with every row (free rows score 0), into `scores[0..<capacity]`.
    /// - Complexity: O(capacity · dimension), one pass over the buffer.
    public func scores(for query: [Float], into scores: inout [Float]) {
        precondition(query.count == dimension)
        if scores.count < capacity { scores += repeatElement(0, count: capacity - scores.count) }
        let rows = capacity
        matrix.withUnsafeBufferPointer { m in
            query.withUnsafeBufferPointer { q in
                scores.withUnsafeMutableBufferPointer { s in
                    LinearAlgebra.multiply(matrix: m.baseAddress!, rows: rows, columns: dimension, vector: q.baseAddress!, into: s.baseAddress!)
                }
            }
        }
    }

    /// Cosines of a batch of queries (row-major `queries.count / dimension` × dimension) with
    /// every row: result is queries × capacity, row-major. - Complexity: O(q · capacity · dimension).
    public func scores(forBatch queries: [Float]) -> [Float] {
        let q = queries.count / dimension
        var result = [Float](repeating: 0, count: q * capacity)
        guard capacity > 0, q > 0 else { return result }
        let rows = capacity
        queries.withUnsafeBufferPointer { a in
            matrix.withUnsafeBufferPointer { b in
                result.withUnsafeMutableBufferPointer { c in
                    LinearAlgebra.multiplyTransposed(a.baseAddress!, rows: q, b.baseAddress!, rows: rows, columns: dimension, into: c.baseAddress!)
                }
            }
        }
        return result
    }

    /// Verifies the occupied rows are exactly `liveRows`.
    public func checkInvariants(liveRows: Set<Int32>) throws(InvariantViolation) {
        var live = Set<Int32>()
        for (r, o) in occupied.enumerated() where o { live.insert(Int32(r)) }
        if live != liveRows {
            throw InvariantViolation("vector index: rows \(live.symmetricDifference(liveRows).sorted().prefix(5)) disagree with the identifier table")
        }
        if live.count != count { throw InvariantViolation("vector index: count \(count) ≠ \(live.count)") }
    }
}
