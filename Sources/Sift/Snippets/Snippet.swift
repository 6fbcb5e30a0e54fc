/// The passage of a result that shows why it matched: about 160 characters of its content (or
/// its title) with the words that matched the query marked.
///
/// `highlights` are **UTF-8 byte offsets** into `text` (`text.utf8`), ascending and
/// non-overlapping; each covers one whole word and lies on Unicode scalar boundaries. A
/// passage cut out of a longer text begins or ends with "…". For a result found by meaning
/// alone there are no highlights: the passage is the sentence closest in meaning to the query.
/// ``highlightRanges()`` gives the same ranges as `String.Index` ranges.
public struct Snippet: Sendable, Equatable {
    /// The passage, on one line (runs of white space and control characters become one space).
    public var text: String
    /// The matched words, as UTF-8 byte offsets into ``text``.
    public var highlights: [Range<Int>]

    public init(text: String, highlights: [Range<Int>] = []) {
        self.text = text
        self.highlights = highlights
    }

    /// ``highlights`` as ranges of `text`'s indices (those that are valid offsets into it).
    public func highlightRanges() -> [Range<String.Index>] {
        let utf8 = text.utf8
        return highlights.compactMap { r in
            guard r.lowerBound >= 0, r.lowerBound <= r.upperBound, r.upperBound <= utf8.count else { return nil }
            let lower = utf8.index(utf8.startIndex, offsetBy: r.lowerBound)
            let upper = utf8.index(lower, offsetBy: r.count)
            return lower..<upper
        }
    }
}
