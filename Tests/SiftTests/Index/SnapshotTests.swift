import Foundation
import SiftEvaluation
import Testing

@testable import Sift

/// An index with history: upserts, replacements, deletions (free rows, swapped postings),
/// donations, expiring items and as-you-type titles, on a small random model.
private struct SnapshotFixture {
    var fixture: IndexFixture
    let items: [SearchableItem]

    init(count: Int = 600, embedder: (any Embedder)? = randomModel()) throws {
        fixture = try IndexFixture(.disk, embedder: embedder)
        var items = SyntheticCorpus(seed: 31).items(count: count)
        for i in stride(from: 0, to: count, by: 9) {
            items[i].title = "Café crème — \(items[i].title)"
            items[i].keywords = ["naïve", "русский"]
        }
        for i in stride(from: 5, to: count, by: 13) { items[i].expires = fixture.clock.now.addingTimeInterval(86_400 * Double(1 + i % 3)) }
        self.items = items
    }

    var directory: URL { fixture.directory! }
    var snapshotFile: URL { IndexSnapshot.url(in: directory) }

    /// Indexes the items with some history and saves a snapshot; returns the index, still open.
    func build() async throws -> SearchIndex {
        let index = try fixture.open()
        let half = items.count / 2
        try await index.upsert(Array(items[..<half]))
        try await index.upsert(Array(items[half...]))
        try await index.delete(ids: stride(from: 1, to: items.count, by: 17).map { items[$0].id })
        var changed = items[2]
        changed.title = "Replaced walrus title"
        try await index.upsert([changed])
        try await index.donate(intent: "open", itemIDs: [items[3].id, items[4].id, items[3].id])
        #expect(await index.saveSnapshot())
        return index
    }

    /// Queries in every mode, as typed, with filters.
    var queries: [SearchQuery] {
        let words = items.prefix(40).compactMap { $0.content.split(separator: " ").dropFirst(3).first.map(String.init) }
        var queries: [SearchQuery] = []
        for (n, word) in words.enumerated() {
            let mode = SearchMode.allCases[n % SearchMode.allCases.count]
            queries.append(SearchQuery(word, limit: 10, mode: mode, now: fixture.clock.now))
            queries.append(SearchQuery(String(word.prefix(3)), limit: 10, mode: .keyword, now: fixture.clock.now))
        }
        queries.append(SearchQuery("replaced walrus", mode: .hybrid, now: fixture.clock.now))
        queries.append(SearchQuery("café crème", mode: .keyword, domains: ["recipe", "journal"], now: fixture.clock.now))
        queries.append(SearchQuery("русский", mode: .semantic, now: fixture.clock.now.addingTimeInterval(86_400 * 2)))
        return queries
    }

    func open(_ configure: (inout SearchIndex.Configuration) -> Void = { _ in }) throws -> SearchIndex {
        var configuration = SearchIndex.Configuration(
            directory: directory, embedder: fixture.embedder, clock: fixture.clock.function, logger: fixture.logger)
        configure(&configuration)
        return try SearchIndex(configuration: configuration)
    }

    var lastOpenOutcome: String? { fixture.logger.records.last { $0.operation == "open" }?.outcome }
}

/// What two indexes answer, compared: ids in order, scores within float rounding.
private func expectSameAnswers(
    _ a: SearchIndex, _ b: SearchIndex, _ queries: [SearchQuery], sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    for q in queries {
        let x = try await a.search(q).results
        let y = try await b.search(q).results
        #expect(x.map(\.id) == y.map(\.id), "\(q.mode) \(q.text)", sourceLocation: sourceLocation)
        for (r, s) in zip(x, y) {
            #expect(
                abs(r.score - s.score) <= 1e-5 * max(1, abs(r.score)), "\(q.text): \(r.score) vs \(s.score)", sourceLocation: sourceLocation
            )
        }
    }
    #expect(await a.allItems() == b.allItems(), sourceLocation: sourceLocation)
    // (Not the term count: an index keeps the terms of deleted items, a rebuild has none.)
    let sa = try await a.statistics()
    let sb = try await b.statistics()
    #expect(
        sa.items == sb.items && sa.domains == sb.domains && sa.postings == sb.postings && sa.vectors == sb.vectors
            && sa.donations == sb.donations, sourceLocation: sourceLocation)
}

@Suite("Snapshots: the projections persisted beside the store, used only when current and intact")
struct SnapshotTests {
    @Test("An index opened from its snapshot answers exactly as a rebuild from the store, and as the index that wrote it")
    func roundTripEqualsRebuild() async throws {
        let s = try SnapshotFixture()
        let live = try await s.build()
        let fromSnapshot = try s.open()
        #expect(s.lastOpenOutcome == "ok, from the snapshot")
        try await fromSnapshot.checkInvariants()
        try FileManager.default.removeItem(at: s.snapshotFile)
        let rebuilt = try s.open()
        #expect(s.lastOpenOutcome == "ok, rebuilt: no snapshot")
        try await rebuilt.checkInvariants()
        try await expectSameAnswers(fromSnapshot, rebuilt, s.queries)
        try await expectSameAnswers(fromSnapshot, live, s.queries)
        #expect(await fromSnapshot.donations(for: s.items[3].id).count == 2)
        #expect(await fromSnapshot.suggestions().map(\.item.id) == live.suggestions().map(\.item.id))
        // The vectors of every item, bit for bit; the identifier table's free rows are reused.
        let liveVectors = try #require(await live.vectors)
        let loadedVectors = try #require(await fromSnapshot.vectors)
        let liveTable = await live.table
        let loadedTable = await fromSnapshot.table
        for id in liveTable.ids {
            #expect(bits(loadedVectors.vector(at: loadedTable.row(of: id)!)) == bits(liveVectors.vector(at: liveTable.row(of: id)!)))
        }
        #expect(loadedTable.capacity == liveTable.capacity)
        #expect(try await fromSnapshot.statistics().terms == live.statistics().terms)
        #expect(await fromSnapshot.keyword.sortedTerms == live.keyword.sortedTerms)
        try await fromSnapshot.upsert([noteItem("new-one", "fresh walrus")])
        #expect(await fromSnapshot.table.capacity == liveTable.capacity)
        try await fromSnapshot.checkInvariants()
    }

    @Test("With the quantized scan, a snapshot's quantized copy equals a rebuild's and answers as one")
    func quantizedFromSnapshot() async throws {
        let s = try SnapshotFixture()
        _ = try await s.build()
        let fromSnapshot = try s.open {
            $0.quantizedScan = true
            $0.readOnly = true
        }
        #expect(s.lastOpenOutcome == "ok, from the snapshot")
        IndexSnapshot.remove(in: s.directory)
        let rebuiltForReal = try s.open {
            $0.quantizedScan = true
            $0.readOnly = true
        }
        #expect(s.lastOpenOutcome == "ok, rebuilt: no snapshot")
        let a = try #require(await fromSnapshot.vectors?.quantized)
        let b = try #require(await rebuiltForReal.vectors?.quantized)
        let ta = await fromSnapshot.table
        let tb = await rebuiltForReal.table
        #expect(a.capacity == ta.capacity)
        let (codesA, scalesA, codesB, scalesB) = (a.codes.array, a.scales.array, b.codes.array, b.scales.array)
        for id in ta.ids {
            let ra = Int(ta.row(of: id)!)
            let rb = Int(tb.row(of: id)!)
            let d = a.bytesPerRow
            #expect(scalesA[ra] == scalesB[rb] && codesA[(ra * d)..<((ra + 1) * d)] == codesB[(rb * d)..<((rb + 1) * d)])
        }
        try await expectSameAnswers(fromSnapshot, rebuiltForReal, s.queries.filter { $0.mode != .keyword })
    }

    @Test("fp32 rows round-trip too; a snapshot of the other precision is not used: the open rebuilds from the store and says why")
    func precisions() async throws {
        let s = try SnapshotFixture(count: 200)
        do { _ = try await s.build() }
        let halves = try s.open { $0.readOnly = true }
        #expect(s.lastOpenOutcome == "ok, from the snapshot")
        #expect(await halves.vectors?.precision == .float16)
        let full = try s.open { $0.vectorPrecision = .float32 }
        #expect(s.lastOpenOutcome == "ok, rebuilt: the snapshot keeps float16 vectors, this index uses float32")
        #expect(await full.saveSnapshot())
        let fromSnapshot = try s.open {
            $0.vectorPrecision = .float32
            $0.readOnly = true
        }
        #expect(s.lastOpenOutcome == "ok, from the snapshot")
        try await fromSnapshot.checkInvariants()
        let a = try #require(await fromSnapshot.vectors)
        let b = try #require(await full.vectors)
        #expect(a.precision == .float32)
        let ta = await fromSnapshot.table
        let tb = await full.table
        for id in ta.ids { #expect(bits(a.vector(at: ta.row(of: id)!)) == bits(b.vector(at: tb.row(of: id)!))) }
        try await expectSameAnswers(fromSnapshot, full, s.queries)
        // fp16 and fp32 rows of the same vectors differ by rounding only.
        let tableHalves = await halves.table
        let h = try #require(await halves.vectors)
        for id in ta.ids.prefix(20) {
            for (x, y) in zip(a.vector(at: ta.row(of: id)!), h.vector(at: tableHalves.row(of: id)!)) { #expect(abs(x - y) <= 1e-3) }
        }
    }

    @Test("Frequencies of 255 and more survive the snapshot exactly")
    func largeFrequencies() async throws {
        let s = try SnapshotFixture(count: 50)
        let live = try await s.build()
        let words = { (w: String, n: Int) in Array(repeating: w, count: n).joined(separator: " ") }
        try await live.upsert([
            SearchableItem(id: "long-a", title: words("ledger", 256), content: words("ledger", 400) + " entry"),
            SearchableItem(id: "long-b", content: words("ledger", 300) + " " + words("entry", 260)),
        ])
        #expect(await live.saveSnapshot())
        let loaded = try s.open()
        #expect(s.lastOpenOutcome == "ok, from the snapshot")
        try await loaded.checkInvariants()
        let query = SearchQuery("ledger entry", mode: .keyword, understandsPhrases: false, prefixLastTerm: false, explain: true)
        let x = try await loaded.search(query).results
        let y = try await live.search(query).results
        #expect(x.map(\.id) == ["long-a", "long-b"] || x.map(\.id) == ["long-b", "long-a"])
        #expect(x.map(\.id) == y.map(\.id) && x.map(\.score) == y.map(\.score))
        let frequencies = Dictionary(uniqueKeysWithValues: x.map { ($0.id.rawValue, $0.explanation!.keywordTerms.map(\.frequencies)) })
        #expect(frequencies["long-a"] == [[256, 0, 400], [0, 0, 1]])
        #expect(frequencies["long-b"] == [[0, 0, 300], [0, 0, 260]])
    }

    @Test("A snapshot of an older generation is not used: the open rebuilds, says why, and removes it")
    func staleGenerationRebuilds() async throws {
        let s = try SnapshotFixture()
        let index = try await s.build()
        let old = try Data(contentsOf: s.snapshotFile)
        try await index.upsert([noteItem("late", "added after the snapshot walrus")])
        #expect(!FileManager.default.fileExists(atPath: s.snapshotFile.path), "the commit removes the stale snapshot")
        try old.write(to: s.snapshotFile)
        let reopened = try s.open()
        let outcome = try #require(s.lastOpenOutcome)
        #expect(outcome.hasPrefix("ok, rebuilt: the snapshot is stale (generation "), "\(outcome)")
        #expect(await reopened.item("late") != nil)
        try await reopened.checkInvariants()
        #expect(!FileManager.default.fileExists(atPath: s.snapshotFile.path))
        try await expectSameAnswers(reopened, index, s.queries)
    }

    @Test("A commit by another connection after the snapshot (as a crash between commit and snapshot write leaves it) makes it stale")
    func otherConnectionMakesItStale() async throws {
        let s = try SnapshotFixture(count: 200)
        do { _ = try await s.build() }
        // Another writer commits behind the snapshot's back: a new generation, the file stays.
        try s.fixture.openStore().apply([.delete([s.items[0].id])])
        #expect(FileManager.default.fileExists(atPath: s.snapshotFile.path))
        let reopened = try s.open()
        #expect(s.lastOpenOutcome?.hasPrefix("ok, rebuilt: the snapshot is stale") == true, "\(s.lastOpenOutcome ?? "")")
        #expect(await reopened.item(s.items[0].id) == nil)
        try await reopened.checkInvariants()
    }

    @Test("An index whose store another connection wrote never saves a snapshot of its state")
    func divergedIndexDoesNotSave() async throws {
        let s = try SnapshotFixture(count: 100, embedder: nil)
        let a = try s.open()
        let b = try s.open()
        try await b.upsert([noteItem("b1", "from b")])
        try await a.upsert([noteItem("a1", "from a")])
        #expect(await a.saveSnapshot() == false)
        #expect(!FileManager.default.fileExists(atPath: s.snapshotFile.path))
        #expect(await b.saveSnapshot())
        let reopened = try s.open()
        #expect(s.lastOpenOutcome?.hasPrefix("ok, rebuilt: the snapshot is stale") == true, "\(s.lastOpenOutcome ?? "")")
        #expect(await reopened.item("a1") != nil)
        #expect(await reopened.item("b1") != nil)
    }

    @Test(
        "A damaged, truncated, extended or foreign snapshot is rebuilt from the store with the reason logged, never an error",
        arguments: ["flip", "truncate-header", "truncate-middle", "truncate-trailer", "extend", "magic", "version", "empty", "directory"])
    func damagedSnapshotRebuilds(damage: String) async throws {
        let s = try SnapshotFixture(count: 300)
        let live = try await s.build()
        var bytes = [UInt8](try Data(contentsOf: s.snapshotFile))
        var expected = "the snapshot is damaged (checksum mismatch)"
        switch damage {
        case "flip": bytes[bytes.count / 2] ^= 0x10
        case "truncate-header":
            bytes = Array(bytes.prefix(20))
            expected = "truncated"
        case "truncate-middle":
            bytes = Array(bytes.prefix(bytes.count / 3))
            expected = "truncated"
        case "truncate-trailer":
            bytes.removeLast(3)
            expected = "truncated"
        case "extend":
            bytes += [0, 0, 0, 0]
            expected = "truncated or damaged"
        case "magic":
            bytes[0] = UInt8(ascii: "X")
            expected = "does not start with the snapshot magic"
        case "version":
            bytes[8] = 99
            expected = "format version 99"
        case "empty":
            bytes = []
            expected = "empty"
        default: expected = "not a regular file"
        }
        try FileManager.default.removeItem(at: s.snapshotFile)
        if damage == "directory" {
            try FileManager.default.createDirectory(at: s.snapshotFile, withIntermediateDirectories: false)
        } else {
            try Data(bytes).write(to: s.snapshotFile)
        }
        let reopened = try s.open()
        let outcome = try #require(s.lastOpenOutcome)
        #expect(outcome.hasPrefix("ok, rebuilt: ") && outcome.contains(expected), "\(damage): \(outcome)")
        try await reopened.checkInvariants()
        try await expectSameAnswers(reopened, live, s.queries)
    }

    @Test(
        "Damage the checksum cannot see (a field changed and the checksum redone) never crashes the open or breaks the index, its rows verified at the open or as read",
        arguments: [false, true])
    func malformedBodyIsRefusedOrHarmless(rowsVerifiedAsRead: Bool) async throws {
        let s = try SnapshotFixture(count: 120)
        _ = try await s.build()
        let original = [UInt8](try Data(contentsOf: s.snapshotFile))
        var rng = SeededGenerator(seed: 2718)
        var outcomes: [String: Int] = [:]
        for trial in 0..<60 {
            var bytes = original
            // Past the magic and version; the generation is in the key, so it is left alone.
            let position = rng.int(40..<(bytes.count - 16))
            bytes[position] = trial % 2 == 0 ? bytes[position] ^ UInt8(1 << rng.int(0..<8)) : 0xFF
            SnapshotChecksum.reseal(&bytes)
            try Data(bytes).write(to: s.snapshotFile)
            let reopened = try s.open {
                $0.readOnly = true
                if rowsVerifiedAsRead {
                    // Both quantized copies restored and no row count too small: rows verified as read.
                    $0.quantizedScan = true
                    $0.quantizedScanMinimumRows = 0
                }
            }
            let outcome = s.lastOpenOutcome ?? ""
            outcomes[outcome.hasPrefix("ok, rebuilt") ? "rebuilt" : outcome, default: 0] += 1
            if outcome.hasPrefix("ok, rebuilt") {
                try await reopened.checkInvariants()
                #expect(await reopened.allItems().count == s.items.count - s.items.indices.filter { $0 % 17 == 1 }.count)
            }
            _ = try await reopened.search(SearchQuery("walrus café", mode: .hybrid))
            // Every row read exactly (a damaged one answered from its re-scoring copy).
            _ = try await reopened.search(SearchQuery("walrus café", limit: 200, mode: .hybrid, minimumRelevance: 0))
        }
        #expect((outcomes["rebuilt"] ?? 0) > 0, "\(outcomes)")
        // Some trials damaged a row: found at the open, or by the query that read it.
        let found = s.fixture.logger.records.map(\.outcome).filter {
            $0.contains("vector row") && $0.contains("does not match its checksum")
        }
        #expect(!found.isEmpty)
        #expect(
            found.allSatisfy {
                $0.hasPrefix(rowsVerifiedAsRead ? "damaged: vector row" : "ok, rebuilt: the snapshot is damaged (vector row")
            })
    }

    @Test("A changed model or title weight re-embeds as before; other BM25 parameters rebuild, but not another k3")
    func configurationChanges() async throws {
        var s = try SnapshotFixture(count: 150, embedder: FakeEmbedder(dimension: 16))
        do { _ = try await s.build() }
        s.fixture.embedder = FakeEmbedder(dimension: 8)
        let otherModel = try s.open()
        let count = try await otherModel.statistics().items
        #expect(s.lastOpenOutcome == "ok, re-embedded \(count)")
        #expect(await otherModel.vectors?.dimension == 8)
        try await otherModel.checkInvariants()
        #expect(!FileManager.default.fileExists(atPath: s.snapshotFile.path))
        #expect(await otherModel.saveSnapshot())

        let otherWeight = try s.open { $0.titleEmbeddingWeight = 2 }
        #expect(s.lastOpenOutcome?.hasPrefix("ok, re-embedded") == true, "\(s.lastOpenOutcome ?? "")")
        let model = FakeEmbedder(dimension: 8)
        let item = try #require(await otherWeight.allItems().first)
        let row = try #require(await otherWeight.table.row(of: item.id))
        #expect(await otherWeight.vectors?.vector(at: row) == stored(model.embed(item: item, titleWeight: 2), as: .float16))
        #expect(await otherWeight.saveSnapshot())

        // k3 is read at query time only: the snapshot stands.
        _ = try s.open {
            $0.titleEmbeddingWeight = 2
            $0.bm25.k3 = 8
        }
        #expect(s.lastOpenOutcome == "ok, from the snapshot")

        _ = try s.open {
            $0.titleEmbeddingWeight = 2
            $0.bm25 = BM25Parameters(k1: 1.5)
        }
        #expect(s.lastOpenOutcome == "ok, rebuilt: the snapshot was made with other BM25 parameters")
    }

    @Test("A read-only open loads the snapshot, or rebuilds, and writes nothing either way")
    func readOnlyWritesNothing() async throws {
        let s = try SnapshotFixture(count: 150)
        do { _ = try await s.build() }
        // The store file and the snapshot (SQLite keeps its -wal and -shm files as it sees fit).
        func files() throws -> [String?] {
            let all = try s.fixture.storeFingerprint()
            return [all[Store.fileName], all[IndexSnapshot.fileName], "\(all.keys.filter { $0.contains(".tmp-") })"]
        }
        let before = try files()
        do {
            let reader = try s.open { $0.readOnly = true }
            #expect(s.lastOpenOutcome == "ok, from the snapshot")
            #expect(await reader.saveSnapshot() == false)
        }
        #expect(try files() == before)
        var bytes = [UInt8](try Data(contentsOf: s.snapshotFile))
        bytes[bytes.count / 2] ^= 1
        try Data(bytes).write(to: s.snapshotFile)
        let damaged = try files()
        do {
            let reader = try s.open { $0.readOnly = true }
            #expect(s.lastOpenOutcome == "ok, rebuilt: the snapshot is damaged (checksum mismatch)")
            try await reader.checkInvariants()
        }
        #expect(try files() == damaged, "a read-only open leaves even a damaged snapshot in place")
    }

    @Test("Releasing an index saves its snapshot; an index opened from it and left unchanged does not write it again")
    func releaseSaves() async throws {
        let s = try SnapshotFixture(count: 100, embedder: nil)
        do {
            let index = try s.open()
            try await index.upsert(s.items)
        }
        #expect(FileManager.default.fileExists(atPath: s.snapshotFile.path))
        #expect(s.fixture.logger.records.last?.operation == "snapshot")
        let modified = try FileManager.default.attributesOfItem(atPath: s.snapshotFile.path)[.modificationDate] as? Date
        let records = s.fixture.logger.records.count
        do {
            let index = try s.open()
            #expect(s.lastOpenOutcome == "ok, from the snapshot")
            _ = try await index.search("walrus")
        }
        #expect(!s.fixture.logger.records.dropFirst(records).contains { $0.operation == "snapshot" })
        #expect(try FileManager.default.attributesOfItem(atPath: s.snapshotFile.path)[.modificationDate] as? Date == modified)
    }

    @Test("The first commit after a snapshot removes it, so text the store deletes does not live on beside it")
    func commitRemovesSnapshot() async throws {
        let s = try SnapshotFixture(count: 50, embedder: nil)
        let index = try s.open()
        try await index.upsert([noteItem("secret", "soon private")])
        #expect(await index.saveSnapshot())
        #expect(FileManager.default.fileExists(atPath: s.snapshotFile.path))
        try await index.upsert([SearchableItem(id: "secret", title: "soon private", isPrivate: true)])
        #expect(!FileManager.default.fileExists(atPath: s.snapshotFile.path))
        // Also when another index on the same store wrote it.
        let other = try s.open()
        #expect(await other.saveSnapshot())
        try await index.delete(ids: ["none"])
        #expect(!FileManager.default.fileExists(atPath: s.snapshotFile.path))
        // A temporary file an interrupted write left behind goes at the next writable open; one
        // a live process is writing stays.
        let leftover = s.directory.appendingPathComponent(IndexSnapshot.fileName + ".tmp-999999999-2")
        let inProgress = s.directory.appendingPathComponent(IndexSnapshot.fileName + ".tmp-\(getpid())-3")
        try Data([1, 2, 3]).write(to: leftover)
        try Data([1, 2, 3]).write(to: inProgress)
        _ = try s.open()
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        #expect(FileManager.default.fileExists(atPath: inProgress.path))
    }

    @Test("Protected and in-memory indexes never write a snapshot")
    func protectedAndMemory() async throws {
        let temporary = try TemporaryDirectory("sift-snapshot")
        let directory = temporary.path("vault")
        let logger = MemoryLogger()
        do {
            let index = try SearchIndex(
                configuration: .init(
                    directory: directory, embedder: FakeEmbedder(), logger: logger, codec: AESGCMCodec(key: try ProtectionKey.random())))
            try await index.upsert([noteItem("a", "sealed walrus")])
            #expect(await index.saveSnapshot() == false)
        }
        #expect(!FileManager.default.fileExists(atPath: IndexSnapshot.url(in: directory).path))
        #expect(!logger.records.contains { $0.operation == "snapshot" })
        let memory = try SearchIndex(configuration: .init(directory: nil))
        try await memory.upsert([noteItem("m", "memory")])
        #expect(await memory.saveSnapshot() == false)
    }

    @Test("The checksum of a file written in buffer-sized pieces is that of its bytes; any one changed byte changes it")
    func checksum() {
        var rng = SeededGenerator(seed: 5)
        let bytes = (0..<(3 * 1 << 20 + 1234)).map { _ in UInt8(rng.int(0..<256)) }
        let whole = bytes.withUnsafeBytes { SnapshotChecksum.of($0) }
        var pieces = SnapshotChecksum()
        bytes.withUnsafeBytes { raw in
            pieces.combine(blocks: UnsafeRawBufferPointer(rebasing: raw[0..<(1 << 20)]))
            pieces.combine(blocks: UnsafeRawBufferPointer(rebasing: raw[(1 << 20)..<(3 << 20)]))
            #expect(pieces.finish(tail: UnsafeRawBufferPointer(rebasing: raw[(3 << 20)...])) == whole)
        }
        for position in [0, 7, 8, 31, 32, 1 << 20, bytes.count - 1] {
            var changed = bytes
            changed[position] ^= 0x80
            #expect(changed.withUnsafeBytes { SnapshotChecksum.of($0) } != whole, "\(position)")
        }
        #expect(Array(bytes.dropLast()).withUnsafeBytes { SnapshotChecksum.of($0) } != whole)
        #expect((bytes + [0]).withUnsafeBytes { SnapshotChecksum.of($0) } != whole)
    }
}
