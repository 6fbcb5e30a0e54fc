import Foundation
import Testing

@testable import Sift

@Suite("Index lifecycle: upsert, delete, persistence, empty input")
struct LifecycleTests {
    @Test("Upserting the same id replaces the item; its old words no longer match", arguments: IndexLocation.allCases)
    func upsertReplaces(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        try await index.upsert([noteItem("a", "walrus tusk"), noteItem("b", "walrus colony")])
        #expect(try await index.keywordIDs("walrus") == ["a", "b"])
        let summary = try await index.upsert([noteItem("a", "penguin parade", content: "icy")])
        #expect(summary.indexed == 1)
        #expect(try await index.keywordIDs("tusk").isEmpty)
        #expect(try await index.keywordIDs("walrus") == ["b"])
        #expect(try await index.keywordIDs("penguin") == ["a"])
        #expect(await index.item("a")?.title == "penguin parade")
        #expect(await index.allItems().count == 2)
        try await index.checkInvariants()
        if location == .disk { #expect(try fixture.storedIDs() == ["a", "b"]) }
    }

    @Test("Deleting by id removes exactly those items and ignores unknown ids", arguments: IndexLocation.allCases)
    func deleteByIDs(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        try await index.upsert((1...5).map { noteItem("n\($0)", "shared word \($0)") })
        #expect(try await index.delete(ids: ["n2", "n4", "missing"]) == 2)
        #expect(try await index.keywordIDs("shared") == ["n1", "n3", "n5"])
        #expect(await index.item("n2") == nil)
        #expect(try await index.delete(ids: ["n2"]) == 0)
        try await index.checkInvariants()
        if location == .disk { #expect(try fixture.storedIDs() == ["n1", "n3", "n5"]) }
    }

    @Test("Deleting by domain removes every item of those domains and nothing else", arguments: IndexLocation.allCases)
    func deleteByDomains(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        try await index.upsert([
            noteItem("r1", "lentil soup", domain: "recipe"), noteItem("r2", "lentil salad", domain: "recipe"),
            noteItem("e1", "lentil purchase", domain: "expense"), noteItem("j1", "lentil day", domain: "journal"),
        ])
        #expect(try await index.delete(domains: ["recipe", "journal", "nonexistent"]) == 3)
        #expect(try await index.keywordIDs("lentil") == ["e1"])
        #expect(try await index.statistics().domains == ["expense": 1])
        try await index.checkInvariants()
        if location == .disk { #expect(try fixture.storedIDs() == ["e1"]) }
    }

    @Test("Deleting everything empties the index, which stays usable", arguments: IndexLocation.allCases)
    func deleteAll(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        try await index.upsert((1...20).map { noteItem("i\($0)", "bulk item") })
        #expect(try await index.deleteAll() == 20)
        #expect(await index.allItems().isEmpty)
        #expect(try await index.keywordIDs("bulk").isEmpty)
        #expect(try await index.statistics().items == 0)
        try await index.checkInvariants()
        try await index.upsert([noteItem("again", "bulk again")])
        #expect(try await index.keywordIDs("bulk") == ["again"])
        try await index.checkInvariants()
        if location == .disk { #expect(try fixture.storedIDs() == ["again"]) }
    }

    @Test("What was committed is there after reopening; the store passes its integrity check")
    func persistsAcrossReopen() async throws {
        let fixture = try IndexFixture(.disk)
        let date = Date(timeIntervalSince1970: 1_795_996_800)
        let items = [
            SearchableItem(
                id: "r1", domain: "recipe", title: "Yerba mate latte", content: "Frothed milk, café style — 😤 no sugar",
                keywords: ["drink", "caffeine"], date: date, expires: date.addingTimeInterval(86_400 * 3650),
                url: "https://example.app/recipes/r1", rankingHint: 80, displayName: "Recipes"),
            SearchableItem(id: "j1", domain: "journal", title: "Sunday", content: "русский текст", date: date),
            SearchableItem(id: "plain", title: "no extras"),
        ]
        do {
            let index = try fixture.open()
            try await index.upsert(items)
            try await index.delete(ids: ["plain"])
            try await index.upsert([SearchableItem(id: "late", title: "added last")])
        }
        let reopened = try fixture.open()
        let expected = [items[0], items[1], SearchableItem(id: "late", title: "added last")].sorted { $0.id < $1.id }
        #expect(await reopened.allItems() == expected)
        #expect(try await reopened.keywordIDs("yerba") == ["r1"])
        #expect(try await reopened.keywordIDs("текст") == ["j1"])
        #expect(try await reopened.keywordIDs("extras").isEmpty)
        #expect(try await reopened.integrityCheck() == "ok")
        try await reopened.checkInvariants()
    }

    @Test("Reopening with a model re-embeds what was stored without one")
    func reopenWithModel() async throws {
        var fixture = try IndexFixture(.disk)
        do {
            let index = try fixture.open()
            try await index.upsert([noteItem("a", "first"), noteItem("b", "second")])
        }
        fixture.embedder = FakeEmbedder()
        let index = try fixture.open()
        let stats = try await index.statistics()
        #expect(stats.vectors == 2 && stats.dimension == 16 && stats.model == "fake-embedder-16")
        try await index.checkInvariants()
    }

    @Test("An empty input does not touch the store", arguments: IndexLocation.allCases)
    func emptyInputTouchesNothing(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        try await index.upsert([noteItem("a", "existing")])
        let before = try fixture.storeFingerprint()
        let recordsBefore = fixture.logger.records.count
        #expect(try await index.upsert([]) == SearchIndex.UpsertSummary())
        #expect(try await index.delete(ids: []) == 0)
        #expect(try await index.delete(domains: []) == 0)
        #expect(try await index.purgeExpired() == 0)
        // Only refused items: nothing to write either.
        #expect(try await index.upsert([SearchableItem(id: "p", title: "secret", isPrivate: true)]).refusedPrivate == 1)
        // A commit logs the outcome "ok"; none happened.
        let later = fixture.logger.records.dropFirst(recordsBefore)
        #expect(later.allSatisfy { $0.outcome != "ok" }, "\(Array(later))")
        #expect(try fixture.storeFingerprint() == before)
        if location == .disk { #expect(!before.isEmpty) }
    }

    @Test("Every mutation is logged with its operation and count, never with user text")
    func loggingContract() async throws {
        let fixture = try IndexFixture(.memory)
        let index = try fixture.open()
        try await index.upsert([noteItem("a", "confidential aardvark"), noteItem("b", "other")])
        try await index.delete(ids: ["a"])
        _ = try await index.search(keywordQuery("aardvark"))
        let records = fixture.logger.records
        #expect(
            records.map(\.operation).filter { ["open", "upsert", "delete", "search.keyword"].contains($0) } == [
                "open", "upsert", "delete", "search.keyword",
            ])
        let upsert = try #require(records.first { $0.operation == "upsert" })
        #expect(upsert.itemCount == 2 && upsert.outcome == "ok")
        for r in records {
            #expect(!"\(r)".contains("aardvark") && !"\(r)".contains("confidential"))
        }
    }

    @Test("Statistics count items, domains and terms")
    func statistics() async throws {
        let fixture = try IndexFixture(.disk)
        let index = try fixture.open()
        try await index.upsert([
            noteItem("a", "one two", domain: "x"), noteItem("b", "two three", domain: "y"), noteItem("c", "three", domain: "y"),
        ])
        let stats = try await index.statistics()
        #expect(stats.items == 3)
        #expect(stats.domains == ["x": 1, "y": 2])
        #expect(stats.terms == 3 && stats.postings == 5)
        #expect(stats.vectors == 0 && stats.model == nil)
        #expect(stats.storeBytes > 0 && stats.storePath == fixture.storeFile.path)
    }
}
