/// Query-time spelling correction against the index's own vocabulary (as a phone keyboard
/// mistypes: one wrong, missing, extra or swapped letter).
///
/// A query word is corrected only when all of these hold, so a correct word is never touched:
/// - it has at least ``minimumLength`` letters, all ASCII `a`–`z`, and is not a stop word;
/// - no indexed item contains it (its stem has no postings);
/// - the embedding model does not know it either (``WordVocabulary``), when there is a model;
/// - some word one edit away (Damerau–Levenshtein: substitution, deletion, insertion,
///   transposition of neighbours) is a stop word or stems to an index term.
///
/// Among those edits (``Candidate/outranks(_:)``) a stop word wins ("withh", "thann": the
/// commonest words, which no item's terms hold), then a word the model knows (an index word it
/// does not know is a name or a misspelling some item holds: "additted" beside "admitted"), then
/// the term in the most items, then the spelling that sorts first, so the result is
/// deterministic. The corrected word replaces the typed one in the text both halves search, and
/// the report says so.
package struct SpellingCorrector: Sendable {
    /// Words shorter than this are left alone: short words have too many neighbours.
    package var minimumLength: Int

    package init(minimumLength: Int = 4) {
        self.minimumLength = minimumLength
    }

    /// One replaced word.
    package struct Correction: Sendable, Equatable {
        package var typed: String
        package var corrected: String
    }

    /// `text` with each unknown word replaced by its best correction, and the corrections made.
    /// - Parameters:
    ///   - keepLastWord: leave the last word alone (it is being typed: a prefix, not a typo).
    ///   - vocabulary: the model's vocabulary, or nil when the index has no model.
    /// - Complexity: O(1) per known word; about 54·L index look-ups for an unknown word of L letters.
    package func correct(
        _ text: String, keyword: KeywordIndex, vocabulary: (any WordVocabulary)?, keepLastWord: Bool
    ) -> (text: String, corrections: [Correction]) {
        var words: [(word: String, range: Range<Int>)] = []
        keyword.analyzer.forEachWord(text) { words.append(($0, $1)) }
        if keepLastWord, !words.isEmpty { words.removeLast() }
        var replacements: [(range: Range<Int>, word: String)] = []
        var corrections: [Correction] = []
        for (word, range) in words {
            guard let fixed = correction(of: word, keyword: keyword, vocabulary: vocabulary) else { continue }
            replacements.append((range, fixed))
            corrections.append(Correction(typed: word, corrected: fixed))
        }
        guard !replacements.isEmpty else { return (text, []) }
        var bytes = Array(text.utf8)
        for r in replacements.reversed() { bytes.replaceSubrange(r.range, with: Array(r.word.utf8)) }
        return (String(decoding: bytes, as: UTF8.self), corrections)
    }

    /// The best correction of one normalised word, or nil if it needs none or has none.
    package func correction(of word: String, keyword: KeywordIndex, vocabulary: (any WordVocabulary)?) -> String? {
        let letters = Array(word.utf8)
        guard letters.count >= minimumLength, letters.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }),
            !keyword.analyzer.stopWords.contains(word),
            keyword.documentFrequency(PorterStemmer.stem(word)) == 0,
            !(vocabulary?.recognizes(word: word) ?? false)
        else { return nil }
        var best: Candidate?
        var seen = Set<String>()
        func consider(_ edit: [UInt8]) {
            let c = String(decoding: edit, as: UTF8.self)
            guard seen.insert(c).inserted else { return }
            let stop = keyword.analyzer.stopWords.contains(c)
            let df = stop ? 0 : keyword.documentFrequency(PorterStemmer.stem(c))
            guard stop || df > 0 else { return }
            let candidate = Candidate(
                word: c, stop: stop, known: vocabulary?.recognizes(word: c) ?? false, df: df)
            if best.map({ candidate.outranks($0) }) ?? true { best = candidate }
        }
        let alphabet = Array(UInt8(0x61)...UInt8(0x7A))
        var edit = letters
        for i in letters.indices {
            // Deletion.
            edit = letters
            edit.remove(at: i)
            consider(edit)
            // Transposition with the next letter.
            if i + 1 < letters.count, letters[i] != letters[i + 1] {
                edit = letters
                edit.swapAt(i, i + 1)
                consider(edit)
            }
            // Substitution.
            for a in alphabet where a != letters[i] {
                edit = letters
                edit[i] = a
                consider(edit)
            }
        }
        // Insertion.
        for i in 0...letters.count {
            for a in alphabet {
                edit = letters
                edit.insert(a, at: i)
                consider(edit)
            }
        }
        return best?.word
    }

    /// One correction of a word, with what ranks it against the others.
    struct Candidate {
        var word: String
        var stop: Bool
        var known: Bool
        var df: Int

        /// A stop word first, then a word the model knows, then the most items, then the
        /// spelling that sorts first.
        func outranks(_ other: Candidate) -> Bool {
            if stop != other.stop { return stop }
            if known != other.known { return known }
            if df != other.df { return df > other.df }
            return word.utf8.lexicographicallyPrecedes(other.word.utf8)
        }
    }
}
