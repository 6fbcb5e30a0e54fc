import Foundation
import Testing

@testable import Sift

/// No answer: a query of two or more words whose best result is weak and none of whose results
/// says two of its words side by side returns nothing (`Ranker+Answer.swift`).
@Suite("No answer: the query's words side by side")
struct AnswerGateTests {
    let now = utc("2026-12-02T12:00:00Z")
    let items = [
        SearchableItem(id: "walk", domain: "note", title: "Saturday", content: "The river walk was long and the cafés were closed."),
        SearchableItem(id: "garden", domain: "note", title: "Garden", content: "Tomatoes need more water; the river is low."),
        SearchableItem(id: "tagged", domain: "note", title: "Trip", content: "Photos of boats.", keywords: ["harbour lights"]),
    ]

    /// An index whose modes all have answer floor `floor` (1 makes every result weak, so that
    /// only the word pairs decide).
    func makeIndex(floor: Float) async throws -> SearchIndex {
        var configuration = SearchIndex.Configuration(directory: nil, embedder: WordDirectionEmbedder(), clock: { [now] in now })
        configuration.relevance.hybrid.answerFloor = floor
        configuration.relevance.keyword.answerFloor = floor
        configuration.relevance.semantic.answerFloor = floor
        let index = try SearchIndex(configuration: configuration)
        try await index.upsert(items)
        return index
    }

    func search(_ index: SearchIndex, _ text: String, mode: SearchMode = .hybrid, prefix: Bool = false, minimum: Float = 0.000_001)
        async throws -> (ids: [String], report: QueryReport)
    {
        let (results, report) = try await index.search(
            SearchQuery(text, mode: mode, understandsPhrases: false, prefixLastTerm: prefix, minimumRelevance: minimum))
        return (results.map(\.id.rawValue), report)
    }

    @Test("Two query words side by side in a result (stems, stop words skipped) answer; the same words apart do not")
    func pairsDecide() async throws {
        let index = try await makeIndex(floor: 1)
        for mode in [SearchMode.hybrid, .keyword, .semantic] {
            let answered = try await search(index, "rivers walking", mode: mode)  // "river walk", stemmed
            #expect(answered.ids.contains("walk") && !answered.report.unanswered, "\(mode)")
            let apart = try await search(index, "walk river", mode: mode)  // the other order: no result says it
            #expect(apart.ids.isEmpty && apart.report.unanswered, "\(mode)")
            #expect(apart.report.belowMinimumRelevance > 0, "\(mode): the results left out are counted")
        }
        // Stop words between the words are skipped, in the query and in the item.
        #expect(try await search(index, "river of the walk").ids.contains("walk"))
        // A keyword holds its pair on its own.
        let tagged = try await search(index, "harbour lights")
        #expect(tagged.ids.contains("tagged") && !tagged.report.unanswered)
    }

    @Test("A one-word query, the word being typed, the cut turned off or a strong result: never left without an answer")
    func whenTheGateStaysOpen() async throws {
        let index = try await makeIndex(floor: 1)
        #expect(try await search(index, "river").ids.count >= 2)
        // While typing, the last word is a prefix and forms no pair: "walk riv" has none.
        let typing = try await search(index, "walk riv", prefix: true)
        #expect(!typing.ids.isEmpty && !typing.report.unanswered)
        // minimumRelevance 0 keeps everything.
        let all = try await search(index, "walk river", minimum: 0)
        #expect(!all.ids.isEmpty && !all.report.unanswered)
        // A floor of 0 turns the test off; a best result at or above the floor passes it.
        let open = try await makeIndex(floor: 0)
        #expect(try await search(open, "walk river").ids.isEmpty == false)
        let low = try await makeIndex(floor: 1e-9)
        #expect(try await search(low, "walk river").ids.isEmpty == false)
    }

    @Test("The default floors: hybrid and semantic have one, keyword mode none")
    func defaults() {
        let model = RelevanceModel.default
        #expect(model.hybrid.answerFloor > 0 && model.semantic.answerFloor > 0 && model.keyword.answerFloor == 0)
        #expect(model.hybrid.answerFloor < 0.05 && model.semantic.answerFloor < 0.05)
    }
}
