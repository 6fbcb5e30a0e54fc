import Foundation

extension SearchIndex {
    /// The ranked results of `query` and a report of what was understood and filtered:
    /// parse → filter → rank (`Ranker`) → results.
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
        let parsed = understand(query, now: now, report: &report)
        let mode = try effectiveMode(query.mode, started: started, report: &report)
        var (filter, boostDomains) = filters(query, parsed: parsed, now: now, report: &report)

        var results: [SearchResult]
        var terms: [KeywordIndex.QueryTerm] = []
        if state.keyword.analyzer.terms(parsed.text).isEmpty {
            results = listNewestFirst(filter: &filter, limit: limit)
            report.filters.append("no search text left: filtered items, newest first")
        } else {
            // Keyword mode counts a repeated word again (BM25's k3); hybrid's fusion was tuned with
            // each word once, and counting repeats there measured worse on SciFact train.
            terms = state.keyword.queryTerms(parsed.text, prefixLastTerm: query.prefixLastTerm, countsRepeats: mode == .keyword)
            let request = Ranker.Request(
                text: parsed.text, terms: terms, mode: mode,
                limit: limit, now: now, prefixLastTerm: query.prefixLastTerm, boostDomains: boostDomains, explain: query.explain,
                exhaustive: query.scoresEveryCandidate, minimumRelevance: query.minimumRelevance)
            results = rank(request, filter: &filter, report: &report)
        }
        if query.snippets { results = withSnippets(results, terms: terms, searchedText: parsed.text) }
        reportDamagedRows()
        report.exclusions += filter.exclusions
        configuration.logger.log(
            LogRecord(
                operation: "search.\(mode.rawValue)", index: name, itemCount: results.count, duration: Date().timeIntervalSince(started),
                outcome: "ok"))
        return (results, report)
    }

    /// Once a query has found a vector row of the snapshot damaged (``RowChecks``; it was
    /// answered with the row's re-scoring copy): logs it and removes the snapshot, so that the
    /// next open rebuilds from the store (a read-only index leaves the file). No snapshot is
    /// written from these rows (``IndexSnapshot/write(_:key:in:)``).
    private func reportDamagedRows() {
        guard let row = state.vectors?.rowChecks?.takeReport() else { return }
        var outcome = "damaged: vector row \(row) does not match its checksum; answered from the re-scoring copy"
        if let directory = configuration.directory, !configuration.readOnly, snapshotGeneration != nil {
            IndexSnapshot.remove(in: directory)
            outcome += "; the snapshot is removed, the next open rebuilds from the store"
        }
        snapshotGeneration = nil
        configuration.logger.log(LogRecord(operation: "snapshot", index: name, itemCount: state.table.count, duration: 0, outcome: outcome))
    }

    /// Convenience: hybrid (or keyword, without a model) results for `text`.
    public func search(_ text: String, limit: Int = 10) throws -> [SearchResult] {
        try search(SearchQuery(text, limit: limit)).results
    }

    /// What the query says once understood: the text to rank by (date phrases and domain
    /// names taken out, spelling corrected), its date range and the domains it names.
    private func understand(_ query: SearchQuery, now: Date, report: inout QueryReport) -> (
        text: String, range: DateRange, namedDomains: [String]
    ) {
        var text = query.text
        var range = DateRange(start: query.since, end: query.until)
        var namedDomains: [String] = []
        if query.understandsPhrases {
            let parsed = queryParser().parse(query.text, now: now)
            text = parsed.text
            // The parser rebuilds the text from its words; a final separator the user typed says
            // the last word is whole (not a prefix), so it is kept.
            let typedWhole = query.text.unicodeScalars.last.map { !Analyzer.isWordScalarOrASCIIAlnum($0) } ?? false
            if typedWhole, let last = text.unicodeScalars.last, Analyzer.isWordScalarOrASCIIAlnum(last) { text += " " }
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
        return (text, range, namedDomains)
    }

    /// The mode the index can answer: hybrid falls back to keyword without a model; semantic
    /// mode without one is an error.
    private func effectiveMode(_ asked: SearchMode, started: Date, report: inout QueryReport) throws -> SearchMode {
        var mode = asked
        if mode != .keyword && (configuration.embedder == nil || vectors == nil) {
            if mode == .semantic {
                configuration.logger.log(
                    LogRecord(
                        operation: "search.semantic", index: name, itemCount: 0, duration: Date().timeIntervalSince(started),
                        outcome: "failed: no model"))
                throw IndexError.noModel("no model is loaded for this index")
            }
            mode = .keyword
            report.filters.append("no embedding model: hybrid falls back to keyword")
        }
        report.mode = mode
        return mode
    }

    /// The query's filters, applied before ranking, and the domains it named that only boost
    /// (naming a domain filters by it only when some item of it passes the other filters).
    private func filters(
        _ query: SearchQuery, parsed: (text: String, range: DateRange, namedDomains: [String]), now: Date,
        report: inout QueryReport
    ) -> (RowFilter, boostDomains: Set<String>) {
        let range = parsed.range
        let explicitDomains = Set(query.domains)
        if !explicitDomains.isEmpty { report.filters.append("domain ∈ {\(explicitDomains.sorted().joined(separator: ", "))}") }
        if range.start != nil || range.end != nil { report.filters.append("date \(range.siftDescription)") }
        var filter = RowFilter(attributes: state.attributes, now: now, explicitDomains: explicitDomains, range: range)
        var boostDomains = Set<String>()
        if !parsed.namedDomains.isEmpty {
            let named = Set(parsed.namedDomains)
            let table = state.attributes.membership(named)
            if filter.anyItem(in: table) {
                filter.wordDomains = table
                report.filters.append("domain ∈ {\(named.sorted().joined(separator: ", "))} (named in the query)")
            } else {
                boostDomains = named
                report.filters.append(
                    "no item of {\(named.sorted().joined(separator: ", "))} passes the other filters: domain only boosts")
            }
        }
        return (filter, boostDomains)
    }

    /// The ranking stage (`Ranker`) over the identifier table's ids by row, which break ties:
    /// whole items are read only for the rows it returns. The per-row buffers are taken from the
    /// scratch for this query and given back clean after it.
    private func rank(_ request: Ranker.Request, filter: inout RowFilter, report: inout QueryReport) -> [SearchResult] {
        state.table.withIDs { ids in
            var ranker = Ranker(
                request: request, state: state, ids: ids, configuration: configuration, capacity: table.capacity,
                filter: filter, report: report)
            swap(&ranker.buffers, &scratch.buffers)
            ranker.buffers.reserve(rows: table.capacity)
            let results = ranker.rank()
            ranker.finish()
            swap(&ranker.buffers, &scratch.buffers)
            filter = ranker.filter
            report = ranker.report
            return results
        }
    }

    /// The query parser for the index's current domains, built once per set of domains (it
    /// spells out every domain's phrases).
    private func queryParser() -> QueryParser {
        if let cached = scratch.parser, cached.domains == domainNames { return cached.parser }
        let parser = QueryParser(domains: domainNames.map { DomainName(identifier: $0.key, displayName: $0.value) })
        scratch.parser = (domainNames, parser)
        return parser
    }

    /// The `limit` newest items that pass the filters (dated before undated, then by id), by a
    /// bounded selection: O(n log limit), not a sort of every item.
    private func listNewestFirst(filter: inout RowFilter, limit: Int) -> [SearchResult] {
        guard limit > 0 else { return [] }
        let entries = state.attributes.entries
        let items = state.items
        return state.table.withIDs { ids in
            /// `a` lists before `b`.
            func before(_ a: Int32, _ b: Int32) -> Bool {
                let x = entries[Int(a)].date
                let y = entries[Int(b)].date
                switch (x.isNaN, y.isNaN) {
                case (false, false) where x != y: return x > y
                case (false, true): return true
                case (true, false): return false
                default: return ids[Int(a)]! < ids[Int(b)]!
                }
            }
            // `a` ranks below `b` when `b` lists before it.
            var heap = BoundedHeap<Int32>(k: limit)
            for r in 0..<ids.count where filter.admits(Int32(r)) {
                heap.offer(Int32(r)) { a, b in before(b, a) }
            }
            return heap.sorted { a, b in before(b, a) }.map { SearchResult(items[Int($0)]!, score: 0, explanation: nil) }
        }
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
