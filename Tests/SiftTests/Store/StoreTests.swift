import Foundation
import Testing

@testable import Sift

/// A codec that refuses to seal any record containing the word "poison": a write that fails
/// half-way through a transaction, on demand.
private struct PoisonCodec: RecordCodec {
    var scheme: String { "test-poison" }
    func lookupKey(_ name: String) -> [UInt8] { Array(name.utf8) }
    func seal(_ plaintext: [UInt8], context: [UInt8]) throws -> [UInt8] {
        if plaintext.count >= 6, (0...(plaintext.count - 6)).contains(where: { Array(plaintext[$0..<($0 + 6)]) == Array("poison".utf8) }) {
            throw PoisonError()
        }
        return plaintext
    }
    func open(_ sealed: [UInt8], context: [UInt8]) throws -> [UInt8] { sealed }
}

private struct PoisonError: Error {}

@Suite("SQLite store: settings, schema, transactions")
struct StoreTests {
    @Test("The store runs in WAL mode with full synchronous writes and the current schema version")
    func pragmas() throws {
        let dir = try TemporaryDirectory("sift-store")
        let store = try Store(directory: dir.url)
        var mode = ""
        var synchronous: Int64 = -1
        var version: Int64 = -1
        try store.database.query("PRAGMA journal_mode") { mode = $0.text(0) }
        try store.database.query("PRAGMA synchronous") { synchronous = $0.int(0) }
        try store.database.query("PRAGMA user_version") { version = $0.int(0) }
        #expect(mode == "wal")
        #expect(synchronous >= 1)  // NORMAL (1) or stronger
        #expect(version == Store.schemaVersion)
        #expect(try store.integrityCheck() == "ok")
        #expect(FileManager.default.fileExists(atPath: dir.path(Store.fileName).path))
    }

    @Test("A store written by a newer Sift is refused with an error naming the file")
    func newerSchemaRefused() throws {
        let dir = try TemporaryDirectory("sift-store")
        do {
            let store = try Store(directory: dir.url)
            try store.database.execute("PRAGMA user_version = 99")
        }
        do {
            _ = try Store(directory: dir.url)
            Issue.record("opening a newer store should fail")
        } catch {
            #expect(error.path.hasSuffix(Store.fileName))
            #expect(error.message.contains("99"))
            #expect(error.description.contains(dir.url.lastPathComponent))
        }
    }

    @Test("Items, meta entries and donations round-trip; deleting an item deletes its donations")
    func roundTrip() throws {
        let dir = try TemporaryDirectory("sift-store")
        let when = Date(timeIntervalSince1970: 1_795_996_800)
        let item = SearchableItem(
            id: "r1", domain: "recipe", title: "Pancakes", content: "flour", keywords: ["a", "b"], date: when,
            expires: when.addingTimeInterval(60), url: "https://example.app/r1", rankingHint: 70, displayName: "Recipes")
        do {
            let store = try Store(directory: dir.url)
            try store.apply(
                [
                    .upsert(StoredItem(item: item, vector: [0.5, -0.25])), .upsert(StoredItem(item: SearchableItem(id: "r2"), vector: nil)),
                    .donate([Donation(intent: "open", itemID: "r1", surface: "search", date: when)]),
                ],
                meta: ["client_state": "s1"])
        }
        let store = try Store(directory: dir.url)
        var stored: [StoredItem] = []
        try store.forEachItem { stored.append($0) }
        #expect(stored.map(\.item) == [item, SearchableItem(id: "r2")])
        #expect(stored[0].vector == [0.5, -0.25] && stored[1].vector == nil)
        #expect(try store.meta("client_state") == "s1")
        #expect(try store.meta("absent") == nil)
        #expect(try store.donations() == [Donation(intent: "open", itemID: "r1", surface: "search", date: when)])
        try store.apply([.delete(["r1"])])
        #expect(try store.donations().isEmpty)
        #expect(try store.itemCount() == 1)
    }

    @Test("A mutation list that fails part-way commits nothing")
    func transactionIsAllOrNothing() throws {
        let dir = try TemporaryDirectory("sift-store")
        let store = try Store(directory: dir.url, codec: PoisonCodec())
        try store.apply([.upsert(StoredItem(item: SearchableItem(id: "keep", title: "fine"), vector: nil))], meta: ["client_state": "v1"])
        #expect(throws: PoisonError.self) {
            try store.apply(
                [
                    .delete(["keep"]), .upsert(StoredItem(item: SearchableItem(id: "a", title: "fine"), vector: nil)),
                    .upsert(StoredItem(item: SearchableItem(id: "b", title: "poison"), vector: nil)),
                ],
                meta: ["client_state": "v2"])
        }
        var ids: [ItemID] = []
        try store.forEachItem { ids.append($0.item.id) }
        #expect(ids == ["keep"])
        #expect(try store.meta("client_state") == "v1")
    }

    @Test("A failed write leaves the index, in memory and on disk, as it was")
    func failedWriteChangesNothing() async throws {
        let dir = try TemporaryDirectory("sift-store")
        let configuration = SearchIndex.Configuration(directory: dir.url, embedder: FakeEmbedder(), codec: PoisonCodec())
        let index = try SearchIndex(configuration: configuration)
        try await index.upsert([noteItem("a", "harmless heron")])
        await #expect(throws: PoisonError.self) {
            try await index.upsert([noteItem("a", "replaced"), noteItem("b", "poison heron")])
        }
        #expect(await index.allItems().map(\.title) == ["harmless heron"])
        #expect(try await index.keywordIDs("heron") == ["a"])
        #expect(try await index.keywordIDs("replaced").isEmpty)
        try await index.checkInvariants()

        // The same inside a batch: the batch fails as a whole and its client state is not recorded.
        try await index.beginBatch()
        try await index.upsert([noteItem("c", "crane")])
        try await index.upsert([noteItem("d", "poison crane")])
        await #expect(throws: PoisonError.self) { try await index.endBatch(clientState: "never") }
        #expect(try await index.lastClientState() == nil)
        #expect(try await index.keywordIDs("crane").isEmpty)
        try await index.checkInvariants()
        #expect(try await SearchIndex(configuration: configuration).allItems().map(\.id) == ["a"])
    }

    @Test("A large upsert that fails part-way leaves the index, in memory and on disk, as it was")
    func failedLargeWriteChangesNothing() async throws {
        let dir = try TemporaryDirectory("sift-store")
        let configuration = SearchIndex.Configuration(directory: dir.url, embedder: FakeEmbedder(), codec: PoisonCodec())
        let index = try SearchIndex(configuration: configuration)
        let first = (0..<100).map { noteItem("n\($0)", "heron number \($0)") }
        try await index.upsert(first)
        var second = (50..<300).map { noteItem("n\($0)", "crane number \($0)") }
        second[180].content = "poison"
        await #expect(throws: PoisonError.self) { try await index.upsert(second) }
        #expect(await index.allItems().map(\.title).sorted() == first.map(\.title).sorted())
        #expect(try await index.keywordIDs("crane").isEmpty)
        #expect(try await index.keywordIDs("heron").count == 100)
        try await index.checkInvariants()
        second[180].content = "harmless"
        try await index.upsert(second)
        #expect(try await index.keywordIDs("heron").count == 50)
        #expect(try await index.keywordIDs("crane").count == 250)
        try await index.checkInvariants()
        #expect(try await SearchIndex(configuration: configuration).allItems().count == 300)
    }

    @Test("A store created with one codec is refused with another")
    func codecMismatch() throws {
        let dir = try TemporaryDirectory("sift-store")
        _ = try Store(directory: dir.url, codec: PoisonCodec())
        #expect(throws: StoreError.self) { _ = try Store(directory: dir.url) }
    }

    @Test("An in-memory store starts empty each time")
    func inMemory() throws {
        let a = try Store(directory: nil)
        try a.apply([.upsert(StoredItem(item: SearchableItem(id: "x"), vector: nil))])
        #expect(try a.itemCount() == 1)
        #expect(try Store(directory: nil).itemCount() == 0)
    }
}
