import Foundation
import Testing

@testable import Sift

/// Words whose stems differ, so a search for one finds exactly the items that contain it.
private let vocabulary = [
    "amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
    "kelp", "lichen", "marble", "nectar", "opal", "pepper", "quill", "raven", "saffron", "tundra",
]
private let domains = ["journal", "recipe", "expense", "trigger"]

/// A reference model of what the index must hold: a dictionary, plus the batch being built.
private struct ReferenceModel {
    var committed: [ItemID: SearchableItem] = [:]
    var batch: [ItemID: SearchableItem]?
    var clientState: String?
    let now: Date

    /// The state mutations apply to: the open batch, else the committed items.
    var working: [ItemID: SearchableItem] {
        get { batch ?? committed }
        set { if batch != nil { batch = newValue } else { committed = newValue } }
    }

    mutating func upsert(_ items: [SearchableItem]) {
        for item in items {
            if !item.isIndexable || item.isExpired(at: now) { working[item.id] = nil } else { working[item.id] = item }
        }
    }

    func ids(containing word: String) -> [ItemID] {
        committed.values.filter { item in
            ([item.title, item.content] + item.keywords).contains { $0.split(separator: " ").contains(Substring(word)) }
        }.map(\.id).sorted()
    }
}

private struct RandomItems {
    var rng: SeededGenerator
    let now: Date
    var counter = 0

    mutating func words(_ range: ClosedRange<Int>) -> String {
        (0..<rng.int(range.lowerBound..<(range.upperBound + 1))).map { _ in rng.pick(vocabulary) }.joined(separator: " ")
    }

    mutating func id() -> ItemID { ItemID("item-\(rng.int(0..<150))") }

    mutating func item(id: ItemID? = nil) -> SearchableItem {
        counter += 1
        var item = SearchableItem(id: id ?? self.id(), domain: rng.pick(domains), title: words(1...3), content: words(0...6))
        item.keywords = (0..<rng.int(0..<3)).map { _ in rng.pick(vocabulary) }
        item.date = now.addingTimeInterval(-Double(rng.int(0..<1_000_000)))
        let roll = rng.int(0..<100)
        if roll < 8 {
            item.isPrivate = true
        } else if roll < 12 {
            item.isHidden = true
        } else if roll < 17 {
            item.expires = now.addingTimeInterval(-Double(rng.int(1..<10_000)))
        } else if roll < 22 {
            item.expires = now.addingTimeInterval(Double(rng.int(1..<10_000_000)))
        }
        if rng.chance(0.2) { item.rankingHint = rng.int(0..<101) }
        return item
    }

    mutating func items() -> [SearchableItem] {
        var list = (0..<rng.int(1..<5)).map { _ in item() }
        // Now and then the same id twice in one call: the last version must win.
        if rng.chance(0.15), let first = list.first { list.append(item(id: first.id)) }
        return list
    }
}

@Suite("Identifier invariants under seeded random operation sequences")
struct RandomOperationsTests {
    @Test(
        "Random upserts, replacements, deletes, private transitions and batches keep every part in step with a reference model",
        arguments: [(IndexLocation.memory, 10_000, UInt64(20_261_202)), (IndexLocation.disk, 3_000, UInt64(7))])
    func randomSequence(location: IndexLocation, operations: Int, seed: UInt64) async throws {
        let fixture = try IndexFixture(location, embedder: FakeEmbedder(dimension: 8))
        let now = fixture.clock.now
        var index = try fixture.open()
        var model = ReferenceModel(now: now)
        var random = RandomItems(rng: SeededGenerator(seed: seed), now: now)
        var batchNumber = 0
        var searches = 0

        func compareAll() async throws {
            let actual = await index.allItems()
            let expected = model.committed.values.sorted { $0.id < $1.id }
            #expect(actual == expected)
            if actual != expected { throw ExpectationFailure() }
        }

        for step in 1...operations {
            let roll = random.rng.int(0..<1000)
            switch roll {
            case 0..<450:
                let items = random.items()
                try await index.upsert(items)
                model.upsert(items)
            case 450..<600:
                var ids: [ItemID] = (0..<random.rng.int(1..<4)).map { _ in random.id() }
                if random.rng.chance(0.2) { ids.append(ItemID("unknown-\(step)")) }
                try await index.delete(ids: ids)
                for id in ids { model.working[id] = nil }
            case 600..<650:
                let domain = random.rng.pick(domains)
                try await index.delete(domains: [domain])
                model.working = model.working.filter { $0.value.domain != domain }
            case 650..<655:
                try await index.deleteAll()
                model.working = [:]
            case 655..<720:
                if model.batch == nil {
                    let ids = (0..<random.rng.int(1..<3)).map { _ in random.id() }
                    try await index.donate(intent: "open", itemIDs: ids)
                } else {
                    let items = random.items()
                    try await index.upsert(items)
                    model.upsert(items)
                }
            case 720..<850:
                if model.batch == nil {
                    try await index.beginBatch()
                    model.batch = model.committed
                } else {
                    batchNumber += 1
                    let state = "batch-\(batchNumber)"
                    let outcome = random.rng.int(0..<10)
                    if outcome < 7 {
                        try await index.endBatch(clientState: state, expectedClientState: random.rng.chance(0.5) ? model.clientState : nil)
                        model.committed = model.batch!
                        model.clientState = state
                    } else if outcome < 9 {
                        await #expect(throws: IndexError.self) {
                            try await index.endBatch(clientState: state, expectedClientState: "not-\(model.clientState ?? "any")")
                        }
                    } else {
                        await index.cancelBatch()
                    }
                    model.batch = nil
                    #expect(try await index.lastClientState() == model.clientState)
                }
            default:
                let word = random.rng.pick(vocabulary)
                let found = try await index.keywordIDs(word, limit: 1000)
                #expect(found.sorted() == model.ids(containing: word), "step \(step): \(word)")
                searches += 1
            }
            if step % 100 == 0 {
                try await index.checkInvariants()
                try await compareAll()
            }
            if location == .disk && step % 500 == 0 && model.batch == nil {
                // Drop and reopen: everything comes back from the store — every other time from
                // the snapshot the index saves first, and the sequence goes on on what it loaded.
                let viaSnapshot = step % 1000 == 0
                if viaSnapshot { #expect(await index.saveSnapshot()) }
                index = try fixture.open()
                let outcome = fixture.logger.records.last { $0.operation == "open" }?.outcome ?? ""
                if viaSnapshot {
                    #expect(outcome == "ok, from the snapshot", "step \(step)")
                } else {
                    #expect(outcome.hasPrefix("ok, rebuilt: no snapshot") || outcome == "ok", "step \(step): \(outcome)")
                }
                try await index.checkInvariants()
                try await compareAll()
            }
        }
        if model.batch != nil { await index.cancelBatch() }
        try await index.checkInvariants()
        try await compareAll()
        for word in vocabulary {
            #expect(try await index.keywordIDs(word, limit: 1000).sorted() == model.ids(containing: word), "\(word)")
        }
        let stats = try await index.statistics()
        #expect(stats.items == model.committed.count && stats.vectors == model.committed.count)
        #expect(try await index.lastClientState() == model.clientState)
        #expect(try await index.integrityCheck() == "ok")
        #expect(searches > 100)
        #expect(model.committed.count > 10, "the sequence should leave a populated index")
    }
}

private struct ExpectationFailure: Error {}
