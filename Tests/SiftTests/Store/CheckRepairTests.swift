import Foundation
import Testing

@testable import Sift

/// An index on disk made once per test: items (two domains, some with long contents that span
/// SQLite overflow pages), donations, a current snapshot; then closed, so that its bytes are
/// the files alone (no WAL).
private struct DamageFixture {
    let temporary: TemporaryDirectory
    let items: [ItemID: SearchableItem]
    let donations: [ItemID: Int]
    let codec: any RecordCodec

    var base: URL { temporary.url.appendingPathComponent("base", isDirectory: true) }

    init(count: Int = 60, codec: any RecordCodec = PlainCodec()) async throws {
        temporary = try TemporaryDirectory("sift-check")
        self.codec = codec
        var rng = SeededGenerator(seed: 2112)
        var made: [ItemID: SearchableItem] = [:]
        let words = ["tea", "ledger", "river", "lantern", "orchard", "copper", "violet", "harbor", "quartz", "meadow", "falcon", "saffron"]
        for n in 0..<count {
            let length = n % 7 == 0 ? 900 : 12
            let content = (0..<length).map { _ in words[Int(rng.next() % UInt64(words.count))] }.joined(separator: " ")
            var item = noteItem(
                "item-\(n)", "Entry \(n) \(words[n % words.count])", content: content, domain: n % 3 == 0 ? "journal" : "note")
            item.rankingHint = n % 5 == 0 ? n : nil
            made[item.id] = item
        }
        items = made
        let base = temporary.url.appendingPathComponent("base", isDirectory: true)
        let index = try SearchIndex(configuration: Self.configuration(base, codec: codec))
        _ = try await index.upsert(made.values.sorted { $0.id < $1.id })
        var donated: [ItemID: Int] = [:]
        for n in stride(from: 0, to: count, by: 4) {
            let id = ItemID("item-\(n)")
            _ = try await index.donate(intent: "Open", itemIDs: [id], at: Date(timeIntervalSince1970: 1_790_000_000 + Double(n)))
            donated[id, default: 0] += 1
        }
        donations = donated
        _ = await index.saveSnapshot()
    }

    static func configuration(_ directory: URL, codec: any RecordCodec = PlainCodec(), logger: any SiftLogger = NullLogger())
        -> SearchIndex.Configuration
    {
        .init(directory: directory, embedder: FakeEmbedder(), logger: logger, codec: codec)
    }

    /// A fresh copy of the base index's files in a directory of its own.
    func copy(_ name: String) throws -> URL {
        let target = temporary.url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        for file in try FileManager.default.contentsOfDirectory(atPath: base.path) {
            try FileManager.default.copyItem(at: base.appendingPathComponent(file), to: target.appendingPathComponent(file))
        }
        return target
    }

    /// What the store in `directory` holds, read through a plain open (nil when it cannot be
    /// read whole).
    func stored(in directory: URL) -> (items: [ItemID: SearchableItem], donations: [ItemID: Int])? {
        guard let store = try? Store(directory: directory, codec: codec) else { return nil }
        var found: [ItemID: SearchableItem] = [:]
        guard (try? store.forEachItem { found[$0.item.id] = $0.item }) != nil, let list = try? store.donations() else { return nil }
        var counts: [ItemID: Int] = [:]
        for d in list { counts[d.itemID, default: 0] += 1 }
        return (found, counts)
    }
}

/// Damage done to one file: a few bytes flipped, a run overwritten, or the file cut short.
private enum Damage: CustomStringConvertible {
    case flip(offsets: [Int], masks: [UInt8])
    case overwrite(offset: Int, bytes: [UInt8])
    case truncate(to: Int)

    static func random(fileSize: Int, using rng: inout SeededGenerator) -> Damage {
        switch rng.next() % 10 {
        case 0..<6:
            let n = 1 + Int(rng.next() % 4)
            return .flip(
                offsets: (0..<n).map { _ in Int(rng.next() % UInt64(fileSize)) }, masks: (0..<n).map { _ in UInt8(1 + rng.next() % 255) })
        case 6..<9:
            let length = 1 + Int(rng.next() % 64)
            return .overwrite(
                offset: Int(rng.next() % UInt64(fileSize)), bytes: (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        default:
            return .truncate(to: Int(rng.next() % UInt64(fileSize)))
        }
    }

    /// Applies the damage; false when it left the file's bytes as they were.
    func apply(to url: URL) throws -> Bool {
        var bytes = [UInt8](try Data(contentsOf: url))
        let before = bytes
        switch self {
        case .flip(let offsets, let masks):
            for (o, m) in zip(offsets, masks) { bytes[o] ^= m }
        case .overwrite(let offset, let run):
            for (i, b) in run.enumerated() where offset + i < bytes.count { bytes[offset + i] = b }
        case .truncate(let size):
            bytes.removeLast(bytes.count - size)
        }
        try Data(bytes).write(to: url)
        return bytes != before
    }

    var description: String {
        switch self {
        case .flip(let offsets, _): "flip at \(offsets)"
        case .overwrite(let offset, let run): "overwrite \(run.count) bytes at \(offset)"
        case .truncate(let size): "truncate to \(size)"
        }
    }
}

@Suite("sift check and repair: what is whole, what is not, and recovery that keeps every readable item", .serialized)
struct CheckRepairTests {
    /// Damage trials (README, Guarantees); `SIFT_DAMAGE_TRIALS` raises the count.
    static let trials = ProcessInfo.processInfo.environment["SIFT_DAMAGE_TRIALS"].flatMap(Int.init) ?? 240

    @Test("A fresh index is whole: every part, every item, with a current snapshot; the open index agrees")
    func freshIsWhole() async throws {
        let fixture = try await DamageFixture(count: 20)
        let report = SearchIndex.check(configuration: DamageFixture.configuration(fixture.base))
        #expect(report.isWhole, "\(report.parts.filter { !$0.isWhole })")
        #expect(report.readableItems == 20)
        #expect(
            report.parts.map(\.name) == ["database", "settings", "items", "donations", "meta", "identifiers", "snapshot", "permissions"])
        #expect(report.part("snapshot")?.summary.hasPrefix("current") == true)
        #expect(report.part("donations")?.summary == "5 donations read and verified")
        let index = try SearchIndex(configuration: DamageFixture.configuration(fixture.base))
        let live = await index.check()
        #expect(live.isWhole, "\(live.parts.filter { !$0.isWhole })")
    }

    @Test("A flipped byte inside one item's record is found by its checksum: that item, by id, and nothing else; repair drops it alone")
    func oneDamagedRecord() async throws {
        let fixture = try await DamageFixture(count: 30)
        let directory = try fixture.copy("one")
        // Find the record's bytes in the file: a plain store keeps the item's title as it is.
        let file = directory.appendingPathComponent(Store.fileName)
        var bytes = [UInt8](try Data(contentsOf: file))
        let needle = Array("Entry 17 copper".utf8)
        let at = try #require((0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle })
        bytes[at + 6] ^= 0x01  // "Entry 07…": still valid UTF-8, a plausible title; only the checksum can tell
        try Data(bytes).write(to: file)

        let report = SearchIndex.check(configuration: DamageFixture.configuration(directory))
        #expect(!report.isWhole)
        #expect(report.unreadableItemIDs == ["item-17"])
        #expect(report.part("items")?.isWhole == false)
        #expect(report.part("database")?.isWhole == true)  // SQLite itself sees nothing wrong
        #expect(report.part("items")?.details.first?.contains("item-17") == true)
        #expect(report.part("items")?.details.first?.contains("checksum mismatch") == true)

        let logger = MemoryLogger()
        let repaired = try await SearchIndex.repair(configuration: DamageFixture.configuration(directory, logger: logger))
        #expect(repaired.idsToReindex == ["item-17"])
        // The log says what happened, never which item or any of its text.
        #expect(logger.records.map(\.operation) == ["check", "open", "snapshot", "check", "repair"])
        for record in logger.records {
            #expect(!"\(record)".contains("item-") && !"\(record)".contains("Entry"), "\(record)")
        }
        #expect(!repaired.rebuiltDatabase)
        #expect(repaired.after.isWhole, "\(repaired.after.parts.filter { !$0.isWhole })")
        let after = try #require(fixture.stored(in: directory))
        var expected = fixture.items
        expected["item-17"] = nil
        #expect(after.items == expected)
        #expect(after.donations == fixture.donations)

        // The host re-indexes the listed id, and the index is whole and complete again.
        let index = try SearchIndex(configuration: DamageFixture.configuration(directory))
        _ = try await index.upsert([fixture.items["item-17"]!])
        #expect(await index.check().isWhole)
        #expect(try await index.keywordIDs("Entry 17").first == "item-17")
    }

    @Test("sift check exits 0 on a whole index and 1 naming the damaged item; --repair lists it to index again and exits 0")
    func commandLine() throws {
        let sift = try SiftProcess()
        let file = sift.scratch.path("items.jsonl")
        let lines = (0..<8).map { #"{"id":"n\#($0)","title":"Shopping note number \#($0)","content":"apples pears plums"}"# }
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        #expect(try sift.run(["index", "--store", sift.store, file.path]).status == 0)
        let whole = try sift.run(["check", "--store", sift.store])
        #expect(whole.status == 0, "\(whole.stdout)\(whole.stderr)")
        #expect(whole.stdout.contains("whole") && whole.stdout.contains("8 items read and verified"), "\(whole.stdout)")

        let store = URL(fileURLWithPath: sift.store).appendingPathComponent("default").appendingPathComponent(Store.fileName)
        var bytes = [UInt8](try Data(contentsOf: store))
        let needle = Array("Shopping note number 5".utf8)
        let at = try #require((0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle })
        bytes[at] ^= 0x20  // "shopping…"
        try Data(bytes).write(to: store)

        let damaged = try sift.run(["check", "--store", sift.store])
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("NOT WHOLE") && damaged.stdout.contains("n5 (row"), "\(damaged.stdout)")
        #expect(damaged.stdout.contains("sift check --repair"))
        let json = try sift.run(["check", "--store", sift.store, "--json"]).json()
        #expect(json["whole"] as? Bool == false)
        #expect(json["unreadable_item_ids"] as? [String] == ["n5"])

        let repair = try sift.run(["check", "--store", sift.store, "--repair"])
        #expect(repair.status == 0, "\(repair.stdout)\(repair.stderr)")
        #expect(repair.stdout.contains("index these items again: n5"), "\(repair.stdout)")
        #expect(try sift.run(["check", "--store", sift.store]).status == 0)
        let stats = try sift.run(["stats", "--store", sift.store, "--json"]).json()
        #expect(stats["items"] as? Int == 7)
    }

    @Test("Records written before schema 3 (no checksum) are read and reported as unverified; rewriting an item verifies it")
    func unverifiedOlderRecords() async throws {
        let dir = try TemporaryDirectory("sift-check")
        try StoreGenerationTests.makeVersion1Store(at: dir.url, items: ["x", "y"])
        let report = SearchIndex.check(configuration: .init(directory: dir.url))
        #expect(report.isWhole, "\(report.parts.filter { !$0.isWhole })")
        #expect(report.part("items")?.details == ["2 records were written before schema 3 and carry no checksum: read, not verified"])
        let index = try SearchIndex(configuration: .init(directory: dir.url))
        _ = try await index.upsert([SearchableItem(id: "x", domain: "d", title: "t x")])
        #expect(
            await index.check().part("items")?.details == [
                "1 record was written before schema 3 and carries no checksum: read, not verified"
            ])
    }

    @Test("Record checksums: a version 2 record with any byte changed is refused; a version 1 record is read as it is")
    func recordChecksums() throws {
        var item = SearchableItem(id: "c1", domain: "note", title: "Café ☕", content: "oat latte", keywords: ["coffee"])
        item.rankingHint = 3
        let record = StoredItem(item: item, vector: [0.5, -1]).encoded()
        #expect(record.first == StoredItem.encodingVersion)
        #expect(try StoredItem(decoding: record).item == item)
        for offset in record.indices {
            var bad = record
            bad[offset] ^= 0x08
            #expect(throws: (any Error).self, "a change at byte \(offset) passed") { try StoredItem(decoding: bad) }
        }
        #expect(throws: (any Error).self) { try StoredItem(decoding: Array(record.dropLast())) }
        var old = Array(record.dropLast(RecordChecksum.size))
        old[0] = 1
        #expect(try StoredItem(decoding: old).item == item)
        let donation = Donation(intent: "Open", itemID: "c1", surface: nil, date: Date(timeIntervalSince1970: 1e9)).encoded()
        var badDonation = donation
        badDonation[3] ^= 0x01
        #expect(throws: (any Error).self) { try Donation(decoding: badDonation) }
        #expect(try RecordChecksum.metaText(RecordChecksum.framedMeta(Array("state-1".utf8))) == Array("state-1".utf8))
        #expect(try RecordChecksum.metaText(Array("written before".utf8)) == Array("written before".utf8))
        var meta = RecordChecksum.framedMeta(Array("state-1".utf8))
        meta[2] ^= 0x01
        #expect(throws: (any Error).self) { try RecordChecksum.metaText(meta) }
    }

    @Test("A record with an fp16 vector is version 3, half the vector's bytes, and reads back the fp16 rounding of the vector")
    func halfVectorRecords() throws {
        let item = SearchableItem(id: "h1", domain: "note", title: "Matcha", content: "whisked, not stirred")
        let vector: [Float] = [0.1, -0.3333, 1, 0, 65504, 1e-8, -0.7071]
        let full = StoredItem(item: item, vector: vector).encoded()
        let half = StoredItem(item: item, vector: vector).encoded(halfVector: true)
        #expect(full.first == StoredItem.encodingVersion && half.first == StoredItem.halfVectorEncodingVersion)
        #expect(full.count - half.count == 2 * vector.count)
        var rounded = [Float](repeating: 0, count: vector.count)
        var bits = [UInt16](repeating: 0, count: vector.count)
        LinearAlgebra.toHalf(vector, into: &bits, count: vector.count)
        LinearAlgebra.fromHalf(bits, into: &rounded, count: vector.count)
        let decoded = try StoredItem(decoding: half)
        #expect(decoded.item == item && decoded.vector == rounded && rounded != vector)
        #expect(try StoredItem(decoding: full).vector == vector)
        // Without a vector there is nothing to halve: the record stays version 2.
        #expect(StoredItem(item: item, vector: nil).encoded(halfVector: true).first == StoredItem.encodingVersion)
        for offset in half.indices {
            var bad = half
            bad[offset] ^= 0x08
            #expect(throws: (any Error).self, "a change at byte \(offset) passed") { try StoredItem(decoding: bad) }
        }
        // An fp16 tag in a version 2 record (checksum made right) is refused, not misread.
        var body = Array(half.dropLast(RecordChecksum.size))
        body[0] = StoredItem.encodingVersion
        #expect(throws: (any Error).self) { try StoredItem(decoding: RecordChecksum.appended(to: body)) }
    }

    /// `count` short notes that all match "matcha tea".
    static func teaNotes(_ count: Int) -> [SearchableItem] {
        (0..<count).map { i in
            SearchableItem(id: ItemID("n\(i)"), domain: "note", title: "note \(i)", content: "tea \(i % 7) matcha oolong \(i % 3)")
        }
    }

    /// How many of the store's item records are of each encoding version (their first byte).
    static func recordVersions(_ store: Store) throws -> [UInt8: Int] {
        var versions: [UInt8: Int] = [:]
        try store.database.query("SELECT payload FROM items") { versions[$0.blob(0).first ?? 0, default: 0] += 1 }
        return versions
    }

    @Test("An index of fp16 rows stores fp16 vectors: opened without its snapshot, it ranks as the one that wrote them")
    func halfVectorStore() async throws {
        let directory = try TemporaryDirectory()
        let items = Self.teaNotes(40)
        let configuration = DamageFixture.configuration(directory.url)
        let query = SearchQuery("matcha tea", limit: 10, mode: .hybrid)
        let written: [SearchResult]
        do {
            let index = try SearchIndex(configuration: configuration)
            try await index.upsert(items)
            written = try await index.search(query).results
        }
        IndexSnapshot.remove(in: directory.url)
        let store = try Store(directory: directory.url)
        #expect(try Self.recordVersions(store) == [StoredItem.halfVectorEncodingVersion: items.count])
        try store.forEachItem { #expect($0.vector?.count == FakeEmbedder().dimension) }
        let reopened = try SearchIndex(configuration: configuration)
        #expect(try await reopened.search(query).results == written && !written.isEmpty)
    }

    @Test("A schema-3 store of fp32 vectors opens as schema 4, takes fp16 records beside its own, and reopens ranking the same")
    func olderStoreTakesHalfVectors() async throws {
        let directory = try TemporaryDirectory()
        let items = Self.teaNotes(60)
        // Written as a Sift before schema 4 would: fp32 vectors, user_version 3.
        var older = DamageFixture.configuration(directory.url)
        older.vectorPrecision = .float32
        do {
            let index = try SearchIndex(configuration: older)
            try await index.upsert(Array(items[0..<30]))
        }
        do {
            let store = try Store(directory: directory.url)
            try store.database.execute("PRAGMA user_version = 3")
        }
        let configuration = DamageFixture.configuration(directory.url)
        let query = SearchQuery("matcha tea", limit: 20, mode: .hybrid)
        let written: [SearchResult]
        do {
            let index = try SearchIndex(configuration: configuration)
            try await index.upsert(Array(items[30...]))
            written = try await index.search(query).results
        }
        let store = try Store(directory: directory.url)
        var version: Int64 = 0
        try store.database.query("PRAGMA user_version") { version = $0.int(0) }
        #expect(version == Store.schemaVersion)
        #expect(try Self.recordVersions(store) == [StoredItem.encodingVersion: 30, StoredItem.halfVectorEncodingVersion: 30])
        IndexSnapshot.remove(in: directory.url)
        let reopened = try SearchIndex(configuration: configuration)
        #expect(try await reopened.search(query).results == written && written.count == 20)
        try await reopened.checkInvariants()
    }

    @Test("A damaged snapshot is reported; the store stays whole, and repair writes a new snapshot")
    func damagedSnapshot() async throws {
        let fixture = try await DamageFixture(count: 20)
        let directory = try fixture.copy("snap")
        let file = directory.appendingPathComponent(IndexSnapshot.fileName)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber).intValue
        _ = try Damage.flip(offsets: [size / 2], masks: [0x10]).apply(to: file)
        let report = SearchIndex.check(configuration: DamageFixture.configuration(directory))
        #expect(!report.isWhole)
        #expect(report.part("snapshot")?.isWhole == false)
        #expect(report.part("items")?.isWhole == true && report.unreadable.isEmpty)
        let repaired = try await SearchIndex.repair(configuration: DamageFixture.configuration(directory))
        #expect(repaired.dropped.isEmpty && repaired.snapshotWritten)
        #expect(repaired.after.isWhole)
        #expect(repaired.after.part("snapshot")?.summary.hasPrefix("current") == true)
    }

    @Test("Repair refuses a read-only configuration and an index that is open elsewhere, changing nothing")
    func repairRefusals() async throws {
        let fixture = try await DamageFixture(count: 10)
        let directory = try fixture.copy("busy")
        var readOnly = DamageFixture.configuration(directory)
        readOnly.readOnly = true
        await #expect(throws: IndexError.self) { try await SearchIndex.repair(configuration: readOnly) }
        let open = try SearchIndex(configuration: DamageFixture.configuration(directory))
        _ = try await open.upsert([noteItem("held", "held open")])  // holds a connection (and its WAL)
        let before = try fixture.temporary.allFileContents().filter { $0.name == Store.fileName }.map(\.bytes)
        do {
            _ = try await SearchIndex.repair(configuration: DamageFixture.configuration(directory))
            Issue.record("a repair ran while another index had the store open")
        } catch {
            #expect("\(error)".contains("open elsewhere"), "\(error)")
        }
        #expect(try fixture.temporary.allFileContents().filter { $0.name == Store.fileName }.map(\.bytes) == before)
        #expect(try await open.keywordIDs("held") == ["held"])
        #expect(fixture.stored(in: directory)?.items.count == 11)
    }

    @Test(
        "A protected store: a damaged record fails authentication and is listed by row key; a wrong key is refused, not reported as damage")
    func protectedStore() async throws {
        let key = try ProtectionKey.random()
        let fixture = try await DamageFixture(count: 12, codec: AESGCMCodec(key: key))
        let directory = try fixture.copy("sealed")
        let config = DamageFixture.configuration(directory, codec: AESGCMCodec(key: key))
        #expect(SearchIndex.check(configuration: config).isWhole)

        // Damage one sealed payload through SQL (its bytes cannot be found by their text).
        do {
            let store = try Store(directory: directory, codec: AESGCMCodec(key: key))
            var payload: [UInt8] = []
            try store.database.query("SELECT payload FROM items WHERE rowid = 5") { payload = $0.blob(0) }
            payload[payload.count / 2] ^= 0x04
            try store.database.query("UPDATE items SET payload = ? WHERE rowid = 5", [.blob(payload)])
        }
        let report = SearchIndex.check(configuration: config)
        #expect(!report.isWhole)
        #expect(report.unreadable.count == 1)
        #expect(report.unreadable.first?.id == nil)  // the id is inside the sealed record
        #expect(report.readableItems == 11)
        let repaired = try await SearchIndex.repair(configuration: config)
        #expect(repaired.unidentifiedRowKeys.count == 1)
        #expect(repaired.after.isWhole)
        #expect(fixture.stored(in: directory)?.items.count == 11)

        let wrong = SearchIndex.check(
            configuration: DamageFixture.configuration(directory, codec: AESGCMCodec(key: try ProtectionKey.random())))
        #expect(!wrong.isWhole)
        #expect(wrong.readableItems == 0)
        await #expect(throws: (any Error).self) {
            _ = try await SearchIndex.repair(
                configuration: DamageFixture.configuration(directory, codec: AESGCMCodec(key: try ProtectionKey.random())))
        }
        #expect(fixture.stored(in: directory)?.items.count == 11, "a wrong key must not drop anything")
    }

    /// The damage trials: random damage at random offsets of `index.sqlite` (three in four) or
    /// the snapshot. For each: check never crashes; when it says the index is whole, everything
    /// reads back exactly as written; damage to the snapshot is always seen; and repair keeps
    /// every item the store could still read (each exactly as written), drops the rest, and
    /// leaves an index that is whole.
    @Test("Damage at random offsets: check never crashes and never calls a damaged index whole; repair never loses a readable item")
    func randomDamage() async throws {
        let fixture = try await DamageFixture(count: 60)
        var rng = SeededGenerator(seed: 77)
        var notWhole = 0
        var whole = 0
        var rebuilt = 0
        var inPlace = 0
        var refused = 0
        var droppedItems = 0
        var unlistedItems = 0
        for trial in 0..<Self.trials {
            let directory = try fixture.copy("t\(trial)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let snapshotTrial = rng.next() % 4 == 0
            let file = directory.appendingPathComponent(snapshotTrial ? IndexSnapshot.fileName : Store.fileName)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber).intValue
            let damage = Damage.random(fileSize: size, using: &rng)
            guard try damage.apply(to: file) else { continue }
            let context = "trial \(trial): \(snapshotTrial ? "snapshot" : "store") \(damage)"
            let config = DamageFixture.configuration(directory)

            let report = SearchIndex.check(configuration: config)
            if report.isWhole {
                whole += 1
                #expect(!snapshotTrial, "\(context): a changed snapshot passed as whole")
                let stored = fixture.stored(in: directory)
                #expect(stored?.items == fixture.items, "\(context): called whole, but the items do not read back as written")
                #expect(stored?.donations == fixture.donations, "\(context): called whole, but the donations do not read back as written")
                continue
            }
            notWhole += 1

            // What the store can still read, each record verified: the items repair must keep.
            let salvageable: [ItemID: SearchableItem]
            if let store = try? Store(directory: directory, readOnly: true, salvaging: true) {
                salvageable = Dictionary(uniqueKeysWithValues: store.survey().items.map { ($0.stored.item.id, $0.stored.item) })
            } else {
                salvageable = [:]
            }
            for (id, item) in salvageable {
                #expect(fixture.items[id] == item, "\(context): \(id) was read as verified but differs from what was written")
            }
            do {
                let repaired = try await SearchIndex.repair(configuration: config)
                repaired.rebuiltDatabase ? (rebuilt += 1) : (inPlace += 1)
                #expect(repaired.after.isWhole, "\(context): not whole after repair: \(repaired.after.parts.filter { !$0.isWhole })")
                let after = try #require(fixture.stored(in: directory), "\(context): the repaired store does not read")
                for (id, item) in salvageable {
                    #expect(after.items[id] == item, "\(context): repair lost the readable item \(id)")
                }
                for (id, item) in after.items {
                    #expect(fixture.items[id] == item, "\(context): repair kept \(id) changed")
                }
                // Every item dropped is listed for the host app to index again (in a plain store,
                // by id), unless SQLite's own structure lost the row with its key.
                let lost = Set(fixture.items.keys).subtracting(after.items.keys)
                let unlisted = lost.subtracting(repaired.idsToReindex)
                if !unlisted.isEmpty {
                    #expect(
                        repaired.before.part("database")?.isWhole == false, "\(context): dropped \(unlisted.sorted()) without listing them")
                    unlistedItems += unlisted.count
                }
                droppedItems += lost.count
                let index = try SearchIndex(configuration: config)
                #expect(await index.check().isWhole, "\(context): the reopened index is not whole")
            } catch {
                // Only a store that cannot be opened at all is left for the user (the error says why).
                refused += 1
                #expect(salvageable.isEmpty, "\(context): repair refused (\(error)) though \(salvageable.count) items could be read")
                #expect(!"\(error)".isEmpty)
            }
        }
        print(
            "damage trials: \(Self.trials), whole \(whole), not whole \(notWhole) (repaired in place \(inPlace), rebuilt \(rebuilt), refused \(refused)), items dropped \(droppedItems) (\(unlistedItems) of them lost with their key)"
        )
        #expect(notWhole > Self.trials / 2)
        #expect(inPlace > 0 && rebuilt > 0)
    }
}
