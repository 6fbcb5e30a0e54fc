import Foundation

/// Every item's vector in one contiguous row-major buffer, row numbers owned by the
/// ``IdentifierTable``; exact cosine scores for all rows in one pass (the scan kernel on x86-64,
/// BLAS `sgemv` elsewhere), split over the cores when the buffer is large.
///
/// Vectors are unit length, so the dot product is the cosine. Free rows hold zeros.
package struct VectorIndex: Sendable {
    package let dimension: Int
    package let precision: VectorPrecision
    /// The rows, when ``precision`` is `.float32`.
    var matrix: RowStore<Float>
    /// The rows as binary16 bit patterns, when ``precision`` is `.float16`.
    var halves: RowStore<UInt16>
    var occupied: [Bool] = []
    package internal(set) var count = 0
    /// The quantized (int8 or 4-bit) mirror used for the approximate scan, when enabled.
    package internal(set) var quantized: QuantizedRows?
    /// With ``quantized``, an int8 copy of every component that re-scores the scan's candidates
    /// (``rescores(for:rows:into:cached:)``), so that the rows are read only for the best few.
    package internal(set) var rescoring: QuantizedRows?

    /// - Parameters:
    ///   - quantized: also keep a quantized copy (256 more bytes a row at 256 dimensions, int8
    ///     codes of every component) for the approximate scan with exact re-scoring; needs a
    ///     dimension divisible by 32.
    ///   - quantizedComponents: with `quantized`, code only the first this many components of
    ///     each row (a multiple of 32; see ``QuantizedRows``); nil codes all of them.
    ///   - quantizedBits: with `quantized`, 8 (int8 codes) or 4 (4-bit codes).
    ///   - precision: how the rows (and so the exact scores) are kept.
    package init(
        dimension: Int, quantized: Bool = false, quantizedComponents: Int? = nil, quantizedBits: Int = 8,
        precision: VectorPrecision = .float32
    ) {
        let coding = quantized ? QuantizedCoding(components: quantizedComponents ?? dimension, bits: quantizedBits) : nil
        self.init(dimension: dimension, coding: coding, precision: precision)
    }

    /// - Parameter coding: what the quantized copy codes; nil: no copy.
    init(dimension: Int, coding: QuantizedCoding?, precision: VectorPrecision) {
        precondition(dimension > 0)
        precondition(coding == nil || dimension % 32 == 0, "the quantized scan needs a dimension divisible by 32")
        self.dimension = dimension
        self.precision = precision
        self.matrix = RowStore(width: dimension)
        self.halves = RowStore(width: dimension)
        self.quantized = coding.map { QuantizedRows(dimension: dimension, components: $0.components, bits: $0.bits) }
        self.rescoring = coding.map { _ in QuantizedRows.rescoring(dimension: dimension) }
    }

    /// An index over `matrix` (row-major, `occupied.count` rows; free rows hold zeros), as a
    /// snapshot recorded it (its pages, mapped, or a copy); with `coding`, its quantized copy is
    /// `restored` when that codes as `coding` says, else made from the rows.
    /// - Complexity: O(rows · dimension) when the quantized copy is made, else O(rows).
    init(
        dimension: Int, coding: QuantizedCoding?, matrix: RowBuffer<Float>, occupied: [Bool], quantized restored: QuantizedRows? = nil,
        rescoring: QuantizedRows? = nil, checks: RowChecks? = nil
    ) {
        self.init(dimension: dimension, coding: coding, precision: .float32)
        precondition(matrix.count == occupied.count * dimension)
        self.matrix = RowStore(width: dimension, base: matrix, checks: checks)
        self.occupied = occupied
        finishRestoring(restored, rescoring)
    }

    /// An index over fp16 rows (binary16 bit patterns, row-major, `occupied.count` rows; free
    /// rows hold zeros), as a snapshot recorded them (its pages, mapped, or a copy); with
    /// `coding`, its quantized copy is `restored` when that codes as `coding` says, else made
    /// from them.
    /// - Complexity: O(rows · dimension) when the quantized copy is made, else O(rows).
    init(
        dimension: Int, coding: QuantizedCoding?, halves: RowBuffer<UInt16>, occupied: [Bool], quantized restored: QuantizedRows? = nil,
        rescoring: QuantizedRows? = nil, checks: RowChecks? = nil
    ) {
        self.init(dimension: dimension, coding: coding, precision: .float16)
        precondition(halves.count == occupied.count * dimension)
        self.halves = RowStore(width: dimension, base: halves, checks: checks)
        self.occupied = occupied
        finishRestoring(restored, rescoring)
    }

    /// The count and the two copies of restored rows: each the `restored` one when it codes as
    /// this index's does (a row each), else coded from the rows — whose mapped pages that pass
    /// read then leave the process's resident set again.
    private mutating func finishRestoring(_ restored: QuantizedRows?, _ restoredRescoring: QuantizedRows?) {
        count = occupied.lazy.filter { $0 }.count
        guard !occupied.isEmpty else { return }
        let rows = occupied.count
        /// The restored copy when it codes as `empty` does, else `empty` coded from the rows.
        func take(_ empty: QuantizedRows?, _ restored: QuantizedRows?) -> (QuantizedRows?, coded: Bool) {
            guard let empty else { return (nil, false) }
            if let restored, restored.coding == empty.coding, restored.capacity == rows { return (restored, false) }
            return (coded(empty), true)
        }
        let q = take(quantized, restored)
        let r = take(rescoring, restoredRescoring)
        (quantized, rescoring) = (q.0, r.0)
        if q.coded || r.coded {
            matrix.releaseMappedPages()
            halves.releaseMappedPages()
        }
    }

    /// `copy` coded from every row. Free rows hold zeros, which code to zeros: the same bits as
    /// setting the live rows one by one (and the same capacity: a trailing free row codes to zeros).
    private func coded(_ empty: QuantizedRows) -> QuantizedRows {
        var copy = empty
        let dimension = self.dimension
        switch precision {
        case .float32:
            matrix.withBase { m in
                copy.restore(rows: occupied.count) { r, v in v.update(from: m.baseAddress! + r * dimension, count: dimension) }
            }
        case .float16:
            halves.withBase { h in
                copy.restore(rows: occupied.count) { r, v in
                    LinearAlgebra.fromHalf(h.baseAddress! + r * dimension, into: v, count: dimension)
                }
            }
        }
        return copy
    }

    /// Number of rows in the buffer, free ones included.
    package var capacity: Int { occupied.count }

    /// Whether the rows are a snapshot file's pages, mapped, rather than memory of their own (until
    /// the first change copies them).
    package var rowsAreMapped: Bool { matrix.isMapped || halves.isMapped }

    /// The snapshot's checksums of the rows (``RowChecks``), when it had rows to verify.
    var rowChecks: RowChecks? { precision == .float32 ? matrix.checks : halves.checks }

    /// Whether row `r` is as the snapshot recorded it (``RowStore/isIntact(row:)``).
    func isIntact(row r: Int) -> Bool { precision == .float32 ? matrix.isIntact(row: r) : halves.isIntact(row: r) }

    /// Each row's checksum for the next snapshot, nil when a row read from this one is damaged
    /// (``RowStore/rowSums()``).
    func rowSums() -> [UInt32]? { precision == .float32 ? matrix.rowSums() : halves.rowSums() }

    package func contains(row: Int32) -> Bool { Int(row) < occupied.count && occupied[Int(row)] }

    /// Stores `vector` at `row` (rounded to fp16 with that precision), growing the buffer as needed.
    /// - Complexity: O(dimension), amortised.
    package mutating func set(row: Int32, vector: [Float]) {
        set(row: row, coded: coder.code(vector))
    }

    /// Clears `row`. - Complexity: O(dimension).
    package mutating func remove(row: Int32) {
        let r = Int(row)
        guard r < occupied.count, occupied[r] else { return }
        occupied[r] = false
        count -= 1
        quantized?.remove(row: row)
        rescoring?.remove(row: row)
        let dimension = self.dimension
        switch precision {
        case .float32: matrix.withMutableRow(r) { m in for j in 0..<dimension { m[j] = 0 } }
        case .float16: halves.withMutableRow(r) { h in for j in 0..<dimension { h[j] = 0 } }
        }
    }

    package mutating func removeAll() {
        matrix.removeAll()
        halves.removeAll()
        occupied.removeAll()
        count = 0
        quantized?.removeAll()
        rescoring?.removeAll()
    }

    /// The vector at `row` (as stored: with fp16 precision, the rounded components), read from
    /// the snapshot file when the rows are its mapped pages (``RowBuffer/copy(_:into:)``).
    package func vector(at row: Int32) -> [Float] {
        var v = [Float](repeating: 0, count: dimension)
        switch precision {
        case .float32:
            v.withUnsafeMutableBufferPointer { matrix.copy(row: Int(row), into: $0.baseAddress!) }
            return v
        case .float16:
            var h = [UInt16](repeating: 0, count: dimension)
            h.withUnsafeMutableBufferPointer { halves.copy(row: Int(row), into: $0.baseAddress!) }
            h.withUnsafeBufferPointer { h in
                v.withUnsafeMutableBufferPointer { o in LinearAlgebra.fromHalf(h.baseAddress!, into: o.baseAddress!, count: dimension) }
            }
            return v
        }
    }

    /// Whether scans run on every core (when there are several). sift-bench turns it off to
    /// measure one thread; nothing else writes it.
    nonisolated(unsafe) package static var splitsScans = Parallel.cores > 1

    /// Rows per chunk of a scan split over the cores; a scan of less than two chunks' bytes
    /// stays on the calling thread.
    static let chunkBytes = 4 << 20

    /// Runs `body` over `0..<rows` in chunks of ``chunkBytes``, on every core when there are
    /// several chunks (``Parallel/forEachChunk(count:chunkSize:_:)``).
    static func forEachChunk(rows: Int, bytesPerRow: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let perChunk = max(1, chunkBytes / max(bytesPerRow, 1))
        let chunks = (rows + perChunk - 1) / perChunk
        guard chunks >= 2, splitsScans else {
            body(0..<rows)
            return
        }
        Parallel.forEachChunk(count: rows, chunkSize: perChunk, body)
    }

    /// Cosine of `query` with every row (free rows score 0), into `scores[0..<capacity]`.
    /// - Complexity: O(capacity · dimension), one pass over the buffer, then the rows changed
    ///   since an open (``RowStore``).
    package func scores(for query: [Float], into scores: inout [Float]) {
        precondition(query.count == dimension)
        if scores.count < capacity { scores += repeatElement(0, count: capacity - scores.count) }
        let rows = precision == .float32 ? matrix.baseRows : halves.baseRows
        let dimension = self.dimension
        defer { scoreChangedRows(for: query, into: &scores) }
        query.withUnsafeBufferPointer { q in
            scores.withUnsafeMutableBufferPointer { s in
                // The chunks write disjoint parts of `scores` and only read the rest.
                let q = SharedPointer(q.baseAddress!)
                let s = SharedPointer(s.baseAddress!)
                switch precision {
                case .float32:
                    matrix.withBase { m in
                        guard rows > 0 else { return }
                        let m = SharedPointer(m.baseAddress!)
                        Self.forEachChunk(rows: rows, bytesPerRow: dimension * 4) { range in
                            LinearAlgebra.rowDots(
                                matrix: m.pointer + range.lowerBound * dimension, rows: range.count, columns: dimension, vector: q.pointer,
                                into: s.pointer + range.lowerBound)
                        }
                    }
                case .float16:
                    halves.withBase { h in
                        guard rows > 0 else { return }
                        let h = SharedPointer(h.baseAddress!)
                        Self.forEachChunk(rows: rows, bytesPerRow: dimension * 2) { range in
                            LinearAlgebra.halfRowDots(
                                matrix: h.pointer + range.lowerBound * dimension, rows: range.count, columns: dimension, vector: q.pointer,
                                into: s.pointer + range.lowerBound)
                        }
                    }
                }
            }
        }
    }

    /// A list of at least this many rows is re-scored on two cores (each row is a miss to
    /// memory, so the halves overlap their waits).
    static let splitRows = 1024

    /// The exact cosines of `query` with `rows` (distinct), each written to `scores[row]` (the
    /// scan's values). A long list is split in two halves, one per core, unless `cached`; the
    /// halves write their scores side by side and the calling thread puts them in place, so
    /// the scores the query reads next are in its own cache, not in the other core's (the
    /// best of the re-scored nominees, picked right after: 39 µs at 100k when the halves wrote
    /// in place).
    /// - Complexity: O(rows.count · dimension).
    /// - Parameter cached: the rows were read a moment ago (a second pass over the same rows):
    ///   they are in cache, and one thread does (paired profiles at 100k, with GCD's workers:
    ///   35–39 µs on one thread against 49–56 µs split, for 1,372 rows). Vector feedback runs
    ///   it so, with keyword feedback's terms found on the other core.
    package func exactScores(for query: [Float], rows: [Int32], into scores: inout [Float], cached: Bool = false) {
        precondition(query.count == dimension)
        Self.scoreList(rows, into: &scores, cached: cached) { part, out, packed in
            exactScores(for: query, rows: part, into: out, packed: packed)
        }
    }

    /// Scores of `rows` (distinct), each written to `scores[row]`: `kernel(part, out, packed)`
    /// writes the score of `part[i]` at `out[part[i]]`, or at `out[i]` when `packed`. A list of
    /// ``splitRows`` or more is split in two halves, one per core, unless `cached`; the halves
    /// write their scores side by side and the calling thread puts them in place (see
    /// ``exactScores(for:rows:into:cached:)``). The exact and the re-scoring copy's list scores.
    static func scoreList(
        _ rows: [Int32], into scores: inout [Float], cached: Bool,
        _ kernel: (_ part: UnsafeBufferPointer<Int32>, _ out: UnsafeMutablePointer<Float>, _ packed: Bool) -> Void
    ) {
        guard !rows.isEmpty else { return }
        rows.withUnsafeBufferPointer { list in
            guard list.count >= splitRows && splitsScans && !cached else {
                scores.withUnsafeMutableBufferPointer { kernel(list, $0.baseAddress!, false) }
                return
            }
            let packed = [Float](unsafeUninitializedCapacity: list.count) { buffer, initialized in
                let out = SharedPointer(buffer.baseAddress!)
                // Each half writes the scores of its own rows only.
                Parallel.forEachChunk(count: list.count, chunks: 2) { _, range in
                    kernel(UnsafeBufferPointer(rebasing: list[range]), out.pointer + range.lowerBound, true)
                }
                initialized = list.count
            }
            scores.withUnsafeMutableBufferPointer { out in
                for (i, row) in list.enumerated() { out[Int(row)] = packed[i] }
            }
        }
    }

    /// The kernels of ``exactScores(for:rows:into:cached:)``: the score of `rows[i]` at
    /// `out[rows[i]]`, or at `out[i]` when `packed`.
    private func exactScores(for query: [Float], rows: UnsafeBufferPointer<Int32>, into out: UnsafeMutablePointer<Float>, packed: Bool) {
        if precision == .float32 ? matrix.hasChangedRows : halves.hasChangedRows {
            // Rows held apart from the buffer the list kernel reads: each row where it lies.
            for (i, row) in rows.enumerated() { out[packed ? i : Int(row)] = exactScore(for: query, row: row) }
            return
        }
        let dimension = self.dimension
        query.withUnsafeBufferPointer { q in
            switch precision {
            case .float32:
                matrix.withBase { m in
                    LinearAlgebra.rowDots(
                        matrix: m.baseAddress!, columns: dimension, rows: rows, vector: q.baseAddress!, into: out, packed: packed)
                }
            case .float16:
                halves.withBase { h in
                    LinearAlgebra.halfRowDots(
                        matrix: h.baseAddress!, columns: dimension, rows: rows, vector: q.baseAddress!, into: out, packed: packed)
                }
            }
        }
    }

    /// Verifies the occupied rows are exactly `liveRows`.
    package func checkInvariants(liveRows: Set<Int32>) throws(InvariantViolation) {
        var live = Set<Int32>()
        for (r, o) in occupied.enumerated() where o { live.insert(Int32(r)) }
        if live != liveRows {
            throw InvariantViolation(
                "vector index: rows \(live.symmetricDifference(liveRows).sorted().prefix(5)) disagree with the identifier table")
        }
        if live.count != count { throw InvariantViolation("vector index: count \(count) ≠ \(live.count)") }
    }
}

/// A buffer's address handed to the threads of one scan, which outlive neither the buffer's
/// `withUnsafe…` scope nor each other, and write disjoint ranges.
struct SharedPointer<Wrapped>: @unchecked Sendable {
    let pointer: Wrapped
    init(_ pointer: Wrapped) { self.pointer = pointer }
}
