import Foundation
import Testing

@testable import Sift

@Suite("Hybrid ranking, donations and filters")
struct HybridRankingTests {
    let now = utc("2026-12-02T12:00:00Z")

    func makeIndex(_ items: [SearchableItem], directory: URL? = nil, embedder: (any Embedder)? = WordDirectionEmbedder()) async throws
        -> SearchIndex
    {
        let now = self.now
        let index = try SearchIndex(configuration: .init(directory: directory, embedder: embedder, clock: { now }))
        try await index.upsert(items)
        return index
    }

    @Test(
        "Unexplained queries rank as explained ones (keyword and semantic mode skip the min-max pass that only explains), and leave nothing behind for the next query"
    )
    func unexplainedQueriesRankAsExplained() async throws {
        let items = (0..<40).map { i in
            SearchableItem(
                id: ItemID(String(format: "n-%02d", i)), domain: "note", title: "Walrus \(i % 5 == 0 ? "kelp" : "tide") \(i)",
                content: Array(repeating: "walrus", count: 1 + i % 4).joined(separator: " ") + (i % 3 == 0 ? " kelp" : " gull"))
        }
        let index = try await makeIndex(items)
        let fresh = try await makeIndex(items)
        func query(_ mode: SearchMode, explain: Bool) -> SearchQuery {
            SearchQuery(
                "walrus kelp", limit: 100, mode: mode, understandsPhrases: false, prefixLastTerm: false, explain: explain,
                minimumRelevance: 0)
        }
        for mode in [SearchMode.keyword, .semantic, .hybrid] {
            let plain = try await index.search(query(mode, explain: false)).results
            let explained = try await index.search(query(mode, explain: true)).results
            #expect(plain.count == 40 || mode == .keyword)
            #expect(plain.map(\.id) == explained.map(\.id) && plain.map(\.score) == explained.map(\.score), "\(mode)")
            let normalized = explained.compactMap { $0.explanation?.normalizedKeyword }
            #expect(normalized.count == explained.count && normalized.allSatisfy { (0...1).contains($0) })
            if mode != .semantic { #expect(normalized.max() == 1, "\(mode): the best BM25F normalises to 1") }
        }
        // After keyword, semantic and hybrid queries on shared buffers, a hybrid query ranks as
        // on an index that ran none.
        let after = try await index.search(query(.hybrid, explain: false)).results
        let first = try await fresh.search(query(.hybrid, explain: false)).results
        #expect(after.map(\.id) == first.map(\.id) && after.map(\.score) == first.map(\.score))
    }

    @Test(
        "A bound on keyword candidates keeps the matches scoring at least the N-th best BM25F, ties included (and the nominees by cosine); a bound above the matches changes nothing"
    )
    func boundedKeywordCandidates() async throws {
        let filler = ["harbour", "kelp", "tide", "gull", "pier", "rope", "sail", "buoy"]
        let items = (0..<300).map { i in
            SearchableItem(
                id: ItemID(String(format: "item-%03d", i)), domain: "note", title: "Note \(filler[i % 8]) \(i)",
                content: Array(repeating: "walrus", count: 1 + i % 7).joined(separator: " ") + " " + filler[(i * 3) % 8] + " "
                    + String(repeating: "x", count: 1 + i % 11))
        }
        func index(bound: Int) async throws -> SearchIndex {
            let now = self.now
            var fusion = FusionParameters.default
            fusion.keywordCandidates = bound
            fusion.semanticCandidates = 5
            let index = try SearchIndex(
                configuration: .init(directory: nil, embedder: WordDirectionEmbedder(), fusion: fusion, clock: { now }))
            try await index.upsert(items)
            return index
        }
        let query = SearchQuery("walrus kelp", limit: 10, mode: .hybrid, understandsPhrases: false, prefixLastTerm: false)
        let all = try await index(bound: 0)
        let bounded = try await index(bound: 20)
        let loose = try await index(bound: 1_000)
        let (full, fullReport) = try await all.search(query)
        let (few, fewReport) = try await bounded.search(query)
        #expect(fullReport.candidates >= 300)
        // The keyword matches at or above the 20th best BM25F (ties at it all stay) and at most
        // 10 nominees by cosine (as many as the page: limit 10).
        let byKeyword = try await all.search(
            SearchQuery("walrus kelp", limit: 1000, mode: .keyword, understandsPhrases: false, prefixLastTerm: false)
        ).results
        let floor = byKeyword[19].score
        let kept = Set(byKeyword.filter { $0.score >= floor }.map(\.id))
        #expect(kept.count > 20, "the fixture has ties at the bound")
        #expect(fewReport.candidates >= kept.count && fewReport.candidates <= kept.count + 10, "\(fewReport.candidates)")
        #expect(few.count == 10)
        // Each result is one of those keyword matches or of the 10 best cosines.
        let semanticTop = try await all.search(
            SearchQuery("walrus kelp", limit: 10, mode: .semantic, understandsPhrases: false, prefixLastTerm: false)
        ).results.map(\.id)
        for r in few { #expect(kept.contains(r.id) || semanticTop.contains(r.id), "\(r.id)") }
        let same = try await loose.search(query).results
        #expect(same.map(\.id) == full.map(\.id) && same.map(\.score) == full.map(\.score))
        // Keyword and semantic modes are never bounded.
        for mode in [SearchMode.keyword, .semantic] {
            var q = query
            q.mode = mode
            #expect(try await bounded.search(q).results.map(\.id) == all.search(q).results.map(\.id))
        }
    }

    @Test("Donation decay: golden values at 0, 1 and 2 half-lives, and the factor's bound")
    func donationDecayGolden() {
        let boost = DonationBoost(halfLife: 14 * 86_400, strength: 0.25)
        #expect(abs(boost.weight(of: now, now: now) - 1) < 1e-12)
        #expect(abs(boost.weight(of: now.addingTimeInterval(-14 * 86_400), now: now) - 0.5) < 1e-12)
        #expect(abs(boost.weight(of: now.addingTimeInterval(-28 * 86_400), now: now) - 0.25) < 1e-12)
        #expect(abs(boost.weight(of: now.addingTimeInterval(-7 * 86_400), now: now) - 0.707_106_781_186_547_6) < 1e-12)
        #expect(boost.weight(of: now.addingTimeInterval(3600), now: now) == 1)
        let s = boost.score([now, now.addingTimeInterval(-14 * 86_400)], now: now)
        #expect(abs(s - 1.5) < 1e-12)
        #expect(abs(boost.factor(forScore: 1.5) - (1 + 0.25 * 0.6)) < 1e-6)
        #expect(boost.factor(forScore: 0) == 1)
        #expect(boost.factor(forScore: 1e9) <= 1.25)
        #expect(boost.factor(forScore: 3) < boost.factor(forScore: 4))
    }

    @Test("A donated item outranks its equally relevant twin", arguments: [SearchMode.keyword, .semantic, .hybrid])
    func donatedTwinWins(mode: SearchMode) async throws {
        let twins = [
            SearchableItem(id: "a-twin", domain: "recipe", title: "Lentil soup", content: "red lentils, cumin, lemon"),
            SearchableItem(id: "b-twin", domain: "recipe", title: "Lentil soup", content: "red lentils, cumin, lemon"),
            SearchableItem(id: "c-other", domain: "recipe", title: "Pancakes", content: "flour, eggs, milk"),
        ]
        let index = try await makeIndex(twins)
        let before = try await index.search(SearchQuery("lentil soup", mode: mode, understandsPhrases: false)).results
        #expect(before.prefix(2).map(\.id) == ["a-twin", "b-twin"])  // tie broken by id
        try await index.donate(intent: "OpenRecipe", itemIDs: ["b-twin"], at: now.addingTimeInterval(-86_400))
        let after = try await index.search(SearchQuery("lentil soup", mode: mode, understandsPhrases: false)).results
        #expect(after.first?.id == "b-twin")
        #expect(after.first!.score > after[1].score)
    }

    @Test("A donated item that does not match the query is not lifted into the results")
    func irrelevantDonationStaysOut() async throws {
        let items = [
            SearchableItem(id: "soup", domain: "recipe", title: "Lentil soup", content: "red lentils, cumin"),
            SearchableItem(id: "rent", domain: "expense", title: "Rent for December", content: "paid the landlord"),
        ]
        let index = try await makeIndex(items)
        for _ in 0..<20 { try await index.donate(intent: "OpenExpense", itemIDs: ["rent"], at: now) }
        let keyword = try await index.search(SearchQuery("lentil", mode: .keyword, understandsPhrases: false)).results
        #expect(keyword.map(\.id) == ["soup"])
        let hybrid = try await index.search(SearchQuery("lentil", mode: .hybrid, understandsPhrases: false, explain: true)).results
        #expect(hybrid.first?.id == "soup")
        if let rent = hybrid.first(where: { $0.id == "rent" }) {
            #expect(rent.explanation?.donationFactor == 1)
            #expect(rent.score < hybrid[0].score)
        }
    }

    @Test("Suggestions order items by decayed donations and drop deleted and private items")
    func suggestions() async throws {
        let items = (0..<4).map { SearchableItem(id: ItemID("item-\($0)"), domain: "note", title: "Note \($0)") }
        let index = try await makeIndex(items)
        try await index.donate(intent: "Open", itemIDs: ["item-1"], at: now.addingTimeInterval(-30 * 86_400))
        try await index.donate(intent: "Open", itemIDs: ["item-2"], at: now)
        try await index.donate(intent: "Open", itemIDs: ["item-3", "item-3"], at: now.addingTimeInterval(-86_400))
        #expect(await index.suggestions(limit: 10).map(\.item.id) == ["item-3", "item-2", "item-1"])
        try await index.delete(ids: ["item-3"])
        var privateTwo = items[2]
        privateTwo.isPrivate = true
        try await index.upsert([privateTwo])
        #expect(await index.suggestions(limit: 10).map(\.item.id) == ["item-1"])
        try await index.checkInvariants()
    }

    @Test("Filters apply before ranking: k matching items that pass give k results")
    func filterFirst() async throws {
        // 50 strong matches in one domain, 5 weaker ones in another: a filter on the second
        // must still return all 5, although none is in the unfiltered top 10.
        var items = (0..<50).map {
            SearchableItem(id: ItemID(String(format: "strong-%02d", $0)), domain: "recipe", title: "Tomato tomato soup", content: "tomato")
        }
        items += (0..<5).map {
            SearchableItem(
                id: ItemID("weak-\($0)"), domain: "expense", title: "Groceries", content: "tomato and other things bought at the market",
                date: utc("2026-11-2\($0)T10:00:00Z"))
        }
        let index = try await makeIndex(items)
        for mode in SearchMode.allCases {
            let unfiltered = try await index.search(SearchQuery("tomato", limit: 10, mode: mode, understandsPhrases: false)).results
            #expect(!unfiltered.contains { $0.domain == "expense" }, "\(mode)")
            let filtered = try await index.search(
                SearchQuery("tomato", limit: 5, mode: mode, domains: ["expense"], understandsPhrases: false)
            ).results
            #expect(filtered.count == 5, "\(mode)")
            #expect(filtered.allSatisfy { $0.domain == "expense" })
            let dated = try await index.search(
                SearchQuery(
                    "tomato", limit: 10, mode: mode, since: utc("2026-11-22T00:00:00Z"), until: utc("2026-11-24T00:00:00Z"),
                    understandsPhrases: false)
            ).results
            #expect(Set(dated.map(\.id)) == ["weak-2", "weak-3"], "\(mode)")
        }
    }

    @Test("\"last week's expenses\" over the demo corpus returns only expenses dated 2026-11-23 … 2026-11-29")
    func lastWeeksExpenses() async throws {
        let index = try await makeIndex(try demoCorpusItems())
        let (results, report) = try await index.search(SearchQuery("last week's expenses", limit: 50, now: now))
        #expect(!results.isEmpty)
        let start = utc("2026-11-23T00:00:00Z")
        let end = utc("2026-11-30T00:00:00Z")
        for r in results {
            #expect(r.domain == "expense")
            #expect(r.date.map { $0 >= start && $0 < end } ?? false, "\(r.id)")
        }
        #expect(report.searchedText.isEmpty)
        // Newest first when no text is left.
        #expect(results.map { $0.date! } == results.map { $0.date! }.sorted(by: >))
        // Every public, unexpired expense of that week is listed.
        let expected = try demoCorpusItems().filter {
            $0.domain == "expense" && $0.isIndexable && !$0.isExpired(at: now) && $0.date.map { $0 >= start && $0 < end } == true
        }
        #expect(Set(results.map(\.id)) == Set(expected.map(\.id)))
    }

    @Test("A named domain with no surviving item only boosts instead of filtering")
    func domainFallsBackToBoost() async throws {
        let items = [
            SearchableItem(id: "r1", domain: "recipe", title: "Coffee cake", date: utc("2026-06-01T00:00:00Z")),
            SearchableItem(id: "e1", domain: "expense", title: "Coffee at the corner", date: utc("2026-12-01T00:00:00Z")),
        ]
        let index = try await makeIndex(items)
        let (results, report) = try await index.search(SearchQuery("recipes coffee yesterday", now: now))
        #expect(results.map(\.id) == ["e1"])
        #expect(report.filters.contains { $0.contains("only boosts") })
    }

    @Test("Changing the model re-embeds every stored item on open")
    func modelChangeReembeds() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-reembed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let items = [SearchableItem(id: "a", title: "lentil soup"), SearchableItem(id: "b", title: "coffee beans")]
        _ = try await makeIndex(items, directory: dir, embedder: WordDirectionEmbedder(dimension: 32))
        let reopened = try SearchIndex(configuration: .init(directory: dir, embedder: WordDirectionEmbedder(dimension: 64)))
        let stats = try await reopened.statistics()
        #expect(stats.vectors == 2 && stats.dimension == 64 && stats.model == "test-word-directions-64")
        let top = try await reopened.search(SearchQuery("soup", mode: .semantic, understandsPhrases: false)).results
        #expect(top.first?.id == "a")
        try await reopened.checkInvariants()
    }

    @Test("Explain shows per-field BM25, cosine, fusion inputs and factors")
    func explainCarriesEveryTerm() async throws {
        let index = try await makeIndex([
            SearchableItem(
                id: "x", domain: "recipe", title: "Yerba mate latte", content: "yerba mate, oat milk", keywords: ["tea"], rankingHint: 80)
        ])
        let r = try await index.search(SearchQuery("yerba latte", mode: .hybrid, understandsPhrases: false, explain: true)).results[0]
        let e = try #require(r.explanation)
        #expect(e.keywordTerms.map(\.term).sorted() == ["latt", "yerba"])
        #expect(e.keywordTerms.first { $0.term == "yerba" }!.frequencies == [1, 0, 1])
        #expect(e.cosine != nil && e.fusion.hasPrefix("linear") || e.fusion.hasPrefix("rrf"))
        #expect(e.rankingHintFactor > 1)
        #expect(abs(e.finalScore - r.score) < 1e-6)
    }
}
