import Foundation
import Testing

@testable import Sift

/// The reference: what a person has told the index, and so what it may show.
private struct PrivacyModel {
    /// Items stored, public, expired or not.
    var stored: [ItemID: SearchableItem] = [:]
    /// Donations per stored item.
    var donations: [ItemID: Int] = [:]
    /// Ids whose latest word was private, hidden or deleted (until made public again).
    var forbidden: Set<ItemID> = []

    mutating func remove(_ id: ItemID) {
        stored[id] = nil
        donations[id] = nil
    }

    func visible(at now: Date) -> Set<ItemID> {
        Set(stored.values.filter { !$0.isExpired(at: now) }.map(\.id))
    }

    func expired(at now: Date) -> Set<ItemID> {
        Set(stored.values.filter { $0.isExpired(at: now) }.map(\.id))
    }
}

extension Reliability {
    /// Privacy as a property: long seeded random sequences of upsert, mark private, hide, unhide,
    /// delete, delete domain, donate and expire. After every step nothing private, hidden,
    /// deleted or expired comes back from search (keyword and semantic), suggestions, the item
    /// list or the statistics, and what is visible is exactly what the model says.
    @Suite("Privacy as a property of random operation sequences")
    struct PrivacyPropertyTests {
        static let operations = Reliability.count("SIFT_PRIVACY_OPERATIONS", default: 10_000)
        static let ids = (0..<60).map { ItemID("p\($0)") }
        static let domains = ["journal", "recipe", "expense"]

        @Test("No private, hidden, deleted or expired item is ever shown, after any of 10,000 operations")
        func neverShown() async throws {
            let clock = TestClock()
            let logger = MemoryLogger()
            let index = try SearchIndex(
                configuration: .init(directory: nil, embedder: FakeEmbedder(), clock: clock.function, logger: logger))
            var model = PrivacyModel()
            var rng = SeededGenerator(seed: 0xB1A5)
            var tally: [String: Int] = [:]

            func newItem(_ id: ItemID) -> SearchableItem {
                var item = SearchableItem(
                    id: id, domain: rng.pick(Self.domains), title: "\(rng.pick(["morning", "evening", "weekly"])) \(id.rawValue)",
                    content: "zephyr notes \(rng.pick(["calm", "stress", "walk"]))")
                switch rng.int(0..<10) {
                case 0: item.expires = clock.now.addingTimeInterval(-Double(rng.int(1..<100)))  // already expired
                case 1...3: item.expires = clock.now.addingTimeInterval(Double(rng.int(1..<5000)))
                default: break
                }
                return item
            }

            for step in 0..<Self.operations {
                let id = rng.pick(Self.ids)
                let operation: String
                switch rng.int(0..<100) {
                case 0..<30:
                    operation = "upsert"
                    let item = newItem(id)
                    try await index.upsert([item])
                    if item.isExpired(at: clock.now) { model.remove(id) } else { model.stored[id] = item }
                    model.forbidden.remove(id)
                case 30..<40:
                    operation = "mark private"
                    var item = model.stored[id] ?? newItem(id)
                    item.isPrivate = true
                    try await index.upsert([item])
                    model.remove(id)
                    model.forbidden.insert(id)
                case 40..<48:
                    operation = "hide"
                    var item = model.stored[id] ?? newItem(id)
                    item.isHidden = true
                    try await index.upsert([item])
                    model.remove(id)
                    model.forbidden.insert(id)
                case 48..<56:
                    operation = "unhide"
                    guard model.forbidden.contains(id) else { continue }
                    var item = newItem(id)
                    item.isHidden = false
                    item.isPrivate = false
                    try await index.upsert([item])
                    if item.isExpired(at: clock.now) { model.remove(id) } else { model.stored[id] = item }
                    model.forbidden.remove(id)
                case 56..<66:
                    operation = "delete"
                    let doomed = (0..<rng.int(1..<4)).map { _ in rng.pick(Self.ids) }
                    try await index.delete(ids: doomed)
                    for d in doomed {
                        model.remove(d)
                        model.forbidden.insert(d)
                    }
                case 66..<69:
                    operation = "delete domain"
                    let domain = rng.pick(Self.domains)
                    try await index.delete(domains: [domain])
                    for (d, item) in model.stored where item.domain == domain {
                        model.remove(d)
                        model.forbidden.insert(d)
                    }
                case 69..<85:
                    operation = "donate"
                    let targets = (0..<rng.int(1..<3)).map { _ in rng.pick(Self.ids) }
                    let recorded = try await index.donate(intent: rng.pick(["open", "log"]), itemIDs: targets)
                    #expect(recorded == targets.filter { model.stored[$0] != nil }.count, "step \(step)")
                    for t in targets where model.stored[t] != nil { model.donations[t, default: 0] += 1 }
                case 85..<95:
                    operation = "expire"
                    clock.advance(by: Double(rng.int(1..<1500)))
                default:
                    operation = "purge expired"
                    let expired = model.expired(at: clock.now)
                    #expect(try await index.purgeExpired() == expired.count, "step \(step)")
                    for e in expired { model.remove(e) }
                }
                tally[operation, default: 0] += 1
                try await check(index, model, now: clock.now, step: step, full: step % 100 == 0)
            }
            try await check(index, model, now: clock.now, step: Self.operations, full: true)
            print(
                "privacy property: \(Self.operations) operations \(tally.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))"
            )
            #expect(tally.count == 9)
        }

        /// What the index shows agrees with the model: exactly the visible items, and never a
        /// forbidden or expired one.
        private func check(_ index: SearchIndex, _ model: PrivacyModel, now: Date, step: Int, full: Bool) async throws {
            let visible = model.visible(at: now)
            let expired = model.expired(at: now)
            let hidden = model.forbidden.union(expired)

            let keyword = try await index.search(
                SearchQuery("zephyr", limit: 1000, mode: .keyword, understandsPhrases: false, prefixLastTerm: false)
            ).results.map(\.id)
            #expect(Set(keyword) == visible, "step \(step): keyword search shows \(Set(keyword).symmetricDifference(visible))")
            let semantic = try await index.search(SearchQuery("zephyr notes", limit: 1000, mode: .semantic, understandsPhrases: false))
                .results.map(\.id)
            #expect(Set(semantic) == visible, "step \(step): semantic search shows \(Set(semantic).symmetricDifference(visible))")
            let suggested = await index.suggestions(limit: 1000).map(\.item.id)
            #expect(Set(suggested) == visible.filter { (model.donations[$0] ?? 0) > 0 }, "step \(step): suggestions")
            let listed = await index.allItems().map(\.id)
            #expect(
                Set(listed) == visible && listed.allSatisfy { !hidden.contains($0) },
                "step \(step): allItems shows \(Set(listed).symmetricDifference(visible))")
            guard full else { return }
            let hybrid = try await index.search(SearchQuery("notes", limit: 1000)).results.map(\.id)
            #expect(Set(hybrid) == visible, "step \(step): hybrid search")
            let listedByDate = try await index.search(SearchQuery("", limit: 1000, mode: .keyword)).results.map(\.id)
            #expect(Set(listedByDate) == visible, "step \(step): listing")
            // Statistics count the visible items; the vectors (a structural count) and donations
            // still include expired items until they are purged, never private, hidden or
            // deleted ones.
            let stats = try await index.statistics()
            #expect(stats.items == visible.count, "step \(step): statistics count \(stats.items), visible \(visible.count)")
            #expect(stats.domains.values.reduce(0, +) == visible.count, "step \(step): statistics domains")
            #expect(stats.vectors == model.stored.count, "step \(step): statistics vectors")
            #expect(stats.donations == model.donations.values.reduce(0, +), "step \(step): statistics donations")
            try await index.checkInvariants()
        }
    }
}
