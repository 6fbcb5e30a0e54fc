import Foundation

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
        let items = state.items

        // Understand the query.
        var text = query.text
        var range = DateRange(start: query.since, end: query.until)
        var namedDomains: [String] = []
        if query.understandsPhrases {
            let names = domainNames.map { DomainName(identifier: $0.key, displayName: $0.value) }
            let parsed = QueryParser(domains: names).parse(query.text, now: now)
            text = parsed.text
            report.understood = parsed.understood
            namedDomains = parsed.domains
            if let r = parsed.dateRange { range = range.narrowed(by: r) }
        }
        if query.correctsSpelling && query.mode != .keyword {
            // Keyword mode stays literal BM25F. The word being typed is a prefix, not a typo.
            let typing = query.prefixLastTerm && (text.unicodeScalars.last.map(Analyzer.isWordScalarOrASCIIAlnum) ?? false)
            let fixed = SpellingCorrector().correct(
                text, keyword: keyword, vocabulary: configuration.embedder as? any WordVocabulary, keepLastWord: typing)
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
        func passesBase(_ item: SearchableItem) -> Bool {
            if item.isExpired(at: now) { return false }
            if !explicitDomains.isEmpty && !explicitDomains.contains(item.domain) { return false }
            if range.start != nil || range.end != nil {
                guard let date = item.date, range.admits(date) else { return false }
            }
            return true
        }
        var boostDomains = Set<String>()
        var wordDomains = Set<String>()
        if !namedDomains.isEmpty {
            let named = Set(namedDomains)
            if items.contains(where: { $0.map { named.contains($0.domain) && passesBase($0) } ?? false }) {
                wordDomains = named
                report.filters.append("domain ∈ {\(named.sorted().joined(separator: ", "))} (named in the query)")
            } else {
                boostDomains = named
                report.filters.append("no item of {\(named.sorted().joined(separator: ", "))} passes the other filters: domain only boosts")
            }
        }
        // Counters rather than a dictionary: this closure runs in the scan's inner loop.
        var excludedExpired = 0, excludedDomain = 0, excludedNamedDomain = 0, excludedDate = 0
        let hasDateFilter = range.start != nil || range.end != nil
        let passes: (Int32) -> Bool = { row in
            // Through the buffer, `items[r]!.field` reads one field in place; the array's getter
            // (and `items[r] != nil`) would copy the whole item, a dozen retains, for every row.
            let r = Int(row)
            let verdict = items.withUnsafeBufferPointer { items -> Int in
                guard items[r]?.isHidden != nil else { return 0 }
                if let expires = items[r]!.expires, expires <= now { return 1 }
                if !explicitDomains.isEmpty && !explicitDomains.contains(items[r]!.domain) { return 2 }
                if !wordDomains.isEmpty && !wordDomains.contains(items[r]!.domain) { return 3 }
                if hasDateFilter {
                    guard let date = items[r]!.date, range.admits(date) else { return 4 }
                }
                return 5
            }
            switch verdict {
            case 5: return true
            case 1: excludedExpired += 1
            case 2: excludedDomain += 1
            case 3: excludedNamedDomain += 1
            case 4: excludedDate += 1
            default: break
            }
            return false
        }

        let queryTerms = keyword.queryTerms(text, prefixLastTerm: query.prefixLastTerm)
        let results: [SearchResult]
        if keyword.analyzer.terms(text).isEmpty {
            results = listNewestFirst(passes: passes, limit: limit)
            report.filters.append("no search text left: filtered items, newest first")
        } else {
            results = rank(text: text, terms: queryTerms, mode: mode, limit: limit, now: now, prefixLastTerm: query.prefixLastTerm, passes: passes, boostDomains: boostDomains, explain: query.explain, report: &report)
        }
        for (what, count) in [("expiry", excludedExpired), ("domain filter", excludedDomain), ("domain named in the query", excludedNamedDomain), ("date filter", excludedDate)] where count > 0 {
            report.exclusions.append("\(what) excluded \(count) candidate\(count == 1 ? "" : "s")")
        }
        configuration.logger.log(LogRecord(operation: "search.\(mode.rawValue)", index: name, itemCount: results.count, duration: Date().timeIntervalSince(started), outcome: "ok"))
        return (results, report)
    }

    /// Convenience: hybrid (or keyword, without a model) results for `text`.
    public func search(_ text: String, limit: Int = 10) throws -> [SearchResult] {
        try search(SearchQuery(text, limit: limit)).results
    }

    private func result(row: Int32, score: Float, explanation: Explanation?) -> SearchResult {
        let item = state.items[Int(row)]!
        return SearchResult(id: item.id, domain: item.domain, title: item.title, score: score, url: item.url, date: item.date, displayName: item.displayName, explanation: explanation)
    }

    private func listNewestFirst(passes: (Int32) -> Bool, limit: Int) -> [SearchResult] {
        let items = state.items
        var rows: [Int32] = []
        for r in 0..<items.count where items[r] != nil && passes(Int32(r)) { rows.append(Int32(r)) }
        rows.sort { a, b in
            let x = items[Int(a)]!, y = items[Int(b)]!
            switch (x.date, y.date) {
            case let (l?, r?) where l != r: return l > r
            case (.some, nil): return true
            case (nil, .some): return false
            default: return x.id < y.id
            }
        }
        return rows.prefix(limit).map { result(row: $0, score: 0, explanation: nil) }
    }

    private func rank(
        text: String, terms: [KeywordIndex.QueryTerm], mode: SearchMode, limit: Int, now: Date, prefixLastTerm: Bool,
        passes: (Int32) -> Bool, boostDomains: Set<String>, explain: Bool, report: inout QueryReport
    ) -> [SearchResult] {
        state.items.withUnsafeBufferPointer { items in
            rank(text: text, terms: terms, mode: mode, limit: limit, now: now, prefixLastTerm: prefixLastTerm, passes: passes, boostDomains: boostDomains, explain: explain, report: &report, items: items)
        }
    }

    /// ``rank`` over the item buffer, where `items[row]!.field` reads one field in place: the
    /// array's getter would copy the whole item (a dozen retains) for every candidate.
    private func rank(
        text: String, terms: [KeywordIndex.QueryTerm], mode: SearchMode, limit: Int, now: Date, prefixLastTerm: Bool,
        passes: (Int32) -> Bool, boostDomains: Set<String>, explain: Bool, report: inout QueryReport,
        items: UnsafeBufferPointer<SearchableItem?>
    ) -> [SearchResult] {
        let capacity = table.capacity
        let fusion = configuration.fusion

        // Keyword half: BM25F of every matching row.
        var bm25 = [Float](repeating: 0, count: capacity)
        var touched: [Int32] = []
        if mode != .semantic { keyword.accumulate(terms, scores: &bm25, touched: &touched) }

        // Semantic half: cosine of every row, one sgemv.
        var cosine: [Float] = []
        var queryVector: [Float] = []
        var approximate = false
        if mode != .keyword, let embedder = configuration.embedder, let vectors {
            queryVector = embedder.embed(text)
            cosine = [Float](repeating: 0, count: capacity)
            if let quantized = vectors.quantized {
                quantized.approximateScores(for: queryVector, into: &cosine)
                approximate = true
            } else {
                vectors.scores(for: queryVector, into: &cosine)
            }
        }

        // Candidates that pass the filters.
        var candidates: [Int32] = []
        var isCandidate = [Bool](repeating: false, count: capacity)
        if mode != .semantic {
            for row in touched where passes(row) {
                candidates.append(row)
                isCandidate[Int(row)] = true
            }
        }
        if mode != .keyword && !cosine.isEmpty {
            // Semantic mode takes as many nominees as hybrid: the priors (donations, ranking
            // hint, domain boost) may lift an item from below the top k by cosine alone.
            var m = max(fusion.semanticCandidates, limit)
            // The int8 scan only nominates: take more, then re-score them exactly.
            if approximate { m = max(m * 2, 40) }
            var best = TopK<ItemID>(k: m)
            // The score test first: most rows fail it, and `passes` rejects free rows anyway.
            for r in 0..<capacity {
                let s = cosine[r]
                if s >= best.threshold && passes(Int32(r)) { best.insert(score: s, row: Int32(r), key: items[r]!.id) }
            }
            for e in best.sorted() where !isCandidate[Int(e.row)] {
                candidates.append(e.row)
                isCandidate[Int(e.row)] = true
            }
        }
        if approximate, let vectors {
            for row in candidates { cosine[Int(row)] = vectors.exactScore(for: queryVector, row: row) }
        }
        report.candidates = candidates.count

        // Pseudo-relevance feedback in vector space (Rocchio): move the query vector towards
        // the best few first-pass results, then re-score the candidates' cosines. Only the
        // candidates are re-scored, so it costs c dot products, not another scan.
        let prfDocs = fusion.feedbackDocuments
        let prfBeta = fusion.feedbackWeight
        if mode == .hybrid, prfDocs > 0, !cosine.isEmpty, let vectors, case .linear(let alpha) = fusion.method {
            var maxB: Float = 0, tc: Float = -1, fc: Float = 1
            for row in candidates { maxB = max(maxB, bm25[Int(row)]); tc = max(tc, cosine[Int(row)]); fc = min(fc, cosine[Int(row)]) }
            var first = TopK<ItemID>(k: prfDocs)
            for row in candidates {
                let k = maxB > 0 ? bm25[Int(row)] / maxB : 0
                let c = tc > fc ? (cosine[Int(row)] - fc) / (tc - fc) : 1
                first.insert(score: alpha * k + (1 - alpha) * c, row: row, key: items[Int(row)]!.id)
            }
            var q2 = queryVector
            for e in first.sorted() {
                let v = vectors.vector(at: e.row)
                for j in 0..<q2.count { q2[j] += prfBeta / Float(prfDocs) * v[j] }
            }
            let n = q2.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
            if n > 0 { for j in 0..<q2.count { q2[j] /= n } }
            for row in candidates { cosine[Int(row)] = vectors.exactScore(for: q2, row: row) }
        }

        // Keyword feedback (RM3-like): the best first-pass result lends its most telling terms
        // to the keyword query, which re-scores the candidates (it adds none).
        var feedbackScore: [Int32: Float] = [:]
        if mode == .hybrid, fusion.keywordFeedbackDocuments > 0, fusion.keywordFeedbackTerms > 0, !cosine.isEmpty,
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
            let feedbackTerms = keyword.feedbackTerms(of: feedbackItems, exclude: exclude, count: fusion.keywordFeedbackTerms)
            report.feedbackTerms = feedbackTerms
            let scale = fusion.keywordFeedbackWeight * Float(terms.count)
            feedbackScore = keyword.feedbackScores(feedbackTerms) { isCandidate[Int($0)] }
            for (row, s) in feedbackScore {
                feedbackScore[row] = scale * s
                bm25[Int(row)] += scale * s
            }
        }

        // Fusion inputs.
        var maxBM25: Float = 0
        var topCos: Float = -1, floorCos: Float = 1
        for row in candidates {
            maxBM25 = max(maxBM25, bm25[Int(row)])
            if !cosine.isEmpty { topCos = max(topCos, cosine[Int(row)]); floorCos = min(floorCos, cosine[Int(row)]) }
        }
        var keywordRank: [Int32: Int] = [:], semanticRank: [Int32: Int] = [:]
        if mode == .hybrid, case .reciprocalRank = fusion.method {
            let byKeyword = candidates.filter { bm25[Int($0)] > 0 }.sorted { bm25[Int($0)] != bm25[Int($1)] ? bm25[Int($0)] > bm25[Int($1)] : items[Int($0)]!.id < items[Int($1)]!.id }
            for (i, r) in byKeyword.enumerated() { keywordRank[r] = i + 1 }
            let bySemantic = candidates.sorted { cosine[Int($0)] != cosine[Int($1)] ? cosine[Int($0)] > cosine[Int($1)] : items[Int($0)]!.id < items[Int($1)]!.id }
            for (i, r) in bySemantic.enumerated() { semanticRank[r] = i + 1 }
        }

        // The query's words, stop words included, for the title-prefix boost.
        var headWords: [String] = []
        keyword.analyzer.forEachWord(text) { word, _ in headWords.append(word) }
        let headHashes = headWords.map(KeywordIndex.wordHash)
        let lastIsPrefix = prefixLastTerm && (text.unicodeScalars.last.map(Analyzer.isWordScalarOrASCIIAlnum) ?? false)

        // Made once per query, not once per candidate.
        var fusionLabel = ""
        switch fusion.method {
        case .linear(let alpha): fusionLabel = "linear α=\(alpha)"
        case .reciprocalRank(let k): fusionLabel = "rrf k=\(k)"
        }

        func score(_ row: Int32) -> Explanation {
            var e = Explanation()
            e.keywordScore = bm25[Int(row)]
            e.keywordFeedbackScore = feedbackScore[row] ?? 0
            e.cosine = cosine.isEmpty ? nil : cosine[Int(row)]
            e.normalizedKeyword = maxBM25 > 0 ? e.keywordScore / maxBM25 : 0
            if let c = e.cosine { e.normalizedSemantic = topCos > floorCos ? (c - floorCos) / (topCos - floorCos) : 1 }
            switch mode {
            case .keyword:
                e.relevance = e.keywordScore
                e.fusion = "bm25f"
            case .semantic:
                e.relevance = e.cosine ?? 0
                e.fusion = "cosine"
            case .hybrid:
                switch fusion.method {
                case .linear(let alpha):
                    e.relevance = alpha * e.normalizedKeyword + (1 - alpha) * e.normalizedSemantic
                    e.fusion = fusionLabel
                case .reciprocalRank(let k):
                    e.relevance = (keywordRank[row].map { 1 / (k + Float($0)) } ?? 0) + (semanticRank[row].map { 1 / (k + Float($0)) } ?? 0)
                    e.fusion = fusionLabel
                }
            }
            let r = Int(row)
            let matches = e.keywordScore > 0 || (e.cosine ?? -1) >= fusion.semanticMatchThreshold
            if matches, e.relevance > 0, !donationLog.isEmpty, let list = donationLog[items[r]!.id] {
                let s = configuration.donations.score(list.map(\.date), now: now)
                e.donationScore = Float(s)
                e.donationFactor = configuration.donations.factor(forScore: s)
            }
            if let hint = items[r]!.rankingHint {
                e.rankingHintFactor = 1 + fusion.rankingHintStrength * (Float(min(max(hint, 0), 100)) - 50) / 50
            }
            if !boostDomains.isEmpty && boostDomains.contains(items[r]!.domain) { e.domainBoostFactor = fusion.domainBoost }
            if e.relevance > 0, keyword.titleBegins(row: row, with: headWords, hashes: headHashes, lastIsPrefix: lastIsPrefix, title: { items[r]!.title }) {
                e.titlePrefixFactor = fusion.titlePrefixBoost
            }
            let factor = e.donationFactor * e.rankingHintFactor * e.domainBoostFactor * e.titlePrefixFactor
            e.finalScore = e.relevance >= 0 ? e.relevance * factor : e.relevance / factor
            return e
        }

        var top = TopK<ItemID>(k: limit)
        for row in candidates {
            let e = score(row)
            top.insert(score: e.finalScore, row: row, key: items[Int(row)]!.id)
        }
        return top.sorted().map { entry in
            var explanation: Explanation?
            if explain {
                var e = score(entry.row)
                if mode != .semantic { e.keywordTerms = keyword.explain(terms, row: entry.row) }
                explanation = e
            }
            return result(row: entry.row, score: entry.score, explanation: explanation)
        }
    }
}

extension DateRange {
    /// Whether `date` lies in the half-open range [start, end).
    fileprivate func admits(_ date: Date) -> Bool {
        if let start, date < start { return false }
        if let end, date >= end { return false }
        return true
    }

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
