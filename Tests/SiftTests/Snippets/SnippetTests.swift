import Foundation
import Testing

@testable import Sift

@Suite("Snippets: the passage and the words that matched")
struct SnippetTests {
    @Test("Words are highlighted when their stem is a query word's stem")
    func stems() {
        let s = snippet(content: "She was running late; the runs of the morning ran long.", "run")
        #expect(marked(s) == ["running", "runs"])
        #expect(s?.text == "She was running late; the runs of the morning ran long.")
        // Stop words never match, even spelled like the query.
        #expect(marked(snippet(content: "the theory of the thing", "the theory")) == ["theory"])
    }

    @Test("The last word being typed highlights every word it begins")
    func prefixes() {
        let content = "Espresso, espressos and an esplanade; also express mail."
        #expect(marked(snippet(content: content, "espr", typing: true)) == ["Espresso", "espressos"])
        #expect(marked(snippet(content: content, "milk esp", typing: true)) == ["Espresso", "espressos", "esplanade"])
        // Not typing: "esp" is a whole word, and none matches it.
        #expect(marked(snippet(content: content, "esp")) == [])
        // Only the last word is a prefix.
        #expect(marked(snippet(content: content, "espr mail", typing: true)) == ["mail"])
    }

    @Test("Diacritics fold: \"cafe\" finds \"café\" and \"CAFÉ\", ranges over the original bytes")
    func diacritics() throws {
        let s = try #require(snippet(content: "Un café crème au CAFÉ de Flore, naïve cafe", "cafe"))
        #expect(marked(s) == ["café", "CAFÉ", "cafe"])
        #expect(s.highlights.first == 3..<8)  // "café" is 5 bytes
        #expect(marked(snippet(content: "a naïve reader", "naive")) == ["naïve"])
        #expect(marked(snippet(content: "a naive reader", "naïve")) == ["naive"])
    }

    @Test("CJK words are highlighted on whole characters")
    func cjk() throws {
        let content = "今日は 東京 に行きました。東京タワー と 大阪"
        let s = try #require(snippet(content: content, "東京"))
        #expect(marked(s) == ["東京"])
        #expect(s.highlights == [10..<16])
        #expect(marked(snippet(content: content, "東京", typing: true)) == ["東京", "東京タワー"])
        #expect(marked(snippet(content: content, "大阪 東京")) == ["東京", "大阪"])
    }

    @Test("Emoji next to words stay out of the highlights")
    func emoji() throws {
        let s = try #require(snippet(content: "I love☕coffee☕! 😀coffee👍🏽, family: 👨‍👩‍👧coffee", "coffee"))
        #expect(marked(s) == ["coffee", "coffee", "coffee"])
        let t = try #require(snippet(content: "🎉🎉 party 🎉🎉", "party"))
        #expect(t.text == "🎉🎉 party 🎉🎉")
        #expect(marked(t) == ["party"])
    }

    @Test("A Porter stem keeps its word's first two letters (the filter that spares most words a stem relies on it)")
    func stemsKeepTheirFirstLetters() throws {
        var words = Set<String>()
        for item in try demoCorpusItems() { Analyzer().forEachWord(item.content + " " + item.title) { w, _ in words.insert(w) } }
        words.formUnion(["ies", "ties", "aing", "bed", "sky", "ay", "happy", "ponies", "caresses", "relational", "sensibility"])
        #expect(words.count > 1000)
        for word in words {
            let stem = PorterStemmer.stem(word)
            let n = min(2, stem.utf8.count)
            #expect(stem.isEmpty || Array(stem.utf8.prefix(n)) == Array(word.utf8.prefix(n)), "\(word) → \(stem)")
        }
    }

    @Test("A corrected spelling is highlighted as corrected")
    func corrections() async throws {
        let index = try SearchIndex(configuration: .init(directory: nil))
        try await index.upsert([
            SearchableItem(id: "a", title: "Folding", content: "Protein folding is slow."),
            SearchableItem(id: "b", title: "Diet", content: "A protein diet with fats."),
        ])
        let (results, report) = try await index.search(SearchQuery("protien folding", mode: .hybrid, snippets: true))
        #expect(report.understood.contains { $0.contains("\"protien\" → \"protein\"") })
        #expect(results.map(\.id) == ["a", "b"])
        #expect(marked(results.first?.snippet) == ["Protein", "folding"])
        #expect(marked(results.last?.snippet) == ["protein"])
    }

    @Test("A typo with a known stem is corrected for the model in hybrid mode, and keyword mode stays literal")
    func sameStemCorrection() async throws {
        let index = try SearchIndex(configuration: .init(directory: nil, embedder: HashedNGramEmbedder.bundled()))
        try await index.upsert([
            SearchableItem(id: "a", title: "Pipe sizes", content: "The inner diameter of a copper pipe."),
            SearchableItem(id: "b", title: "Garden", content: "Tomatoes need sun."),
        ])
        let (results, report) = try await index.search(SearchQuery("diameteer of a pipe", mode: .hybrid, snippets: true))
        #expect(report.understood.contains { $0.contains("\"diameteer\" → \"diameter\"") })
        #expect(results.first?.id == "a")
        let highlighted = marked(results.first?.snippet)
        #expect(highlighted.contains("diameter"))
        let (_, literal) = try await index.search(SearchQuery("diameteer of a pipe", mode: .keyword))
        #expect(!literal.understood.contains { $0.hasPrefix("spelling") })
    }
}
