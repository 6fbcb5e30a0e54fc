import Foundation
import Testing

@testable import Sift

@Suite("Expiry: expired items are never returned and are purged")
struct ExpiryTests {
    @Test("An item is returned before its expiry and never at or after it", arguments: IndexLocation.allCases)
    func neverReturnedOnceExpired(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        let start = fixture.clock.now
        try await index.upsert([
            noteItem("soon", "coupon", expires: start.addingTimeInterval(60)),
            noteItem("later", "coupon", expires: start.addingTimeInterval(3600)),
            noteItem("never", "coupon"),
        ])
        #expect(try await index.keywordIDs("coupon") == ["later", "never", "soon"])
        #expect(try await index.keywordIDs("coupon", now: start.addingTimeInterval(60)) == ["later", "never"])
        fixture.clock.advance(by: 7200)
        #expect(try await index.keywordIDs("coupon") == ["never"])
        // Listing without search text hides them too.
        let listed = try await index.search(SearchQuery("", limit: 100, mode: .keyword, understandsPhrases: false)).results
        #expect(listed.map(\.id) == ["never"])
    }

    @Test("Purging deletes expired items from the store and both halves", arguments: IndexLocation.allCases)
    func purge(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location, embedder: FakeEmbedder())
        let index = try fixture.open()
        let start = fixture.clock.now
        try await index.upsert([
            noteItem("a", "voucher", expires: start.addingTimeInterval(10)),
            noteItem("b", "voucher", expires: start.addingTimeInterval(20)),
            noteItem("c", "voucher"),
        ])
        #expect(try await index.purgeExpired(now: start.addingTimeInterval(10)) == 1)
        #expect(await index.allItems().map(\.id) == ["b", "c"])
        fixture.clock.advance(by: 30)
        #expect(try await index.purgeExpired() == 1)
        #expect(await index.allItems().map(\.id) == ["c"])
        #expect(try await index.statistics().vectors == 1)
        try await index.checkInvariants()
        if location == .disk {
            #expect(try fixture.storedIDs() == ["c"])
            #expect(try await fixture.open().allItems().map(\.id) == ["c"])
        }
    }

    @Test("An item that has already expired is not stored, and replaces (deletes) an older version", arguments: IndexLocation.allCases)
    func alreadyExpired(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        let past = fixture.clock.now.addingTimeInterval(-1)
        let summary = try await index.upsert([noteItem("gone", "stale", expires: past), noteItem("kept", "fresh")])
        #expect(summary.expired == 1 && summary.indexed == 1)
        #expect(await index.item("gone") == nil)
        #expect(try await index.keywordIDs("stale").isEmpty)

        try await index.upsert([noteItem("kept", "fresh", expires: past)])
        #expect(await index.item("kept") == nil)
        #expect(await index.allItems().isEmpty)
        try await index.checkInvariants()
        if location == .disk { #expect(try fixture.storedIDs().isEmpty) }
    }
}
