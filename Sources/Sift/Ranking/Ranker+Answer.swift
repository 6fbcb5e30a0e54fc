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
        // The query's words as the title-prefix boost read them (stop words included).
        let keyword = state.keyword
        var stems = priors.headWords.map { keyword.stem(ofWord: $0) }.filter { !$0.isEmpty }
        if priors.lastIsPrefix && !stems.isEmpty { stems.removeLast() }
        return Set(zip(stems, stems.dropFirst()).map { "\($0) \($1)" })
    }

    /// Whether two consecutive words of `text` (stop words skipped) are one of `pairs`.
    func holdsPair(of pairs: Set<String>, in text: String) -> Bool {
        let keyword = state.keyword
        var previous: String?
        var found = false
        keyword.analyzer.forEachWord(text) { word, _ in
            if found { return }
            let current = keyword.stem(ofWord: word)
            if current.isEmpty { return }  // a stop word
            if let previous, pairs.contains("\(previous) \(current)") { found = true }
            previous = current
        }
        return found
    }
}
