/// For a result found by meaning alone: the sentence of its text whose embedding is closest to
/// the query's (the earliest on ties). Only the first ``maximumSentences`` sentences, each of
/// at most ``maximumSentenceBytes`` bytes, are embedded, so a long text costs no more than a
/// short one, and a query embeds at most ``SnippetBuilder/sentenceBudget`` sentences in all.
struct ClosestSentence {
    static let maximumSentences = 4
    static let maximumSentenceBytes = 400

    let embedder: any Embedder
    /// The query's L2-normalised vector.
    let query: [Float]

    /// The byte and scalar ranges of the closest sentence of `matched`, or nil when no
    /// sentence has a vector (no features) or the text has no sentence.
    /// Each embedding spends one of `budget`; none are made when it cannot pay for them all.
    func closest(in matched: MatchedText, budget: inout Int) -> (bytes: Range<Int>, scalars: Range<Int>)? {
        var best: (score: Float, range: (bytes: Range<Int>, scalars: Range<Int>))?
        var vector = [Float](repeating: 0, count: embedder.dimension)
        var sentences = Self.sentences(of: matched)
        // A fragment ("$6.09.") says little and lands anywhere in meaning: a sentence of fewer
        // than three words is a candidate only when no longer one is.
        if sentences.contains(where: { $0.words >= 3 }) { sentences.removeAll { $0.words < 3 } }
        guard sentences.count <= budget else { return nil }
        budget -= sentences.count
        for sentence in sentences {
            let text = String(decoding: matched.bytes[sentence.bytes], as: UTF8.self)
            vector.withUnsafeMutableBufferPointer { embedder.embed(text, into: $0) }
            var dot: Float = 0
            for j in 0..<min(vector.count, query.count) { dot += vector[j] * query[j] }
            guard dot.isFinite, dot != 0 else { continue }
            if best == nil || dot > best!.score { best = (dot, (sentence.bytes, sentence.scalars)) }
        }
        return best?.range
    }

    /// The first sentences of `matched`: runs of words ended by ".", "!", "?" or ";" before
    /// white space, a CJK full stop or mark, or a line break; as byte and scalar ranges, from
    /// the symbols that open the sentence's first word ("$", "(", a quote) to its last word and
    /// the punctuation after it, with the number of its words.
    static func sentences(of matched: MatchedText) -> [(bytes: Range<Int>, scalars: Range<Int>, words: Int)] {
        var result: [(bytes: Range<Int>, scalars: Range<Int>, words: Int)] = []
        var first: MatchedText.Word?
        var previous: MatchedText.Word?
        var words = 0
        /// Where the last sentence ended: a sentence's opening symbols start after it.
        var floor = 0
        let bytes = matched.bytes
        /// The sentence from `f` to `p`, the non-space symbols right before `f` and the ASCII
        /// punctuation right after `p`.
        func sentence(_ f: MatchedText.Word, _ p: MatchedText.Word) -> (bytes: Range<Int>, scalars: Range<Int>, words: Int) {
            var n = 0
            while p.bytes.upperBound + n < bytes.count, ".!?;)\"'".utf8.contains(bytes[p.bytes.upperBound + n]) { n += 1 }
            var start = f.bytes.lowerBound
            var scalarStart = f.scalars.lowerBound
            while start > floor, !" \t\n\r.!?;".utf8.contains(bytes[start - 1]) {
                start -= 1
                if bytes[start] & 0xC0 != 0x80 { scalarStart -= 1 }  // a scalar's first byte
            }
            floor = p.bytes.upperBound + n
            return (start..<(p.bytes.upperBound + n), scalarStart..<(p.scalars.upperBound + n), words)
        }
        for word in matched.words(from: 0, scalar: 0, through: maximumSentences * maximumSentenceBytes) {
            if let f = first, let p = previous {
                let gap = bytes[p.bytes.upperBound..<word.bytes.lowerBound]
                if endsSentence(gap) || word.bytes.upperBound - f.bytes.lowerBound > maximumSentenceBytes {
                    result.append(sentence(f, p))
                    if result.count == maximumSentences { return result }
                    first = nil
                    words = 0
                }
            }
            if first == nil { first = word }
            previous = word
            words += 1
        }
        if let f = first, let p = previous { result.append(sentence(f, p)) }
        return result
    }

    /// Whether the characters between two words end a sentence.
    static func endsSentence(_ gap: ArraySlice<UInt8>) -> Bool {
        var sawStop = false
        for b in gap {
            switch b {
            case 0x0A, 0x0D: return true
            case 0x2E, 0x21, 0x3F, 0x3B: sawStop = true  // . ! ? ;
            case 0x20 where sawStop, 0x09 where sawStop: return true
            default: break
            }
        }
        // 。 ！ ？ (U+3002, U+FF01, U+FF1F)
        guard gap.contains(where: { $0 >= 0x80 }) else { return false }
        let text = String(decoding: gap, as: UTF8.self)
        return text.contains("\u{3002}") || text.contains("\u{FF01}") || text.contains("\u{FF1F}")
    }
}
