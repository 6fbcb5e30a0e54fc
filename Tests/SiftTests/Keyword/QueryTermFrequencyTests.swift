import Foundation
import Testing

@testable import Sift

/// A query word said more than once: counted again in keyword mode, saturating with k3.
@Suite("Query term frequency")
struct QueryTermFrequencyTests {
    @Test("The weight of a word said n times: 1 once, (k3 + 1)·n / (k3 + n), n as k3 → ∞, 1 at k3 = 0")
    func weight() {
        var p = BM25Parameters()
        p.k3 = 1.5
        #expect(p.queryFrequencyWeight(1) == 1)
        #expect(abs(p.queryFrequencyWeight(2) - 2.5 * 2 / 3.5) < 1e-6)
        #expect(p.queryFrequencyWeight(3) > p.queryFrequencyWeight(2) && p.queryFrequencyWeight(100) < 2.5)
        p.k3 = .infinity
        #expect(p.queryFrequencyWeight(3) == 3)
        p.k3 = 0
        #expect(p.queryFrequencyWeight(3) == 1)
    }

    func index() -> KeywordIndex {
        var index = KeywordIndex()
        let texts = ["lentil soup with cumin", "tomato soup", "lentil salad", "rice and beans"]
        for (i, t) in texts.enumerated() { index.insert(SearchableItem(id: ItemID("i\(i)"), domain: "d", title: t), at: Int32(i)) }
        return index
    }

    func scores(_ index: KeywordIndex, _ terms: [KeywordIndex.QueryTerm]) -> [Float] {
        var scores = [Float](repeating: 0, count: 4)
        var touched: [Int32] = []
        index.accumulate(terms, scores: &scores, touched: &touched)
        return scores
    }

    @Test("A repeated word is one term said n times; counted again only when asked (keyword mode)")
    func repeats() {
        let index = index()
        let counted = index.queryTerms("soup lentil Soups", prefixLastTerm: false, countsRepeats: true)
        #expect(counted.map(\.word) == ["soup", "lentil"] && counted.map(\.count) == [2, 1])
        #expect(counted[0].weight == index.parameters.queryFrequencyWeight(2) && counted[1].weight == 1)
        let once = index.queryTerms("soup lentil Soups", prefixLastTerm: false)
        #expect(once.map(\.count) == [2, 1] && once.allSatisfy { $0.weight == 1 })
        // Said once, a query scores exactly as it would without the factor.
        #expect(scores(index, once) == scores(index, index.queryTerms("soup lentil", prefixLastTerm: false)))
        // Said twice, "soup"'s part of the score grows by its weight; "lentil"'s does not.
        let soupOnce = scores(index, index.queryTerms("soup", prefixLastTerm: false))
        let soupTwice = scores(index, index.queryTerms("soup soup", prefixLastTerm: false, countsRepeats: true))
        for row in 0..<4 { #expect(abs(soupTwice[row] - soupOnce[row] * index.parameters.queryFrequencyWeight(2)) < 1e-5) }
        #expect(index.explain(counted, row: 0).first { $0.term == "soup" }?.queryFrequency == 2)
    }

    @Test("Keyword search counts repeats; the explanation says how many times")
    func keywordSearch() async throws {
        let index = try SearchIndex(configuration: .init(directory: nil))
        try await index.upsert([
            SearchableItem(id: "a", domain: "d", title: "Lentil", content: "soup"),
            SearchableItem(id: "b", domain: "d", title: "Soup", content: "lentil"),
        ])
        func search(_ text: String) async throws -> [SearchResult] {
            try await index.search(SearchQuery(text, mode: .keyword, prefixLastTerm: false, explain: true, minimumRelevance: 0)).results
        }
        let once = try await search("soup lentil")
        let twice = try await search("soup lentil soup")
        // Both hold both words, one in the title (which weighs more): said once, they tie and
        // the smaller id comes first; said twice, "soup" lifts the item whose title it is.
        #expect(once.map(\.id) == ["a", "b"] && once[0].score == once[1].score)
        #expect(twice.map(\.id) == ["b", "a"])
        let soup = try #require(twice.first?.explanation?.keywordTerms.first { $0.term == "soup" })
        #expect(soup.queryFrequency == 2 && soup.queryWeight > 1)
    }
}
