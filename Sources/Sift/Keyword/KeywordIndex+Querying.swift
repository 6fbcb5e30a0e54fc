import Foundation

/// Querying: a query's terms and their expansions, and the term order prefix expansion walks.
extension KeywordIndex {
    /// One query term after analysis, and the index terms it matches.
    package struct QueryTerm: Sendable, Equatable {
        /// The word as typed (normalised).
        package var word: String
        /// The index terms it matches: its stem, or for a prefix every term starting with it.
        package var terms: [String]
        package var isPrefix: Bool
        /// How many times the query says the word (its stem; a prefix counts once).
        package var count = 1
        /// Its idf multiplies by this: ``BM25Parameters/queryFrequencyWeight(_:queryTerms:)`` of
        /// ``count`` and the query's length (exactly 1 for a word said once, so such a query
        /// scores as if it had no such factor).
        package var weight: Float = 1
    }

    /// Analyses a query. With `prefixLastTerm`, the last word (when the query does not end in
    /// a separator) also matches every index term that starts with it, as-you-type. With
    /// `countsRepeats`, a word said n times weighs
    /// ``BM25Parameters/queryFrequencyWeight(_:queryTerms:)`` of n (and of the query's terms,
    /// stop words aside); without, once.
    package func queryTerms(
        _ query: String, prefixLastTerm: Bool = true, maxExpansions: Int = 1024, countsRepeats: Bool = false
    ) -> [QueryTerm] {
        let words = analyzer.terms(query)
        var result: [QueryTerm] = []
        /// Per whole-word stem, its place in `result`.
        var seen: [String: Int] = [:]
        let endsInWord = query.unicodeScalars.last.map(Analyzer.isWordScalarOrASCIIAlnum) ?? false
        for (i, word) in words.enumerated() {
            let stem = PorterStemmer.stem(word)
            if prefixLastTerm && endsInWord && i == words.count - 1 {
                var terms = expansions(of: word, limit: maxExpansions)
                if termIDs[stem] != nil && !terms.contains(stem) { terms.append(stem) }
                result.append(QueryTerm(word: word, terms: terms.sorted(), isPrefix: true))
            } else if let at = seen[stem] {
                result[at].count += 1
            } else {
                seen[stem] = result.count
                result.append(QueryTerm(word: word, terms: [stem], isPrefix: false))
            }
        }
        if countsRepeats {
            for i in result.indices where result[i].count > 1 {
                result[i].weight = parameters.queryFrequencyWeight(result[i].count, queryTerms: words.count)
            }
        }
        return result
    }

    /// The index terms starting with `prefix`, most frequent first, at most `limit`.
    func expansions(of prefix: String, limit: Int) -> [String] {
        let sorted = sortedTermOrder()
        var lo = 0
        var hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if termStrings[Int(sorted[mid])].utf8.lexicographicallyPrecedes(prefix.utf8) { lo = mid + 1 } else { hi = mid }
        }
        var found: [(String, Int)] = []
        var i = lo
        while i < sorted.count, termStrings[Int(sorted[i])].hasPrefix(prefix) {
            let id = Int(sorted[i])
            let n = postings.count(of: id)
            if n > 0 { found.append((termStrings[id], n)) }
            i += 1
        }
        found.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        return found.prefix(limit).map(\.0)
    }

    /// Every term id, ordered by the term's UTF-8 bytes: the kept order with the terms added
    /// since merged in. Each new term's place in the kept order is found by binary search and
    /// the runs between are copied whole, so a batch that adds a few hundred terms to an index
    /// of 100,000 costs a few thousand comparisons, not one per kept term. (Terms are distinct,
    /// so the order has no ties and equals that of one sort of all of them.)
    /// - Complexity: O(k log T + k log k) string comparisons and O(T) copying, for T terms, k of
    ///   them new.
    private func sortedTermOrder() -> [Int32] {
        if sortedTerms.count == termStrings.count { return sortedTerms }
        let strings = termStrings
        func precedes(_ a: Int32, _ b: Int32) -> Bool { Self.utf8Precedes(strings[Int(a)], strings[Int(b)]) }
        let added = (Int32(sortedTerms.count)..<Int32(strings.count)).sorted(by: precedes)
        var merged: [Int32] = []
        merged.reserveCapacity(strings.count)
        var i = 0
        for id in added {
            // The first kept term after `id` (past every kept term before it).
            var lo = i
            var hi = sortedTerms.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if precedes(sortedTerms[mid], id) { lo = mid + 1 } else { hi = mid }
            }
            merged.append(contentsOf: sortedTerms[i..<lo])
            merged.append(id)
            i = lo
        }
        merged.append(contentsOf: sortedTerms[i...])
        return merged
    }

    /// Whether `a`'s UTF-8 bytes order before `b`'s (memcmp order, as the prefix search
    /// expects); faster than `a.utf8.lexicographicallyPrecedes(b.utf8)`.
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let n = min(x.count, y.count)
                if n > 0, let p = x.baseAddress, let q = y.baseAddress {
                    let c = memcmp(p, q, n)
                    if c != 0 { return c < 0 }
                }
                return x.count < y.count
            }
        }
    }

    /// Brings the sorted term list used for prefix search up to date, if terms were added
    /// since (merging the new ones in); after a
    /// bulk load (more postings appended since the last trim than there were before), trims
    /// every postings list to its size.
    ///
    /// Lists grow by doubling, so after a load a third of their bytes are spare capacity (about
    /// 120 bytes an item at 100k items). Trimming when the appended postings outnumber the rest
    /// costs O(total) at geometrically spaced sizes — amortised O(1) a posting — and never
    /// after a batch that is small against the index.
    package mutating func prepareForQueries() {
        if sortedTerms.count != termStrings.count { sortedTerms = sortedTermOrder() }
        if appendedSinceTrim > 0 {
            let total = postingCount ?? postings.total
            postingCount = total
            if appendedSinceTrim * 2 > total {
                postings.trim()
                appendedSinceTrim = 0
            }
        }
    }
}
