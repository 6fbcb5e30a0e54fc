/// One text (a title or a content) and its words that match the query, with their offsets.
/// Other words are found only where a passage needs them (``words(from:scalar:through:)``), so
/// a long text costs one quick pass over its bytes.
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
    /// The words that match, in order.
    private(set) var matches: [Word] = []
    /// Length of the text in UTF-8 bytes and in Unicode scalars.
    let byteCount: Int
    private(set) var scalarCount = 0

    /// Finds the words of `text` that match: words by the ``Analyzer``'s rule (maximal runs of
    /// ASCII letters and digits and of ``Analyzer/isWordScalar(_:)`` scalars), normalised by the
    /// analyser itself, and only those whose first two letters may match (`matcher`).
    /// At most the first `byteLimit` bytes are searched.
    /// - Complexity: O(n) in the UTF-8 length of `text`, without an allocation per word.
    init(_ text: String, analyzer: Analyzer, matcher: SnippetMatcher, byteLimit: Int = 1 << 16) {
        self.text = text
        let bytes = Array(text.utf8)
        self.bytes = bytes
        byteCount = bytes.count
        var found: [Range<Int>] = []
        if !matcher.isEmpty {
            let limit = min(bytes.count, byteLimit)
            matcher.firstBytes.withUnsafeBufferPointer { first in
                matcher.oneByte.withUnsafeBufferPointer { one in
                    matcher.pairs.withUnsafeBufferPointer { pairs in
                        bytes.withUnsafeBufferPointer { p in
                            found = Self.candidates(p, limit: limit) { i in
                                SnippetMatcher.mayMatch(p, at: i, limit: limit, first: first, one: one, pairs: pairs)
                            }
                        }
                    }
                }
            }
        }
        var keyed: [(Range<Int>, Int)] = []
        var lower: [UInt8] = []
        for range in found {
            // An ASCII word's normal form is its lower case (the analyser's rule); others ask it.
            let word: String?
            if bytes[range].allSatisfy({ $0 < 0x80 }) {
                lower.removeAll(keepingCapacity: true)
                for b in bytes[range] { lower.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
                word = String(decoding: lower, as: UTF8.self)
            } else {
                word = analyzer.normalize(String(decoding: bytes[range], as: UTF8.self))
            }
            if let key = word.flatMap(matcher.key(of:)) { keyed.append((range, key)) }
        }
        // Scalar offsets of the matches and of the end, in one count of the lead bytes.
        var words: [Word] = []
        words.reserveCapacity(keyed.count)
        scalarCount = bytes.withUnsafeBufferPointer { p in
            var scalar = 0, at = 0
            for (range, key) in keyed {
                while at < range.lowerBound {
                    if p[at] & 0xC0 != 0x80 { scalar &+= 1 }
                    at &+= 1
                }
                let start = scalar
                while at < range.upperBound {
                    if p[at] & 0xC0 != 0x80 { scalar &+= 1 }
                    at &+= 1
                }
                words.append(Word(bytes: range, scalars: start..<scalar, key: key))
            }
            while at < p.count {
                if p[at] & 0xC0 != 0x80 { scalar &+= 1 }
                at &+= 1
            }
            return scalar
        }
        matches = words
    }

    /// The words of `p[0..<limit]` that may match: those that begin with a non-ASCII scalar and
    /// those for which `mayMatch(start)` holds.
    @inline(__always)
    private static func candidates(_ p: UnsafeBufferPointer<UInt8>, limit: Int, mayMatch: (Int) -> Bool) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var i = 0, inWord = false
        asciiWordBytes.withUnsafeBufferPointer { table in
            while i < limit {
                let b = p[i]
                if b < 0x80 {
                    // The common case, one ASCII byte: a table lookup, a test at word starts.
                    let isWord = table[Int(b)]
                    if isWord && !inWord && mayMatch(i) {
                        let end = wordEnd(p, from: i, limit: limit)
                        found.append(i..<end)
                        (i, inWord) = (end, false)
                        continue
                    }
                    inWord = isWord
                    i &+= 1
                    continue
                }
                let (value, width) = SnippetRenderer.decode(p, at: i)
                let isWord = Unicode.Scalar(value).map(Analyzer.isWordScalar) ?? false
                if isWord && !inWord {
                    let end = wordEnd(p, from: i, limit: limit)
                    found.append(i..<end)
                    (i, inWord) = (end, false)
                    continue
                }
                inWord = isWord
                i &+= width
            }
        }
        return found
    }

    /// ``isASCIIWordByte(_:)`` of every byte below 0x80.
    static let asciiWordBytes: [Bool] = (0..<128).map { isASCIIWordByte(UInt8($0)) }

    static func isASCIIWordByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A)
    }

    /// Whether the scalar at byte `i` (a scalar boundary) is a word scalar.
    private static func isWord(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> (Bool, width: Int) {
        let b = p[i]
        if b < 0x80 { return (isASCIIWordByte(b), 1) }
        let (value, width) = SnippetRenderer.decode(p, at: i)
        return (Unicode.Scalar(value).map(Analyzer.isWordScalar) ?? false, width)
    }

    /// The end of the word that begins at byte `i`.
    private static func wordEnd(_ p: UnsafeBufferPointer<UInt8>, from i: Int, limit: Int) -> Int {
        var j = i
        while j < limit {
            let (word, width) = isWord(p, at: j)
            if !word { break }
            j += width
        }
        return min(j, p.count)
    }

    /// Every word that begins at or after byte `from` (a scalar boundary at scalar offset
    /// `scalar`) and at or before scalar offset `limit`, in order; a word that `from` cuts is
    /// left out. Keys are -1 (use ``matches`` for those).
    /// - Complexity: O(bytes read), about `limit - scalar` scalars.
    func words(from: Int, scalar: Int, through limit: Int) -> [Word] {
        var result: [Word] = []
        bytes.withUnsafeBufferPointer { p in
            var i = from, s = scalar
            var start = -1, startScalar = 0
            var skipping = false
            if i > 0 && i < p.count {
                var k = i - 1
                while k > 0 && p[k] & 0xC0 == 0x80 { k -= 1 }
                skipping = Self.isWord(p, at: k).0
            }
            while i < p.count {
                let (word, width) = Self.isWord(p, at: i)
                if word {
                    if start < 0 && !skipping {
                        if s > limit { break }
                        (start, startScalar) = (i, s)
                    }
                } else {
                    if start >= 0 { result.append(Word(bytes: start..<i, scalars: startScalar..<s, key: -1)) }
                    start = -1
                    skipping = false
                }
                i += width
                s += 1
            }
            if start >= 0 { result.append(Word(bytes: start..<min(i, p.count), scalars: startScalar..<s, key: -1)) }
        }
        return result
    }

    /// The byte offset of scalar offset `target`, counted from a known pair of offsets.
    func byteOffset(ofScalar target: Int, from anchor: (byte: Int, scalar: Int)) -> Int {
        var (b, s) = anchor
        while s < target && b < bytes.count {
            b += 1
            while b < bytes.count && bytes[b] & 0xC0 == 0x80 { b += 1 }
            s += 1
        }
        while s > target && b > 0 {
            b -= 1
            while b > 0 && bytes[b] & 0xC0 == 0x80 { b -= 1 }
            s -= 1
        }
        return b
    }
}
