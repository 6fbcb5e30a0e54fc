import Foundation

/// One word of a text after normalisation.
package struct Token: Sendable, Equatable {
    /// The normalised word: lower-cased, diacritics folded.
    package var text: String
    /// Byte offsets of the word in the UTF-8 of the original text.
    package var utf8Range: Range<Int>
    /// Index of the word among all words of the text (stop words included).
    package var position: Int

    package init(text: String, utf8Range: Range<Int>, position: Int) {
        self.text = text
        self.utf8Range = utf8Range
        self.position = position
    }
}

/// Turns text into words, the same way for the keyword index, the embedder and queries.
///
/// Rules: a word is a maximal run of letters, digits and combining marks (Unicode properties,
/// so "русский" and "café" are words); everything else — punctuation, spaces, em-dashes, emoji —
/// separates words. Words are lower-cased and their diacritics folded ("Café" → "cafe").
/// Stop words are dropped by ``terms(_:)`` and kept by ``tokens(_:)``.
package struct Analyzer: Sendable {
    /// Words dropped from ``terms(_:)``; normalised form.
    package let stopWords: Set<String>

    /// An analyzer that drops the English stop words.
    package init() {
        self.init(stopWords: StopWords.english)
    }

    package init(stopWords: Set<String>) {
        self.stopWords = stopWords
    }

    /// Every word of `text` with its byte range, stop words included.
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    package func tokens(_ text: String) -> [Token] {
        var result: [Token] = []
        forEachWord(text) { word, range in
            result.append(Token(text: word, utf8Range: range, position: result.count))
        }
        return result
    }

    /// The normalised words of `text` without stop words, in order.
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    package func terms(_ text: String) -> [String] {
        var result: [String] = []
        forEachWord(text) { word, _ in
            if !stopWords.contains(word) { result.append(word) }
        }
        return result
    }

    /// The normalised form of one word (or of the first word of `text`), or nil if it has none.
    package func normalize(_ text: String) -> String? {
        var first: String?
        forEachWord(text) { word, _ in
            if first == nil { first = word }
        }
        return first
    }

    /// Calls `body` with each normalised word and its UTF-8 byte range.
    package func forEachWord(_ text: String, _ body: (String, Range<Int>) -> Void) {
        let ascii = Self.forEachASCIIWord(text) { word, range in body(String(decoding: word, as: UTF8.self), range) }
        if !ascii { forEachWordByScalar(text, body) }
    }

    /// ``forEachWord(_:_:)`` with each word's UTF-8 (valid during the call) instead of a String:
    /// no String is made for a text of ASCII alone.
    @inline(__always)
    func forEachWordBytes(_ text: String, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) {
        if Self.forEachASCIIWord(text, body) { return }
        forEachWordByScalar(text) { word, range in
            var word = word
            word.withUTF8 { body($0, range) }
        }
    }

    /// The words of a text of ASCII alone, byte by byte: the same words and ranges as the Unicode
    /// rules give it, without decoding scalars. False, having called nothing, for a text with
    /// any other byte.
    @inline(__always)
    static func forEachASCIIWord(_ text: String, _ body: (UnsafeBufferPointer<UInt8>, Range<Int>) -> Void) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            for b in utf8 where b >= 0x80 { return false }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(utf8.count, 1)) { word in
                var n = 0
                var start = 0
                for i in 0...utf8.count {
                    let b: UInt8 = i < utf8.count ? utf8[i] : 0x20
                    var lower: UInt8 = 0
                    if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) {
                        lower = b
                    } else if b >= 0x41 && b <= 0x5A {
                        lower = b &+ 32
                    }
                    if lower != 0 {
                        if n == 0 { start = i }
                        word[n] = lower
                        n += 1
                    } else if n > 0 {
                        body(UnsafeBufferPointer(rebasing: word[0..<n]), start..<i)
                        n = 0
                    }
                }
            }
            return true
        }
    }

    /// ``forEachWord(_:_:)`` scalar by scalar, for any text.
    func forEachWordByScalar(_ text: String, _ body: (String, Range<Int>) -> Void) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(32)
        var start = -1
        var offset = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            let v = scalar.value
            if v < 0x80 {
                let b = UInt8(v)
                if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) {
                    if start < 0 { start = offset }
                    buffer.append(b)
                } else if b >= 0x41 && b <= 0x5A {
                    if start < 0 { start = offset }
                    buffer.append(b + 32)
                } else if start >= 0 {
                    body(String(decoding: buffer, as: UTF8.self), start..<offset)
                    buffer.removeAll(keepingCapacity: true)
                    start = -1
                }
            } else if Analyzer.isWordScalar(scalar) {
                if start < 0 { start = offset }
                Analyzer.appendFolded(scalar, to: &buffer)
            } else if start >= 0 {
                if !buffer.isEmpty { body(String(decoding: buffer, as: UTF8.self), start..<offset) }
                buffer.removeAll(keepingCapacity: true)
                start = -1
            }
            offset += width
        }
        if start >= 0 && !buffer.isEmpty {
            body(String(decoding: buffer, as: UTF8.self), start..<offset)
        }
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let p = scalar.properties
        if p.isAlphabetic { return true }
        switch p.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark:
            return true
        default:
            return false
        }
    }

    /// Lower-cases `scalar`, removes its diacritics (canonical decomposition, then dropping
    /// nonspacing marks) and appends the UTF-8 of what is left.
    static func appendFolded(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        if scalar.properties.generalCategory == .nonspacingMark { return }
        let lower = scalar.properties.lowercaseMapping
        let decomposed = lower.decomposedStringWithCanonicalMapping
        for s in decomposed.unicodeScalars where s.properties.generalCategory != .nonspacingMark {
            buffer.append(contentsOf: Array(String(s).utf8))
        }
    }
}

extension Analyzer {
    static func isWordScalarOrASCIIAlnum(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let v = scalar.value
            return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
        }
        return isWordScalar(scalar)
    }
}
