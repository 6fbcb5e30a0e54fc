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
}
