import Foundation
import Testing

@testable import Sift

@Suite("Keyword feedback (RM3-like pseudo-relevance feedback)")
struct KeywordFeedbackTests {
    let items = [
        SearchableItem(id: "a", domain: "note", title: "sourdough starter", content: "starter flour water rye starter feeding"),
        SearchableItem(id: "b", domain: "note", title: "rye bread", content: "rye flour loaf crust"),
        SearchableItem(id: "c", domain: "note", title: "starter feeding", content: "feeding schedule flour"),
        SearchableItem(id: "d", domain: "note", title: "bike repair", content: "chain tyre pump unique"),
    ]

    func index() -> KeywordIndex {
        var index = KeywordIndex()
        for (row, item) in items.enumerated() { index.insert(item, at: Int32(row)) }
        index.prepareForQueries()
        return index
    }

    @Test("Terms are ranked by Σ tf / |d| · idf, leave out the query's terms and single-document terms, and shares sum to 1")
    func termsRankedAndExcluded() {
        let index = index()
        let terms = index.feedbackTerms(of: [items[0]], exclude: ["sourdough"], count: 10)
        // "sourdough" is excluded (and held by one document); so is "water".
        #expect(terms.map(\.term) == ["starter", "feed", "rye", "flour"])
        #expect(abs(terms.reduce(0) { $0 + $1.weight } - 1) < 1e-5)
        // starter: 3 of 8 terms, df 2; feed: 1 of 8, df 2; rye: 1 of 8, df 2; flour: 1 of 8, df 3.
        let idf2 = index.idf(documentFrequency: 2)
        let idf3 = index.idf(documentFrequency: 3)
        let raw: [Float] = [3 / 8 * idf2, 1 / 8 * idf2, 1 / 8 * idf2, 1 / 8 * idf3]
        let sum = raw.reduce(0, +)
        for (t, r) in zip(terms, raw) { #expect(abs(t.weight - r / sum) < 1e-5, "\(t.term)") }
        // Ties (feed, rye) are broken by the term; an excluded term is skipped, not counted.
        #expect(index.feedbackTerms(of: [items[0]], exclude: ["feed"], count: 2).map(\.term) == ["starter", "rye"])
        #expect(index.feedbackTerms(of: [items[0]], exclude: [], count: 0).isEmpty)
    }

    @Test("Feedback scores are Σ share · BM25F of the term, only on admitted rows")
    func scoresOnlyAdmittedRows() {
        let index = index()
        let terms = [KeywordIndex.FeedbackTerm(term: "rye", weight: 0.75), KeywordIndex.FeedbackTerm(term: "feed", weight: 0.25)]
        let all = index.feedbackScores(terms) { _ in true }
        #expect(Set(all.keys) == [0, 1, 2])
        let rye = [KeywordIndex.QueryTerm(word: "rye", terms: ["rye"], isPrefix: false)]
        let feed = [KeywordIndex.QueryTerm(word: "feed", terms: ["feed"], isPrefix: false)]
        #expect(abs(all[0]! - (0.75 * index.score(rye, row: 0) + 0.25 * index.score(feed, row: 0))) < 1e-5)
        #expect(abs(all[1]! - 0.75 * index.score(rye, row: 1)) < 1e-5)
        let some = index.feedbackScores(terms) { $0 != 1 }
        #expect(Set(some.keys) == [0, 2])
    }

    @Test("Over posting lists longer than a block, after removals reorder them, feedback scores each admitted row once, in posting order")
    func scoresAcrossBlocks() {
        var index = KeywordIndex()
        let rows = 2 * KeywordIndex.admittedBlock + 300
        for row in 0..<rows {
            let words = Array(repeating: "kiln", count: 1 + row % 4) + Array(repeating: "glaze", count: row % 7)
            index.insert(
                SearchableItem(id: ItemID("i\(row)"), domain: "note", title: "pot \(row % 5)", content: words.joined(separator: " ")),
                at: Int32(row))
        }
        // Swap-removals leave the lists out of row order.
        for row in stride(from: 17, to: rows, by: 97) { index.remove(row: Int32(row)) }
        index.prepareForQueries()
        let terms = [KeywordIndex.FeedbackTerm(term: "kiln", weight: 0.6), KeywordIndex.FeedbackTerm(term: "glaze", weight: 0.4)]
        let admits = { (row: Int32) in row % 3 != 0 }
        var sums = [Float](repeating: 0, count: rows)
        var touched: [Int32] = []
        index.addFeedbackScores(terms, admits: admits, into: &sums, touched: &touched)
        let live = (0..<rows).filter { index.contains(row: Int32($0)) && admits(Int32($0)) }
        #expect(Set(touched) == Set(live.map(Int32.init)))
        #expect(touched.count == live.count)
        let kiln = [KeywordIndex.QueryTerm(word: "kiln", terms: ["kiln"], isPrefix: false)]
        let glaze = [KeywordIndex.QueryTerm(word: "glaze", terms: ["glaze"], isPrefix: false)]
        for row in live {
            let expected = 0.6 * index.score(kiln, row: Int32(row)) + 0.4 * index.score(glaze, row: Int32(row))
            #expect(abs(sums[row] - expected) <= 1e-5 * max(1, expected), "row \(row)")
        }
        // Every row holds "kiln", the first term: the rows are reached in its list's order.
        let kilnList = index.postings[Int(index.termIDs["kiln"]!)].map(\.row).filter(admits)
        #expect(touched == kilnList)
        #expect(kilnList != kilnList.sorted())
    }

    @Test("In hybrid search, feedback re-scores candidates but never adds one, and the report lists its terms")
    func hybridNeverAddsCandidates() async throws {
        func open(_ fusion: FusionParameters) async throws -> SearchIndex {
            let index = try SearchIndex(configuration: .init(directory: nil, embedder: WordDirectionEmbedder(), fusion: fusion))
            try await index.upsert(items)
            return index
        }
        let query = SearchQuery("sourdough", limit: 10, mode: .hybrid, understandsPhrases: false, explain: true)
        let (results, report) = try await open(.default).search(query)
        #expect(!report.feedbackTerms.isEmpty)
        #expect(!report.feedbackTerms.contains { $0.term == "sourdough" })
        let a = try #require(results.first { $0.id == "a" })
        #expect(a.explanation?.keywordFeedbackScore ?? 0 > 0)
        for r in results where r.id != "a" {
            // Rows that hold no query term gain BM25F only from feedback terms.
            #expect(abs((r.explanation?.keywordScore ?? -1) - (r.explanation?.keywordFeedbackScore ?? -2)) < 1e-5)
        }
        // One semantic nominee and one result: "b" and "c" hold feedback terms but are no candidates.
        var narrow = FusionParameters.default
        narrow.semanticCandidates = 1
        var one = query
        one.limit = 1
        let (_, narrowReport) = try await open(narrow).search(one)
        narrow.keywordFeedbackDocuments = 0
        let (_, narrowOff) = try await open(narrow).search(one)
        #expect(narrowReport.candidates == narrowOff.candidates)
        #expect(narrowReport.candidates <= 2)
        // Off: no feedback part.
        let (off, offReport) = try await open(FusionParameters(keywordFeedbackDocuments: 0)).search(query)
        #expect(offReport.feedbackTerms.isEmpty)
        #expect(off.allSatisfy { ($0.explanation?.keywordFeedbackScore ?? 1) == 0 })
    }
}
