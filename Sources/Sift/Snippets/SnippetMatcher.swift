/// Decides which words of a result match the query, with the keyword index's own analysis so
/// that what is highlighted is what matched: a word (normalised by ``Analyzer``, stop words
/// never match) matches a query word when their Porter stems are equal, and the last word
/// being typed also when the word — or its stem — begins with it. Spelling corrections need no
/// rule of their own: the corrected text is what the query's terms were taken from.
struct SnippetMatcher {
    /// The stems of the whole query words, each with the number of its query word.
    private var stems: [String: Int] = [:]
    /// The word being typed, its stem and its number.
    private var prefix: (word: String, stem: String, key: Int)?
    /// Normalised words to their stems ("" for a stop word), shared with the index.
    private let stemMemo: [String: String]
    private let stopWords: Set<String>
    /// The first UTF-8 byte of every stem and prefix: a word starting otherwise cannot match
    /// (a Porter stem keeps its word's first letter), so most words are never stemmed.
    private var firstBytes = [Bool](repeating: false, count: 256)

    /// Number of distinct query words (keys run over `0..<keyCount`).
    private(set) var keyCount = 0

    init(terms: [KeywordIndex.QueryTerm], stemMemo: [String: String] = [:], stopWords: Set<String> = StopWords.english) {
        self.stemMemo = stemMemo
        self.stopWords = stopWords
        for term in terms {
            if term.isPrefix {
                guard !term.word.isEmpty else { continue }
                let stem = PorterStemmer.stem(term.word)
                prefix = (term.word, stem, keyCount)
                firstBytes[Int(term.word.utf8.first!)] = true
                if let b = stem.utf8.first { firstBytes[Int(b)] = true }
                keyCount += 1
            } else if let stem = term.terms.first, stems[stem] == nil, let b = stem.utf8.first {
                stems[stem] = keyCount
                firstBytes[Int(b)] = true
                keyCount += 1
            }
        }
    }

    /// Whether no word can match.
    var isEmpty: Bool { keyCount == 0 }

    /// The number of the query word that the normalised `word` matches, or nil.
    func key(of word: String) -> Int? {
        guard let first = word.utf8.first, firstBytes[Int(first)] else { return nil }
        if let prefix, word.utf8.starts(with: prefix.word.utf8) { return stopWords.contains(word) ? nil : prefix.key }
        let stem: String
        if let known = stemMemo[word] {
            guard !known.isEmpty else { return nil }
            stem = known
        } else {
            guard !stopWords.contains(word) else { return nil }
            stem = PorterStemmer.stem(word)
        }
        if let key = stems[stem] { return key }
        if let prefix, stem == prefix.stem || stem.utf8.starts(with: prefix.word.utf8) { return prefix.key }
        return nil
    }
}
