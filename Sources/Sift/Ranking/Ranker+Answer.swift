/// Step 6 of ``Ranker``, after the cut: whether the query has an answer in this index at all.
///
/// One result's calibrated relevance cannot tell a hard relevant result from an off-topic
/// query's best match: both share a few words with the query and have a middling cosine. What
/// tells them apart is phrasing: a relevant item almost always says two of the query's words
/// side by side (stop words skipped, stems compared), an off-topic one seldom does. Measured on
/// SciFact and Cranfield (`Benchmarks/RESULTS.md`, "No answer: the query's words side by side"):
/// some top-10 result holds a query word pair for 90–97% of the judged queries, and for 5–28% of
/// one collection's queries searched in the other.
extension Ranker {
    /// How many of the best results the test reads.
    static let answerDepth = 10

    /// Whether to answer nothing: the cut is on, the query has two or more words whose stems
    /// follow each other (its last word left out while it is being typed), the best kept result's
    /// relevance `best` is below the mode's ``RelevanceModel/Coefficients/answerFloor``, and none
    /// of the best ten kept results (`rows`, in ranked order) holds one of the query's word pairs
    /// side by side in its title, one keyword or its content.
    /// - Complexity: O(the kept results' text) when the best result is below the floor, else O(1).
    func isUnanswered(_ rows: [Int32], best: Float) -> Bool {
        let floor = relevanceModel.coefficients(request.mode).answerFloor
        guard request.minimumRelevance > 0, floor > 0, !rows.isEmpty, best < floor else { return false }
        let pairs = queryWordPairs()
        guard !pairs.isEmpty else { return false }
        // The best ten (or fewer, with a smaller limit): a longer page does not make a query
        // answerable by a match it would not show.
        return !rows.prefix(Self.answerDepth).contains { row in
            guard let item = state.items[Int(row)] else { return false }
            return ([item.title] + item.keywords + [item.content]).contains { holdsPair(of: pairs, in: $0) }
        }
    }

    /// The query's consecutive stems, stop words skipped, as "first second" pairs.
    func queryWordPairs() -> Set<String> {
        let analyzer = state.keyword.analyzer
        var words = analyzer.terms(request.text)
        let endsInWord = request.text.unicodeScalars.last.map(Analyzer.isWordScalarOrASCIIAlnum) ?? false
        if request.prefixLastTerm && endsInWord && !words.isEmpty { words.removeLast() }
        let stems = words.map { stem(of: $0) }
        return Set(zip(stems, stems.dropFirst()).map { "\($0) \($1)" })
    }

    /// Whether two consecutive words of `text` (stop words skipped) are one of `pairs`.
    func holdsPair(of pairs: Set<String>, in text: String) -> Bool {
        let analyzer = state.keyword.analyzer
        var previous: String?
        var found = false
        analyzer.forEachWord(text) { word, _ in
            if found || analyzer.stopWords.contains(word) { return }
            let current = stem(of: word)
            if let previous, pairs.contains("\(previous) \(current)") { found = true }
            previous = current
        }
        return found
    }

    /// A normalised word's stem, from the keyword index's memo where it has one.
    private func stem(of word: String) -> String {
        state.keyword.stemMemo[word]?.stem ?? PorterStemmer.stem(word)
    }
}
