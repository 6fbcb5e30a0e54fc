import Foundation

/// Step 1 of ``Ranker``: the candidates, from both halves.
extension Ranker {
    /// Both halves' first step: the keyword walk and the vector scan. In hybrid mode over the
    /// quantized copy they run at once: the walk, and the keyword candidates it gives, as one more
    /// task beside the scan's parts (``QuantizedRows/approximateScores(for:into:beside:)``).
    /// The scores are those of one after the other, bit for bit (the walk is one thread's,
    /// which the split walk equals), and so are the candidates.
    mutating func scoreBothHalves() {
        guard request.mode == .hybrid, let embedder, let vectors = state.vectors, let quantized = vectors.quantized,
            vectors.capacity >= quantizedScanMinimumRows
        else {
            scoreKeywordMatches()
            scanVectors()
            return
        }
        semantic.queryVector = queryVector(with: embedder)
        // The scan writes only `cosine`, the task beside it everything else.
        var cosine: [Float] = []
        swap(&cosine, &buffers.cosine)
        quantized.approximateScores(for: semantic.queryVector, into: &cosine) {
            state.keyword.accumulate(request.terms, into: &buffers.accumulator, splitAbove: .max)
            bm25 = buffers.accumulator.takeScores()
            gatherKeywordCandidates()
        }
        swap(&cosine, &buffers.cosine)
        semantic.approximate = true
        semantic.hasCosine = true
    }

    /// The query's vector: each word's features weighted by its idf in this index (a word no
    /// item holds by a share of it).
    private func queryVector(with embedder: any Embedder) -> [Float] {
        QueryTermWeights(keyword: state.keyword, exponent: fusion.queryTermWeighting, absent: fusion.absentWordWeight)
            .embed(request.text, with: embedder)
    }

    /// Keyword half: BM25F of every row that matches the query's terms (none in semantic mode).
    mutating func scoreKeywordMatches() {
        if request.mode != .semantic { state.keyword.accumulate(request.terms, into: &buffers.accumulator) }
        bm25 = buffers.accumulator.takeScores()
    }

    /// Semantic half: the cosine of every row, one pass over the matrix — over the quantized copy
    /// when the index keeps one and has enough rows, whose scores only nominate
    /// (``nominateBySemantic()``).
    mutating func scanVectors() {
        guard request.mode != .keyword, let embedder, let vectors = state.vectors else { return }
        semantic.queryVector = queryVector(with: embedder)
        if let quantized = vectors.quantized, vectors.capacity >= quantizedScanMinimumRows {
            quantized.approximateScores(for: semantic.queryVector, into: &buffers.cosine)
            semantic.approximate = true
        } else {
            vectors.scores(for: semantic.queryVector, into: &buffers.cosine)
        }
        semantic.hasCosine = true
    }

    /// The candidates of hybrid and semantic mode, marked in ``RankingBuffers/isCandidate``:
    /// the keyword matches that pass the filters (bounded on a large index), then the best rows
    /// by cosine that pass them.
    mutating func gatherCandidates() {
        if request.mode != .semantic && !keywordCandidatesGathered { gatherKeywordCandidates() }
        if semantic.hasCosine { nominateBySemantic() }
    }

    /// The keyword matches that pass the filters, bounded on a large index, marked as candidates.
    private mutating func gatherKeywordCandidates() {
        takeKeywordMatches()
        boundKeywordCandidates()
        for row in candidates { buffers.isCandidate[Int(row)] = true }
        keywordCandidatesGathered = true
    }

    /// The keyword matches that pass the filters (postings hold only live rows).
    mutating func takeKeywordMatches() {
        if filter.admitsEveryLiveRow {
            candidates = buffers.accumulator.touched
        } else {
            for row in buffers.accumulator.touched where filter.admits(row) { candidates.append(row) }
        }
    }

    /// A large index (``FusionParameters/keywordCandidates``): only the matches scoring at
    /// least the m-th best BM25F stay (ties kept, so no identifier is compared), and every match
    /// whose title may begin with the query (the title-prefix boost can lift it from below them).
    /// The others go to ``floorRows``, whose lowest cosines still set fusion's floor.
    mutating func boundKeywordCandidates() {
        let m = fusion.keywordCandidateBound(rows: capacity)
        guard request.mode == .hybrid, m > 0, candidates.count > m else { return }
        let titled = priors.titled
        let accumulator = buffers.accumulator
        // Every match's score, read once (scattered reads, ahead of need); then the floor among
        // those that the title-prefix boost cannot lift, then the split.
        let scores = bm25.withUnsafeBufferPointer { ScatteredReads.gather($0, at: candidates) }
        var unlifted = scores
        if titled {
            unlifted = []
            unlifted.reserveCapacity(candidates.count)
            for (i, row) in candidates.enumerated() where !accumulator.mayBeginTitle(row: row) { unlifted.append(scores[i]) }
        }
        guard unlifted.count >= m else { return }
        let floor = Self.largest(m, of: unlifted)
        var kept: [Int32] = []
        kept.reserveCapacity(m + m / 4)
        for (i, row) in candidates.enumerated() {
            if scores[i] >= floor || (titled && accumulator.mayBeginTitle(row: row)) {
                kept.append(row)
            } else {
                floorRows.append(row)
            }
        }
        candidates = kept
    }

    /// The best rows by cosine that pass the filters join the candidates. Semantic mode takes
    /// as many as hybrid: the priors (donations, ranking hint, domain boost) may lift an item
    /// from below the top k by cosine alone. The quantized scan only nominates: it takes more
    /// (in semantic mode four times more than in hybrid, where no keyword match backs them),
    /// re-scores them exactly and keeps the best of them by exact cosine, as the exact scan
    /// would have.
    mutating func nominateBySemantic() {
        let wanted = max(fusion.semanticCandidates, request.limit)
        let alone = request.mode == .semantic
        let k = semantic.approximate ? state.vectors?.quantized?.nominees(for: wanted, alone: alone) ?? wanted : wanted
        let order = self.order
        var nominees = semantic.approximate ? approximateNominees(k: k) : bestByCosine(k: k).sorted(precedes: order.precedes).map(\.row)
        if semantic.approximate, let vectors = state.vectors {
            if request.mode == .hybrid { keepBoundMatches(among: nominees) }
            probeFloor()
            // One pass (over both cores when long) over every row whose cosine counts:
            // the keyword candidates, the nominees that are not among them, the floor's probes.
            var rows = candidates
            rows.reserveCapacity(candidates.count + nominees.count + floorRows.count)
            for row in nominees where !buffers.isCandidate[Int(row)] { rows.append(row) }
            rows += floorRows
            // From the re-scoring copy when the index keeps one (the best few are read from the
            // rows at the end, ``refinedSelection()``), else from the rows.
            vectors.rescores(for: semantic.queryVector, rows: rows, into: &buffers.cosine)
            semantic.rescored = vectors.rescoring != nil
            // Only nominees scoring at least the wanted-th best exact cosine can be kept: offer
            // those (nominees come in no order, and offered in rising order each would replace
            // the heap's root).
            var floor = -Float.infinity
            if nominees.count > wanted {
                var scores = nominees.map { buffers.cosine[Int($0)] }
                floor = Selection.largest(wanted, of: &scores)
            }
            var exact = RowTopK(k: wanted)
            for row in nominees where buffers.cosine[Int(row)] >= floor {
                exact.insert(score: buffers.cosine[Int(row)], row: row, precedes: order.precedes)
            }
            nominees = exact.sorted(precedes: order.precedes).map(\.row)
        } else {
            probeFloor()
        }
        for row in nominees where !buffers.isCandidate[Int(row)] {
            candidates.append(row)
            buffers.isCandidate[Int(row)] = true
        }
    }

    /// The keyword matches among the quantized scan's nominees that the bound on keyword candidates
    /// left out (none when nothing was bound) join the candidates: they are re-scored with the
    /// nominees anyway, and a high cosine is what could lift a match from below the bound into
    /// the top. (Nominees pass the filters already.)
    private mutating func keepBoundMatches(among nominees: [Int32]) {
        for row in nominees where bm25[Int(row)] > 0 && !buffers.isCandidate[Int(row)] {
            candidates.append(row)
            buffers.isCandidate[Int(row)] = true
        }
    }

    /// How many of the matches the bound left out count toward the cosine floor: those with the
    /// lowest cosines. 256 gave the exact path's top 10 on all of 1,000 bench queries at 100k
    /// (32 already did; 1,024 gave the same scores too).
    static let floorProbes = 256

    /// Of the matches the bound left out (``floorRows``) and did not become candidates, keeps
    /// the ``floorProbes`` with the lowest cosine — approximate after the quantized scan (the caller
    /// then re-scores them exactly): the lowest exact cosine of every match is almost always
    /// among them.
    private mutating func probeFloor() {
        guard !floorRows.isEmpty else { return }
        if floorRows.count > Self.floorProbes {
            floorRows = buffers.cosine.withUnsafeBufferPointer { Self.lowest(Self.floorProbes, of: floorRows, cosine: $0) }
        }
        // Nominated matches are candidates now (with high cosines, so rarely among these).
        let marks = buffers.isCandidate
        floorRows.removeAll { marks[Int($0)] }
    }

    /// The rows of `rows` whose cosine is at most the `count`-th lowest (ties all kept), in
    /// their order.
    static func lowest(_ count: Int, of rows: [Int32], cosine: UnsafeBufferPointer<Float>) -> [Int32] {
        let negated = ScatteredReads.gather(cosine, at: rows).map { -$0 }
        let ceiling = Self.largest(count, of: negated)
        var kept: [Int32] = []
        kept.reserveCapacity(count)
        for (i, row) in rows.enumerated() where !(negated[i] < ceiling) { kept.append(row) }
        return kept
    }

    /// The `m`-th largest of `values`: found among those at or above a sampled floor
    /// (``sampledFloor(_:capacity:k:)``), when at least `m` are, else among all of them.
    static func largest(_ m: Int, of values: [Float]) -> Float {
        values.withUnsafeBufferPointer { v in
            if let floor = sampledFloor(v, capacity: v.count, k: m) {
                var above: [Float] = []
                above.reserveCapacity(4 * m)
                for x in v where x >= floor { above.append(x) }
                if above.count >= m { return Selection.largest(m, of: &above) }
            }
            var all = Array(v)
            return Selection.largest(m, of: &all)
        }
    }

    /// The rows ``bestByCosine(k:)`` keeps, in no particular order: the quantized scan's nominees.
    /// Without a filter, when the sampled floor holds, the rows at or above it give them at once
    /// (``topRows(_:cosine:k:precedes:)``), with no heap of `k` built only to be read unordered;
    /// meanwhile, when the bound left out many matches, the floor's probes are chosen among
    /// them on the other core (``probeFloor()`` then only drops the nominated).
    private mutating func approximateNominees(k: Int) -> [Int32] {
        let capacity = self.capacity
        let order = self.order
        if filter.admitsEveryLiveRow, let occupied = state.vectors?.occupied {
            let matches = floorRows.count > Self.floorProbes && Parallel.cores > 1 ? floorRows : nil
            var rows: [Int32]?
            var probes: [Int32] = []
            buffers.cosine.withUnsafeBufferPointer { cosine in
                // Both tasks only read `cosine`; task 0 writes only `rows`, task 1 only `probes`.
                Parallel.forEach(iterations: matches == nil ? 1 : 2) { task in
                    if task == 0 {
                        rows = Self.sampledFloor(cosine, capacity: capacity, k: k).flatMap { floor in
                            Self.nominees(cosine, capacity: capacity, atLeast: floor, k: k, occupied: occupied, precedes: order.precedes)
                        }
                    } else if let matches {
                        probes = Self.lowest(Self.floorProbes, of: matches, cosine: cosine)
                    }
                }
            }
            if matches != nil { floorRows = probes }
            if let rows { return rows }
        }
        return bestByCosine(k: k).unordered.map(\.row)
    }

    /// The `k` best of `rows` (at least `k` of them) by score, ties to the row that `precedes`:
    /// every row scoring above the k-th best score, then as many as are left of those scoring
    /// it, in tie order. The set a ``RowTopK`` of `k` keeps when offered `rows`; rows in their
    /// order, ties last.
    static func topRows(_ rows: [Int32], cosine: UnsafeBufferPointer<Float>, k: Int, precedes: (Int32, Int32) -> Bool) -> [Int32] {
        var scores = rows.map { cosine[Int($0)] }
        let kth = Selection.largest(k, of: &scores)
        var kept: [Int32] = []
        kept.reserveCapacity(k)
        var ties: [Int32] = []
        for row in rows {
            let score = cosine[Int(row)]
            if score > kth {
                kept.append(row)
            } else if score == kth {
                ties.append(row)
            }
        }
        if kept.count + ties.count > k { ties.sort(by: precedes) }
        kept += ties.prefix(k - kept.count)
        return kept
    }

    /// The best `k` rows by cosine that pass the filters. Without a filter, the best rows by
    /// score, then those without a vector (free rows) taken out; only if one was does the
    /// selection run again, row by row. Ties with a free row (which has no id) put it after
    /// every item, free rows by row.
    private mutating func bestByCosine(k: Int) -> RowTopK {
        var best = RowTopK(k: k)
        var filter = self.filter
        defer { self.filter = filter }
        let order = self.order
        let ids = self.ids
        let capacity = self.capacity
        let occupied = filter.admitsEveryLiveRow ? state.vectors?.occupied : nil
        buffers.cosine.withUnsafeBufferPointer { cosine in
            if let occupied, let floor = Self.sampledFloor(cosine, capacity: capacity, k: k),
                let rows = Self.nominees(cosine, capacity: capacity, atLeast: floor, k: k, occupied: occupied, precedes: order.precedes)
            {
                for row in rows { best.insert(score: cosine[Int(row)], row: row, precedes: order.precedes) }
                return
            }
            guard let occupied else {
                Self.nominate(cosine, capacity: capacity, into: &best, precedes: order.precedes) { r in filter.admits(Int32(r)) }
                return
            }
            let precedesOrFree = { (a: Int32, b: Int32) -> Bool in
                switch (ids[Int(a)] == nil, ids[Int(b)] == nil) {
                case (false, false): order.precedes(a, b)
                case (true, true): a < b
                case (let aFree, _): !aFree
                }
            }
            Self.nominate(cosine, capacity: capacity, into: &best, precedes: precedesOrFree) { _ in true }
            if best.sorted(precedes: precedesOrFree).contains(where: { !(Int($0.row) < occupied.count && occupied[Int($0.row)]) }) {
                best = RowTopK(k: k)
                Self.nominate(cosine, capacity: capacity, into: &best, precedes: order.precedes) { r in
                    r < occupied.count && occupied[r]
                }
            }
        }
        return best
    }

    /// A score that at least `k` of `cosine[0..<capacity]` reach, almost always: from every
    /// 16th row, the score of rank `k / 16` plus a margin of a few standard deviations. nil when
    /// the rows are too few for a sample to pay.
    static func sampledFloor(_ cosine: UnsafeBufferPointer<Float>, capacity: Int, k: Int) -> Float? {
        let stride = 16
        let expected = k / stride
        let rank = expected + 4 * Int(Double(expected).squareRoot()) + 8
        guard k > 0, capacity >= 8192, rank * stride * 4 <= capacity else { return nil }
        var sample = BoundedHeap<Float>(k: rank)
        var r = 0
        while r < capacity {
            let score = cosine[r]
            if !sample.isFull || score > sample.worst! { sample.offer(score) { $0 < $1 } }
            r += stride
        }
        guard sample.isFull, let floor = sample.worst, floor.isFinite else { return nil }
        return floor
    }

    /// The best `k` occupied rows by score, in no particular order, when at least `k` of them
    /// score `floor` or more: only those rows are looked at (found with the SIMD threshold
    /// search, `sift_rows_at_least`), so the set is that of offering every row to a
    /// ``RowTopK`` of `k` (``topRows(_:cosine:k:precedes:)``). nil when fewer than `k` reach
    /// `floor`.
    static func nominees(
        _ cosine: UnsafeBufferPointer<Float>, capacity: Int, atLeast floor: Float, k: Int, occupied: [Bool],
        precedes: (Int32, Int32) -> Bool
    ) -> [Int32]? {
        guard capacity > 0, let base = cosine.baseAddress else { return nil }
        var rows: [Int32] = []
        rows.reserveCapacity(2 * k)
        LinearAlgebra.rowsAtLeast(base, count: capacity, floor, keep: occupied, into: &rows)
        return rows.count >= k ? topRows(rows, cosine: cosine, k: k, precedes: precedes) : nil
    }

    /// The best rows by score that `passes`, offered to `best` (the threshold search runs in
    /// SIMD, `LinearAlgebra.nextAtLeast`; the score test first: most rows fail it).
    private static func nominate(
        _ cosine: UnsafeBufferPointer<Float>, capacity: Int, into best: inout RowTopK, precedes: (Int32, Int32) -> Bool,
        passes: (Int) -> Bool
    ) {
        guard capacity > 0, let base = cosine.baseAddress else { return }
        var threshold = best.threshold
        var r = 0
        while true {
            r += LinearAlgebra.nextAtLeast(base + r, count: capacity - r, threshold)
            guard r < capacity else { break }
            if passes(r) {
                best.insert(score: cosine[r], row: Int32(r), precedes: precedes)
                threshold = best.threshold
            }
            r += 1
        }
    }
}
