import Sift
import SobrietyTracker
import Testing

@Suite("Sample app: tokenizer on journal text")
struct TokenizerTests {
    @Test("Journal text splits on em-dashes, punctuation and emoji, lower-cased")
    func journalTextSplits() {
        #expect(Analyzer().terms("Work — stressful! 😤 Big deadline.") == ["work", "stressful", "big", "deadline"])
        #expect(
            Analyzer().terms("Day 47 — rough night, phoned Dana at midnight") == [
                "day", "47", "rough", "night", "phoned", "dana", "midnight",
            ])
        #expect(Analyzer().terms("Café crème at the farmers' market") == ["cafe", "creme", "farmers", "market"])
    }

    @Test("Keywords are distinctive, deduplicated and never a title word")
    func keywordsExcludeTitleWords() {
        let extractor = KeywordExtractor()
        #expect(extractor.extract(from: "Sunday afternoon stress", excluding: ["Sunday"]) == ["afternoon", "stress"])
        #expect(extractor.extract(from: "stress stress stress meeting") == ["stress", "meeting"])
        for day in SampleData.days {
            let keywords = day.attributeSet.keywords
            let titleWords = Set(Analyzer(stopWords: []).terms(day.title))
            #expect(keywords.count >= 3 && keywords.count <= 8)
            #expect(Set(keywords).count == keywords.count)
            #expect(keywords.allSatisfy { !titleWords.contains($0) && $0 == $0.lowercased() && $0.count >= 3 })
        }
    }
}
