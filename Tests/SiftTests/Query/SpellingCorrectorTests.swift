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
}
