import Foundation
import Testing

@testable import Sift

@Suite("Store generation: every committed mutation bumps it, in the same transaction")
struct StoreGenerationTests {
    @Test("A new store starts at generation 0; each committed mutation list adds one and changes the tag")
    func bumpsPerCommit() throws {
        let dir = try TemporaryDirectory("sift-generation")
        let store = try Store(directory: dir.url)
        let start = try #require(try store.generation())
        #expect(start.counter == 0)
        let first = try store.apply([.upsert(StoredItem(item: SearchableItem(id: "a", title: "one"), vector: nil))])
        #expect(first.previous == start)
        #expect(first.current.counter == 1 && first.current.tag != start.tag)
        let second = try store.apply([], meta: ["client_state": "s"])
        #expect(second.previous == first.current && second.current.counter == 2)
        #expect(try store.generation() == second.current)
        // Another connection sees the committed generation.
        #expect(try Store(directory: dir.url).generation() == second.current)
    }

    @Test("A transaction that fails part-way leaves the generation as it was")
    func rollbackKeepsGeneration() throws {
        let dir = try TemporaryDirectory("sift-generation")
        let store = try Store(directory: dir.url, codec: RefusingCodec())
        try store.apply([.upsert(StoredItem(item: SearchableItem(id: "keep", title: "fine"), vector: nil))])
        let before = try store.generation()
        #expect(throws: RefusingCodec.Refused.self) {
            try store.apply([.delete(["keep"]), .upsert(StoredItem(item: SearchableItem(id: "b", title: "refuse"), vector: nil))])
        }
        #expect(try store.generation() == before)
    }

    @Test("Every index mutation bumps the generation: upsert, delete, domains, all, donations, batches, purges")
    func indexMutationsBump() async throws {
        let fixture = try IndexFixture(.disk)
        let index = try fixture.open()
        var seen: [UInt64] = [try #require(try fixture.openStore().generation()).counter]
        func step(_ body: () async throws -> Void) async throws {
            try await body()
            seen.append(try #require(try fixture.openStore().generation()).counter)
        }
        try await step { try await index.upsert([noteItem("a", "alpha"), noteItem("b", "beta", domain: "d")]) }
        try await step { try await index.donate(intent: "open", itemIDs: ["a"]) }
        try await step { try await index.delete(ids: ["a"]) }
        try await step { try await index.delete(domains: ["d"]) }
        try await step {
            try await index.beginBatch()
            try await index.upsert([noteItem("c", "gamma", expires: fixture.clock.now.addingTimeInterval(10))])
            try await index.endBatch(clientState: "s1")
        }
        fixture.clock.advance(by: 20)
        try await step { try await index.purgeExpired() }
        try await step { try await index.deleteAll() }
        #expect(seen == Array(seen[0]...(seen[0] + 7)), "\(seen)")
        // Nothing to store: no transaction, no bump.
        let before = try fixture.openStore().generation()
        try await index.upsert([])
        try await index.delete(ids: [])
        try await index.purgeExpired()
        #expect(try fixture.openStore().generation() == before)
    }

    @Test("A schema 1 store is migrated to the current schema — a generation, a rowid items table — its items intact")
    func migratesVersion1() async throws {
        let dir = try TemporaryDirectory("sift-generation")
        try Self.makeVersion1Store(at: dir.url, items: ["x", "y", "z"])
        do {
            let store = try Store(directory: dir.url)
            #expect(try store.generation()?.counter == 0)
            var version: Int64 = 0
            var withoutRowid = -1
            try store.database.query("PRAGMA user_version") { version = $0.int(0) }
            try store.database.query("SELECT count(*) FROM sqlite_schema WHERE name = 'items' AND sql LIKE '%WITHOUT ROWID%'") {
                withoutRowid = Int($0.int(0))
            }
            #expect(version == Store.schemaVersion && withoutRowid == 0)
            var ids: [ItemID] = []
            try store.forEachItem { ids.append($0.item.id) }
            #expect(ids == ["x", "y", "z"])
            #expect(try store.integrityCheck() == "ok")
            try store.apply([.upsert(StoredItem(item: SearchableItem(id: "x", domain: "d", title: "again"), vector: nil))])
            try store.apply([.deleteDomains(["d"])])
            #expect(try store.itemCount() == 0)
        }
        let index = try SearchIndex(configuration: .init(directory: dir.url))
        #expect(await index.allItems().isEmpty)
        try await index.checkInvariants()
    }

    @Test("A schema 1 store still opens read-only, without a generation, so no snapshot is trusted")
    func version1ReadOnly() async throws {
        let dir = try TemporaryDirectory("sift-generation")
        try Self.makeVersion1Store(at: dir.url, items: ["x"])
        let store = try Store(directory: dir.url, readOnly: true)
        #expect(try store.generation() == nil)
        let index = try SearchIndex(configuration: .init(directory: dir.url, readOnly: true))
        #expect(await index.item("x") != nil)
    }

    /// A store as schema 1 made it: a `WITHOUT ROWID` items table, no generation.
    /// `stored` as a record of version 1, as schema 1 and 2 wrote it: no checksum.
    static func version1Record(_ stored: StoredItem) -> [UInt8] {
        var bytes = Array(stored.encoded().dropLast(RecordChecksum.size))
        bytes[0] = 1
        return bytes
    }

    static func makeVersion1Store(at url: URL, items: [ItemID]) throws {
        let db = try SQLiteDatabase(path: url.appendingPathComponent(Store.fileName).path)
        try db.execute(
            """
            PRAGMA journal_mode=WAL;
            CREATE TABLE settings(name TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE meta(key BLOB PRIMARY KEY, value BLOB NOT NULL);
            CREATE TABLE items(key BLOB PRIMARY KEY, domain_key BLOB NOT NULL, payload BLOB NOT NULL) WITHOUT ROWID;
            CREATE INDEX items_domain ON items(domain_key);
            CREATE TABLE donations(seq INTEGER PRIMARY KEY AUTOINCREMENT, item_key BLOB NOT NULL, payload BLOB NOT NULL);
            CREATE INDEX donations_item ON donations(item_key);
            PRAGMA user_version = 1;
            """)
        try db.query("INSERT INTO settings(name, value) VALUES('codec', 'plain')")
        try db.query("INSERT INTO settings(name, value) VALUES('key_check', ?)", [.text(Store.hex(Store.keyCheck))])
        for id in items.reversed() {
            let stored = StoredItem(item: SearchableItem(id: id, domain: "d", title: "t \(id)"), vector: [1, 0])
            try db.query(
                "INSERT INTO items(key, domain_key, payload) VALUES(?, ?, ?)",
                [.blob(Array(id.rawValue.utf8)), .blob(Array("domain:d".utf8)), .blob(Self.version1Record(stored))])
        }
    }
}

/// Refuses to seal a record containing "refuse": a transaction that fails half-way.
private struct RefusingCodec: RecordCodec {
    struct Refused: Error {}
    var scheme: String { "test-refusing" }
    func lookupKey(_ name: String) -> [UInt8] { Array(name.utf8) }
    func seal(_ plaintext: [UInt8], context: [UInt8]) throws -> [UInt8] {
        if String(decoding: plaintext, as: UTF8.self).contains("refuse") { throw Refused() }
        return plaintext
    }
    func open(_ sealed: [UInt8], context: [UInt8]) throws -> [UInt8] { sealed }
}
