/// Picks the distinctive words of a text to store as an item's keywords.
///
/// Rules (from the seed notes): lower-cased, at least `minimumLength` characters, no stop
/// words, deduplicated, never one of the excluded (title) words; at most `limit` (8) of them,
/// the most frequent first, ties in order of first appearance.
package struct KeywordExtractor: Sendable {
    package var analyzer: Analyzer
    package var limit: Int
    package var minimumLength: Int

    /// Extracts with the index's own analysis (English stop words dropped).
    package init(limit: Int = 8, minimumLength: Int = 3) {
        self.init(analyzer: Analyzer(), limit: limit, minimumLength: minimumLength)
    }

    package init(analyzer: Analyzer, limit: Int = 8, minimumLength: Int = 3) {
        self.analyzer = analyzer
        self.limit = limit
        self.minimumLength = minimumLength
    }

    /// The keywords of `text`, excluding every word of `excluding` (normalised the same way).
    /// - Complexity: O(n) in the length of `text`, plus O(k log k) for k distinct words.
    package func extract(from text: String, excluding: [String] = []) -> [String] {
        var excluded = Set<String>()
        for phrase in excluding {
            analyzer.forEachWord(phrase) { word, _ in excluded.insert(word) }
        }
        var counts: [String: (count: Int, first: Int)] = [:]
        var order = 0
        for term in analyzer.terms(text)
        where term.unicodeScalars.count >= minimumLength && !excluded.contains(term) {
            if let seen = counts[term] {
                counts[term] = (seen.count + 1, seen.first)
            } else {
                counts[term] = (1, order)
                order += 1
            }
        }
        return counts.sorted { a, b in
            a.value.count != b.value.count ? a.value.count > b.value.count : a.value.first < b.value.first
        }.prefix(limit).map(\.key)
    }
}
