import Foundation
import Testing

@testable import Sift

/// Postings keep frequencies in a byte per field; 255 and more are kept exactly beside them.
/// Scores, explanations and removals must not notice.
@Suite("Keyword index: frequencies of 255 and more")
struct LargeFrequencyTests {
    static func repeated(_ word: String, _ n: Int) -> String { Array(repeating: word, count: n).joined(separator: " ") }

    /// The documented BM25F in Double for one term of one document.
    static func expected(tf: [Double], lengths: [Double], averages: [Double], n: Double, df: Double, _ p: BM25Parameters = .default)
        -> Double
    {
        let idf = log(1 + (n - df + 0.5) / (df + 0.5))
        var pseudo = 0.0
        for f in 0..<3 where tf[f] > 0 {
            pseudo += Double(p.weights[f]) * tf[f] / (1 - Double(p.b[f]) + Double(p.b[f]) * lengths[f] / averages[f])
        }
        return idf * pseudo * (Double(p.k1) + 1) / (Double(p.k1) + pseudo)
    }

    @Test("Scores, explanations and the buffered accumulator use the exact frequencies", arguments: [254, 255, 256, 300, 70_000])
    func exactFrequencies(count: Int) {
        var index = KeywordIndex()
        // Row 0: the word `count` times in the content and 255 times in the title.
        index.insert(SearchableItem(id: "big", title: Self.repeated("spam", 255), content: Self.repeated("spam", count) + " egg"), at: 0)
        index.insert(SearchableItem(id: "small", title: "spam", content: "egg"), at: 1)
        index.prepareForQueries()
        let terms = index.queryTerms("spam", prefixLastTerm: false)
        // Field lengths count every word; the frequency itself is capped at 65,535, as before.
        let capped = Double(min(count, Int(UInt16.max)))
        let contentLength = Double(count + 1)
        let averages = [(255.0 + 1) / 2, 1e-6, (contentLength + 1) / 2]
        let e0 = Self.expected(tf: [255, 0, capped], lengths: [255, 0, contentLength], averages: averages, n: 2, df: 2)
        let e1 = Self.expected(tf: [1, 0, 0], lengths: [1, 0, 1], averages: averages, n: 2, df: 2)
        #expect(abs(Double(index.score(terms, row: 0)) - e0) < 1e-4 * max(1, e0))
        #expect(abs(Double(index.score(terms, row: 1)) - e1) < 1e-4 * max(1, e1))
        #expect(index.explain(terms, row: 0).first?.frequencies == [255, 0, Int(capped)])
        var scores = [Float](repeating: 0, count: 2)
        var touched: [Int32] = []
        index.accumulate(terms, scores: &scores, touched: &touched)
        var accumulator = KeywordAccumulator()
        index.accumulate(terms, into: &accumulator)
        #expect(accumulator.scores[0] == scores[0] && accumulator.scores[1] == scores[1])
        #expect(scores[0] == index.score(terms, row: 0))
        // A prefix reaches the same posting through the other branch.
        let prefix = index.queryTerms("spa", prefixLastTerm: true)
        #expect(index.score(prefix, row: 0) == scores[0])
        #expect(throws: Never.self) { try index.checkInvariants(liveRows: [0, 1]) }
        // Removing and re-inserting the row leaves no stale exact frequencies.
        index.remove(row: 0)
        #expect(throws: Never.self) { try index.checkInvariants(liveRows: [1]) }
        index.insert(SearchableItem(id: "big", title: "spam", content: "egg"), at: 0)
        #expect(throws: Never.self) { try index.checkInvariants(liveRows: [0, 1]) }
        #expect(index.explain(terms, row: 0).first?.frequencies == [1, 0, 0])
    }

    @Test("Through the index: a long repetitive note ranks by its exact counts")
    func throughTheIndex() async throws {
        let index = try SearchIndex(configuration: .init(directory: nil))
        try await index.upsert([
            SearchableItem(id: "a", content: Self.repeated("log", 400) + " " + Self.repeated("entry", 10)),
            SearchableItem(id: "b", content: Self.repeated("log", 300) + " " + Self.repeated("entry", 110)),
            SearchableItem(id: "c", content: "log entry"),
        ])
        let results = try await index.search(
            SearchQuery("log", mode: .keyword, understandsPhrases: false, prefixLastTerm: false, explain: true)
        ).results
        #expect(results.count == 3)
        let frequencies = Dictionary(uniqueKeysWithValues: results.map { ($0.id.rawValue, $0.explanation!.keywordTerms[0].frequencies[2]) })
        #expect(frequencies == ["a": 400, "b": 300, "c": 1])
        try await index.checkInvariants()
    }
}
