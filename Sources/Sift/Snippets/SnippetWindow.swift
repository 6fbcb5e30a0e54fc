/// The passage of a text that holds the most distinct query words within about `length`
/// Unicode scalars (the earliest such passage on ties), cut on word boundaries — never inside
/// a UTF-8 sequence or a grapheme cluster — and marked "…" where cut.
struct SnippetWindow {
    /// The passage's length in Unicode scalars (about as many characters).
    var length = 160

    /// The passage of `matched` around its best run of matching words, or its opening when no
    /// word matches.
    func snippet(of matched: MatchedText) -> Snippet {
        guard let run = bestRun(matched) else {
            return passage(of: matched, around: 0..<0, keepingBytes: 0)
        }
        let first = matched.matches[run.first]
        let last = matched.matches[run.last]
        return passage(of: matched, around: first.scalars.lowerBound..<last.scalars.upperBound, keepingBytes: last.bytes.upperBound)
    }

    /// The passage of `matched` that is one of its sentences (byte and scalar ranges), cut
    /// after ``length`` scalars; no highlights.
    func snippet(of matched: MatchedText, sentence: (bytes: Range<Int>, scalars: Range<Int>)) -> Snippet {
        let start = sentence.scalars.lowerBound
        let region = self.region(matched, start: start, end: start + length, anchor: (sentence.bytes.lowerBound, start))
        var cut = cutPoints(matched, region, start: start, end: start + length, keepingBytes: 0)
        if sentence.scalars.count <= length {
            let upper = Self.graphemeBoundary(in: matched.text, at: sentence.bytes.upperBound, forward: true)
            cut = (cut.bytes.lowerBound..<max(cut.bytes.lowerBound, upper), (cut.ellipses.0, upper < matched.byteCount))
        }
        return SnippetRenderer(bytes: matched.bytes).render(cut.bytes, highlights: [], ellipses: cut.ellipses)
    }

    /// The first and last positions in `matched.matches` of the run of matches that holds
    /// the most distinct query words within ``length`` scalars; nil when nothing matches.
    /// - Complexity: O(m) in the number of matching words (two pointers).
    func bestRun(_ matched: MatchedText) -> (first: Int, last: Int)? {
        let matches = matched.matches
        guard !matches.isEmpty else { return nil }
        var counts = [Int](repeating: 0, count: (matches.map(\.key).max() ?? 0) + 1)
        var distinct = 0
        var best = (distinct: 0, first: 0, last: 0)
        var j = 0
        func add(_ key: Int) {
            if counts[key] == 0 { distinct += 1 }
            counts[key] += 1
        }
        for i in 0..<matches.count {
            let start = matches[i].scalars.lowerBound
            if j <= i {
                j = i
                add(matches[j].key)
                j += 1
            }
            while j < matches.count && matches[j].scalars.upperBound - start <= length {
                add(matches[j].key)
                j += 1
            }
            if distinct > best.distinct { best = (distinct, i, j - 1) }
            let key = matches[i].key
            counts[key] -= 1
            if counts[key] == 0 { distinct -= 1 }
        }
        return (best.first, best.last)
    }

    /// The passage of about ``length`` scalars around `span`, a third of the room left before
    /// it — or from the start of the sentence it is in, when that sentence begins in the lead.
    private func passage(of matched: MatchedText, around span: Range<Int>, keepingBytes: Int) -> Snippet {
        let slack = max(0, length - span.count)
        var start = max(0, span.lowerBound - slack / 3)
        var end = start + max(length, span.count)
        if end > matched.scalarCount {
            end = matched.scalarCount
            start = max(0, min(start, end - length))
        }
        let anchor =
            matched.matches.first { $0.scalars.lowerBound >= span.lowerBound }
            .map { ($0.bytes.lowerBound, $0.scalars.lowerBound) } ?? (0, 0)
        var region = self.region(matched, start: start, end: end, anchor: anchor)
        if start > 0, let sentence = sentenceStart(in: matched, region.words, upTo: span.lowerBound) {
            start = sentence.scalars.lowerBound
            end = min(matched.scalarCount, start + max(length, span.count))
            region = self.region(matched, start: start, end: end, anchor: (sentence.bytes.lowerBound, start))
        }
        let cut = cutPoints(matched, region, start: start, end: end, keepingBytes: keepingBytes)
        let highlights = matched.matches.lazy.map(\.bytes)
            .filter { $0.lowerBound >= cut.bytes.lowerBound && $0.upperBound <= cut.bytes.upperBound }
        return SnippetRenderer(bytes: matched.bytes).render(cut.bytes, highlights: Array(highlights), ellipses: cut.ellipses)
    }

    /// The words of the scalar range `start..<end` (a word that `start` cuts left out, one that
    /// `end` cuts kept), found from `anchor`, a known pair of byte and scalar offsets.
    func region(_ matched: MatchedText, start: Int, end: Int, anchor: (Int, Int)) -> (words: [MatchedText.Word], from: Int) {
        let from = matched.byteOffset(ofScalar: start, from: anchor)
        return (matched.words(from: from, scalar: start, through: end), from)
    }

    /// The first word of `words` that begins a sentence, at or before scalar offset `limit`.
    private func sentenceStart(in matched: MatchedText, _ words: [MatchedText.Word], upTo limit: Int) -> MatchedText.Word? {
        var i = 1
        while i < words.count && words[i].scalars.lowerBound <= limit {
            if ClosestSentence.endsSentence(matched.bytes[words[i - 1].bytes.upperBound..<words[i].bytes.lowerBound]) {
                return words[i]
            }
            i += 1
        }
        return nil
    }

    /// The byte range of the scalar range `start..<end`, narrowed to whole words (`region`'s)
    /// but never short of byte `keepingBytes`, and widened to whole grapheme clusters; and
    /// whether it was cut at each end.
    func cutPoints(
        _ matched: MatchedText, _ region: (words: [MatchedText.Word], from: Int), start: Int, end: Int, keepingBytes: Int
    ) -> (bytes: Range<Int>, ellipses: (Bool, Bool)) {
        let words = region.words
        var lower = 0
        if start > 0 { lower = words.first?.bytes.lowerBound ?? region.from }
        var upper = matched.byteCount
        if end < matched.scalarCount {
            upper = words.last { $0.scalars.upperBound <= end }?.bytes.upperBound ?? lower
            upper = max(upper, keepingBytes, lower)
        }
        let text = matched.text
        lower = Self.graphemeBoundary(in: text, at: lower, forward: false)
        upper = max(lower, Self.graphemeBoundary(in: text, at: upper, forward: true))
        return (lower..<upper, (lower > 0, upper < matched.byteCount))
    }

    /// The grapheme-cluster boundary at byte `offset` of `text` (a scalar boundary), or the
    /// nearest one before it (or after it, `forward`).
    static func graphemeBoundary(in text: String, at offset: Int, forward: Bool) -> Int {
        let utf8 = text.utf8
        let scalars = text.unicodeScalars
        var i = utf8.index(utf8.startIndex, offsetBy: offset)
        while String.Index(i, within: text) == nil {
            if forward {
                guard i < scalars.endIndex else { break }
                scalars.formIndex(after: &i)
            } else {
                guard i > scalars.startIndex else { break }
                scalars.formIndex(before: &i)
            }
        }
        return utf8.distance(from: utf8.startIndex, to: i)
    }
}
