import Foundation

/// Scores of single rows where they lie: one row (``exactScore(for:row:)``), and the rows an
/// opened index holds apart from the snapshot's pages (``RowStore``) after a full scan.
extension VectorIndex {
    /// The exact cosine of `query` with one row (the scan's value). - Complexity: O(dimension).
    package func exactScore(for query: [Float], row: Int32) -> Float {
        precondition(query.count == dimension)
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
        let dimension = self.dimension
        query.withUnsafeBufferPointer { q in
            scores.withUnsafeMutableBufferPointer { s in
                switch precision {
                case .float32:
                    guard matrix.hasChangedRows else { return }
                    matrix.withChanged { c in
                        for (row, slot) in matrix.changedRows {
                            LinearAlgebra.rowDots(
                                matrix: c.baseAddress! + slot * dimension, rows: 1, columns: dimension, vector: q.baseAddress!,
                                into: s.baseAddress! + Int(row))
                        }
                    }
                case .float16:
                    guard halves.hasChangedRows else { return }
                    halves.withChanged { c in
                        for (row, slot) in halves.changedRows {
                            LinearAlgebra.halfRowDots(
                                matrix: c.baseAddress! + slot * dimension, rows: 1, columns: dimension, vector: q.baseAddress!,
                                into: s.baseAddress! + Int(row))
                        }
                    }
                }
            }
        }
    }
}
