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
    private let stemMemo: StemMemo
    private let stopWords: Set<String>
    /// The first two UTF-8 bytes of every stem and prefix (all of a one-byte one): a word that
    /// begins otherwise cannot match — a Porter stem keeps its word's first two letters (a
    /// one-letter stem its first) — so most words are never normalised nor stemmed.
    private(set) var firstBytes = [Bool](repeating: false, count: 256)
    private(set) var oneByte = [Bool](repeating: false, count: 256)
    private(set) var pairs = [UInt64](repeating: 0, count: 1024)

    /// Number of distinct query words (keys run over `0..<keyCount`).
    private(set) var keyCount = 0

    init(terms: [KeywordIndex.QueryTerm], stemMemo: StemMemo = StemMemo(), stopWords: Set<String> = StopWords.english) {
        self.stemMemo = stemMemo
        self.stopWords = stopWords
        for term in terms {
            if term.isPrefix {
                guard !term.word.isEmpty else { continue }
                let stem = PorterStemmer.stem(term.word)
                prefix = (term.word, stem, keyCount)
                admit(term.word)
                admit(stem)
                keyCount += 1
            } else if let stem = term.terms.first, !stem.isEmpty, stems[stem] == nil {
                stems[stem] = keyCount
                admit(stem)
                keyCount += 1
            }
        }
    }

    /// Lets words that begin like `stem` through ``mayMatch(_:_:)``.
    private mutating func admit(_ stem: String) {
        let u = Array(stem.utf8.prefix(2))
        guard let first = u.first else { return }
        firstBytes[Int(first)] = true
        if u.count == 1 { oneByte[Int(first)] = true } else { pairs[Int(first) << 2 | Int(u[1]) >> 6] |= 1 << (u[1] & 63) }
    }

    /// Whether the word that begins at `i` of `bytes` (un-normalised) may match: false only
    /// when its first two letters are ASCII and no stem or prefix begins with them lower-cased.
    /// The tables are ``firstBytes``, ``oneByte`` and ``pairs``.
    @inline(__always)
    static func mayMatch(
        _ bytes: UnsafeBufferPointer<UInt8>, at i: Int, limit: Int, first: UnsafeBufferPointer<Bool>, one: UnsafeBufferPointer<Bool>,
        pairs: UnsafeBufferPointer<UInt64>
    ) -> Bool {
        var b0 = bytes[i]
        guard b0 < 0x80 else { return true }
        if b0 >= 0x41 && b0 <= 0x5A { b0 += 32 }
        guard first[Int(b0)] else { return false }
        if one[Int(b0)] || i + 1 >= limit { return true }
        var b1 = bytes[i + 1]
        guard b1 < 0x80 else { return true }
        if b1 >= 0x41 && b1 <= 0x5A { b1 += 32 }
        return pairs[Int(b0) << 2 | Int(b1) >> 6] & (1 << (b1 & 63)) != 0
    }

    /// Whether no word can match.
    var isEmpty: Bool { keyCount == 0 }

    /// The number of the query word that the normalised `word` matches, or nil.
    func key(of word: String) -> Int? {
        guard let first = word.utf8.first, firstBytes[Int(first)] else { return nil }
        if let prefix, word.utf8.starts(with: prefix.word.utf8) { return stopWords.contains(word) ? nil : prefix.key }
        let stem: String
        if let known = stemMemo[word]?.stem {
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
