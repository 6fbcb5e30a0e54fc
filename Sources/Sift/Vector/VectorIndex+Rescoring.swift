import CSiftKernels
import Foundation

/// The middle tier of the quantized query path: the quantized scan nominates rows, an int8 copy
/// of every component of every row (the *re-scoring copy*, in memory) scores the candidates, and
/// only the few best by those scores are read from the rows themselves (``VectorIndex/storedRows(_:)``),
/// which after an open stay in the snapshot file, out of the process's memory.
extension QuantizedRows {
    /// An empty re-scoring copy: int8 codes of all `dimension` components.
    static func rescoring(dimension: Int) -> QuantizedRows { QuantizedRows(dimension: dimension, components: dimension, bits: 8) }

    /// Whether the copy codes every component as int8, as a re-scoring copy does.
    var codesEveryComponent: Bool { bits == 8 && components == dimension }

    /// The query coded for ``rescores(for:rows:into:packed:)``: int16 codes scaled by its largest
    /// magnitude, to a peak small enough that a row's sum of code products stays below 2³¹.
    struct RescoringQuery {
        let codes: [Int16]
        let scale: Float

        init(_ query: [Float]) {
            let peak = query.reduce(Float(0)) { max($0, abs($1)) }
            // |Σ| ≤ dimension · 127 · top: exact in int32.
            let top = Float(min(32767, Int(Int32.max) / (127 * max(query.count, 1))))
            guard peak > 0, peak.isFinite else {
                codes = [Int16](repeating: 0, count: query.count)
                scale = 0
                return
            }
            let s = peak / top
            codes = query.map { Int16(clamping: Int(($0 / s).rounded())) }
            scale = s
        }
    }

    /// Scores of `query` with `rows` (each below ``capacity``) from the codes: row `rows[i]`'s at
    /// `out[rows[i]]`, or at `out[i]` when `packed`. Exact integer sums, so the same values on
    /// every CPU; within about 10⁻³ of the exact cosine for unit vectors. Needs
    /// ``codesEveryComponent``.
    /// - Complexity: O(rows.count · dimension).
    func rescores(for query: RescoringQuery, rows: UnsafeBufferPointer<Int32>, into out: UnsafeMutablePointer<Float>, packed: Bool) {
        precondition(codesEveryComponent && query.codes.count == dimension)
        guard rows.count > 0 else { return }
        let dimension = self.dimension
        codes.withUnsafeBufferPointer { c in
            scales.withUnsafeBufferPointer { s in
                query.codes.withUnsafeBufferPointer { q in
                    sift_rescore_i8_rows(
                        c.baseAddress!, s.baseAddress!, dimension, rows.baseAddress!, rows.count, q.baseAddress!, query.scale, out,
                        packed ? 1 : 0)
                }
            }
        }
    }
}

/// Rows read from a ``VectorIndex`` as it keeps them (fp16 or fp32), packed in the order asked
/// for: their exact scores against a query and their vectors, the same values as the index's
/// own exact scores (``VectorIndex/exactScores(for:rows:into:cached:)``) and ``VectorIndex/vector(at:)``.
package struct StoredRows: Sendable {
    package let rows: [Int32]
    let dimension: Int
    let precision: VectorPrecision
    /// The rows' components, row after row: binary16 bit patterns or floats.
    let halves: [UInt16]
    let floats: [Float]

    /// The exact cosine of `query` with each row, in the order of ``rows``.
    package func scores(for query: [Float]) -> [Float] {
        precondition(query.count == dimension)
        let packed = (0..<Int32(rows.count)).map { $0 }
        var out = [Float](repeating: 0, count: rows.count)
        guard !rows.isEmpty else { return out }
        query.withUnsafeBufferPointer { q in
            packed.withUnsafeBufferPointer { p in
                out.withUnsafeMutableBufferPointer { o in
                    switch precision {
                    case .float16:
                        halves.withUnsafeBufferPointer { h in
                            LinearAlgebra.halfRowDots(
                                matrix: h.baseAddress!, columns: dimension, rows: p, vector: q.baseAddress!, into: o.baseAddress!)
                        }
                    case .float32:
                        floats.withUnsafeBufferPointer { f in
                            LinearAlgebra.rowDots(
                                matrix: f.baseAddress!, columns: dimension, rows: p, vector: q.baseAddress!, into: o.baseAddress!)
                        }
                    }
                }
            }
        }
        return out
    }

    /// The vector of the `i`-th row read.
    package func vector(_ i: Int) -> [Float] {
        switch precision {
        case .float32: return Array(floats[(i * dimension)..<((i + 1) * dimension)])
        case .float16:
            var v = [Float](repeating: 0, count: dimension)
            halves.withUnsafeBufferPointer { h in
                v.withUnsafeMutableBufferPointer {
                    LinearAlgebra.fromHalf(h.baseAddress! + i * dimension, into: $0.baseAddress!, count: dimension)
                }
            }
            return v
        }
    }
}

extension VectorIndex {
    /// Scores of `query` with `rows` (distinct) from the re-scoring copy, each written to
    /// `scores[row]`: within about 10⁻³ of the exact cosine, read from memory that is the
    /// index's own (260 bytes a row at 256 dimensions, against the rows' 512). A long list is
    /// split over two cores unless `cached`, as ``exactScores(for:rows:into:cached:)`` does.
    /// - Complexity: O(rows.count · dimension).
    package func rescores(for query: [Float], rows: [Int32], into scores: inout [Float], cached: Bool = false) {
        guard let copy = rescoring else {
            exactScores(for: query, rows: rows, into: &scores, cached: cached)
            return
        }
        guard !rows.isEmpty else { return }
        let coded = QuantizedRows.RescoringQuery(query)
        Self.scoreList(rows, into: &scores, cached: cached) { part, out, packed in
            copy.rescores(for: coded, rows: part, into: out, packed: packed)
        }
    }

    /// Row `row`'s components as the re-scoring copy has them (each code times the row's scale:
    /// within half a code step, the row's largest magnitude over 254), zeros without a copy: what
    /// the index answers with for a row of the snapshot found damaged.
    func approximateRow(_ row: Int32) -> [Float] {
        var v = [Float](repeating: 0, count: dimension)
        guard let copy = rescoring, copy.codesEveryComponent, Int(row) < copy.capacity else { return v }
        let d = dimension
        copy.codes.withUnsafeBufferPointer { c in
            copy.scales.withUnsafeBufferPointer { s in
                for j in 0..<d { v[j] = Float(c[Int(row) * d + j]) * s[Int(row)] }
            }
        }
        return v
    }

    /// `rows` as the index keeps them, read from the snapshot file (`pread`) when they are its
    /// mapped pages — so that reading them leaves none of the rows' pages resident — and from
    /// memory otherwise. A row the snapshot's checksum finds damaged reads as
    /// ``approximateRow(_:)``.
    /// - Complexity: O(rows.count · dimension) and a read a row.
    package func storedRows(_ rows: [Int32]) -> StoredRows {
        let d = dimension
        var halvesRead: [UInt16] = []
        var floatsRead: [Float] = []
        /// Reads each row; one found damaged (``RowChecks``) is replaced by the re-scoring copy's
        /// values, converted from floats by `convert`.
        func read<T>(_ store: RowStore<T>, _ convert: (UnsafePointer<Float>, UnsafeMutablePointer<T>) -> Void) -> [T] {
            [T](unsafeUninitializedCapacity: rows.count * d) { out, initialized in
                for (i, row) in rows.enumerated() where !store.copy(row: Int(row), into: out.baseAddress! + i * d) {
                    approximateRow(row).withUnsafeBufferPointer { convert($0.baseAddress!, out.baseAddress! + i * d) }
                }
                initialized = rows.count * d
            }
        }
        switch precision {
        case .float16: halvesRead = read(halves) { LinearAlgebra.toHalf($0, into: $1, count: d) }
        case .float32: floatsRead = read(matrix) { $1.update(from: $0, count: d) }
        }
        return StoredRows(rows: rows, dimension: d, precision: precision, halves: halvesRead, floats: floatsRead)
    }
}
