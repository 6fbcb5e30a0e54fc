import Foundation
import Testing

@testable import Sift

/// A keyword-only query, as-typed text taken literally (no date or domain phrases).
func keywordQuery(_ text: String, limit: Int = 10, prefix: Bool = true) -> SearchQuery {
    SearchQuery(text, limit: limit, mode: .keyword, understandsPhrases: false, prefixLastTerm: prefix)
}

@Suite("Keyword search through the index: field weights, prefixes, ties")
struct KeywordSearchTests {
    private func index(_ items: [SearchableItem]) async throws -> SearchIndex {
        let index = try SearchIndex(configuration: .init(directory: nil))
        try await index.upsert(items)
        return index
    }

    @Test("A match in keywords beats one in the title, which beats one in the content")
    func fieldWeights() async throws {
        // Every field of every item is one word long, so only the field weight differs. The ids
        // run against the expected order, so a tie-break cannot produce it.
        let index = try await index([
            SearchableItem(id: "a-content", title: "alpha", content: "zebra", keywords: ["omega"]),
            SearchableItem(id: "b-title", title: "zebra", content: "omega", keywords: ["alpha"]),
            SearchableItem(id: "c-keywords", title: "alpha", content: "omega", keywords: ["zebra"]),
        ])
        let results = try await index.search(keywordQuery("zebra", prefix: false)).results
        #expect(results.map(\.id) == ["c-keywords", "b-title", "a-content"])
        #expect(results[0].score > results[1].score && results[1].score > results[2].score)
    }

    @Test("Result scores are the BM25F scores of the keyword index")
    func scoresAreBM25F() async throws {
        let index = try await index([
            SearchableItem(id: "1", title: "green tea", content: "green tea leaves steeped tea"),
            SearchableItem(id: "2", title: "black tea", content: "black tea milk sugar", keywords: ["tea", "milk"]),
            SearchableItem(id: "3", title: "coffee", content: "espresso coffee milk foam", keywords: ["coffee"]),
            SearchableItem(id: "4", title: "mint", content: "fresh mint leaves"),
        ])
        let results = try await index.search(keywordQuery("tea milk coffee", prefix: false)).results
        // The same corpus as the golden test in KeywordIndexTests.
        #expect(results.map(\.id) == ["3", "2", "1"])
        let expected: [Float] = [2.5991177, 1.9836610, 1.0237173]
        for (r, e) in zip(results, expected) { #expect(abs(r.score - e) < 1e-4) }
    }

    @Test("\"yer\" finds \"yerba mate latte\" as it is typed")
    func prefixAsYouType() async throws {
        let index = try await index([
            SearchableItem(id: "drink", domain: "recipe", title: "Yerba mate latte", content: "frothed milk"),
            SearchableItem(id: "other", domain: "recipe", title: "Yellow curry", content: "coconut milk"),
        ])
        for typed in ["yer", "Yerb", "yerba", "yerba ma", "yerba mate lat"] {
            let ids = try await index.search(keywordQuery(typed)).results.map(\.id)
            #expect(ids.first == "drink", "\(typed)")
            #expect(!ids.contains("other"), "\(typed)")
        }
        #expect(try await index.search(keywordQuery("ye")).results.map(\.id).sorted() == ["drink", "other"])
        // A finished word (followed by a separator) is not a prefix.
        #expect(try await index.search(keywordQuery("yer ")).results.isEmpty)
        #expect(try await index.search(keywordQuery("yer", prefix: false)).results.isEmpty)
        // Also when the query's phrases are understood (the parser rebuilds the text).
        let understood = SearchQuery("yer ", mode: .keyword, understandsPhrases: true, minimumRelevance: 0)
        #expect(try await index.search(understood).results.isEmpty)
        #expect(try await index.search(SearchQuery("yer", mode: .keyword, understandsPhrases: true)).results.map(\.id) == ["drink"])
    }

    @Test("Equal scores are ordered by item id, whatever the insertion order")
    func deterministicTies() async throws {
        let ids = ["m", "b", "x", "a", "k", "c"]
        let index = try await index(ids.map { SearchableItem(id: ItemID($0), title: "identical twin") })
        let all = try await index.search(keywordQuery("twin", prefix: false)).results
        #expect(all.map(\.id.rawValue) == ids.sorted())
        #expect(Set(all.map(\.score)).count == 1)
        let page = try await index.search(keywordQuery("twin", limit: 3, prefix: false)).results
        #expect(page.map(\.id.rawValue) == ["a", "b", "c"])
        // Same answer from a second index filled in another order.
        let other = try await self.index(ids.reversed().map { SearchableItem(id: ItemID($0), title: "identical twin") })
        #expect(try await other.search(keywordQuery("twin", prefix: false)).results == all)
    }

    @Test("Ties order by the bytes of the id, not by locale (\"B\" < \"a\" < \"é\")")
    func tieOrderIsBytewise() async throws {
        let index = try await index(["é", "a", "B"].map { SearchableItem(id: ItemID($0), title: "same words") })
        #expect(try await index.search(keywordQuery("same words", prefix: false)).results.map(\.id) == ["B", "a", "é"])
    }

    @Test("A query of stop words or punctuation lists items without ranking and does not fail")
    func nothingToSearch() async throws {
        let index = try await index([SearchableItem(id: "1", title: "something")])
        let results = try await index.search(keywordQuery("the — !")).results
        #expect(results.allSatisfy { $0.score == 0 })
    }
}
