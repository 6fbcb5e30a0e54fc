import Foundation
import Testing

@testable import Sift

@Suite("Snippets in search results")
struct SnippetSearchTests {
    let now = utc("2026-12-02T12:00:00Z")

    func makeIndex(embedder: (any Embedder)?) async throws -> SearchIndex {
        let now = self.now
        let index = try SearchIndex(configuration: .init(directory: nil, embedder: embedder, clock: { now }))
        try await index.upsert([
            SearchableItem(id: "a", title: "Trail shoes", content: "Running shoes for wet trails. They grip on mud and dry fast."),
            SearchableItem(id: "b", title: "Marathon", content: "Training plan: run five days a week, rest on Sunday."),
            SearchableItem(id: "c", title: "Pets", content: "Groceries on Monday. The cat sleeps on the sofa all day. Taxes are due."),
            SearchableItem(id: "d", title: "Shoe rack", content: "Assembly notes for the hallway."),
        ])
        return index
    }

    @Test("Every returned result carries a snippet of its own text; scores and order are as without snippets")
    func endToEnd() async throws {
        let index = try await makeIndex(embedder: WordDirectionEmbedder())
        for mode in SearchMode.allCases {
            for text in ["running shoes", "run", "sho", "shoes sunday"] {
                let with = try await index.search(SearchQuery(text, mode: mode, now: now, snippets: true)).results
                let without = try await index.search(SearchQuery(text, mode: mode, now: now, snippets: false)).results
                #expect(with.map(\.id) == without.map(\.id) && with.map(\.score) == without.map(\.score), "\(mode) \(text)")
                #expect(without.allSatisfy { $0.snippet == nil })
                #expect(with.allSatisfy { $0.snippet != nil }, "\(mode) \(text)")
                for result in with { if let s = result.snippet { expectValid(s) } }
            }
        }
        let results = try await index.search(SearchQuery("running shoes", mode: .keyword, now: now, snippets: true)).results
        #expect(results.first?.id == "a")
        #expect(marked(results.first?.snippet) == ["Running", "shoes"])
        #expect(results.first?.snippet?.text == "Running shoes for wet trails. They grip on mud and dry fast.")
        // "Shoe rack" matched by its title alone: the title is its snippet.
        let rack = try #require(results.first { $0.id == "d" })
        #expect(rack.snippet?.text == "Shoe rack" && marked(rack.snippet) == ["Shoe"])
        // As you type: "sho" begins "shoes" and "Shoe".
        let typed = try await index.search(SearchQuery("sho", mode: .keyword, now: now, snippets: true)).results
        #expect(typed.compactMap { marked($0.snippet).first }.sorted() == ["Shoe", "shoes"])
    }

    @Test("A hit by meaning alone shows its closest sentence")
    func semanticHit() async throws {
        let index = try await makeIndex(embedder: SynonymEmbedder(groups: ["kitten": "cat"]))
        // Every result: the fake embedder's cosines are not what relevance was calibrated on.
        let results = try await index.search(SearchQuery("kitten", mode: .semantic, now: now, snippets: true, minimumRelevance: 0))
            .results
        let pets = try #require(results.first { $0.id == "c" })
        #expect(pets.snippet == Snippet(text: "…The cat sleeps on the sofa all day.…"))
    }

    @Test("The newest-first listing (no search words) shows each item's opening")
    func listing() async throws {
        let index = try await makeIndex(embedder: nil)
        let results = try await index.search(SearchQuery("the", mode: .keyword, now: now, snippets: true)).results
        #expect(results.count == 4)
        #expect(results.allSatisfy { $0.snippet?.highlights == [] && $0.snippet?.text.isEmpty == false })
    }
}
