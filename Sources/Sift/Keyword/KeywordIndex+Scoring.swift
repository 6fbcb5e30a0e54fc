import Foundation

/// BM25F scoring: per field pseudo frequency, the accumulation of a query's scores over the
/// postings (into a dictionary-free accumulator, split over two cores when long), one row's score.
extension KeywordIndex {
    /// BM25's length normalisation of a field: `1 − b + b · length / average`. Every scorer
    /// (accumulation, the walk's table of norms, one row's explanation) computes it here, so that
    /// they agree bit for bit.
    @inline(__always)
    static func lengthNorm(_ length: UInt32, b: Float, average: Float) -> Float { 1 - b + b * Float(length) / average }

    @inline(__always)
    func pseudoFrequency(_ f: (UInt16, UInt16, UInt16), row: Int32, averages: (Float, Float, Float)) -> Float {
        let len = fieldLengths[Int(row)]
        let w = parameters.weights
        let b = parameters.b
        var tf: Float = 0
        if f.0 > 0 { tf += w[0] * Float(f.0) / Self.lengthNorm(len.0, b: b[0], average: averages.0) }
        if f.1 > 0 { tf += w[1] * Float(f.1) / Self.lengthNorm(len.1, b: b[1], average: averages.1) }
        if f.2 > 0 { tf += w[2] * Float(f.2) / Self.lengthNorm(len.2, b: b[2], average: averages.2) }
        return tf
    }

    var averageLengths: (Float, Float, Float) {
        let n = Float(max(documentCount, 1))
        return (max(Float(totalLengths.0) / n, 1e-6), max(Float(totalLengths.1) / n, 1e-6), max(Float(totalLengths.2) / n, 1e-6))
    }

    /// BM25F score of every document that matches at least one query term, accumulated into
    /// `scores` (indexed by row, at least as long as the highest row) and listed in `touched`.
    /// A prefix term contributes its best-scoring expansion per document.
    /// - Complexity: O(Σ p) over the postings of the query's terms.
    package func accumulate(_ query: [QueryTerm], scores: inout [Float], touched: inout [Int32]) {
        let averages = averageLengths
        let k1 = parameters.k1
        for term in query {
            if term.isPrefix && term.terms.count > 1 {
                var best: [Int32: Float] = [:]
                for t in term.terms {
                    guard let id = termIDs[t] else { continue }
                    postings.withList(Int(id)) { list in
                        let idf = term.weight * self.idf(documentFrequency: list.count)
                        for p in list {
                            let tf = pseudoFrequency(frequencies(p, term: id), row: p.row, averages: averages)
                            let s = idf * tf * (k1 + 1) / (k1 + tf)
                            if s > best[p.row, default: 0] { best[p.row] = s }
                        }
                    }
                }
                for (row, s) in best {
                    if scores[Int(row)] == 0 { touched.append(row) }
                    scores[Int(row)] += s
                }
            } else {
                for t in term.terms {
                    guard let id = termIDs[t] else { continue }
                    postings.withList(Int(id)) { list in
                        let idf = term.weight * self.idf(documentFrequency: list.count)
                        for p in list {
                            let tf = pseudoFrequency(frequencies(p, term: id), row: p.row, averages: averages)
                            if scores[Int(p.row)] == 0 { touched.append(p.row) }
                            scores[Int(p.row)] += idf * tf * (k1 + 1) / (k1 + tf)
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with each row holding the index term `term` that `admits`, in posting
    /// order, and the term's BM25F score there (computed only for admitted rows).
    ///
    /// The walk runs in two steps a block of postings at a time: first `admits` picks the
    /// block's postings, then the admitted ones are scored with their rows' field lengths and
    /// `bodyTable`'s entries prefetched ahead. Those are the scattered reads that stalled a
    /// one-step walk: `perf annotate` put 58% of its samples on the loads of an admitted row's
    /// lengths and of its sum. (`admits` reads a table small enough to stay in cache: keyword
    /// feedback's is a byte a row; prefetching it cost more than it saved.)
    /// - Complexity: O(p) over the term's postings.
    /// - Parameter bodyTable: a per-row table that `body` reads and writes, or nil.
    @inline(__always)
    func forEachScore(
        ofTerm term: String, admits: (Int32) -> Bool, bodyTable: ScatteredReads.Table? = nil, _ body: (Int32, Float) -> Void
    ) {
        guard let id = termIDs[term] else { return }
        let averages = averageLengths
        let k1 = parameters.k1
        let block = Self.admittedBlock
        withUnsafeTemporaryAllocation(of: Posting.self, capacity: block) { admitted in
            fieldLengths.withUnsafeBufferPointer { lengths in
                let lengthsTable = (UnsafeRawPointer(lengths.baseAddress), MemoryLayout<(UInt32, UInt32, UInt32)>.stride)
                postings.withList(Int(id)) { list in
                    let idf = self.idf(documentFrequency: list.count)
                    for start in stride(from: 0, to: list.count, by: block) {
                        var n = 0
                        for j in start..<min(start + block, list.count) where admits(list[j].row) {
                            admitted[n] = list[j]
                            n += 1
                        }
                        let picked = UnsafeBufferPointer(rebasing: admitted[0..<n])
                        for i in stride(from: 0, to: n, by: ScatteredReads.block) {
                            ScatteredReads.prefetch(picked, before: i, lengthsTable, bodyTable)
                            for j in i..<min(i + ScatteredReads.block, n) {
                                let p = picked[j]
                                let tf = pseudoFrequency(frequencies(p, term: id), row: p.row, averages: averages)
                                body(p.row, idf * tf * (k1 + 1) / (k1 + tf))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Postings per block of ``forEachScore(ofTerm:admits:bodyTable:_:)``.
    static let admittedBlock = 1024

    /// ``accumulate(_:scores:touched:)`` into reusable buffers: the same scores, bit for bit (the
    /// same operations in the same order), without a dictionary for prefix terms or an
    /// allocation per query. Each matching row is listed once in `accumulator.touched`.
    /// - Complexity: O(Σ p) over the postings of the query's terms.
    /// - Parameter splitAbove: the postings above which the walk is split (tests lower it).
    func accumulate(_ query: [QueryTerm], into accumulator: inout KeywordAccumulator, splitAbove: Int = parallelPostings) {
        accumulator.reserve(rows: rowTerms.count)
        let averages = averageLengths
        let k1 = parameters.k1
        let w = parameters.weights
        let b = parameters.b
        let (w0, w1, w2) = (w[0], w[1], w[2])
        let (b0, b1, b2) = (b[0], b[1], b[2])
        // Locals, so that the loops below index plain buffers.
        var scores: [Float] = []
        var best: [Float] = []
        var stamps: [UInt32] = []
        var touched: [Int32] = []
        var bestRows: [Int32] = []
        swap(&scores, &accumulator.scores)
        swap(&best, &accumulator.best)
        swap(&stamps, &accumulator.stamps)
        swap(&touched, &accumulator.touched)
        swap(&bestRows, &accumulator.bestRows)
        defer {
            swap(&scores, &accumulator.scores)
            swap(&best, &accumulator.best)
            swap(&stamps, &accumulator.stamps)
            swap(&touched, &accumulator.touched)
            swap(&bestRows, &accumulator.bestRows)
        }
        // Whole words (not prefixes) of the query: a title can begin with the query only if
        // it holds each of them (see `KeywordAccumulator.mayBeginTitle`).
        let wholeWords = query.reduce(0) { $0 + ($1.isPrefix ? 0 : 1) }
        accumulator.requiredTitleTerms = wholeWords <= Int(UInt8.max) ? wholeWords : nil
        // The query's postings: a long enough walk is split over two cores by row (each half
        // of the rows on its own thread, every posting read by both, each scored by one), which
        // keeps every row's sum in the same order, so the scores are the same bit for bit.
        var volume = 0
        for term in query { for t in term.terms { if let id = termIDs[t] { volume += postings.count(of: Int(id)) } } }
        let rows = rowTerms.count
        let halves = volume >= splitAbove && rows >= 2 && Parallel.cores > 1 ? 2 : 1
        let generation = accumulator.generation
        fieldLengths.withUnsafeBufferPointer { lengths in
            scores.withUnsafeMutableBufferPointer { scores in
                best.withUnsafeMutableBufferPointer { best in
                    stamps.withUnsafeMutableBufferPointer { stamps in
                        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * KeywordWalk.tabulatedLengths) {
                            norms in
                            let walk = KeywordWalk(
                                index: self, query: query, lengths: lengths, norms: norms, scores: scores, best: best,
                                stamps: stamps, generation: generation, averages: averages, k1: k1, weights: (w0, w1, w2),
                                b: (b0, b1, b2), wholeWords: wholeWords)
                            if halves == 1 {
                                walk.pass(0, .max, touched: &touched, bestRows: &bestRows)
                            } else {
                                // The upper half's own lists, appended after the lower half's.
                                var upperTouched: [Int32] = []
                                var upperBest: [Int32] = []
                                var lowerTouched = touched
                                var lowerBest = bestRows
                                let mid = Int32(rows / 2)
                                Parallel.forEach(iterations: 2) { half in
                                    if half == 0 {
                                        walk.pass(0, mid, touched: &lowerTouched, bestRows: &lowerBest)
                                    } else {
                                        walk.pass(mid, .max, touched: &upperTouched, bestRows: &upperBest)
                                    }
                                }
                                touched = lowerTouched + upperTouched
                                bestRows = lowerBest
                            }
                        }
                    }
                }
            }
        }
    }

    /// How many postings a query must walk before ``accumulate(_:into:)`` splits the walk over
    /// two cores: below it, the threads' start-up costs more than the half they save.
    static let parallelPostings = 20_000

    /// The BM25F score of one document, as ``accumulate(_:scores:touched:)`` computes it.
    package func score(_ query: [QueryTerm], row: Int32) -> Float {
        explain(query, row: row).reduce(0) { $0 + $1.score }
    }
}

/// One keyword walk of ``KeywordIndex/accumulate(_:into:splitAbove:)`` over plain buffers: the
/// query, the index's postings, and the accumulator's buffers, of which each ``pass(_:_:touched:bestRows:)``
/// writes only the rows in its range (so the two halves of a split walk never share a row).
struct KeywordWalk {
    let index: KeywordIndex
    let query: [KeywordIndex.QueryTerm]
    let lengths: UnsafeBufferPointer<(UInt32, UInt32, UInt32)>
    /// Per field, each length below ``tabulatedLengths``'s BM25 length norm
    /// `1 - b + b · length / average`: computed once a walk by the same operations as a posting's,
    /// so the scores are the same bit for bit, and looked up instead of a multiply and two
    /// divisions a field a posting (`perf annotate` put much of the walk on the divisions).
    let norms: UnsafeMutableBufferPointer<Float>
    let scores: UnsafeMutableBufferPointer<Float>
    let best: UnsafeMutableBufferPointer<Float>
    /// Per row, ``KeywordAccumulator/stamps``: the walk's generation once it has touched the row,
    /// and the row's title hits.
    let stamps: UnsafeMutableBufferPointer<UInt32>
    /// The walk's generation, in the stamps' high bits.
    let generation: UInt32
    let averages: (Float, Float, Float)
    let k1: Float
    let w0: Float, w1: Float, w2: Float
    let b0: Float, b1: Float, b2: Float
    /// Whole words (not prefixes) of the query.
    let wholeWords: Int

    /// Lengths whose norms ``norms`` holds, per field.
    static let tabulatedLengths = 512

    /// - Parameter norms: room for `3 * tabulatedLengths` floats, which the walk fills.
    init(
        index: KeywordIndex, query: [KeywordIndex.QueryTerm], lengths: UnsafeBufferPointer<(UInt32, UInt32, UInt32)>,
        norms: UnsafeMutableBufferPointer<Float>, scores: UnsafeMutableBufferPointer<Float>,
        best: UnsafeMutableBufferPointer<Float>, stamps: UnsafeMutableBufferPointer<UInt32>, generation: UInt32,
        averages: (Float, Float, Float), k1: Float,
        weights: (Float, Float, Float), b: (Float, Float, Float), wholeWords: Int
    ) {
        self.index = index
        self.query = query
        self.lengths = lengths
        precondition(norms.count >= 3 * Self.tabulatedLengths)
        let n = Self.tabulatedLengths
        for length in 0..<n {
            let l = UInt32(length)
            norms[length] = KeywordIndex.lengthNorm(l, b: b.0, average: averages.0)
            norms[n + length] = KeywordIndex.lengthNorm(l, b: b.1, average: averages.1)
            norms[2 * n + length] = KeywordIndex.lengthNorm(l, b: b.2, average: averages.2)
        }
        self.norms = norms
        self.scores = scores
        self.best = best
        self.stamps = stamps
        self.generation = generation
        self.averages = averages
        self.k1 = k1
        (w0, w1, w2) = weights
        (b0, b1, b2) = b
        self.wholeWords = wholeWords
    }

    @inline(__always)
    func score(_ p: KeywordIndex.Posting, term: Int32, idf: Float) -> Float {
        let len = lengths[Int(p.row)]
        let f = p.isEscaped ? index.frequencies(p, term: term) : (UInt16(p.tf.0), UInt16(p.tf.1), UInt16(p.tf.2))
        var tf: Float = 0
        if f.0 > 0 { tf += w0 * Float(f.0) / norm(0, len.0, b0, averages.0) }
        if f.1 > 0 { tf += w1 * Float(f.1) / norm(1, len.1, b1, averages.1) }
        if f.2 > 0 { tf += w2 * Float(f.2) / norm(2, len.2, b2, averages.2) }
        return idf * tf * (k1 + 1) / (k1 + tf)
    }

    /// Field `field`'s length norm for `length`: from the table, or computed past its end.
    @inline(__always)
    func norm(_ field: Int, _ length: UInt32, _ b: Float, _ average: Float) -> Float {
        length < UInt32(Self.tabulatedLengths)
            ? norms[field * Self.tabulatedLengths + Int(length)] : KeywordIndex.lengthNorm(length, b: b, average: average)
    }

    /// The query over the rows in `lo..<hi`.
    func pass(_ lo: Int32, _ hi: Int32, touched: inout [Int32], bestRows: inout [Int32]) {
        for term in query {
            if term.isPrefix && term.terms.count > 1 {
                // Per row the best expansion, then added once.
                for t in term.terms {
                    guard let id = index.termIDs[t] else { continue }
                    index.postings.withList(Int(id)) { list in
                        let idf = term.weight * index.idf(documentFrequency: list.count)
                        for p in list where p.row >= lo && p.row < hi {
                            let s = score(p, term: id, idf: idf)
                            let r = Int(p.row)
                            if s > best[r] {
                                if best[r] == 0 { bestRows.append(p.row) }
                                best[r] = s
                            }
                        }
                    }
                }
                for row in bestRows {
                    let r = Int(row)
                    if stamps[r] >> 8 != generation {
                        stamps[r] = generation << 8
                        touched.append(row)
                    }
                    scores[r] += best[r]
                    best[r] = 0
                }
                bestRows.removeAll(keepingCapacity: true)
            } else {
                let counted = !term.isPrefix && wholeWords <= Int(UInt8.max)
                for t in term.terms {
                    guard let id = index.termIDs[t] else { continue }
                    index.postings.withList(Int(id)) { list in
                        let idf = term.weight * index.idf(documentFrequency: list.count)
                        // Rows' lengths, scores and stamps are scattered reads. A block's newly
                        // touched rows are listed at its end: one append a block, not a row.
                        withUnsafeTemporaryAllocation(of: Int32.self, capacity: ScatteredReads.block) { new in
                            for i in stride(from: 0, to: list.count, by: ScatteredReads.block) {
                                ScatteredReads.prefetch(
                                    list, before: i, rows: lo..<hi,
                                    (UnsafeRawPointer(lengths.baseAddress), MemoryLayout<(UInt32, UInt32, UInt32)>.stride),
                                    (UnsafeRawPointer(scores.baseAddress), MemoryLayout<Float>.stride),
                                    (UnsafeRawPointer(stamps.baseAddress), MemoryLayout<UInt32>.stride))
                                var added = 0
                                for j in i..<min(i + ScatteredReads.block, list.count) {
                                    let p = list[j]
                                    guard p.row >= lo && p.row < hi else { continue }
                                    let r = Int(p.row)
                                    if stamps[r] >> 8 != generation {
                                        stamps[r] = generation << 8
                                        new[added] = p.row
                                        added += 1
                                    }
                                    scores[r] += score(p, term: id, idf: idf)
                                    if counted && p.tf.0 > 0 { stamps[r] = stamps[r] & ~0xFF | (stamps[r] &+ 1) & 0xFF }
                                }
                                if added > 0 { touched.append(contentsOf: UnsafeBufferPointer(rebasing: new[0..<added])) }
                            }
                        }
                    }
                }
            }
        }
    }
}
