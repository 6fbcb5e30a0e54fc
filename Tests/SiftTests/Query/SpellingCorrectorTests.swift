import Testing

@testable import Sift

@Suite("Spelling correction against the index vocabulary")
struct SpellingCorrectorTests {
    private func index() -> KeywordIndex {
        var k = KeywordIndex()
        k.insert(SearchableItem(id: "a", title: "Protein folding", content: "protein structure"), at: 0)
        k.insert(SearchableItem(id: "b", title: "Protein diet", content: "proteins and fats"), at: 1)
        k.insert(SearchableItem(id: "c", title: "Pretein", content: "a rare word"), at: 2)
        return k
    }

    @Test func correctsAnUnknownWordToTheMostFrequentNeighbour() {
        let fixed = SpellingCorrector().correct("protien folding", keyword: index(), vocabulary: nil, keepLastWord: false)
        #expect(fixed.text == "protein folding")
        #expect(fixed.corrections == [.init(typed: "protien", corrected: "protein")])
    }

    @Test func leavesKnownShortAndTypedWordsAlone() {
        let k = index()
        #expect(SpellingCorrector().correct("protein folding", keyword: k, vocabulary: nil, keepLastWord: false).corrections.isEmpty)
        #expect(SpellingCorrector().correct("fatz", keyword: k, vocabulary: nil, keepLastWord: false).corrections.isEmpty == false)
        #expect(SpellingCorrector().correct("fts", keyword: k, vocabulary: nil, keepLastWord: false).corrections.isEmpty)
        #expect(SpellingCorrector().correct("folding protien", keyword: k, vocabulary: nil, keepLastWord: true).corrections.isEmpty)
    }

    /// The model's vocabulary, as a set of words.
    private struct Words: WordVocabulary {
        var words: Set<String>
        func recognizes(word: String) -> Bool { words.contains(word) }
    }

    @Test func aMistypedStopWordBecomesTheStopWord() {
        var k = KeywordIndex()
        k.insert(SearchableItem(id: "a", title: "Width of the road", content: "than thank"), at: 0)
        let fixed = SpellingCorrector().correct("witth thann", keyword: k, vocabulary: nil, keepLastWord: false)
        // "width" and "thank" are index words one edit away, but the stop words are far commoner.
        #expect(fixed.text == "with than")
        // A word the model knows is never touched, even one edit from a stop word.
        #expect(
            SpellingCorrector().correct("witth", keyword: k, vocabulary: Words(words: ["witth"]), keepLastWord: false)
                .corrections.isEmpty)
    }

    @Test func aWordTheModelKnowsOutranksAnIndexWordItDoesNot() {
        var k = KeywordIndex()
        // "additted" stems with "addition" and "additional": more items than "admitted".
        k.insert(SearchableItem(id: "a", title: "Addition", content: "additional additted"), at: 0)
        k.insert(SearchableItem(id: "b", title: "Additional", content: "an addition"), at: 1)
        k.insert(SearchableItem(id: "c", title: "Admitted", content: "patients admitted"), at: 2)
        let words = Words(words: ["addition", "additional", "admitted", "patients"])
        #expect(SpellingCorrector().correct("aditted", keyword: k, vocabulary: words, keepLastWord: false).text == "admitted")
        // Without a model the most items win.
        #expect(SpellingCorrector().correct("aditted", keyword: k, vocabulary: nil, keepLastWord: false).text == "additted")
    }

    @Test func aTypoWithAKnownStemIsCorrectedForTheModelOnly() {
        var k = KeywordIndex()
        k.insert(SearchableItem(id: "a", title: "Pipe diameter", content: "a safe gene"), at: 0)
        let words = Words(words: ["pipe", "diameter", "safe", "gene"])
        // Items hold "diamet" (Porter), so the keyword half matches; the model needs the word.
        let fixed = SpellingCorrector().correct("diameteer genee", keyword: k, vocabulary: words, keepLastWord: false)
        #expect(fixed.text == "diameter gene")
        #expect(fixed.corrections == [.init(typed: "diameteer", corrected: "diameter"), .init(typed: "genee", corrected: "gene")])
        // Without a model nothing would change in what is searched: left alone.
        #expect(SpellingCorrector().correct("diameteer", keyword: k, vocabulary: nil, keepLastWord: false).corrections.isEmpty)
        // A word the model knows is never touched.
        let knows = Words(words: words.words.union(["diameteer"]))
        #expect(SpellingCorrector().correct("diameteer", keyword: k, vocabulary: knows, keepLastWord: false).corrections.isEmpty)
    }

    @Test func anInflectionIsNotATypo() {
        var k = KeywordIndex()
        k.insert(SearchableItem(id: "a", title: "Nuclear lamins", content: "persister cells"), at: 0)
        // Unknown to the model, held by the item; a known spelling with the same stem differs at the
        // last letter only, as inflections do.
        let words = Words(words: ["nuclear", "cells", "lamine", "persisted"])
        #expect(SpellingCorrector().correct("lamins persister", keyword: k, vocabulary: words, keepLastWord: false).corrections.isEmpty)
    }

    @Test func aLetterPutBackOutranksOneReplaced() {
        var k = KeywordIndex()
        k.insert(SearchableItem(id: "a", title: "Engagement", content: "patient engagement"), at: 0)
        // Both stem as "engag"; a dropped letter is a likelier typo than "m" typed for "e".
        let words = Words(words: ["engageent", "engagement", "patient"])
        #expect(SpellingCorrector().correct("engagment", keyword: k, vocabulary: words, keepLastWord: false).text == "engagement")
    }

    @Test func sameStemEditRanks() {
        func rank(_ typed: String, _ corrected: String) -> Int? {
            SpellingCorrector.sameStemEditRank(typed: Array(typed.utf8), corrected: Array(corrected.utf8))
        }
        #expect(rank("diameteer", "diameter") == 4)
        #expect(rank("genee", "gene") == 4)
        #expect(rank("protien", "protein") == 3)
        #expect(rank("genoem", "genome") == 3)
        #expect(rank("recruitent", "recruitment") == 2)
        #expect(rank("engagment", "engageent") == 1)
        #expect(rank("cheese", "chese") == 4)
        #expect(rank("chasse", "chase") == 4)
        #expect(rank("planet", "plant") == 0)
        #expect(rank("lamins", "lamin") == nil)
        #expect(rank("lamin", "lamins") == nil)
        #expect(rank("lamins", "lamine") == nil)
    }

    /// Every word one Damerau–Levenshtein edit from `word` (a–z), by brute force.
    private static func allEdits(_ word: [UInt8]) -> Set<[UInt8]> {
        var out = Set<[UInt8]>()
        let letters = UInt8(0x61)...UInt8(0x7A)
        for i in word.indices {
            var d = word
            d.remove(at: i)
            out.insert(d)
            if i + 1 < word.count {
                var t = word
                t.swapAt(i, i + 1)
                out.insert(t)
            }
            for a in letters {
                var s = word
                s[i] = a
                out.insert(s)
            }
        }
        for i in 0...word.count {
            for a in letters {
                var n = word
                n.insert(a, at: i)
                out.insert(n)
            }
        }
        out.remove(word)
        return out
    }

    @Test("Same-stem corrections: one edit, the same stem, a known word, and the best one (against brute force)")
    func sameStemCorrectionsAgainstBruteForce() {
        var rng = SeededGenerator(seed: 2412)
        // Few letters and English suffixes, so that words share stems and edits collide.
        let roots = (0..<60).map { _ in String((0..<rng.int(2..<7)).map { _ in rng.pick(Array("abeilnorst")) }) }
        let suffixes = ["", "s", "e", "ed", "ing", "er", "ee", "ation", "ly", "ness", "ies", "ment", "ize", "al"]
        func word() -> String { rng.pick(roots) + rng.pick(suffixes) }
        var k = KeywordIndex()
        for n in Int32(0)..<50 {
            let title = word()
            let content = (0..<6).map { _ in word() }.joined(separator: " ")
            k.insert(SearchableItem(id: ItemID("i\(n)"), title: title, content: content), at: n)
        }
        var known = Set<String>()
        for _ in 0..<300 { known.insert(word()) }
        let vocabulary = Words(words: known)
        let corrector = SpellingCorrector()
        var sameStemFixes = 0
        for _ in 0..<1_500 {
            // A word of the vocabulary's kind, mistyped half the time by an edit that keeps its stem.
            var typed = Array(word().utf8)
            let stem0 = PorterStemmer.stem(String(decoding: typed, as: UTF8.self))
            let stemKept = Self.allEdits(typed).filter { PorterStemmer.stem(String(decoding: $0, as: UTF8.self)) == stem0 }
            if rng.chance(0.5) && !stemKept.isEmpty { typed = rng.pick(stemKept.sorted { $0.lexicographicallyPrecedes($1) }) }
            let w = String(decoding: typed, as: UTF8.self)
            guard typed.count >= 4, typed.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }), !k.analyzer.stopWords.contains(w),
                !known.contains(w), k.documentFrequency(PorterStemmer.stem(w)) > 0
            else { continue }
            let stem = PorterStemmer.stem(w)
            // Brute force: every edit, no pruning.
            var best: (rank: Int, word: String)?
            for e in Self.allEdits(typed) {
                let c = String(decoding: e, as: UTF8.self)
                guard let rank = SpellingCorrector.sameStemEditRank(typed: typed, corrected: e), known.contains(c),
                    PorterStemmer.stem(c) == stem
                else { continue }
                if let b = best, b.rank > rank || (b.rank == rank && !c.utf8.lexicographicallyPrecedes(b.word.utf8)) { continue }
                best = (rank, c)
            }
            let fixed = corrector.correction(of: w, keyword: k, vocabulary: vocabulary)
            #expect(fixed == (stem == w ? nil : best?.word), "\(w)")
            if fixed != nil { sameStemFixes += 1 }
            // Without a model such a word is never touched: the keyword half would not change.
            #expect(corrector.correction(of: w, keyword: k, vocabulary: nil) == nil)
        }
        #expect(sameStemFixes > 20)
    }

    @Test("A Porter stem is its word's prefix but for its last three letters (same-stem edits start there)")
    func stemsDivergeOnlyAtTheirEnd() throws {
        var words = Set<String>()
        for item in try demoCorpusItems() { Analyzer().forEachWord(item.content + " " + item.title) { w, _ in words.insert(w) } }
        words.formUnion([
            "sensibility", "relational", "conditional", "valenci", "hesitanci", "digitizer", "conformabli", "radicalli",
            "differentli", "vileli", "analogousli", "vietnamization", "predication", "operator", "feudalism", "decisiveness",
            "hopefulness", "callousness", "formaliti", "sensitiviti", "triplicate", "formative", "formalize", "electriciti",
            "electrical", "hopeful", "goodness", "conflated", "troubled", "sized", "hopping", "filing", "happy", "controlling",
        ])
        #expect(words.count > 1000)
        for word in words {
            let stem = Array(PorterStemmer.stem(word).utf8)
            let n = max(0, stem.count - 3)
            #expect(Array(Array(word.utf8).prefix(n)) == Array(stem.prefix(n)), "\(word) → \(String(decoding: stem, as: UTF8.self))")
        }
    }
}
