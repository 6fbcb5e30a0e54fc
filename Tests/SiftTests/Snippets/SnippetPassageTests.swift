import Foundation
import Testing

@testable import Sift

@Suite("Snippets: choosing and cutting the passage")
struct SnippetPassageTests {
    /// `count` filler words, "w0 w1 w2 …".
    func filler(_ count: Int, from start: Int = 0) -> String {
        (start..<(start + count)).map { "w\($0)" }.joined(separator: " ")
    }

    @Test("A long content gives about 160 characters around the match, cut on words, with ellipses")
    func longContent() throws {
        let content = filler(200) + " the lighthouse keeper " + filler(200, from: 200) + "."
        let s = try #require(snippet(content: content, "lighthouse"))
        #expect(s.text.hasPrefix("…") && s.text.hasSuffix("…"))
        #expect(s.text.unicodeScalars.count <= 162 && s.text.unicodeScalars.count >= 140, "\(s.text.unicodeScalars.count)")
        #expect(marked(s) == ["lighthouse"])
        // Whole words at both cuts: the passage without its ellipses is a run of whole words.
        let inner = String(s.text.dropFirst().dropLast())
        #expect(content.contains(" " + inner + " "))
        #expect(inner.first != " " && inner.last != " ")
    }

    @Test("The passage begins with the sentence of the match when that sentence begins in its lead")
    func sentenceStart() throws {
        let content = filler(60) + ". Then the lighthouse keeper slept. " + filler(100, from: 60)
        let s = try #require(snippet(content: content, "lighthouse"))
        #expect(s.text.hasPrefix("…Then the lighthouse keeper slept. w60"), "\(s.text)")
        #expect(s.text.hasSuffix("…"))
    }

    @Test("The passage holds the most distinct query words, the earliest on ties")
    func mostDistinctWords() throws {
        let content = "alpha " + filler(100) + " beta " + filler(100, from: 100) + " alpha and beta together " + filler(100, from: 200)
        let s = try #require(snippet(content: content, "alpha beta"))
        #expect(marked(s) == ["alpha", "beta"])
        #expect(s.text.contains("alpha and beta together"))
        // Two passages with one word each: the earliest.
        let t = try #require(snippet(content: "gamma " + filler(100) + " gamma " + filler(100, from: 100), "gamma"))
        #expect(t.text.hasPrefix("gamma w0"))
        #expect(!t.text.hasPrefix("…") && t.text.hasSuffix("…"))
    }

    @Test("Cuts never split a grapheme cluster or a UTF-8 sequence")
    func graphemes() throws {
        let words = (0..<80).map { i in ["e\u{301}té", "👨‍👩‍👧", "東京", "naïve", "a\u{FE0F}b"][i % 5] + "\(i)" }
        let content = words.joined(separator: " ") + " target " + words.joined(separator: " ")
        let s = try #require(snippet(content: content, "target"))
        #expect(marked(s) == ["target"])
        let inner = String(s.text.dropFirst().dropLast())
        #expect(content.contains(inner))
        // The passage's characters are the content's characters.
        let characters = Array(content)
        let innerCharacters = Array(inner)
        let found = (0...(characters.count - innerCharacters.count)).contains {
            Array(characters[$0..<($0 + innerCharacters.count)]) == innerCharacters
        }
        #expect(found)
    }

    @Test("White space and control characters become single spaces; highlights follow")
    func whiteSpace() throws {
        let s = try #require(snippet(content: "  first line\n\n\tsecond\u{1B}[31m  line\r\n", "line second"))
        #expect(s.text == "first line second [31m line")
        #expect(marked(s) == ["line", "second", "line"])
    }

    @Test("The title is the passage when the content has no match and the title does")
    func titleFallback() throws {
        let s = try #require(snippet(content: "Bake for twenty minutes.", title: "Lemon tart", "lemon"))
        #expect(s.text == "Lemon tart")
        #expect(marked(s) == ["Lemon"])
        // The content wins when both match.
        #expect(snippet(content: "A lemon from the garden.", title: "Lemon tart", "lemon")?.text == "A lemon from the garden.")
        // A blank content: the title, even unmatched.
        #expect(snippet(content: " ", title: "Notes", "zebra")?.text == "Notes")
        #expect(snippet(content: "", title: "", "zebra") == nil)
    }

    @Test("A result found by meaning alone shows the sentence closest to the query, without highlights")
    func semanticOnly() throws {
        let item = SearchableItem(
            id: "m", title: "Monday",
            content: "Stock markets fell sharply today. The cat slept on the warm mat! Bananas are yellow and sweet.")
        let fixture = SnippetFixture([item], embedder: SynonymEmbedder(groups: ["kitten": "cat", "kittens": "cat"]))
        let s = try #require(fixture.snippet(item, "kittens"))
        #expect(s.text == "…The cat slept on the warm mat!…")
        #expect(s.highlights.isEmpty)
        // Without a model: the content's opening.
        let plain = SnippetFixture([item]).snippet(item, "kittens")
        #expect(plain?.text.hasPrefix("Stock markets fell sharply today.") == true)
    }

    @Test("Only the first sentences are embedded, so a long content stays cheap")
    func boundedSentences() {
        let content = (0..<50).map { "Sentence number \($0) is here." }.joined(separator: " ")
        let item = SearchableItem(id: "s", content: content)
        let sentences = ClosestSentence.sentences(of: MatchedText(content, analyzer: Analyzer(), matcher: SnippetMatcher(terms: [])))
        #expect(sentences.count == ClosestSentence.maximumSentences)
        // "ninth" means "49" to this model, but sentence 49 is past the first few.
        let fixture = SnippetFixture([item], embedder: SynonymEmbedder(groups: ["ninth": "49", "49": "49"]))
        let s = fixture.snippet(item, "ninth")
        let sentence = s?.text.trimmingCharacters(in: CharacterSet(charactersIn: "…"))
        let firstSentences = (0..<ClosestSentence.maximumSentences).map { "Sentence number \($0) is here." }
        #expect(firstSentences.contains(sentence ?? ""), "\(s?.text ?? "nil")")
    }

    @Test(
        "A sentence keeps the symbols that open it (\"$6.09.\", not \"6.09.\"), and a fragment of under three words is chosen only when no longer sentence is"
    )
    func sentenceOpeningsAndFragments() {
        let content = "Stopped at Philz on the way in: oat latte. $6.09. (Paid by card.)"
        let matched = MatchedText(content, analyzer: Analyzer(), matcher: SnippetMatcher(terms: []))
        let sentences = ClosestSentence.sentences(of: matched)
        let texts = sentences.map { String(decoding: matched.bytes[$0.bytes], as: UTF8.self) }
        #expect(texts == ["Stopped at Philz on the way in: oat latte.", "$6.09.", "(Paid by card.)"])
        #expect(sentences.map(\.words) == [9, 2, 3])
        for (sentence, text) in zip(sentences, texts) {
            #expect(sentence.scalars.count == text.unicodeScalars.count)
        }
        // "6" and "09" are the query's words to this model, but "$6.09." is a fragment.
        let item = SearchableItem(id: "p", content: content)
        let fixture = SnippetFixture([item], embedder: SynonymEmbedder(groups: ["price": "6", "6": "6", "09": "6"]))
        let s = fixture.snippet(item, "price")
        #expect(s?.text.contains("$6.09") == false, "\(s?.text ?? "nil")")
    }
}
