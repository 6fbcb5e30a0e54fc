import Foundation
import Testing

@testable import Sift

@Suite("Batches with client state: all or nothing")
struct BatchTests {
    @Test("A batch is invisible until it ends, then commits with its client state", arguments: IndexLocation.allCases)
    func commitsAtEnd(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        #expect(try await index.lastClientState() == nil)
        try await index.beginBatch()
        try await index.upsert([noteItem("a", "heron"), noteItem("b", "heron")])
        try await index.delete(ids: ["b"])
        #expect(try await index.keywordIDs("heron").isEmpty)
        if location == .disk { #expect(try fixture.storedIDs().isEmpty) }
        try await index.endBatch(clientState: "file#2")
        #expect(try await index.keywordIDs("heron") == ["a"])
        #expect(try await index.lastClientState() == "file#2")
        try await index.checkInvariants()
        if location == .disk { #expect(try fixture.storedIDs() == ["a"]) }
    }

    @Test("Cancelling a batch commits nothing", arguments: IndexLocation.allCases)
    func cancelRollsBack(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        try await index.upsert([noteItem("keep", "ibis")])
        try await index.beginBatch()
        try await index.upsert([noteItem("new", "ibis")])
        try await index.delete(ids: ["keep"])
        try await index.deleteAll()
        await index.cancelBatch()
        #expect(try await index.keywordIDs("ibis") == ["keep"])
        #expect(try await index.lastClientState() == nil)
        try await index.checkInvariants()
        if location == .disk { #expect(try fixture.storedIDs() == ["keep"]) }
        // The index takes a new batch afterwards.
        try await index.beginBatch()
        try await index.upsert([noteItem("new", "ibis")])
        try await index.endBatch(clientState: "second")
        #expect(try await index.keywordIDs("ibis") == ["keep", "new"])
    }

    @Test("A client-state mismatch fails, commits nothing and closes the batch", arguments: IndexLocation.allCases)
    func clientStateMismatch(location: IndexLocation) async throws {
        let fixture = try IndexFixture(location)
        let index = try fixture.open()
        try await index.beginBatch()
        try await index.upsert([noteItem("a", "kestrel")])
        try await index.endBatch(clientState: "v1", expectedClientState: nil)

        try await index.beginBatch()
        try await index.upsert([noteItem("b", "kestrel")])
        try await index.delete(ids: ["a"])
        await #expect(throws: IndexError.clientStateMismatch(expected: "v0", found: "v1")) {
            try await index.endBatch(clientState: "v2", expectedClientState: "v0")
        }
        #expect(try await index.keywordIDs("kestrel") == ["a"])
        #expect(try await index.lastClientState() == "v1")
        if location == .disk { #expect(try fixture.storedIDs() == ["a"]) }
        try await index.checkInvariants()
        await #expect(throws: IndexError.noBatchOpen) { try await index.endBatch(clientState: "v2") }

        // With the right expectation it commits.
        try await index.beginBatch()
        try await index.upsert([noteItem("b", "kestrel")])
        try await index.endBatch(clientState: "v2", expectedClientState: "v1")
        #expect(try await index.keywordIDs("kestrel") == ["a", "b"])
        #expect(try await index.lastClientState() == "v2")
    }

    @Test("Expecting a client state from an index that has none fails")
    func expectingStateOnFreshIndex() async throws {
        let index = try IndexFixture(.memory).open()
        try await index.beginBatch()
        try await index.upsert([noteItem("a", "x")])
        await #expect(throws: IndexError.clientStateMismatch(expected: "v1", found: nil)) {
            try await index.endBatch(clientState: "v2", expectedClientState: "v1")
        }
        #expect(await index.allItems().isEmpty)
    }

    @Test("Misuse is reported: a second beginBatch, an endBatch without a batch")
    func misuse() async throws {
        let index = try IndexFixture(.memory).open()
        await #expect(throws: IndexError.noBatchOpen) { try await index.endBatch(clientState: "x") }
        try await index.beginBatch()
        await #expect(throws: IndexError.batchAlreadyOpen) { try await index.beginBatch() }
        try await index.endBatch(clientState: "x")
        #expect(try await index.lastClientState() == "x")
    }

    @Test("An empty batch records its client state")
    func emptyBatch() async throws {
        let index = try IndexFixture(.memory).open()
        try await index.beginBatch()
        try await index.endBatch(clientState: "nothing-new")
        #expect(try await index.lastClientState() == "nothing-new")
    }

    @Test("Operations in a batch apply in order: delete all, then add")
    func orderInsideBatch() async throws {
        let fixture = try IndexFixture(.disk)
        let index = try fixture.open()
        try await index.upsert([noteItem("old", "plover", domain: "a"), noteItem("other", "plover", domain: "b")])
        try await index.beginBatch()
        try await index.deleteAll()
        try await index.upsert([noteItem("fresh", "plover", domain: "a")])
        try await index.delete(domains: ["b"])
        try await index.upsert([noteItem("late-b", "plover", domain: "b")])
        try await index.endBatch(clientState: "s")
        #expect(try await index.keywordIDs("plover") == ["fresh", "late-b"])
        #expect(try fixture.storedIDs() == ["fresh", "late-b"])
        try await index.checkInvariants()
    }

    @Test("The last client state and committed batches survive reopening; an open batch does not")
    func persistence() async throws {
        let fixture = try IndexFixture(.disk)
        do {
            let index = try fixture.open()
            try await index.beginBatch()
            try await index.upsert([noteItem("a", "osprey")])
            try await index.endBatch(clientState: "file.jsonl#1")
            try await index.beginBatch()
            try await index.upsert([noteItem("b", "osprey")])
            // Dropped with the batch still open.
        }
        let index = try fixture.open()
        #expect(try await index.lastClientState() == "file.jsonl#1")
        #expect(try await index.keywordIDs("osprey") == ["a"])
        try await index.checkInvariants()
    }
}
