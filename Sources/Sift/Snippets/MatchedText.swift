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

    /// Analyses `text` (at most its first `byteLimit` bytes are searched for words).
    /// - Complexity: O(n) in the UTF-8 length of `text`; a stem only for words that may match.
    init(_ text: String, analyzer: Analyzer, matcher: SnippetMatcher, byteLimit: Int = 1 << 16) {
        self.text = text
        let bytes = Array(text.utf8)
        self.bytes = bytes
        var cursorByte = 0, cursorScalar = 0
        let scanned: String = bytes.count > byteLimit ? Self.prefix(of: bytes, count: byteLimit) : text
        var words: [Word] = []
        var matches: [Int] = []
        /// Scalar offset of byte offset `byte` (≥ the last one asked).
        func scalarOffset(_ byte: Int) -> Int {
            while cursorByte < byte {
                if bytes[cursorByte] & 0xC0 != 0x80 { cursorScalar += 1 }
                cursorByte += 1
            }
            return cursorScalar
        }
        analyzer.forEachWord(scanned) { word, range in
            let start = scalarOffset(range.lowerBound)
            let end = scalarOffset(range.upperBound)
            let key = matcher.isEmpty ? nil : matcher.key(of: word)
            if key != nil { matches.append(words.count) }
            words.append(Word(bytes: range, scalars: start..<end, key: key ?? -1))
        }
        byteCount = bytes.count
        scalarCount = scalarOffset(byteCount)
        self.words = words
        self.matches = matches
    }

    /// The longest prefix of `bytes` of at most `count` bytes that ends on a scalar boundary.
    static func prefix(of bytes: [UInt8], count: Int) -> String {
        var end = min(count, bytes.count)
        while end > 0 && end < bytes.count && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[0..<end], as: UTF8.self)
    }

    /// Number of distinct query words that match.
    var distinctMatches: Int { Set(matches.map { words[$0].key }).count }
}
