import Foundation

/// The exact step after the quantized scan with a re-scoring copy: the candidates' cosines are
/// the copy's (within about 10⁻³ of the exact ones), and wherever a few best candidates are
/// chosen — the first pass that feedback learns from, the final top k — the best by those
/// cosines, a few more than needed, are read from the vectors (``VectorIndex/storedRows(_:)``:
/// from the snapshot file when the rows are its pages) and ranked by their exact cosines.
extension Ranker {
    /// How many of the best candidates by the re-scoring copy's cosines are read exactly for a
    /// top `limit`: the exact top `limit` is among a few more than `limit` of the copy's best
    /// (16 for a top 10 kept SciFact's and Cranfield's rankings byte-identical, and the 100k
    /// bench's; each row read is a `pread` on an opened index).
    static func refinedCount(limit: Int) -> Int { limit + max(limit / 2, 6) }

    /// Before feedback: the best first-pass candidates (hybrid mode, linear fusion) read
    /// exactly, so that feedback learns from the documents the exact cosines would give it.
    mutating func readFirstPass() {
        guard request.mode == .hybrid, case .linear(let alpha) = fusion.method,
            fusion.feedbackDocuments > 0 || (fusion.keywordFeedbackDocuments > 0 && fusion.keywordFeedbackTerms > 0)
        else { return }
        let count = Self.refinedCount(limit: max(fusion.feedbackDocuments, fusion.keywordFeedbackDocuments))
        readExactly(firstPass(alpha: alpha, count: count).unordered.map(\.row))
    }

    /// Reads the rows of `rows` not read yet, then gives every row read its exact cosine
    /// (``applyExactCosines()``).
    mutating func readExactly(_ rows: [Int32]) {
        guard let vectors = state.vectors else { return }
        let fresh = rows.filter { semantic.exactCosines[$0] == nil }
        if !fresh.isEmpty {
            let stored = vectors.storedRows(fresh)
            let exact = stored.scores(for: semantic.queryVector)
            let moved = semantic.feedbackVector.map { stored.scores(for: $0) }
            for (i, row) in fresh.enumerated() {
                semantic.exactCosines[row] = exact[i]
                if let moved { semantic.exactMoved[row] = moved[i] }
            }
            semantic.read.append(stored)
        }
        applyExactCosines()
    }

    /// The vectors of `rows`, in order: a row already read (``readExactly(_:)``) from what was
    /// read, the others read now (``VectorIndex/storedRows(_:)``) — vector feedback's documents
    /// are the first-pass rows ``readFirstPass()`` has just read.
    func storedVectors(_ rows: [Int32], of vectors: VectorIndex) -> [[Float]] {
        let batches = semantic.read + [vectors.storedRows(rows.filter { semantic.exactCosines[$0] == nil })]
        return rows.map { row in
            for batch in batches {
                if let i = batch.rows.firstIndex(of: row) { return batch.vector(i) }
            }
            preconditionFailure("row \(row) was read")
        }
    }

    /// After vector feedback moved the query vector: the exact cosines of the rows read with it.
    mutating func moveExactCosines() {
        guard let moved = semantic.feedbackVector else { return }
        for stored in semantic.read {
            for (i, score) in stored.scores(for: moved).enumerated() { semantic.exactMoved[stored.rows[i]] = score }
        }
        applyExactCosines()
    }

    /// Each row read gets its exact cosine in place of the copy's: with the query vector after
    /// feedback when it moved — held at the query's own cosine for a candidate that matches
    /// neither a word of the query nor its meaning, as vector feedback holds them.
    private mutating func applyExactCosines() {
        let threshold = fusion.semanticMatchThreshold
        for (row, exact) in semantic.exactCosines {
            var cosine = exact
            if let moved = semantic.exactMoved[row] {
                cosine = moved
                if keywordScoreBeforeFeedback(row) <= 0 && !(exact >= threshold) { cosine = min(cosine, exact) }
            }
            buffers.cosine[Int(row)] = cosine
        }
    }

    /// The final selection: the best ``refinedCount(limit:)`` candidates by the cosines so far
    /// read exactly, and in hybrid mode the rows that may set fusion's normalisation — the lowest
    /// cosines of the candidates and of the floor's probes, the highest of the candidates
    /// (``normalizationRows()``) — then the normalisation redone and the top k chosen among the
    /// candidates read.
    mutating func refinedSelection() -> RowTopK {
        // Semantic mode ranks by the cosine itself: nothing is normalised.
        let normalizing = request.mode == .hybrid ? normalizationRows() : []
        readExactly(select(candidates, k: Self.refinedCount(limit: request.limit)).unordered.map(\.row) + normalizing)
        prepareFusion()
        let marks = buffers.isCandidate
        return select(semantic.exactCosines.keys.filter { marks[Int($0)] }.sorted(), k: request.limit)
    }

    /// How many rows at each end of the cosines ``refinedSelection()`` reads: the lowest and the
    /// highest exact cosine are among them unless more rows than that lie within the copy's
    /// error of it (4 kept every SciFact and Cranfield ranking byte-identical).
    static let normalizationProbes = 4

    /// The rows with the ``normalizationProbes`` lowest cosines among the candidates and the
    /// floor's probes, and with the highest among the candidates (ties to the lower row), in
    /// one pass.
    private func normalizationRows() -> [Int32] {
        typealias Scored = (cosine: Float, row: Int32)
        var lowest = BoundedHeap<Scored>(k: Self.normalizationProbes)
        var highest = BoundedHeap<Scored>(k: Self.normalizationProbes)
        // `worse` puts first what goes first: the highest of the lowest, the lowest of the highest.
        let higher = { (a: Scored, b: Scored) in a.cosine != b.cosine ? a.cosine > b.cosine : a.row > b.row }
        let lower = { (a: Scored, b: Scored) in a.cosine != b.cosine ? a.cosine < b.cosine : a.row > b.row }
        buffers.cosine.withUnsafeBufferPointer { cosine in
            for row in candidates {
                let scored = (cosine[Int(row)], row)
                if !lowest.isFull || higher(lowest.worst!, scored) { lowest.offer(scored, worse: higher) }
                if !highest.isFull || lower(highest.worst!, scored) { highest.offer(scored, worse: lower) }
            }
            for row in floorRows {
                let scored = (cosine[Int(row)], row)
                if !lowest.isFull || higher(lowest.worst!, scored) { lowest.offer(scored, worse: higher) }
            }
        }
        return lowest.unordered.map(\.row) + highest.unordered.map(\.row)
    }

    /// The BM25F of `row` before keyword feedback added to it.
    func keywordScoreBeforeFeedback(_ row: Int32) -> Float {
        keywordFeedback.rows.firstIndex(of: row).map { keywordFeedback.before[$0] } ?? bm25[Int(row)]
    }
}
