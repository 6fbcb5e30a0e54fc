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
        let first = matched.words[matched.matches[run.first]], last = matched.words[matched.matches[run.last]]
        return passage(of: matched, around: first.scalars.lowerBound..<last.scalars.upperBound, keepingBytes: last.bytes.upperBound)
    }

    /// The passage of `matched` that is one of its sentences (byte and scalar ranges), cut
    /// after ``length`` scalars; no highlights.
    func snippet(of matched: MatchedText, sentence: (bytes: Range<Int>, scalars: Range<Int>)) -> Snippet {
        var cut = cutPoints(matched, start: sentence.scalars.lowerBound, end: sentence.scalars.lowerBound + length, keepingBytes: 0)
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
        let matches = matched.matches, words = matched.words
        guard !matches.isEmpty else { return nil }
        var counts: [Int: Int] = [:]
        var best = (distinct: 0, first: 0, last: 0)
        var j = 0
        for i in 0..<matches.count {
            let start = words[matches[i]].scalars.lowerBound
            if j <= i {
                j = i
                counts[words[matches[j]].key, default: 0] += 1
                j += 1
            }
            while j < matches.count && words[matches[j]].scalars.upperBound - start <= length {
                counts[words[matches[j]].key, default: 0] += 1
                j += 1
            }
            if counts.count > best.distinct { best = (counts.count, i, j - 1) }
            let key = words[matches[i]].key
            counts[key]! -= 1
            if counts[key] == 0 { counts[key] = nil }
        }
        return (best.first, best.last)
    }

    /// The passage of about ``length`` scalars around `span`, a third of the room left before it.
    private func passage(of matched: MatchedText, around span: Range<Int>, keepingBytes: Int) -> Snippet {
        let slack = max(0, length - span.count)
        var start = max(0, span.lowerBound - slack / 3)
        var end = start + max(length, span.count)
        if end > matched.scalarCount {
            end = matched.scalarCount
            start = max(0, min(start, end - length))
        }
        if start > 0, let sentence = sentenceStart(in: matched, from: start, upTo: span.lowerBound) {
            start = sentence
            end = min(matched.scalarCount, start + max(length, span.count))
        }
        let cut = cutPoints(matched, start: start, end: end, keepingBytes: keepingBytes)
        let highlights = matched.matches.lazy.map { matched.words[$0].bytes }
            .filter { $0.lowerBound >= cut.bytes.lowerBound && $0.upperBound <= cut.bytes.upperBound }
        return SnippetRenderer(bytes: matched.bytes).render(cut.bytes, highlights: Array(highlights), ellipses: cut.ellipses)
    }

    /// The scalar offset of the first sentence that begins between scalar offsets `start` and
    /// `limit` (the passage then begins with it rather than mid-sentence), or nil.
    private func sentenceStart(in matched: MatchedText, from start: Int, upTo limit: Int) -> Int? {
        let words = matched.words
        var i = max(1, firstIndex(words) { $0.scalars.lowerBound >= start })
        while i < words.count && words[i].scalars.lowerBound <= limit {
            if ClosestSentence.endsSentence(matched.bytes[words[i - 1].bytes.upperBound..<words[i].bytes.lowerBound]) {
                return words[i].scalars.lowerBound
            }
            i += 1
        }
        return nil
    }

    /// The byte range of the scalar range `start..<end`, narrowed to whole words (but never
    /// short of byte `keepingBytes`) and widened to whole grapheme clusters, and whether it
    /// was cut at each end.
    func cutPoints(_ matched: MatchedText, start: Int, end: Int, keepingBytes: Int) -> (bytes: Range<Int>, ellipses: (Bool, Bool)) {
        let words = matched.words
        var lower = 0
        if start > 0 {
            // The first word that begins at or after `start`.
            let i = firstIndex(words) { $0.scalars.lowerBound >= start }
            lower = i < words.count ? words[i].bytes.lowerBound : matched.byteCount
        }
        var upper = matched.byteCount
        if end < matched.scalarCount {
            // The end of the last word that ends at or before `end`.
            let i = firstIndex(words) { $0.scalars.upperBound > end }
            upper = i > 0 ? words[i - 1].bytes.upperBound : 0
            upper = max(upper, keepingBytes, lower)
        }
        let text = matched.text
        lower = Self.graphemeBoundary(in: text, at: lower, forward: false)
        upper = max(lower, Self.graphemeBoundary(in: text, at: upper, forward: true))
        return (lower..<upper, (lower > 0, upper < matched.byteCount))
    }

    /// The first position in `words` where `isAfter` holds (it holds for a suffix of them).
    private func firstIndex(_ words: [MatchedText.Word], _ isAfter: (MatchedText.Word) -> Bool) -> Int {
        var lo = 0, hi = words.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isAfter(words[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The grapheme-cluster boundary at byte `offset` of `text` (a scalar boundary), or the
    /// nearest one before it (or after it, `forward`).
    static func graphemeBoundary(in text: String, at offset: Int, forward: Bool) -> Int {
        let utf8 = text.utf8, scalars = text.unicodeScalars
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
