import Foundation

/// What one index's searches reuse from one query to the next (the actor runs one search at a
/// time): the keyword accumulator, the per-row cosine and candidate arrays — so that a query
/// costs its matches, not an allocation and a zeroing per row — and the query parser for the
/// current set of domains.
final class SearchScratch {
    var keyword = KeywordAccumulator()
    var cosine: [Float] = []
    var isCandidate: [Bool] = []
    /// Keyword feedback's per-row sums: zeros between queries.
    var feedbackSums: [Float] = []
    var parser: (domains: [String: String?], parser: QueryParser)?
}

/// The filters of one query (expiry, explicit domains, domains named in the query, dates) over
/// the compact ``RowAttributes``, counting what each excludes.
struct RowFilter {
    let entries: [RowAttributes.Entry]
    let now: Double
    /// Per domain code: admitted. nil: no such filter.
    let explicitDomains: [Bool]?
    var wordDomains: [Bool]?
    let start: Double?
    let end: Double?
    /// No item expires, so the expiry test can be skipped.
    let noneExpire: Bool
    var excludedExpired = 0, excludedDomain = 0, excludedNamedDomain = 0, excludedDate = 0

    init(attributes: RowAttributes, now: Date, explicitDomains: Set<String>, range: DateRange) {
        self.entries = attributes.entries
        self.now = now.timeIntervalSinceReferenceDate
        self.explicitDomains = explicitDomains.isEmpty ? nil : attributes.membership(explicitDomains)
        self.start = range.start?.timeIntervalSinceReferenceDate
        self.end = range.end?.timeIntervalSinceReferenceDate
        self.noneExpire = attributes.expiringCount == 0
    }

    /// Whether every live row passes (no filter, nothing expires): then the keyword matches,
    /// which are all live rows, need no test.
    var admitsEveryLiveRow: Bool {
        noneExpire && explicitDomains == nil && wordDomains == nil && start == nil && end == nil
    }

    @inline(__always)
    private static func admitted(_ code: UInt32, _ table: [Bool]) -> Bool {
        Int(code) < table.count && table[Int(code)]
    }

    @inline(__always)
    private func admitsDate(_ date: Double) -> Bool {
        guard start != nil || end != nil else { return true }
        if date.isNaN { return false }
        if let start, date < start { return false }
        if let end, date >= end { return false }
        return true
    }

    /// Whether some live item of the domains `named` (a membership table) passes the other
    /// filters (expiry, explicit domains, dates): then naming the domain in the query filters by it.
    func anyItem(in named: [Bool]) -> Bool {
        for e in entries where e.domain != RowAttributes.freeRow && Self.admitted(e.domain, named) && !(e.expires <= now) {
            if let explicitDomains, !Self.admitted(e.domain, explicitDomains) { continue }
            if admitsDate(e.date) { return true }
        }
        return false
    }

    /// Whether `row` holds an item that passes every filter; counts the first filter that
    /// excludes it.
    @inline(__always)
    mutating func admits(_ row: Int32) -> Bool {
        let r = Int(row)
        guard r < entries.count else { return false }
        let e = entries[r]
        guard e.domain != RowAttributes.freeRow else { return false }
        if !noneExpire && e.expires <= now { excludedExpired += 1; return false }
        if let explicitDomains, !Self.admitted(e.domain, explicitDomains) { excludedDomain += 1; return false }
        if let wordDomains, !Self.admitted(e.domain, wordDomains) { excludedNamedDomain += 1; return false }
        if !admitsDate(e.date) { excludedDate += 1; return false }
        return true
    }
}

extension SearchIndex {
    /// The ranked results of `query` and a report of what was understood and filtered.
    ///
    /// Filters (domain, date, expiry) are applied to candidates before ranking, so when k
    /// items match and pass them, k come back. Ties are broken by ``ItemID``.
    /// - Complexity: O(Σ postings of the query terms) for the keyword half; one pass over the
    ///   vector matrix (O(n · d)) for the semantic half; O(c log k) to select from c candidates.
    public func search(_ query: SearchQuery) throws -> (results: [SearchResult], report: QueryReport) {
        let started = Date()
        let now = query.now ?? configuration.clock()
        var report = QueryReport()
        let limit = max(0, min(query.limit, 1000))

        // Understand the query.
        var text = query.text
        var range = DateRange(start: query.since, end: query.until)
        var namedDomains: [String] = []
        if query.understandsPhrases {
            let parsed = queryParser().parse(query.text, now: now)
            text = parsed.text
            report.understood = parsed.understood
            namedDomains = parsed.domains
            if let r = parsed.dateRange { range = range.narrowed(by: r) }
        }
        if query.correctsSpelling && query.mode != .keyword {
            // Keyword mode stays literal BM25F. The word being typed is a prefix, not a typo.
            let typing = query.prefixLastTerm && (text.unicodeScalars.last.map(Analyzer.isWordScalarOrASCIIAlnum) ?? false)
            let fixed = SpellingCorrector().correct(
                text, keyword: state.keyword, vocabulary: configuration.embedder as? any WordVocabulary, keepLastWord: typing)
            text = fixed.text
            report.understood += fixed.corrections.map { "spelling: \"\($0.typed)\" → \"\($0.corrected)\"" }
        }
        report.searchedText = text

        var mode = query.mode
        if mode != .keyword && (configuration.embedder == nil || vectors == nil) {
            if mode == .semantic {
                configuration.logger.log(LogRecord(operation: "search.semantic", index: name, itemCount: 0, duration: Date().timeIntervalSince(started), outcome: "failed: no model"))
                throw IndexError.noModel("no model is loaded for this index")
            }
            mode = .keyword
            report.filters.append("no embedding model: hybrid falls back to keyword")
        }
        report.mode = mode

        // Filters, applied before ranking.
        let explicitDomains = Set(query.domains)
        if !explicitDomains.isEmpty { report.filters.append("domain ∈ {\(explicitDomains.sorted().joined(separator: ", "))}") }
        if range.start != nil || range.end != nil { report.filters.append("date \(range.siftDescription)") }
        var filter = RowFilter(attributes: state.attributes, now: now, explicitDomains: explicitDomains, range: range)
        var boostDomains = Set<String>()
        if !namedDomains.isEmpty {
            let named = Set(namedDomains)
            let table = state.attributes.membership(named)
            if filter.anyItem(in: table) {
                filter.wordDomains = table
                report.filters.append("domain ∈ {\(named.sorted().joined(separator: ", "))} (named in the query)")
            } else {
                boostDomains = named
                report.filters.append("no item of {\(named.sorted().joined(separator: ", "))} passes the other filters: domain only boosts")
            }
        }

        let queryTerms = state.keyword.queryTerms(text, prefixLastTerm: query.prefixLastTerm)
        let results: [SearchResult]
        if state.keyword.analyzer.terms(text).isEmpty {
            results = listNewestFirst(filter: &filter, limit: limit)
            report.filters.append("no search text left: filtered items, newest first")
        } else {
            results = state.items.withUnsafeBufferPointer { items in
                rank(text: text, terms: queryTerms, mode: mode, limit: limit, now: now, prefixLastTerm: query.prefixLastTerm,
                     filter: &filter, boostDomains: boostDomains, explain: query.explain, exhaustive: query.scoresEveryCandidate,
                     report: &report, items: items)
            }
        }
        for (what, count) in [("expiry", filter.excludedExpired), ("domain filter", filter.excludedDomain), ("domain named in the query", filter.excludedNamedDomain), ("date filter", filter.excludedDate)] where count > 0 {
            report.exclusions.append("\(what) excluded \(count) candidate\(count == 1 ? "" : "s")")
        }
        configuration.logger.log(LogRecord(operation: "search.\(mode.rawValue)", index: name, itemCount: results.count, duration: Date().timeIntervalSince(started), outcome: "ok"))
        return (results, report)
    }

    /// Convenience: hybrid (or keyword, without a model) results for `text`.
    public func search(_ text: String, limit: Int = 10) throws -> [SearchResult] {
        try search(SearchQuery(text, limit: limit)).results
    }

    /// The query parser for the index's current domains, built once per set of domains (it
    /// spells out every domain's phrases).
    private func queryParser() -> QueryParser {
        if let cached = scratch.parser, cached.domains == domainNames { return cached.parser }
        let parser = QueryParser(domains: domainNames.map { DomainName(identifier: $0.key, displayName: $0.value) })
        scratch.parser = (domainNames, parser)
        return parser
    }

    private func result(row: Int32, score: Float, explanation: Explanation?) -> SearchResult {
        let item = state.items[Int(row)]!
        return SearchResult(id: item.id, domain: item.domain, title: item.title, score: score, url: item.url, date: item.date, displayName: item.displayName, explanation: explanation)
    }

    /// The `limit` newest items that pass the filters (dated before undated, then by id), by a
    /// bounded selection: O(n log limit), not a sort of every item.
    private func listNewestFirst(filter: inout RowFilter, limit: Int) -> [SearchResult] {
        guard limit > 0 else { return [] }
        let entries = state.attributes.entries
        let rows: [Int32] = state.items.withUnsafeBufferPointer { items in
            /// `a` lists before `b`.
            func before(_ a: Int32, _ b: Int32) -> Bool {
                let x = entries[Int(a)].date, y = entries[Int(b)].date
                switch (x.isNaN, y.isNaN) {
                case (false, false) where x != y: return x > y
                case (false, true): return true
                case (true, false): return false
                default: return items[Int(a)]!.id < items[Int(b)]!.id
                }
            }
            // `a` ranks below `b` when `b` lists before it.
            var heap = BoundedHeap<Int32>(k: limit)
            for r in 0..<items.count where filter.admits(Int32(r)) {
                heap.offer(Int32(r)) { a, b in before(b, a) }
            }
            return heap.sorted { a, b in before(b, a) }
        }
        return rows.map { result(row: $0, score: 0, explanation: nil) }
    }

    /// Ranks the candidates over the item buffer, where `items[row]!.field` reads one field in
    /// place: the array's getter would copy the whole item (a dozen retains) for every candidate.
    ///
    /// A candidate's final score is its relevance times four factors (donations, ranking hint,
    /// named-domain boost, title prefix), each at most a bound known before ranking. Unless
    /// `exhaustive`, a candidate whose relevance times the product of those bounds is below the
    /// k-th best score so far is skipped without computing its factors: its score could not
    /// enter the top k (ties included, which go to the smaller id only at equal scores), so the
    /// results are those of scoring every candidate.
    private func rank(
        text: String, terms: [KeywordIndex.QueryTerm], mode: SearchMode, limit: Int, now: Date, prefixLastTerm: Bool,
        filter: inout RowFilter, boostDomains: Set<String>, explain: Bool, exhaustive: Bool, report: inout QueryReport,
        items: UnsafeBufferPointer<SearchableItem?>
    ) -> [SearchResult] {
        // Buffers kept between queries, taken out of the scratch for this one and reset after.
        let capacity = table.capacity
        var accumulator = KeywordAccumulator()
        swap(&accumulator, &scratch.keyword)
        accumulator.reserve(rows: capacity)
        var cosine: [Float] = [], isCandidate: [Bool] = [], feedbackSums: [Float] = []
        swap(&cosine, &scratch.cosine)
        swap(&isCandidate, &scratch.isCandidate)
        swap(&feedbackSums, &scratch.feedbackSums)
        if isCandidate.count < capacity { isCandidate += repeatElement(false, count: capacity - isCandidate.count) }
        var candidates: [Int32] = []
        let results = rank(
            text: text, terms: terms, mode: mode, limit: limit, now: now, prefixLastTerm: prefixLastTerm, filter: &filter,
            boostDomains: boostDomains, explain: explain, exhaustive: exhaustive, report: &report, items: items,
            accumulator: &accumulator, cosine: &cosine, isCandidate: &isCandidate, candidates: &candidates,
            feedbackSums: &feedbackSums)
        for row in candidates { isCandidate[Int(row)] = false }
        candidates = []  // may share the accumulator's list: release it before the reset
        accumulator.reset()
        swap(&accumulator, &scratch.keyword)
        swap(&cosine, &scratch.cosine)
        swap(&isCandidate, &scratch.isCandidate)
        swap(&feedbackSums, &scratch.feedbackSums)
        return results
    }

    private func rank(
        text: String, terms: [KeywordIndex.QueryTerm], mode: SearchMode, limit: Int, now: Date, prefixLastTerm: Bool,
        filter: inout RowFilter, boostDomains: Set<String>, explain: Bool, exhaustive: Bool, report: inout QueryReport,
        items: UnsafeBufferPointer<SearchableItem?>, accumulator: inout KeywordAccumulator, cosine: inout [Float],
        isCandidate: inout [Bool], candidates: inout [Int32], feedbackSums: inout [Float]
    ) -> [SearchResult] {
        let capacity = table.capacity
        let fusion = configuration.fusion
        let attributes = state.attributes

        /// Row `a`'s item id sorts before row `b`'s: the tie-break, asked only at equal scores.
        let precedes = { (a: Int32, b: Int32) -> Bool in items[Int(a)]!.id < items[Int(b)]!.id }

        // Keyword half: BM25F of every matching row.
        if mode != .semantic { state.keyword.accumulate(terms, into: &accumulator) }
        // Taken out of the accumulator (no copy) so that keyword feedback can add to candidates'
        // scores; what it added is taken back before the accumulator is reset and reused.
        var bm25 = accumulator.takeScores()
        // Keyword feedback's additions: the rows, what each gained and its score before.
        var feedbackRows: [Int32] = [], feedbackAdded: [Float] = [], keywordBeforeFeedback: [Float] = []
        defer {
            for (i, row) in feedbackRows.enumerated() { bm25[Int(row)] = keywordBeforeFeedback[i] }
            accumulator.giveBackScores(&bm25)
        }

        // Semantic half: cosine of every row, one pass over the matrix.
        var hasCosine = false
        var queryVector: [Float] = []
        var approximate = false
        if mode != .keyword, let embedder = configuration.embedder, let vectors {
            queryVector = embedder.embed(text)
            if let quantized = vectors.quantized {
                quantized.approximateScores(for: queryVector, into: &cosine)
                approximate = true
            } else {
                vectors.scores(for: queryVector, into: &cosine)
            }
            hasCosine = true
        }

        // The query's words, stop words included, for the title-prefix boost.
        var headWords: [String] = []
        state.keyword.analyzer.forEachWord(text) { word, _ in headWords.append(word) }
        let headHashes = headWords.map(KeywordIndex.wordHash)
        let lastIsPrefix = prefixLastTerm && (text.unicodeScalars.last.map(Analyzer.isWordScalarOrASCIIAlnum) ?? false)
        let boostCodes = attributes.membership(boostDomains)

        // Made once per query, not once per candidate.
        var fusionLabel = ""
        switch fusion.method {
        case .linear(let alpha): fusionLabel = "linear α=\(alpha)"
        case .reciprocalRank(let k): fusionLabel = "rrf k=\(k)"
        }

        // Bounds of the product of the factors, without and with the title-prefix boost, when
        // every factor is positive (then the product is monotone in each, in floating point
        // too); nil turns the skipping off.
        let titled = headWords.count >= 2 && headWords.count <= KeywordIndex.titleHeadLength
        let factorBounds: (plain: Float, titled: Float)? = {
            guard !exhaustive else { return nil }
            let strength = configuration.donations.strength
            let donation = donationLog.isEmpty ? (1, 1) : (min(1, 1 + strength * Float(1.0)), max(1, 1 + strength * Float(1.0)))
            let hs = fusion.rankingHintStrength
            let atZero = 1 + hs * (Float(0) - 50) / 50, atHundred = 1 + hs * (Float(100) - 50) / 50
            let hint = (min(1, atZero, atHundred), max(1, atZero, atHundred))
            let domain = boostDomains.isEmpty ? (1, 1) : (min(1, fusion.domainBoost), max(1, fusion.domainBoost))
            let title = titled ? (min(1, fusion.titlePrefixBoost), max(1, fusion.titlePrefixBoost)) : (Float(1), Float(1))
            guard donation.0 > 0, hint.0 > 0, domain.0 > 0, title.0 > 0 else { return nil }
            let plain = donation.1 * hint.1 * domain.1
            return (plain * 1, plain * title.1)
        }()
        /// Whether the title-prefix boost can apply to `row` (the accumulator knows which rows'
        /// titles hold every whole word of the query); always checked in full when exhaustive.
        @inline(__always) func mayBeginTitle(_ row: Int32) -> Bool {
            titled && (exhaustive || accumulator.mayBeginTitle(row: row))
        }

        var maxBM25: Float = 0
        var topCos: Float = -1, floorCos: Float = 1
        var keywordRank: [Int32: Int] = [:], semanticRank: [Int32: Int] = [:]

        /// The relevance of a candidate: the fused (or single-half) score before the factors.
        @inline(__always) func relevance(_ row: Int32) -> (keyword: Float, cosine: Float?, normalizedKeyword: Float, normalizedSemantic: Float, relevance: Float) {
            let keywordScore = bm25[Int(row)]
            let c: Float? = hasCosine ? cosine[Int(row)] : nil
            let nk = maxBM25 > 0 ? keywordScore / maxBM25 : 0
            var ns: Float = 0
            if let c { ns = topCos > floorCos ? (c - floorCos) / (topCos - floorCos) : 1 }
            let r: Float
            switch mode {
            case .keyword: r = keywordScore
            case .semantic: r = c ?? 0
            case .hybrid:
                switch fusion.method {
                case .linear(let alpha): r = alpha * nk + (1 - alpha) * ns
                case .reciprocalRank(let k):
                    r = (keywordRank[row].map { 1 / (k + Float($0)) } ?? 0) + (semanticRank[row].map { 1 / (k + Float($0)) } ?? 0)
                }
            }
            return (keywordScore, c, nk, ns, r)
        }

        /// Every part of a candidate's score.
        func score(_ row: Int32) -> Explanation {
            let (keywordScore, c, nk, ns, r) = relevance(row)
            var e = Explanation()
            e.keywordScore = keywordScore
            e.keywordFeedbackScore = feedbackRows.firstIndex(of: row).map { feedbackAdded[$0] } ?? 0
            e.cosine = c
            e.normalizedKeyword = nk
            e.normalizedSemantic = ns
            e.relevance = r
            switch mode {
            case .keyword: e.fusion = "bm25f"
            case .semantic: e.fusion = "cosine"
            case .hybrid: e.fusion = fusionLabel
            }
            let factors = factorsOf(row, relevance: r, keywordScore: keywordScore, cosine: c)
            e.donationScore = factors.donationScore
            e.donationFactor = factors.donation
            e.rankingHintFactor = factors.hint
            e.domainBoostFactor = factors.domain
            e.titlePrefixFactor = factors.title
            e.finalScore = factors.final
            return e
        }

        /// The factors and the final score; `Explanation` is built only for `--explain`.
        @inline(__always) func factorsOf(_ row: Int32, relevance: Float, keywordScore: Float, cosine c: Float?) -> (donationScore: Float, donation: Float, hint: Float, domain: Float, title: Float, final: Float) {
            let r = Int(row)
            var donationScore: Float = 0, donation: Float = 1, hint: Float = 1, domain: Float = 1, title: Float = 1
            let matches = keywordScore > 0 || (c ?? -1) >= fusion.semanticMatchThreshold
            if matches, relevance > 0, !donationLog.isEmpty, let list = donationLog[items[r]!.id] {
                let s = configuration.donations.score(list.map(\.date), now: now)
                donationScore = Float(s)
                donation = configuration.donations.factor(forScore: s)
            }
            let a = attributes.entries[r]
            if a.hint != RowAttributes.noHint {
                hint = 1 + fusion.rankingHintStrength * (Float(a.hint) - 50) / 50
            }
            if !boostCodes.isEmpty && Int(a.domain) < boostCodes.count && boostCodes[Int(a.domain)] { domain = fusion.domainBoost }
            if relevance > 0, mayBeginTitle(row), state.keyword.titleBegins(row: row, with: headWords, hashes: headHashes, lastIsPrefix: lastIsPrefix, title: { items[r]!.title }) {
                title = fusion.titlePrefixBoost
            }
            let factor = donation * hint * domain * title
            let final = relevance >= 0 ? relevance * factor : relevance / factor
            return (donationScore, donation, hint, domain, title, final)
        }

        /// Offers every candidate to a top-k heap, skipping those whose bound cannot enter it.
        func select(_ rows: [Int32]) -> RowTopK {
            var top = RowTopK(k: limit)
            var threshold = top.threshold
            for row in rows {
                let (keywordScore, c, _, _, r) = relevance(row)
                if let factorBounds, r >= 0, r * (mayBeginTitle(row) ? factorBounds.titled : factorBounds.plain) < threshold { continue }
                let s = factorsOf(row, relevance: r, keywordScore: keywordScore, cosine: c).final
                top.insert(score: s, row: row, precedes: precedes)
                threshold = top.threshold
            }
            return top
        }

        func results(_ top: RowTopK) -> [SearchResult] {
            top.sorted(precedes: precedes).map { entry in
                var explanation: Explanation?
                if explain {
                    var e = score(entry.row)
                    if mode != .semantic { e.keywordTerms = state.keyword.explain(terms, row: entry.row) }
                    explanation = e
                }
                return result(row: entry.row, score: entry.score, explanation: explanation)
            }
        }

        // Keyword mode: the candidates are the matches that pass the filters (postings hold
        // only live rows).
        if mode == .keyword {
            if filter.admitsEveryLiveRow {
                candidates = accumulator.touched
            } else {
                for row in accumulator.touched where filter.admits(row) { candidates.append(row) }
            }
            for row in candidates { maxBM25 = max(maxBM25, bm25[Int(row)]) }
            report.candidates = candidates.count
            return results(select(candidates))
        }

        // Candidates that pass the filters: the keyword matches and the best rows by cosine.
        if mode != .semantic {
            if filter.admitsEveryLiveRow {
                candidates = accumulator.touched
            } else {
                for row in accumulator.touched where filter.admits(row) { candidates.append(row) }
            }
            // A large index: the matches scoring at least the m-th best BM25F (ties kept, so no
            // identifier is compared), and every match whose title may begin with the query (the
            // title-prefix boost can lift it from below them).
            let m = fusion.keywordCandidates
            if mode == .hybrid, m > 0, candidates.count > m {
                var best = BoundedHeap<Float>(k: m)
                bm25.withUnsafeBufferPointer { scores in
                    candidates.withUnsafeBufferPointer { rows in
                        // The rows' scores are scattered reads.
                        for i in 0..<rows.count {
                            if i % ScatteredReads.block == 0 { ScatteredReads.prefetch(rows, before: i, (UnsafeRawPointer(scores.baseAddress), MemoryLayout<Float>.stride)) }
                            let row = rows[i]
                            guard !(titled && accumulator.mayBeginTitle(row: row)) else { continue }
                            let score = scores[Int(row)]
                            if !best.isFull || score > best.worst! { best.offer(score) { $0 < $1 } }
                        }
                    }
                }
                if best.isFull, let floor = best.worst {
                    candidates = candidates.filter { bm25[Int($0)] >= floor || (titled && accumulator.mayBeginTitle(row: $0)) }
                }
            }
            for row in candidates { isCandidate[Int(row)] = true }
        }
        if hasCosine {
            // Semantic mode takes as many nominees as hybrid: the priors (donations, ranking
            // hint, domain boost) may lift an item from below the top k by cosine alone.
            let wanted = max(fusion.semanticCandidates, limit)
            // The int8 scan only nominates: it takes more, re-scores them exactly and keeps the
            // best `wanted` of them by exact cosine, as the exact scan would have.
            let keywordCandidates = candidates.count
            var best = RowTopK(k: approximate ? vectors?.quantized?.nominees(for: wanted) ?? wanted : wanted)
            /// The best rows by score that `passes`, offered to `best` (the threshold search runs
            /// in SIMD, `LinearAlgebra.nextAtLeast`; the score test first: most rows fail it).
            func nominate(into best: inout RowTopK, precedes: (Int32, Int32) -> Bool, passes: (Int) -> Bool) {
                cosine.withUnsafeBufferPointer { cosine in
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
            let k = best.k
            if filter.admitsEveryLiveRow, let occupied = vectors?.occupied {
                // No filter applies: the best rows by score, then those without a vector (free
                // rows) taken out; only if one was does the selection run again, row by row.
                // Ties with a free row (which has no id) put it after every item, free rows by row.
                let precedesOrFree = { (a: Int32, b: Int32) -> Bool in
                    switch (items[Int(a)] == nil, items[Int(b)] == nil) {
                    case (false, false): precedes(a, b)
                    case (true, true): a < b
                    case (let aFree, _): !aFree
                    }
                }
                nominate(into: &best, precedes: precedesOrFree) { _ in true }
                if best.sorted(precedes: precedesOrFree).contains(where: { !(Int($0.row) < occupied.count && occupied[Int($0.row)]) }) {
                    best = RowTopK(k: k)
                    nominate(into: &best, precedes: precedes) { r in r < occupied.count && occupied[r] }
                }
            } else {
                nominate(into: &best, precedes: precedes) { r in filter.admits(Int32(r)) }
            }
            var nominees = best.sorted(precedes: precedes).map(\.row)
            if approximate, let vectors {
                vectors.exactScores(for: queryVector, rows: nominees, into: &cosine)
                var exact = RowTopK(k: wanted)
                for row in nominees { exact.insert(score: cosine[Int(row)], row: row, precedes: precedes) }
                nominees = exact.sorted(precedes: precedes).map(\.row)
                // The keyword matches' exact cosines.
                vectors.exactScores(for: queryVector, rows: Array(candidates[0..<keywordCandidates]), into: &cosine)
            }
            for row in nominees where !isCandidate[Int(row)] {
                candidates.append(row)
                isCandidate[Int(row)] = true
            }
        }
        report.candidates = candidates.count

        // Pseudo-relevance feedback in vector space (Rocchio): move the query vector towards
        // the best few first-pass results, then re-score the candidates' cosines. Only the
        // candidates are re-scored, so it costs c dot products, not another scan.
        let prfDocs = fusion.feedbackDocuments
        let prfBeta = fusion.feedbackWeight
        if mode == .hybrid, prfDocs > 0, hasCosine, let vectors, case .linear(let alpha) = fusion.method {
            var maxB: Float = 0, tc: Float = -1, fc: Float = 1
            for row in candidates { maxB = max(maxB, bm25[Int(row)]); tc = max(tc, cosine[Int(row)]); fc = min(fc, cosine[Int(row)]) }
            var first = RowTopK(k: prfDocs)
            for row in candidates {
                let k = maxB > 0 ? bm25[Int(row)] / maxB : 0
                let c = tc > fc ? (cosine[Int(row)] - fc) / (tc - fc) : 1
                first.insert(score: alpha * k + (1 - alpha) * c, row: row, precedes: precedes)
            }
            var q2 = queryVector
            for e in first.sorted(precedes: precedes) {
                let v = vectors.vector(at: e.row)
                for j in 0..<q2.count { q2[j] += prfBeta / Float(prfDocs) * v[j] }
            }
            let n = q2.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
            if n > 0 { for j in 0..<q2.count { q2[j] /= n } }
            vectors.exactScores(for: q2, rows: candidates, into: &cosine)
        }

        // Keyword feedback (RM3-like): the best first-pass result lends its most telling terms
        // to the keyword query, which re-scores the candidates (it adds none).
        if mode == .hybrid, fusion.keywordFeedbackDocuments > 0, fusion.keywordFeedbackTerms > 0, hasCosine,
           case .linear(let alpha) = fusion.method {
            var maxB: Float = 0, tc: Float = -1, fc: Float = 1
            for row in candidates { maxB = max(maxB, bm25[Int(row)]); tc = max(tc, cosine[Int(row)]); fc = min(fc, cosine[Int(row)]) }
            var first = TopK<ItemID>(k: fusion.keywordFeedbackDocuments)
            for row in candidates {
                let k = maxB > 0 ? bm25[Int(row)] / maxB : 0
                let c = tc > fc ? (cosine[Int(row)] - fc) / (tc - fc) : 1
                first.insert(score: alpha * k + (1 - alpha) * c, row: row, key: items[Int(row)]!.id)
            }
            let feedbackItems = first.sorted().map { items[Int($0.row)]! }
            let exclude = Set(terms.flatMap(\.terms))
            let feedbackTerms = state.keyword.feedbackTerms(of: feedbackItems, exclude: exclude, count: fusion.keywordFeedbackTerms)
            report.feedbackTerms = feedbackTerms
            let scale = fusion.keywordFeedbackWeight * Float(terms.count)
            if feedbackSums.count < capacity { feedbackSums += repeatElement(0, count: capacity - feedbackSums.count) }
            isCandidate.withUnsafeBufferPointer { marks in
                state.keyword.addFeedbackScores(feedbackTerms, admits: { marks[Int($0)] }, table: marks.baseAddress.map(UnsafeRawPointer.init), into: &feedbackSums, touched: &feedbackRows)
            }
            feedbackAdded.reserveCapacity(feedbackRows.count)
            keywordBeforeFeedback.reserveCapacity(feedbackRows.count)
            for row in feedbackRows {
                let added = scale * feedbackSums[Int(row)]
                feedbackSums[Int(row)] = 0
                feedbackAdded.append(added)
                keywordBeforeFeedback.append(bm25[Int(row)])
                bm25[Int(row)] += added
            }
        }

        // Fusion inputs.
        for row in candidates {
            maxBM25 = max(maxBM25, bm25[Int(row)])
            if hasCosine { topCos = max(topCos, cosine[Int(row)]); floorCos = min(floorCos, cosine[Int(row)]) }
        }
        if mode == .hybrid, case .reciprocalRank = fusion.method {
            let byKeyword = candidates.filter { bm25[Int($0)] > 0 }.sorted { bm25[Int($0)] != bm25[Int($1)] ? bm25[Int($0)] > bm25[Int($1)] : items[Int($0)]!.id < items[Int($1)]!.id }
            for (i, r) in byKeyword.enumerated() { keywordRank[r] = i + 1 }
            let bySemantic = candidates.sorted { cosine[Int($0)] != cosine[Int($1)] ? cosine[Int($0)] > cosine[Int($1)] : items[Int($0)]!.id < items[Int($1)]!.id }
            for (i, r) in bySemantic.enumerated() { semanticRank[r] = i + 1 }
        }
        return results(select(candidates))
    }
}

extension DateRange {
    /// The overlap of two ranges.
    fileprivate func narrowed(by other: DateRange) -> DateRange {
        let s = [start, other.start].compactMap { $0 }.max()
        let e = [end, other.end].compactMap { $0 }.min()
        return DateRange(start: s, end: e)
    }

    fileprivate var siftDescription: String {
        let f = ISO8601DateFormatter()
        return "[\(start.map { f.string(from: $0) } ?? "−∞"), \(end.map { f.string(from: $0) } ?? "+∞"))"
    }
}
