import Foundation

/// Scores of single rows where they lie: one row (``exactScore(for:row:)``), and the rows an
/// opened index holds apart from the snapshot's pages (``RowStore``) after a full scan.
extension VectorIndex {
    /// The exact cosine of `query` with one row (the scan's value). - Complexity: O(dimension).
    package func exactScore(for query: [Float], row: Int32) -> Float {
        precondition(query.count == dimension)
        if !isIntact(row: Int(row)) {
            // A row of the snapshot found damaged: its re-scoring copy's values.
            return approximateRow(row).withUnsafeBufferPointer { v in
                query.withUnsafeBufferPointer { LinearAlgebra.dot($0.baseAddress!, v.baseAddress!, count: dimension) }
            }
        }
        // The row's own slice as a one-row matrix, through the same kernel as
        // ``exactScores(for:rows:into:cached:)``, so the same bits, without a buffer of `row + 1`
        // scores.
        var score: Float = 0
        let first: [Int32] = [0]
        query.withUnsafeBufferPointer { q in
            first.withUnsafeBufferPointer { first in
                switch precision {
                case .float32:
                    matrix.withRow(Int(row)) { m in
                        LinearAlgebra.rowDots(matrix: m, columns: dimension, rows: first, vector: q.baseAddress!, into: &score)
                    }
                case .float16:
                    halves.withRow(Int(row)) { h in
                        LinearAlgebra.halfRowDots(matrix: h, columns: dimension, rows: first, vector: q.baseAddress!, into: &score)
                    }
                }
            }
        }
        return score
    }

    /// The scan's scores of the rows held apart from the buffer (``RowStore``): each row through
    /// the scan's kernel, as a one-row matrix, so the same bits as an unchanged row's.
    func scoreChangedRows(for query: [Float], into scores: inout [Float]) {
        let d = dimension
        switch precision {
        case .float32:
            Self.scoreChangedRows(of: matrix, query, into: &scores) {
                LinearAlgebra.rowDots(matrix: $0, rows: 1, columns: d, vector: $1, into: $2)
            }
        case .float16:
            Self.scoreChangedRows(of: halves, query, into: &scores) {
                LinearAlgebra.halfRowDots(matrix: $0, rows: 1, columns: d, vector: $1, into: $2)
            }
        }
    }

    /// `kernel(row, query, score)` for each row `store` holds apart, its score at `scores[row]`.
    private static func scoreChangedRows<T>(
        of store: RowStore<T>, _ query: [Float], into scores: inout [Float],
        _ kernel: (UnsafePointer<T>, UnsafePointer<Float>, UnsafeMutablePointer<Float>) -> Void
    ) {
        guard store.hasChangedRows else { return }
        let width = store.width
        query.withUnsafeBufferPointer { q in
            scores.withUnsafeMutableBufferPointer { s in
                store.withChanged { c in
                    store.forEachChangedRow { row, slot in
                        kernel(c.baseAddress! + slot * width, q.baseAddress!, s.baseAddress! + Int(row))
                    }
                }
            }
        }
    }
}
