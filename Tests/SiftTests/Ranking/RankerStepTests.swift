import Foundation
import Testing

@testable import Sift

/// The ranking stage's steps, each on its own: normalisation, reciprocal ranks, the factors'
/// set-up, the filters' report, and the ranker run step by step over a small index.
@Suite("Ranker steps")
struct RankerStepTests {
    @Test("Min-max normalisation: BM25F over the best, cosine between worst and best, 0 and 1 at the edges")
    func minMax() {
        let keyword: [Float] = [0, 2, 4, 8]
        let cosine: [Float] = [0.9, 0.1, 0.5, 0.3]
        let n = MinMaxNormalizer(rows: [1, 2, 3], keyword: keyword, cosine: cosine)
        #expect(n.maxKeyword == 8 && n.topCosine == 0.5 && n.floorCosine == 0.1)
        #expect(n.keyword(4) == 0.5)
        #expect(n.semantic(0.5) == 1 && n.semantic(0.1) == 0)
        #expect(n.linear(alpha: 0.5, keyword: 8, cosine: 0.1) == 0.5)
        // No candidate matched a word: every keyword score normalises to 0; one cosine only: 1.
        let flat = MinMaxNormalizer(rows: [0], keyword: keyword, cosine: cosine)
        #expect(flat.keyword(0) == 0 && flat.semantic(0.9) == 1)
        // Without cosines the semantic bounds stay at their start.
        let keywordOnly = MinMaxNormalizer(rows: [1, 2], keyword: keyword, cosine: nil)
        #expect(keywordOnly.maxKeyword == 4 && keywordOnly.topCosine == -1 && keywordOnly.floorCosine == 1)
    }

    @Test("Reciprocal ranks: keyword ranks only matches, ties go to the smaller id, fused is Σ 1/(k + rank)")
    func reciprocalRanks() {
        let ids: [ItemID?] = ["b", "a", "c"].map { ItemID($0) }
        ids.withUnsafeBufferPointer { buffer in
            let ranks = ReciprocalRanks(
                candidates: [0, 1, 2], keyword: [1, 1, 0], cosine: [0.2, 0.2, 0.9], order: ItemOrder(ids: buffer))
            // Rows 0 ("b") and 1 ("a") tie on BM25F: "a" first. Row 2 has no keyword match.
            #expect(ranks.keyword == [1: 1, 0: 2])
            #expect(ranks.semantic == [2: 1, 1: 2, 0: 3])
            #expect(ranks.fused(1, k: 60) == 1 / Float(61) + 1 / Float(62))
            #expect(ranks.fused(2, k: 60) == 1 / Float(61))
        }
    }

    func request(_ text: String, boost: Set<String> = [], exhaustive: Bool = false) -> Ranker.Request {
        Ranker.Request(
            text: text, terms: [], mode: .hybrid, limit: 10, now: Date(timeIntervalSince1970: 0), prefixLastTerm: true,
            boostDomains: boost, explain: false, exhaustive: exhaustive)
    }

    @Test("The factors' set-up: the title boost applies to 2…titleHeadLength words; no bounds when exhaustive")
    func factorSetup() {
        let keyword = KeywordIndex(parameters: .default)
        let attributes = RowAttributes()
        func setup(_ r: Ranker.Request, donations: Bool = false) -> RankingFactors {
            RankingFactors(
                request: r, keyword: keyword, attributes: attributes, fusion: .default, donations: DonationBoost(),
                hasDonations: donations)
        }
        #expect(!setup(request("soup")).titled)
        #expect(setup(request("lentil soup")).titled)
        let long = (0...KeywordIndex.titleHeadLength).map { "w\($0)" }.joined(separator: " ")
        #expect(!setup(request(long)).titled)
        #expect(setup(request("lentil soup"), donations: true).lastIsPrefix)
        #expect(setup(request("lentil soup", exhaustive: true)).bounds == nil)
        let plain = setup(request("soup")).bounds
        let donated = setup(request("soup"), donations: true).bounds
        #expect(plain != nil && donated != nil)
        if let plain, let donated {
            #expect(plain.plain >= 1 && plain.titled == plain.plain)
            #expect(donated.plain >= plain.plain)
        }
        let titled = setup(request("lentil soup")).bounds
        #expect(titled.map { $0.titled >= $0.plain } ?? false)
    }

    @Test("The filters' report names each filter that excluded candidates, with its count")
    func exclusions() {
        var attributes = RowAttributes()
        attributes.set(row: 0, item: SearchableItem(id: "a", domain: "note", title: "A"))
        attributes.set(row: 1, item: SearchableItem(id: "b", domain: "recipe", title: "B"))
        attributes.set(row: 2, item: SearchableItem(id: "c", domain: "recipe", title: "C"))
        var filter = RowFilter(attributes: attributes, now: Date(), explicitDomains: ["note"], range: DateRange(start: nil, end: nil))
        #expect(!filter.admitsEveryLiveRow)
        #expect(filter.admits(0) && !filter.admits(1) && !filter.admits(2))
        #expect(filter.exclusions == ["domain filter excluded 2 candidates"])
    }

    /// Runs `text` through the index's ranker one step at a time, checking what each step
    /// leaves, and gives the buffers back as a search does.
    func stepThrough(_ index: SearchIndex, _ text: String) async -> RankingTrace {
        await index.traceRanking(text)
    }

    @Test("Step by step: feedback adds no candidate, nominees join the keyword matches once, the buffers come back clean")
    func stepByStep() async throws {
        let words = ["lentil", "soup", "tea", "mate", "yerba", "coffee", "budget", "walk"]
        let items = (0..<60).map { i in
            SearchableItem(
                id: ItemID(String(format: "item-%02d", i)), domain: i % 2 == 0 ? "recipe" : "note",
                title: "\(words[i % 8]) \(words[(i * 3) % 8])", content: "\(words[(i * 5) % 8]) \(words[(i + 1) % 8]) notes")
        }
        let index = try SearchIndex(configuration: .init(directory: nil, embedder: WordDirectionEmbedder()))
        try await index.upsert(items)
        let trace = await stepThrough(index, "lentil soup")
        #expect(trace.keywordMatches > 0)
        #expect(trace.candidates >= trace.keywordMatches)
        #expect(trace.afterFeedback == trace.candidates)
        #expect(trace.clean)
        // Feedback reorders what the query matches; it lifts no candidate matching neither a
        // word of the query nor its meaning (every item's content says "notes", a likely
        // feedback term).
        #expect(trace.unmatched > 0)
        #expect(trace.unmatchedLifted == 0)
        // The stage is repeatable: the same query ranks the same after a traced run.
        let first = try await index.search(SearchQuery("lentil soup", understandsPhrases: false)).results.map(\.id)
        _ = await stepThrough(index, "yerba mate tea")
        let again = try await index.search(SearchQuery("lentil soup", understandsPhrases: false)).results.map(\.id)
        #expect(first == again && !first.isEmpty)
    }
}

/// What ``SearchIndex/traceRanking(_:)`` saw of each step.
struct RankingTrace {
    var keywordMatches: Int
    var candidates: Int
    var afterFeedback: Int
    var clean: Bool
    /// Candidates that matched neither a query word nor its meaning before feedback.
    var unmatched: Int
    /// Of those, how many feedback raised (a higher cosine or any BM25F).
    var unmatchedLifted: Int
}

extension SearchIndex {
    /// The ranker's steps for a hybrid query with no filter, as ``search(_:)`` runs them.
    fileprivate func traceRanking(_ text: String) -> RankingTrace {
        let request = Ranker.Request(
            text: text, terms: state.keyword.queryTerms(text, prefixLastTerm: false), mode: .hybrid, limit: 10, now: Date(),
            prefixLastTerm: false, boostDomains: [], explain: true, exhaustive: false)
        let filter = RowFilter(attributes: state.attributes, now: Date(), explicitDomains: [], range: DateRange(start: nil, end: nil))
        return state.table.withIDs { ids in
            var ranker = Ranker(
                request: request, state: state, ids: ids, configuration: configuration, capacity: table.capacity, filter: filter,
                report: QueryReport())
            swap(&ranker.buffers, &scratch.buffers)
            ranker.buffers.reserve(rows: table.capacity)
            ranker.scoreKeywordMatches()
            ranker.scanVectors()
            let matches = ranker.buffers.accumulator.touched.count
            ranker.gatherCandidates()
            let candidates = ranker.candidates.count
            let marked = ranker.buffers.isCandidate.filter { $0 }.count
            let unmatched = ranker.unmatchedCandidates()
            let cosines = unmatched.map { ranker.buffers.cosine[Int($0)] }
            ranker.applyVectorFeedback()
            ranker.applyKeywordFeedback()
            let afterFeedback = ranker.candidates.count
            let lifted = unmatched.indices.filter {
                ranker.buffers.cosine[Int(unmatched[$0])] > cosines[$0] || ranker.bm25[Int(unmatched[$0])] > 0
            }
            ranker.prepareFusion()
            let results = ranker.results(ranker.select())
            ranker.finish()
            let clean =
                marked == candidates && !results.isEmpty && results.allSatisfy { $0.explanation != nil }
                && !ranker.buffers.isCandidate.contains(true) && !ranker.buffers.feedbackSums.contains { $0 != 0 }
            swap(&ranker.buffers, &scratch.buffers)
            return RankingTrace(
                keywordMatches: matches, candidates: candidates, afterFeedback: afterFeedback, clean: clean,
                unmatched: unmatched.count, unmatchedLifted: lifted.count)
        }
    }
}
