import Testing

@testable import Sift

@Suite("Keyword extractor: 3–8 distinctive words, never a title word")
struct KeywordExtractorTests {
    let extractor = KeywordExtractor()

    @Test("Stop words go and the content words stay in order")
    func quickBrownFox() {
        #expect(extractor.extract(from: "The quick brown fox is on a run") == ["quick", "brown", "fox", "run"])
    }

    @Test("Ten distinct words give eight keywords")
    func atMostEight() {
        let text = "alpha bravo charlie delta echo foxtrot golf hotel india juliet"
        let keywords = extractor.extract(from: text)
        #expect(keywords.count == 8)
        #expect(keywords == ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"])
    }

    @Test("Repeated words appear once")
    func deduplicated() {
        #expect(extractor.extract(from: "stress stress stress meeting") == ["stress", "meeting"])
    }

    @Test("Title words are excluded, whatever their case")
    func excludesTitleWords() {
        #expect(extractor.extract(from: "Sunday afternoon stress", excluding: ["sunday"]) == ["afternoon", "stress"])
        #expect(extractor.extract(from: "Sunday afternoon stress", excluding: ["SUNDAY Afternoon"]) == ["stress"])
    }

    @Test("Em-dash, punctuation and emoji do not stick to words")
    func punctuationAndEmoji() {
        #expect(extractor.extract(from: "Work — stressful! 😤 Big deadline.") == ["work", "stressful", "big", "deadline"])
    }

    @Test("Words shorter than three letters are dropped")
    func minimumLength() {
        #expect(extractor.extract(from: "ox go fig tea up") == ["fig", "tea"])
    }

    @Test("Keywords are lower-cased and folded")
    func lowerCased() {
        #expect(extractor.extract(from: "CAFÉ Résumé") == ["cafe", "resume"])
    }

    @Test("The most frequent words come first; ties keep their first appearance")
    func frequencyOrder() {
        let text = "rain wind rain snow wind rain hail"
        #expect(extractor.extract(from: text) == ["rain", "wind", "snow", "hail"])
    }

    @Test("Text with nothing distinctive gives no keywords")
    func empty() {
        #expect(extractor.extract(from: "").isEmpty)
        #expect(extractor.extract(from: "the and of it is a").isEmpty)
        #expect(extractor.extract(from: "😤 — !").isEmpty)
    }
}
