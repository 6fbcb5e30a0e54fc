import Foundation
import Testing

@testable import Sift

extension SearchIndex {
    /// Searches and resolves every result's id in the same turn of the actor, so the item it
    /// resolves to is the one that existed when the search ran.
    func searchResolvingResults(_ query: SearchQuery) throws -> [(result: SearchResult, item: SearchableItem?)] {
        try search(query).results.map { ($0, item($0.id)) }
    }
}

/// What the writer has done, shared with the searchers. The writer announces an item (id and
/// title) *before* it upserts it and retires ids *after* their delete has returned, and never
/// reuses a retired id. So a search that started after a retirement must not return that id,
/// and any id a search returns must have been announced, with one of its announced titles,
/// by the time the search returned.
private final class Ledger: @unchecked Sendable {
    private let lock = NSLock()
    private var announcedTitles: [ItemID: Set<String>] = [:]
    private var retiredIDs: Set<ItemID> = []

    func announce(_ items: [SearchableItem]) {
        lock.withLock { for item in items { announcedTitles[item.id, default: []].insert(item.title) } }
    }
    func retire(_ ids: [ItemID]) { lock.withLock { retiredIDs.formUnion(ids) } }
    var retired: Set<ItemID> { lock.withLock { retiredIDs } }
    var announced: [ItemID: Set<String>] { lock.withLock { announcedTitles } }
}

extension Reliability {
    @Suite("Concurrency: 8 searchers and 1 writer on one index")
    struct ConcurrencyTests {
        static let writes = Reliability.count("SIFT_STRESS_WRITES", default: 600)
        static let searchesPerSearcher = Reliability.count("SIFT_STRESS_SEARCHES", default: 150)
        static let vocabulary = ["amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper"]

        @Test("Every result resolves to an item that existed when the search ran, and nothing fails")
        func searchersAndWriter() async throws {
            let temporary = try TemporaryDirectory("sift-concurrency")
            let index = try SearchIndex(configuration: .init(directory: temporary.path("index"), embedder: FakeEmbedder()))
            let ledger = Ledger()
            var seed = SeededGenerator(seed: 71)
            func item(_ id: String, domain: String, version: Int, rng: inout SeededGenerator) -> SearchableItem {
                noteItem(
                    id, "\(rng.pick(Self.vocabulary)) \(rng.pick(Self.vocabulary)) v\(version)",
                    content: (0..<6).map { _ in rng.pick(Self.vocabulary) }.joined(separator: " "), domain: domain)
            }
            let initial = (0..<100).map { item("seed-\($0)", domain: "d0", version: 0, rng: &seed) }
            ledger.announce(initial)
            try await index.upsert(initial)

            let counts = try await withThrowingTaskGroup(of: (searches: Int, results: Int).self) { group in
                group.addTask {
                    var rng = SeededGenerator(seed: 72)
                    var live = Set(initial.map(\.id))
                    var domainOf = Dictionary(uniqueKeysWithValues: initial.map { ($0.id, $0.domain) })
                    var generation = 0
                    var next = 0
                    for step in 0..<Self.writes {
                        switch rng.int(0..<10) {
                        case 0...3:
                            // New items, sometimes several in a batch.
                            let fresh = (0..<rng.int(1..<4)).map { _ -> SearchableItem in
                                next += 1
                                return item("w-\(next)", domain: "d\(generation)", version: step, rng: &rng)
                            }
                            ledger.announce(fresh)
                            if rng.chance(0.3) {
                                try await index.beginBatch()
                                try await index.upsert(fresh)
                                try await index.endBatch(clientState: "step-\(step)")
                            } else {
                                try await index.upsert(fresh)
                            }
                            for f in fresh {
                                live.insert(f.id)
                                domainOf[f.id] = f.domain
                            }
                        case 4...5 where !live.isEmpty:
                            // A new version of a live item.
                            let id = live.randomElement(using: &rng)!
                            let updated = item(id.rawValue, domain: domainOf[id]!, version: step, rng: &rng)
                            ledger.announce([updated])
                            try await index.upsert([updated])
                        case 6...7 where !live.isEmpty:
                            let doomed = Array(live.shuffled(using: &rng).prefix(rng.int(1..<4)))
                            try await index.delete(ids: doomed)
                            ledger.retire(doomed)
                            live.subtract(doomed)
                        case 8:
                            // Retire a whole domain; later items go to a new one.
                            if rng.chance(0.1) {
                                let domain = "d\(generation)"
                                try await index.delete(domains: [domain])
                                let doomed = live.filter { domainOf[$0] == domain }
                                ledger.retire(Array(doomed))
                                live.subtract(doomed)
                                generation += 1
                            }
                        default:
                            if let id = live.randomElement(using: &rng) {
                                try await index.donate(intent: "open", itemIDs: [id, "never-indexed"])
                            }
                        }
                    }
                    return (0, 0)
                }
                for searcher in 0..<8 {
                    group.addTask {
                        var rng = SeededGenerator(seed: 100 + UInt64(searcher))
                        var results = 0
                        for n in 0..<Self.searchesPerSearcher {
                            let retiredBefore = ledger.retired
                            let text = (0..<rng.int(1..<3)).map { _ in rng.pick(Self.vocabulary) }.joined(separator: " ")
                            let query = SearchQuery(
                                text, limit: rng.pick([5, 20, 100]), mode: rng.pick(SearchMode.allCases), prefixLastTerm: rng.chance(0.5))
                            let resolved = try await index.searchResolvingResults(query)
                            let announced = ledger.announced
                            for (result, item) in resolved {
                                #expect(item != nil, "searcher \(searcher): \(result.id) did not resolve when returned")
                                #expect(item?.title == result.title)
                                #expect(
                                    !retiredBefore.contains(result.id),
                                    "searcher \(searcher): \(result.id) was deleted before the search began")
                                #expect(
                                    announced[result.id]?.contains(result.title) == true,
                                    "searcher \(searcher): \(result.id) '\(result.title)' was never written")
                            }
                            #expect(Set(resolved.map(\.result.id)).count == resolved.count)
                            results += resolved.count
                            if n % 10 == 0 {
                                let before = ledger.retired
                                let suggested = await index.suggestions(limit: 20).map(\.item.id)
                                let listed = await index.allItems().map(\.id)
                                let stats = try await index.statistics()
                                #expect(suggested.allSatisfy { !before.contains($0) })
                                #expect(listed.allSatisfy { !before.contains($0) })
                                #expect(stats.items >= 0)
                            }
                        }
                        return (Self.searchesPerSearcher, results)
                    }
                }
                var total = (searches: 0, results: 0)
                for try await c in group {
                    total.searches += c.searches
                    total.results += c.results
                }
                return total
            }
            print(
                "concurrency: 1 writer × \(Self.writes) operations, 8 searchers × \(Self.searchesPerSearcher) searches; \(counts.results) results checked"
            )
            #expect(counts.searches == 8 * Self.searchesPerSearcher && counts.results > 0)
            try await index.checkInvariants()
            #expect(try await index.integrityCheck() == "ok")
            let retired = ledger.retired
            #expect(await index.allItems().allSatisfy { !retired.contains($0.id) })
        }
    }
}
