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
    init(_ text: String, analyzer: Analyzer, matcher: SnippetMatcher, windowLength: Int = 160, byteLimit: Int = 1 << 16) {
        self.text = text
        let bytes = Array(text.utf8)
        self.bytes = bytes
        byteCount = bytes.count
        var keyed: [(Range<Int>, Int)] = []
        if !matcher.isEmpty {
            let limit = min(bytes.count, byteLimit)
            var stop = StopRule(keys: matcher.keyCount, length: windowLength)
            matcher.firstBytes.withUnsafeBufferPointer { first in
                matcher.oneByte.withUnsafeBufferPointer { one in
                    matcher.pairs.withUnsafeBufferPointer { pairs in
                        bytes.withUnsafeBufferPointer { p in
                            var lower: [UInt8] = []
                            Self.candidates(p, limit: limit) { i in
                                SnippetMatcher.mayMatch(p, at: i, limit: limit, first: first, one: one, pairs: pairs)
                            } found: { range in
                                guard let key = Self.key(of: p, range, analyzer: analyzer, matcher: matcher, buffer: &lower) else {
                                    return limit
                                }
                                keyed.append((range, key))
                                return stop.limit(after: keyed)
                            }
                        }
                    }
                }
            }
        }
        // Scalar offsets of the matches and of the end, in one count of the lead bytes.
        var words: [Word] = []
        words.reserveCapacity(keyed.count)
        scalarCount = bytes.withUnsafeBufferPointer { p in
            var scalar = 0
            var at = 0
            for (range, key) in keyed {
                scalar += Self.scalarCount(p, at..<range.lowerBound)
                let start = scalar
                scalar += Self.scalarCount(p, range)
                at = range.upperBound
                words.append(Word(bytes: range, scalars: start..<scalar, key: key))
            }
            return scalar + Self.scalarCount(p, at..<p.count)
        }
        matches = words
    }

    /// The words of `p[0..<limit]` that may match: those that begin with a non-ASCII scalar and
    /// those for which `mayMatch(start)` holds.
    @inline(__always)
    private static func candidates(
        _ p: UnsafeBufferPointer<UInt8>, limit: Int, mayMatch: (Int) -> Bool, found: (Range<Int>) -> Int
    ) {
        var limit = limit
        var i = 0
        var inWord = false
        asciiWordBytes.withUnsafeBufferPointer { table in
            while i < limit {
                let b = p[i]
                if b < 0x80 {
                    // The common case, one ASCII byte: a table lookup, a test at word starts.
                    let isWord = table[Int(b)]
                    if isWord && !inWord && mayMatch(i) {
                        let end = wordEnd(p, from: i, limit: limit)
                        limit = min(limit, found(i..<end))
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
                    limit = min(limit, found(i..<end))
                    (i, inWord) = (end, false)
                    continue
                }
                inWord = isWord
                i &+= width
            }
        }
    }

    /// The query word that the word `range` of `p` matches: an ASCII word's normal form is its
    /// lower case (the analyser's rule), others are normalised by the analyser.
    private static func key(
        of p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, analyzer: Analyzer, matcher: SnippetMatcher, buffer: inout [UInt8]
    ) -> Int? {
        let slice = UnsafeBufferPointer(rebasing: p[range])
        let word: String?
        if slice.allSatisfy({ $0 < 0x80 }) {
            buffer.removeAll(keepingCapacity: true)
            for b in slice { buffer.append(b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
            word = String(decoding: buffer, as: UTF8.self)
        } else {
            word = analyzer.normalize(String(decoding: slice, as: UTF8.self))
        }
        return word.flatMap(matcher.key(of:))
    }

    /// When the scan may stop: once some run of matches within `length` bytes (so within
    /// `length` scalars) holds every query word, no later passage can hold more, and an earlier
    /// one that does ends by then; the scan goes on only as far as that passage may reach
    /// (4 bytes a scalar), for its highlights.
    struct StopRule {
        let keys: Int
        let length: Int
        private var counts: [Int]
        private var distinct = 0
        private var first = 0

        init(keys: Int, length: Int) {
            self.keys = keys
            self.length = length
            counts = [Int](repeating: 0, count: keys)
        }

        /// The byte offset the scan may stop at, given the matches so far (one was just added).
        mutating func limit(after matches: [(Range<Int>, Int)]) -> Int {
            let last = matches[matches.count - 1]
            if counts[last.1] == 0 { distinct += 1 }
            counts[last.1] += 1
            while first < matches.count - 1 && last.0.upperBound - matches[first].0.lowerBound > length {
                counts[matches[first].1] -= 1
                if counts[matches[first].1] == 0 { distinct -= 1 }
                first += 1
            }
            return distinct == keys ? last.0.upperBound + 4 * length : Int.max
        }
    }

    /// The number of Unicode scalars in `p[range]` (a range on scalar boundaries): its bytes
    /// less its continuation bytes (0b10xxxxxx), counted eight at a time.
    static func scalarCount(_ p: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var continuations = 0
        var i = range.lowerBound
        if let base = p.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= range.upperBound {
                let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                continuations += (x & ~(x << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
                i += 8
            }
        }
        while i < range.upperBound {
            if p[i] & 0xC0 == 0x80 { continuations += 1 }
            i += 1
        }
        return range.count - continuations
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
            var i = from
            var s = scalar
            var start = -1
            var startScalar = 0
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
