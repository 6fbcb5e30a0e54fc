import Foundation

/// Reusable buffers of the keyword half of a query (``KeywordIndex/accumulate(_:into:)``): per
/// row the BM25F score, 0 where no query term matched, and the rows that matched, each once.
/// ``reset()`` clears only what the last query touched, so a query costs its postings, not the
/// number of rows.
struct KeywordAccumulator: Sendable {
    /// Per row: the BM25F score of the last query (0 for rows it did not match).
    var scores: [Float] = []
    /// The rows the last query matched, each once, in the order first matched (in the lower
    /// half of the rows, then in the upper half, when the walk was split over two cores).
    var touched: [Int32] = []
    var best: [Float] = []
    var bestRows: [Int32] = []
    /// Per row: in the high 24 bits the ``generation`` of the last query that touched it (so a
    /// row is touched by this query when they are equal, and ``reset()`` need not clear them), in
    /// the low 8 bits how many of that query's whole words (not prefixes) occur in its title
    /// (counted modulo 256). One table, so the walk reads and writes one entry a posting.
    var stamps: [UInt32] = []
    /// The current query's number, 1 ..< 2^24 (0 is no query's: a row never touched).
    private(set) var generation: UInt32 = 1
    /// How many whole words the last query had; nil when it was not accumulated (or had more
    /// than 255), and nothing is known about titles.
    var requiredTitleTerms: Int?

    /// Lends the score buffer out without a copy (the accumulator holds none until it is given
    /// back with ``giveBackScores(_:)``, with the touched rows' scores as they were).
    mutating func takeScores() -> [Float] {
        var s: [Float] = []
        swap(&s, &scores)
        return s
    }

    mutating func giveBackScores(_ s: inout [Float]) { swap(&s, &scores) }

    /// Makes room for `rows` rows (new rows zero).
    mutating func reserve(rows: Int) {
        guard scores.count < rows else { return }
        let grow = rows - scores.count
        scores.append(contentsOf: repeatElement(0, count: grow))
        best.append(contentsOf: repeatElement(0, count: grow))
        stamps.append(contentsOf: repeatElement(0, count: grow))
    }

    /// False only when `row`'s title cannot begin with the last query's words (the condition of
    /// ``KeywordIndex/titleBegins(row:with:hashes:lastIsPrefix:title:)``): a title that begins
    /// with them holds each whole (non-prefix) word of the query, so its title frequency for
    /// that word's term is positive. Always true when the query was not accumulated.
    @inline(__always)
    func mayBeginTitle(row: Int32) -> Bool {
        guard let required = requiredTitleTerms else { return true }
        let stamp = stamps[Int(row)]
        return Int(stamp >> 8 == generation ? stamp & 0xFF : 0) == required
    }

    /// Zeroes the scores of the rows the last query touched and starts the next generation
    /// (every row untouched, no title hits); once in 2^24 − 1 queries the stamps are cleared.
    mutating func reset() {
        scores.withUnsafeMutableBufferPointer { scores in
            for row in touched { scores[Int(row)] = 0 }
        }
        touched.removeAll(keepingCapacity: true)
        requiredTitleTerms = nil
        nextGeneration()
    }

    /// The next generation, clearing the stamps when the last one is spent.
    mutating func nextGeneration(last: UInt32 = 1 << 24 - 1) {
        if generation >= last {
            for i in stamps.indices { stamps[i] = 0 }
            generation = 1
        } else {
            generation += 1
        }
    }
}
