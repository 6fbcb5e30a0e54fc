import Foundation
import Testing

@testable import Sift

/// Whether `token` occurs anywhere in the bytes of `files`.
private func contains(_ files: [(name: String, bytes: Data)], _ token: String) -> Bool {
    let needle = Data(token.utf8)
    return files.contains { $0.bytes.range(of: needle) != nil }
}

@Suite("Privacy: private and hidden items never reach the store or an index")
struct PrivacyTests {
    @Test("Private and hidden items are refused; not a byte of them reaches the store", arguments: IndexLocation.allCases)
    func neverStored(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location, embedder: FakeEmbedder())
        let index = try fixture.open()
        let summary = try await index.upsert([
            noteItem("public", "ordinary gardening notes"),
            SearchableItem(id: "secret-id-1", title: "xylophonic diary", content: "qwertyprivate", isPrivate: true),
            SearchableItem(id: "secret-id-2", title: "zeppelinhidden", isHidden: true),
        ])
        #expect(summary.indexed == 1 && summary.refusedPrivate == 2 && summary.deletedBecausePrivate == 0)
        #expect(await index.allItems().map(\.id) == ["public"])
        let stats = try await index.statistics()
        #expect(stats.items == 1 && stats.vectors == 1)
        for word in ["xylophonic", "qwertyprivate", "zeppelinhidden"] {
            #expect(try await index.keywordIDs(word).isEmpty)
            #expect(
                try await index.search(SearchQuery(word, mode: .hybrid, understandsPhrases: false)).results.allSatisfy { $0.id == "public" }
            )
        }
        try await index.checkInvariants()
        guard location == .disk else { return }
        #expect(try fixture.storedIDs() == ["public"])
        let files = try fixture.temporary.allFileContents()
        #expect(contains(files, "gardening"), "the check must see the public item's text")
        for token in ["xylophonic", "qwertyprivate", "zeppelinhidden", "secret-id-1", "secret-id-2"] {
            #expect(!contains(files, token), "\(token) found at rest")
        }
        #expect(try await fixture.open().allItems().map(\.id) == ["public"])
    }

    @Test("Marking an indexed item private or hidden deletes it from the store and both halves", arguments: IndexLocation.allCases)
    func turningPrivateDeletes(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location, embedder: FakeEmbedder())
        let index = try fixture.open()
        try await index.upsert([noteItem("day1", "sober day walk"), noteItem("day2", "sober day run"), noteItem("day3", "sober day swim")])
        try await index.donate(intent: "open", itemIDs: ["day1", "day2"])
        var privateDay = noteItem("day1", "sober day walk")
        privateDay.isPrivate = true
        var hiddenDay = noteItem("day2", "sober day run")
        hiddenDay.isHidden = true
        let summary = try await index.upsert([privateDay, hiddenDay])
        #expect(summary.refusedPrivate == 2 && summary.deletedBecausePrivate == 2 && summary.indexed == 0)
        #expect(try await index.keywordIDs("sober") == ["day3"])
        #expect(await index.item("day1") == nil)
        #expect(await index.item("day2") == nil)
        #expect(await index.donations(for: "day1").isEmpty)
        #expect(await index.suggestions().isEmpty)
        let stats = try await index.statistics()
        #expect(stats.items == 1 && stats.vectors == 1 && stats.donations == 0)
        try await index.checkInvariants()
        if location == .disk {
            #expect(try fixture.storedIDs() == ["day3"])
            let reopened = try fixture.open()
            #expect(await reopened.allItems().map(\.id) == ["day3"])
            #expect(try await reopened.statistics().donations == 0)
        }
    }

    @Test("An item made private inside a batch is not stored when the batch commits")
    func privateInsideBatch() async throws {
        let fixture = try IndexFixture(.disk)
        let index = try fixture.open()
        try await index.beginBatch()
        try await index.upsert([noteItem("x", "grebe")])
        var hidden = noteItem("x", "grebe")
        hidden.isPrivate = true
        try await index.upsert([hidden])
        try await index.endBatch(clientState: "b1")
        #expect(await index.allItems().isEmpty)
        #expect(try fixture.storedIDs().isEmpty)
        try await index.checkInvariants()
    }

    @Test("Within one call the last version of an id wins, private or not", arguments: IndexLocation.allCases)
    func lastVersionWins(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        try await index.upsert([noteItem("a", "first"), noteItem("b", "first")])
        var privateA = noteItem("a", "secret")
        privateA.isPrivate = true
        var privateB = noteItem("b", "secret")
        privateB.isPrivate = true
        // a: public then private → gone; b: private then public → kept with the new text.
        try await index.upsert([noteItem("a", "second"), privateA, privateB, noteItem("b", "third")])
        #expect(await index.allItems().map(\.id) == ["b"])
        #expect(await index.item("b")?.title == "third")
        try await index.checkInvariants()
        if location == .disk { #expect(try fixture.storedIDs() == ["b"]) }
    }

    @Test("Donations to items that are not indexed are dropped")
    func donationsNeedAnIndexedItem() async throws {
        let index = try IndexFixture(.memory).open()
        try await index.upsert([noteItem("a", "x"), SearchableItem(id: "p", title: "y", isPrivate: true)])
        #expect(try await index.donate(intent: "open", itemIDs: ["a", "p", "unknown"]) == 1)
        #expect(await index.donations(for: "p").isEmpty)
    }
}
