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

    @Test("A query of 24 or more terms is a pasted paragraph: its k3 grows as terms / 7; a shorter one keeps k3; 0 turns it off")
    func paragraphK3() {
        var p = BM25Parameters()
        #expect(p.k3 == 1.5 && p.paragraphTerms == 24 && p.paragraphK3Length == 7)
        #expect(p.effectiveK3(queryTerms: 0) == 1.5 && p.effectiveK3(queryTerms: 23) == 1.5)
        #expect(p.effectiveK3(queryTerms: 24) == 1.5 * 24 / 7 && p.effectiveK3(queryTerms: 35) == 1.5 * 5)
        #expect(abs(p.queryFrequencyWeight(2, queryTerms: 35) - Float(8.5 * 2 / 9.5)) < 1e-6)
        #expect(p.queryFrequencyWeight(2, queryTerms: 23) == p.queryFrequencyWeight(2))
        #expect(p.queryFrequencyWeight(1, queryTerms: 35) == 1)
        p.paragraphTerms = 0
        #expect(p.effectiveK3(queryTerms: 35) == 1.5)
        p = BM25Parameters(paragraphTerms: 4, paragraphK3Length: 8)
        #expect(p.effectiveK3(queryTerms: 5) == 1.5, "never below k3")

        // Through the query's analysis: the query's terms (stop words aside) set its length.
        let index = index()
        func filler(_ n: Int) -> String { (1...n).map { "word\($0)" }.joined(separator: " ") }
        let typed = index.queryTerms("soup lentil soup " + filler(20), prefixLastTerm: false, countsRepeats: true)
        #expect(typed.count == 22 && typed[0].count == 2 && typed[0].weight == index.parameters.queryFrequencyWeight(2))
        let pasted = index.queryTerms("soup lentil soup the and " + filler(22), prefixLastTerm: false, countsRepeats: true)
        #expect(pasted[0].count == 2 && pasted[0].weight == index.parameters.queryFrequencyWeight(2, queryTerms: 25))
        #expect(pasted[0].weight > typed[0].weight)
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
