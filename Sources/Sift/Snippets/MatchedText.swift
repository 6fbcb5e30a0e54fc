/// The words of one text (a title or a content) with their offsets and, for those that match
/// the query, the number of the query word they match.
struct MatchedText {
    struct Word {
        /// UTF-8 byte offsets in the text.
        var bytes: Range<Int>
        /// Unicode scalar offsets in the text (what the passage's length is measured in).
        var scalars: Range<Int>
        /// The query word it matches, or -1.
        var key: Int
    }

    let text: String
    /// The UTF-8 of ``text``.
    let bytes: [UInt8]
    /// Every word, in order.
    private(set) var words: [Word] = []
    /// The positions in ``words`` of the matching words.
    private(set) var matches: [Int] = []
    /// Length of the text in UTF-8 bytes and in Unicode scalars.
    private(set) var byteCount = 0
    private(set) var scalarCount = 0

    /// Finds the words of `text` by the ``Analyzer``'s rule (maximal runs of ASCII letters and
    /// digits and of ``Analyzer/isWordScalar(_:)`` scalars) and asks `matcher` about each —
    /// normalised by the analyser itself, and only when its first two letters may match.
    /// At most the first `byteLimit` bytes are searched for words.
    /// - Complexity: O(n) in the UTF-8 length of `text`, without an allocation per word.
    init(_ text: String, analyzer: Analyzer, matcher: SnippetMatcher, byteLimit: Int = 1 << 16) {
        self.text = text
        let bytes = Array(text.utf8)
        self.bytes = bytes
        var words: [Word] = []
        words.reserveCapacity(bytes.count / 6 + 1)
        var scalar = 0
        bytes.withUnsafeBufferPointer { p in
            var start = -1, startScalar = 0, i = 0
            let limit = min(p.count, byteLimit)
            while i < limit {
                let b = p[i]
                var width = 1
                let isWord: Bool
                if b < 0x80 {
                    isWord = (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A)
                } else {
                    let (value, w) = SnippetRenderer.decode(p, at: i)
                    width = w
                    isWord = Unicode.Scalar(value).map(Analyzer.isWordScalar) ?? false
                }
                if isWord {
                    if start < 0 { (start, startScalar) = (i, scalar) }
                } else if start >= 0 {
                    words.append(Word(bytes: start..<i, scalars: startScalar..<scalar, key: -1))
                    start = -1
                }
                i += width
                scalar += 1
            }
            if start >= 0 { words.append(Word(bytes: start..<i, scalars: startScalar..<scalar, key: -1)) }
            while i < p.count {
                if p[i] & 0xC0 != 0x80 { scalar += 1 }
                i += 1
            }
        }
        var matches: [Int] = []
        if !matcher.isEmpty {
            for k in words.indices where matcher.mayMatch(bytes, words[k].bytes) {
                let word = analyzer.normalize(String(decoding: bytes[words[k].bytes], as: UTF8.self))
                if let key = word.flatMap(matcher.key(of:)) {
                    words[k].key = key
                    matches.append(k)
                }
            }
        }
        byteCount = bytes.count
        scalarCount = scalar
        self.words = words
        self.matches = matches
    }

    /// Number of distinct query words that match.
    var distinctMatches: Int { Set(matches.map { words[$0].key }).count }
}
