/// Query-time spelling correction against the index's own vocabulary (as a phone keyboard
/// mistypes: one wrong, missing, extra or swapped letter).
///
/// A query word is corrected only when all of these hold, so a correct word is never touched:
/// - it has at least ``minimumLength`` letters, all ASCII `a`–`z`, and is not a stop word;
/// - no indexed item contains it (its stem has no postings);
/// - the embedding model does not know it either (``WordVocabulary``), when there is a model;
/// - some word one edit away (Damerau–Levenshtein: substitution, deletion, insertion,
///   transposition of neighbours) stems to an index term.
///
/// Among those edits the one whose term is in the most items wins; ties go to the edit whose
/// spelling sorts first, so the result is deterministic. The corrected word replaces the typed
/// one in the text both halves search, and the report says so.
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
        var best: (word: String, df: Int)?
        var seen = Set<String>()
        func consider(_ candidate: [UInt8]) {
            let c = String(decoding: candidate, as: UTF8.self)
            guard seen.insert(c).inserted, !keyword.analyzer.stopWords.contains(c) else { return }
            let df = keyword.documentFrequency(PorterStemmer.stem(c))
            guard df > 0 else { return }
            if let b = best, b.df > df || (b.df == df && !c.utf8.lexicographicallyPrecedes(b.word.utf8)) { return }
            best = (c, df)
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
}
