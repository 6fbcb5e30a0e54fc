import Foundation
import Testing

@testable import Sift
@testable import SiftEvaluation

/// Calibrated relevance: the model's arithmetic, the keyword evidence it reads, the cutoff, and
/// that a result's figure depends on that result alone.
@Suite("Calibrated relevance")
struct RelevanceTests {
    @Test("The logistic model: intercept plus weighted evidence; each mode reads only its own halves")
    func model() {
        let model = RelevanceModel(
            hybrid: .init(intercept: -2, keyword: 4, coverage: 1, cosine: 2), keyword: .init(intercept: -1, keyword: 2),
            semantic: .init(intercept: -3, coverage: 1, cosine: 4))
        var e = RelevanceModel.Evidence()
        e.keywordScore = 2
        e.attainable = 8
        e.queryWeight = 4
        e.matchedWeight = 2
        e.cosine = 0.5
        #expect(e.keyword == 0.25 && e.coverage == 0.5)
        func sigmoid(_ z: Float) -> Float { 1 / (1 + exp(-z)) }
        #expect(abs(model.relevance(e, mode: .hybrid) - sigmoid(-2 + 1 + 0.5 + 1)) < 1e-6)
        #expect(abs(model.relevance(e, mode: .keyword) - sigmoid(-1 + 0.5)) < 1e-6)
        #expect(abs(model.relevance(e, mode: .semantic) - sigmoid(-3 + 0.5 + 2)) < 1e-6)
        // Nothing to divide by: both shares are 0, never NaN; BM25F above the attainable clamps.
        #expect(RelevanceModel.Evidence().keyword == 0 && RelevanceModel.Evidence().coverage == 0)
        e.keywordScore = 20
        #expect(e.keyword == 1)
    }

    @Test("The default model rises with every piece of evidence, in every mode that reads it")
    func defaultIsMonotone() {
        let model = RelevanceModel.default
        func p(_ mode: SearchMode, keyword: Float = 0.2, coverage: Float = 0.5, cosine: Float = 0.4) -> Float {
            var e = RelevanceModel.Evidence()
            (e.keywordScore, e.attainable, e.matchedWeight, e.queryWeight, e.cosine) = (keyword, 1, coverage, 1, cosine)
            return model.relevance(e, mode: mode)
        }
        #expect(p(.hybrid, keyword: 0.5) > p(.hybrid) && p(.hybrid, cosine: 0.6) > p(.hybrid) && p(.hybrid, coverage: 0.9) > p(.hybrid))
        #expect(p(.keyword, keyword: 0.5) > p(.keyword) && p(.keyword, cosine: 0.9) == p(.keyword))
        #expect(p(.semantic, cosine: 0.6) > p(.semantic) && p(.semantic, keyword: 0.9) == p(.semantic))
        // An item that shares no word with the query and is far from it in meaning is cut.
        #expect(p(.hybrid, keyword: 0, coverage: 0, cosine: 0.3) < SearchQuery.defaultMinimumRelevance)
    }

    /// Four titles: "lentil" in three items (a stem shared with "lentils"), "soup" in two, "salad" in one.
    static func lentilIndex() -> KeywordIndex {
        var index = KeywordIndex()
        let texts = ["lentil soup", "lentil salad", "tomato soup", "lentils and rice"]
        for (i, t) in texts.enumerated() { index.insert(SearchableItem(id: ItemID("i\(i)"), domain: "d", title: t), at: Int32(i)) }
        return index
    }

    @Test("Query evidence: each term weighs its idf, a word no item holds weighs 0, a prefix its most frequent expansion")
    func queryEvidence() {
        let index = Self.lentilIndex()
        let terms = index.queryTerms("lentil zzyzx sal", prefixLastTerm: true)
        let evidence = index.evidence(terms)
        let lentil = index.idf(documentFrequency: 3)
        let salad = index.idf(documentFrequency: 1)
        #expect(evidence.terms.map(\.weight) == [lentil, 0, salad])
        #expect(evidence.totalWeight == lentil + salad)
        #expect(evidence.attainable == (lentil + salad) * (index.parameters.k1 + 1))
        #expect(index.matched(evidence, row: 1) == (lentil + salad, 2))
        #expect(index.matched(evidence, row: 2) == (0, 0))
        #expect(index.matched(evidence, row: 9) == (0, 0))
    }

    @Test("A word no item holds counts against every result when it is a real word: the largest idf, held by none")
    func absentRealWord() {
        let index = Self.lentilIndex()
        let terms = index.queryTerms("lentil quinoa zzyzx", prefixLastTerm: false)
        let evidence = index.evidence(terms, countsAbsent: { $0.word == "quinoa" })
        let lentil = index.idf(documentFrequency: 3)
        let absent = index.idf(documentFrequency: 0)
        #expect(evidence.terms.map(\.weight) == [lentil, absent, 0])
        #expect(evidence.totalWeight == lentil + absent)
        #expect(evidence.attainable == (lentil + absent) * (index.parameters.k1 + 1))
        #expect(index.matched(evidence, row: 0) == (lentil, 1))
        // Without the vocabulary's word, as before: the absent words weigh 0.
        #expect(index.evidence(terms).totalWeight == lentil)
    }

    /// ``WordDirectionEmbedder`` that knows the words of `vocabulary` (and none other).
    struct VocabularyEmbedder: Embedder, WordVocabulary {
        let base = WordDirectionEmbedder()
        let vocabulary: Set<String>
        var dimension: Int { base.dimension }
        var fingerprint: String { base.fingerprint + "-vocabulary" }
        func embed(_ text: String, into output: UnsafeMutableBufferPointer<Float>) { base.embed(text, into: output) }
        func recognizes(word: String) -> Bool { vocabulary.contains(word) }
    }

    @Test("In hybrid mode a real word the index lacks lowers every result's relevance; a typo does not; keyword mode is unchanged")
    func absentWordInSearch() async throws {
        let index = try SearchIndex(
            configuration: .init(directory: nil, embedder: VocabularyEmbedder(vocabulary: ["lentil", "soup", "quinoa"])))
        try await index.upsert([
            SearchableItem(id: "a", domain: "recipe", title: "Lentil soup", content: "lentils onion cumin soup"),
            SearchableItem(id: "b", domain: "recipe", title: "Tomato soup", content: "tomatoes basil soup"),
        ])
        func best(_ text: String, _ mode: SearchMode) async throws -> Float {
            try await index.search(SearchQuery(text, mode: mode, correctsSpelling: false, minimumRelevance: 0)).results.first?.relevance
                ?? 0
        }
        let plain = try await best("lentil soup", .hybrid)
        let foreign = try await best("lentil soup quinoa", .hybrid)
        let typo = try await best("lentil soup quinao", .hybrid)
        #expect(foreign < plain * 0.5, "\(foreign) against \(plain)")
        #expect(typo > foreign)
        // Keyword mode weighs both absent words 0, real or not (semantic mode too; its cosines differ).
        let keywordTypo = try await best("lentil soup quinao", .keyword)
        #expect(try await best("lentil soup quinoa", .keyword) == keywordTypo)
    }

    func index() async throws -> SearchIndex {
        let index = try SearchIndex(configuration: .init(directory: nil, embedder: WordDirectionEmbedder()))
        try await index.upsert([
            SearchableItem(id: "a", domain: "recipe", title: "Lentil soup", content: "lentils onion cumin soup"),
            SearchableItem(id: "b", domain: "recipe", title: "Tomato soup", content: "tomatoes basil soup"),
            SearchableItem(id: "c", domain: "note", title: "Soup night", content: "friends came for soup"),
            SearchableItem(id: "d", domain: "note", title: "Bike repair", content: "new chain and brake pads"),
        ])
        return index
    }

    @Test("The default cutoff leaves out what shares neither words nor meaning; 0 returns it; the report counts it")
    func cutoff() async throws {
        let index = try await index()
        let all = try await index.search(SearchQuery("lentil soup", limit: 10, minimumRelevance: 0))
        #expect(all.results.count == 4 && all.report.belowMinimumRelevance == 0)
        let cut = try await index.search(SearchQuery("lentil soup", limit: 10))
        #expect(!cut.results.contains { $0.id == "d" })
        #expect(cut.results.first?.id == "a")
        #expect(cut.report.belowMinimumRelevance == 4 - cut.results.count)
        // Kept results keep their order and scores.
        #expect(cut.results.map(\.id) == all.results.filter { $0.relevance >= SearchQuery.defaultMinimumRelevance }.map(\.id))
        #expect(cut.results.map(\.score) == all.results.filter { $0.relevance >= SearchQuery.defaultMinimumRelevance }.map(\.score))
        // A query with nothing in common with any item: no results, every candidate counted.
        let none = try await index.search(SearchQuery("quantum chromodynamics", limit: 10))
        #expect(none.results.isEmpty && none.report.belowMinimumRelevance > 0)
    }

    @Test("A result's relevance depends on it alone: not on the limit, nor on which other items a filter lets through")
    func independentOfOtherResults() async throws {
        let index = try await index()
        for mode in [SearchMode.hybrid, .keyword, .semantic] {
            let wide = try await index.search(SearchQuery("soup friends", limit: 10, mode: mode, minimumRelevance: 0)).results
            let one = try await index.search(SearchQuery("soup friends", limit: 1, mode: mode, minimumRelevance: 0)).results
            let notes = try await index.search(SearchQuery("soup friends", limit: 10, mode: mode, domains: ["note"], minimumRelevance: 0))
                .results
            let c = try #require(wide.first { $0.id == "c" })
            #expect(one.first.map { $0.relevance == wide[0].relevance } == true, "\(mode)")
            #expect(notes.first { $0.id == "c" }?.relevance == c.relevance, "\(mode)")
            #expect(c.relevance > 0 && c.relevance < 1)
        }
    }

    @Test("The evidence is the query's own: cosine before vector feedback, BM25F before keyword feedback")
    func evidenceBeforeFeedback() async throws {
        let index = try await index()
        let hybrid = try await index.search(SearchQuery("lentil soup", limit: 10, explain: true, minimumRelevance: 0)).results
        let semantic = try await index.search(SearchQuery("lentil soup", limit: 10, mode: .semantic, explain: true, minimumRelevance: 0))
            .results
        let keyword = try await index.search(SearchQuery("lentil soup", limit: 10, mode: .keyword, explain: true, minimumRelevance: 0))
            .results
        for r in hybrid {
            let e = try #require(r.evidence)
            #expect(e.cosine == semantic.first { $0.id == r.id }?.explanation?.cosine)
            #expect(e.keywordScore == (keyword.first { $0.id == r.id }?.explanation?.keywordScore ?? 0))
            #expect(r.explanation?.relevanceEvidence == e && r.explanation?.calibratedRelevance == r.relevance)
            #expect(r.relevance == RelevanceModel.default.relevance(e, mode: .hybrid))
        }
    }

    @Test("A query with no search text lists items newest first with relevance 1 and is never cut")
    func listingIsNeverCut() async throws {
        let index = try await index()
        let (results, report) = try await index.search(SearchQuery("", limit: 10, minimumRelevance: 1))
        #expect(results.count == 4 && report.belowMinimumRelevance == 0)
        #expect(results.allSatisfy { $0.relevance == 1 && $0.evidence == nil })
    }

    @Test("Expected calibration error and reliability bins, by hand")
    func calibrationError() {
        // Bin 0: predictions 0.05, 0.05 (one relevant): |0.05 − 0.5| = 0.45, weight 2/4.
        // Bin 9: predictions 0.95 and 1.0 (both relevant): |0.975 − 1| = 0.025, weight 2/4.
        let pairs: [(predicted: Float, relevant: Bool)] = [(0.05, true), (0.05, false), (0.95, true), (1.0, true)]
        let bins = RetrievalMetrics.reliability(pairs)
        #expect(bins.map(\.count) == [2, 2])
        #expect(abs(RetrievalMetrics.calibrationError(pairs) - (0.5 * 0.45 + 0.5 * 0.025)) < 1e-6)
        #expect(RetrievalMetrics.calibrationError([]) == 0)
    }
}
