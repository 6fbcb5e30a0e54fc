/// Query-time spelling correction against the index's own vocabulary (as a phone keyboard
/// mistypes: one wrong, missing, extra or swapped letter).
///
/// A query word is corrected to an index word only when all of these hold, so a correct word is
/// never touched (a typo whose stem items hold is the second kind, below):
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
///
/// **A typo with a known stem.** A word the model does not know whose stem items do hold
/// ("diameteer", "safee": Porter gives the stems of "diameter" and "safe") matches those items in
/// the keyword half, but the semantic half would embed the typo's letters. With a model, such a
/// word is corrected to a spelling one edit away **with the same stem** that the model knows — so
/// the keyword half is unchanged — provided the edit does not add, replace or remove the last
/// letter, which is how inflections differ ("lamins"/"lamine", "persister"/"persisted", gene
/// names with an "s"), unless it removes a doubled last letter ("genee"); a word that is its
/// own stem (most names) keeps its stem only under such edits at its end, so it is left alone.
/// Among such spellings: a doubled letter removed, then two letters swapped back, then a letter
/// put back, then one replaced (``sameStemEditRank(typed:corrected:)``), then the spelling that
/// sorts first.
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
            !(vocabulary?.recognizes(word: word) ?? false)
        else { return nil }
        let stem = PorterStemmer.stem(word)
        // Items hold the stem: only the semantic half can gain, so only with a model, and only
        // for a word with a suffix — a word that is its own stem keeps it only under edits at
        // its end, which are left alone (a pseudo-word or a name costs nothing more).
        let sameStem = keyword.documentFrequency(stem) > 0
        if sameStem && (vocabulary == nil || stem == word) { return nil }
        // Porter's stem is its word's prefix but for its last three letters at most, so an edit
        // before that changes the stem: same-stem edits start there.
        let from = sameStem ? max(0, stem.utf8.count - 4) : 0
        var best: Candidate?
        var seen = Set<String>()
        func consider(_ edit: [UInt8]) {
            if sameStem, let vocabulary {
                // Same stem, so the same items: ranked by the kind of edit, not by items (the
                // order is total, so an edit met twice needs no memo). Cheapest test first.
                guard let rank = Self.sameStemEditRank(typed: letters, corrected: edit),
                    edit.withUnsafeBufferPointer({ vocabulary.recognizes(utf8: $0) })
                else { return }
                let c = String(decoding: edit, as: UTF8.self)
                guard PorterStemmer.stem(c) == stem else { return }
                let candidate = Candidate(word: c, stop: false, known: true, df: rank)
                if best.map({ candidate.outranks($0) }) ?? true { best = candidate }
                return
            }
            let c = String(decoding: edit, as: UTF8.self)
            guard seen.insert(c).inserted else { return }
            let stop = keyword.analyzer.stopWords.contains(c)
            let df = stop ? 0 : keyword.documentFrequency(PorterStemmer.stem(c))
            guard stop || df > 0 else { return }
            let candidate = Candidate(
                word: c, stop: stop, known: vocabulary?.recognizes(word: c) ?? false, df: df)
            if best.map({ candidate.outranks($0) }) ?? true { best = candidate }
        }
        // One buffer for every edit, reloaded from `letters` (no allocation per edit).
        var edit: [UInt8] = []
        edit.reserveCapacity(letters.count + 1)
        func reload() {
            edit.removeAll(keepingCapacity: true)
            edit.append(contentsOf: letters)
        }
        for i in from..<letters.count {
            // Deletion.
            reload()
            edit.remove(at: i)
            consider(edit)
            // Transposition with the next letter.
            if i + 1 < letters.count, letters[i] != letters[i + 1] {
                reload()
                edit.swapAt(i, i + 1)
                consider(edit)
            }
            // Substitution.
            reload()
            for a in UInt8(0x61)...UInt8(0x7A) where a != letters[i] {
                edit[i] = a
                consider(edit)
            }
        }
        // Insertion.
        for i in from...letters.count {
            reload()
            edit.insert(0x61, at: i)
            for a in UInt8(0x61)...UInt8(0x7A) {
                edit[i] = a
                consider(edit)
            }
        }
        return best?.word
    }

    /// How likely `corrected` (one edit from `typed`, the same stem) is the word meant, higher
    /// first: 4 a doubled letter removed, 3 two neighbours swapped back, 2 a dropped letter put
    /// back, 1 a letter replaced, 0 another letter removed; nil when a letter is put back, replaced
    /// or removed at the end (how inflections differ), except a doubled last letter removed.
    static func sameStemEditRank(typed a: [UInt8], corrected b: [UInt8]) -> Int? {
        var i = 0
        while i < min(a.count, b.count), a[i] == b[i] { i += 1 }
        if a.count == b.count + 1 {  // a[i] removed (of a run of equal letters, the last one)
            if i >= 1 && a[i] == a[i - 1] { return 4 }
            return i == a.count - 1 ? nil : 0
        }
        if b.count == a.count + 1 { return i == a.count ? nil : 2 }
        guard a.count == b.count, i < a.count else { return nil }
        if i + 1 < a.count, a[i] == b[i + 1], a[i + 1] == b[i], a[(i + 2)...].elementsEqual(b[(i + 2)...]) {
            return 3
        }
        return i == a.count - 1 ? nil : 1
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
