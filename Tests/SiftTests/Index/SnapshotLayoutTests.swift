import Foundation
import SiftEvaluation
import Testing

@testable import Sift

/// How an open from a snapshot lays the state out.
@Suite("Snapshot layout: how an open from a snapshot restores the state")
struct SnapshotLayoutTests {
    @Test("Attributes restored run by run, each run coding its own domains, equal those set row by row")
    func attributesByRuns() {
        let domains = ["note", "recipe", "journal", "expense", "receipt"]
        var items: [SearchableItem?] = []
        for i in 0..<90 {
            if i % 11 == 4 {
                items.append(nil)
                continue
            }
            var item = SearchableItem(id: ItemID("i\(i)"))
            // Domains first seen in different runs, and in another order in each.
            item.domain = domains[(i * 7 + i / 30) % (i < 30 ? 2 : domains.count)]
            item.date = i % 3 == 0 ? Date(timeIntervalSince1970: Double(i) * 86_400) : nil
            item.expires = i % 5 == 0 ? Date(timeIntervalSince1970: 2e9 + Double(i)) : nil
            item.rankingHint = i % 4 == 0 ? i * 3 - 40 : nil
            items.append(item)
        }
        var rowByRow = RowAttributes()
        for (r, item) in items.enumerated() { if let item { rowByRow.set(row: Int32(r), item: item) } }

        var entries = [RowAttributes.Entry](repeating: .free, count: items.count)
        var runs: [(rows: Range<Int>, domains: [String])] = []
        for rows in [0..<30, 30..<31, 31..<64, 64..<90] {
            var local: [String] = []
            for r in rows {
                guard let item = items[r] else { continue }
                if !local.contains(item.domain) { local.append(item.domain) }
                entries[r] = RowAttributes.entry(for: item, domain: UInt32(local.firstIndex(of: item.domain)!))
            }
            runs.append((rows, local))
        }
        let restored = RowAttributes(entries: entries, runs: runs)
        #expect(restored.entries == rowByRow.entries)
        #expect(restored.domainNames == rowByRow.domainNames)
        #expect(restored.expiringCount == rowByRow.expiringCount)
        #expect(restored.membership(["journal", "receipt"]) == rowByRow.membership(["journal", "receipt"]))
        #expect(throws: Never.self) { try restored.checkInvariants(items: items) }
    }

    @Test("An index of more rows than one items section restores every row's attributes as the index that wrote it")
    func attributesAcrossSections() async throws {
        let fixture = try IndexFixture(.disk)
        let count = IndexState.itemsPerSection + 700
        var items = SyntheticCorpus(seed: 5).items(count: count)
        for i in stride(from: 3, to: count, by: 101) { items[i].expires = fixture.clock.now.addingTimeInterval(86_400) }
        for i in stride(from: 0, to: count, by: 997) { items[i].domain = "rare-\(i % 3)" }
        let live = try fixture.open()
        try await live.upsert(items)
        try await live.delete(ids: stride(from: 7, to: count, by: 13).map { items[$0].id })
        #expect(await live.saveSnapshot())
        let reopened = try fixture.open()
        #expect(fixture.logger.records.last { $0.operation == "open" }?.outcome == "ok, from the snapshot")
        try await reopened.checkInvariants()
        let a = await live.state.attributes
        let b = await reopened.state.attributes
        #expect(a.entries == b.entries)
        #expect(a.domainNames == b.domainNames)
        #expect(a.expiringCount == b.expiringCount)
        let query = SearchQuery("", limit: 50, mode: .keyword, domains: ["rare-1", "note"], now: fixture.clock.now)
        #expect(try await reopened.search(query).results.map(\.id) == live.search(query).results.map(\.id))
    }

    @Test(
        "Vector rows are the snapshot's own pages: used in place, still there when the file is deleted or replaced, a changed row held apart",
        arguments: [VectorPrecision.float16, .float32])
    func mappedVectorRows(precision: VectorPrecision) async throws {
        let fixture = try IndexFixture(.disk, embedder: randomModel())
        let items = SyntheticCorpus(seed: 8).items(count: 300)
        let open = {
            var configuration = SearchIndex.Configuration(
                directory: fixture.directory, embedder: fixture.embedder, clock: fixture.clock.function, logger: fixture.logger)
            configuration.vectorPrecision = precision
            return try SearchIndex(configuration: configuration)
        }
        let live = try open()
        try await live.upsert(items)
        try await live.delete(ids: [items[4].id, items[9].id])
        #expect(await live.saveSnapshot())
        let mapped = try open()
        #expect(fixture.logger.records.last { $0.operation == "open" }?.outcome == "ok, from the snapshot")
        #expect(await mapped.vectors?.rowsAreMapped == true)
        #expect(await live.vectors?.rowsAreMapped == false)
        let queries = items.prefix(12).map { SearchQuery(String($0.title.prefix(12)), limit: 10, mode: .semantic, now: fixture.clock.now) }
        func answers(_ index: SearchIndex) async throws -> [[SearchResult]] {
            var all: [[SearchResult]] = []
            for q in queries { all.append(try await index.search(q).results) }
            return all
        }
        let expected = try await answers(live)
        #expect(try await answers(mapped) == expected)

        // The file goes, then another takes its name: the open index keeps the pages it mapped.
        let file = IndexSnapshot.url(in: try #require(fixture.directory))
        let bytes = try Data(contentsOf: file)
        try FileManager.default.removeItem(at: file)
        #expect(try await answers(mapped) == expected)
        try Data(repeating: 0xA5, count: bytes.count).write(to: file, options: .atomic)
        #expect(try await answers(mapped) == expected)

        // A change holds its row apart, in memory of the index's own; the others stay mapped
        // and keep their bits.
        let row = try #require(await mapped.table.row(of: items[20].id))
        let before = await mapped.vectors!.vector(at: row)
        try await mapped.upsert([noteItem("fresh", "a walrus on the ice")])
        #expect(await mapped.vectors?.rowsAreMapped == true)
        let apart = await precision == .float16 ? mapped.vectors!.halves.hasChangedRows : mapped.vectors!.matrix.hasChangedRows
        #expect(apart)
        #expect(bits(await mapped.vectors!.vector(at: row)) == bits(before))
        try await mapped.checkInvariants()
    }

    @Test(
        "Posting lists and the rows' term ids are the snapshot's own pages: the same answers and documents through changes, a list copied when it changes"
    )
    func mappedKeywordIndex() async throws {
        let fixture = try IndexFixture(.disk, embedder: randomModel())
        let items = SyntheticCorpus(seed: 5).items(count: 400)
        // `live` never has a snapshot; the other index's directory does.
        let live = try IndexFixture(.memory, embedder: randomModel(), clock: fixture.clock).open()
        let written = try fixture.open()
        for index in [live, written] {
            try await index.upsert(items)
            try await index.delete(ids: [items[3].id, items[8].id])
        }
        #expect(await written.saveSnapshot())
        let mapped = try fixture.open()
        #expect(fixture.logger.records.last { $0.operation == "open" }?.outcome == "ok, from the snapshot")
        let (lists, liveKeyword) = (await mapped.keyword, await live.keyword)
        #expect(lists.postings.listsInPlace == lists.postings.count && lists.postings.count > 0)
        #expect(lists.postings.map { $0.map(\.row) } == liveKeyword.postings.map { $0.map(\.row) })
        #expect(lists.rowTerms == liveKeyword.rowTerms)
        let queries = items.prefix(16).map { item in
            SearchQuery(
                item.title.split(separator: " ").prefix(2).joined(separator: " "), limit: 10, mode: .keyword, now: fixture.clock.now)
        }
        func answers(_ index: SearchIndex) async throws -> [[SearchResult]] {
            var all: [[SearchResult]] = []
            for q in queries { all.append(try await index.search(q).results) }
            return all
        }
        #expect(try await answers(mapped) == answers(live))

        // The same changes to both: a replaced item, a new one, a deletion.
        for index in [live, mapped] {
            var changed = items[20]
            changed.title = "walrus " + changed.title
            try await index.upsert([changed, noteItem("fresh", "a walrus on the ice, " + items[30].content)])
            try await index.delete(ids: [items[40].id])
        }
        let (after, liveAfter) = (await mapped.keyword, await live.keyword)
        let inPlace = after.postings.listsInPlace
        #expect(inPlace > 0 && inPlace < after.postings.count, "only the changed terms' lists are copied")
        #expect(after.postings.map { $0.map(\.row) } == liveAfter.postings.map { $0.map(\.row) })
        #expect(after.rowTerms == liveAfter.rowTerms)
        #expect(try await answers(mapped) == answers(live))
        try await mapped.checkInvariants()

        // A second snapshot of the changed index opens to the same answers.
        #expect(await mapped.saveSnapshot())
        let again = try fixture.open()
        #expect(fixture.logger.records.last { $0.operation == "open" }?.outcome == "ok, from the snapshot")
        #expect(try await answers(again) == answers(live))
        try await again.checkInvariants()
    }

    @Test("A snapshot whose items name one id in two rows (the checksum redone) is rebuilt, the table's slots built beside the sections")
    func duplicateIDRebuilds() async throws {
        let fixture = try IndexFixture(.disk, embedder: randomModel())
        let live = try fixture.open()
        var items = SyntheticCorpus(seed: 3).items(count: 40)
        items.append(noteItem("twin-AAAA", "a walrus on the ice"))
        items.append(noteItem("twin-BBBB", "a seal on the rocks"))
        try await live.upsert(items)
        #expect(await live.saveSnapshot())
        let file = IndexSnapshot.url(in: try #require(fixture.directory))
        var bytes = [UInt8](try Data(contentsOf: file))
        let second = Array("twin-BBBB".utf8)
        let at = try #require((0...(bytes.count - second.count)).first { bytes[$0..<($0 + second.count)].elementsEqual(second) })
        bytes.replaceSubrange(at..<(at + second.count), with: Array("twin-AAAA".utf8))
        SnapshotChecksum.reseal(&bytes)
        try Data(bytes).write(to: file)
        let reopened = try fixture.open()
        #expect(
            fixture.logger.records.last { $0.operation == "open" }?.outcome
                == "ok, rebuilt: the snapshot is malformed (an item id is in two rows)")
        #expect(await reopened.allItems().map(\.id).sorted() == items.map(\.id).sorted())
        try await reopened.checkInvariants()
    }

    @Test("A snapshot whose rows' term lists name a term past the last (the checksum redone) is rebuilt and says why")
    func malformedRowTermsRebuild() async throws {
        let fixture = try IndexFixture(.disk, embedder: randomModel())
        let live = try fixture.open()
        try await live.upsert([noteItem("walrus", "a walrus on the ice")])
        #expect(await live.saveSnapshot())
        let file = IndexSnapshot.url(in: try #require(fixture.directory))
        var bytes = [UInt8](try Data(contentsOf: file))
        func u32(_ at: Int) -> Int { bytes[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | Int($1) } }
        func u64(_ at: Int) -> Int { bytes[at..<(at + 8)].reversed().reduce(0) { $0 << 8 | Int($1) } }
        // The section table (its offset 24 bytes from the end), then the keyword section: term
        // strings, the rows' starts, the lists' byte count and bytes.
        let table = u64(bytes.count - 24)
        let keyword = try #require(
            (0..<u32(table)).map { table + 4 + $0 * 20 }.first { u32($0) == Int(IndexState.SnapshotSection.keyword.rawValue) })
        var at = u64(keyword + 4)
        let terms = u32(at)
        #expect(terms > 0 && terms < 127)
        at += 4
        for _ in 0..<terms { at += 4 + u32(at) }
        let rows = u32(at)
        at += 4 + rows * 4 + 4
        // The first row's list: its count, then its first id, rewritten to one past the last.
        #expect(bytes[at] > 0)
        bytes[at + 1] = UInt8(terms)
        SnapshotChecksum.reseal(&bytes)
        try Data(bytes).write(to: file)
        let reopened = try fixture.open()
        let outcome = try #require(fixture.logger.records.last { $0.operation == "open" }?.outcome)
        #expect(outcome.hasPrefix("ok, rebuilt: the snapshot is malformed (row 0 names term ") && outcome.hasSuffix(", past the last)"))
        #expect(await reopened.allItems().map(\.id) == ["walrus"])
        try await reopened.checkInvariants()
    }

    @Test(
        "A snapshot of a previous format (9: the vector rows inside the file's checksum; 8: no re-scoring copy; 7: title-word hashes of 64 bits; 6: rows' term ids as u32; 5: an int8 copy with no bits a code; 4: the keyword index decoded list by list) is not used: the open rebuilds and says why",
        arguments: [UInt8(9), 8, 7, 6, 5, 4])
    func previousFormatRebuilds(version: UInt8) async throws {
        let fixture = try IndexFixture(.disk, embedder: randomModel())
        let live = try fixture.open()
        try await live.upsert(SyntheticCorpus(seed: 2).items(count: 50))
        #expect(await live.saveSnapshot())
        let file = IndexSnapshot.url(in: try #require(fixture.directory))
        var bytes = try Data(contentsOf: file)
        bytes.replaceSubrange(8..<12, with: [version, 0, 0, 0])
        try bytes.write(to: file)
        let reopened = try fixture.open()
        #expect(
            fixture.logger.records.last { $0.operation == "open" }?.outcome
                == "ok, rebuilt: the snapshot has format version \(version), this Sift writes 10")
        #expect(await reopened.vectors?.rowsAreMapped == false)
        try await reopened.checkInvariants()
    }

    @Test(
        "Items stay encoded in the snapshot's pages and read as an index that never had a snapshot; changes since the open, deletes by domain, expiry and a second snapshot keep every item"
    )
    func encodedItems() async throws {
        let fixture = try IndexFixture(.disk, embedder: randomModel())
        let reference = try IndexFixture(.memory, embedder: randomModel(), clock: fixture.clock).open()
        var items = SyntheticCorpus(seed: 12).items(count: 400)
        for i in stride(from: 0, to: items.count, by: 7) {
            items[i].keywords = ["naïve", "русский", String(repeating: "long keyword ", count: 3)]
            items[i].url = "app://item/\(i)"
            items[i].displayName = i % 2 == 0 ? "Display \(i)" : nil
            items[i].rankingHint = i % 3 == 0 ? i : nil
        }
        for i in stride(from: 3, to: items.count, by: 50) { items[i].expires = fixture.clock.now.addingTimeInterval(60) }
        let written = try fixture.open()
        for index in [written, reference] {
            try await index.upsert(items)
            try await index.delete(ids: [items[5].id, items[6].id])
        }
        #expect(await written.saveSnapshot())

        let opened = try fixture.open()
        #expect(await opened.state.items.isEncoded)
        #expect(await opened.allItems() == reference.allItems())
        for item in items.prefix(60) { #expect(await opened.item(item.id) == reference.item(item.id)) }
        let query = SearchQuery("notes", limit: 20, mode: .hybrid, now: fixture.clock.now)
        #expect(try await opened.search(query).results == reference.search(query).results)

        // Changes after the open: a replaced item, a new one, a deleted one, a deleted domain.
        var replaced = items[10]
        replaced.title = "Replaced after the open"
        for index in [opened, reference] {
            try await index.upsert([replaced, noteItem("new-after-open", "a fresh walrus")])
            try await index.delete(ids: [items[11].id])
            #expect(try await index.delete(domains: [items[12].domain]) > 0)
        }
        #expect(await opened.item(replaced.id)?.title == "Replaced after the open")
        #expect(await opened.item(items[11].id) == nil)
        #expect(await opened.allItems() == reference.allItems())
        let (a, b) = (try await opened.statistics(), try await reference.statistics())
        #expect(a.items == b.items && a.domains == b.domains && a.terms == b.terms && a.postings == b.postings)
        try await opened.checkInvariants()

        // Expiry reads the attributes: the same items go.
        fixture.clock.advance(by: 120)
        #expect(try await opened.purgeExpired() == reference.purgeExpired())
        #expect(await opened.allItems() == reference.allItems())

        // A snapshot written by the index that reads encoded items (copying unchanged records as
        // they lie) opens to the same items again.
        #expect(await opened.saveSnapshot())
        let again = try fixture.open()
        #expect(fixture.logger.records.last { $0.operation == "open" }?.outcome == "ok, from the snapshot")
        #expect(await again.allItems() == reference.allItems())
        let later = SearchQuery("notes", limit: 20, mode: .hybrid, now: fixture.clock.now)
        #expect(try await again.search(later).results == reference.search(later).results)
        try await again.checkInvariants()
    }

    @Test(
        "The quantized copy is the snapshot's own when it codes as the open wants, coded again when it does not (other components or bits); both equal a rebuild's"
    )
    func storedQuantizedCopy() async throws {
        let fixture = try IndexFixture(.disk, embedder: randomModel())
        let live = try fixture.open()
        try await live.upsert(SyntheticCorpus(seed: 6).items(count: 200))
        try await live.delete(ids: [ItemID("item-3")])
        #expect(await live.saveSnapshot())
        let written = try #require(await live.vectors?.quantized)
        #expect(written.bits == 4)
        func open(components: Int?, bits: Int? = nil) throws -> SearchIndex {
            var configuration = SearchIndex.Configuration(
                directory: fixture.directory, embedder: fixture.embedder, clock: fixture.clock.function, logger: fixture.logger)
            configuration.quantizedScanComponents = components
            configuration.quantizedScanBits = bits
            configuration.readOnly = true
            return try SearchIndex(configuration: configuration)
        }
        let same = try open(components: written.components, bits: written.bits)
        let stored = try #require(await same.vectors?.quantized)
        #expect(stored.codes.isMapped && stored.scales.isMapped)
        #expect(stored.codes.array == written.codes.array && stored.scales.array == written.scales.array)

        let other = written.components == 32 ? 64 : 32
        let vectors = try #require(await live.vectors)
        for coding in [QuantizedCoding(components: other, bits: 8), QuantizedCoding(components: written.components, bits: 8)] {
            let recoded = try #require(await open(components: coding.components, bits: coding.bits).vectors?.quantized)
            #expect(recoded.coding == coding && !recoded.codes.isMapped)
            let rebuilt = VectorIndex(dimension: vectors.dimension, coding: coding, halves: vectors.halves.base, occupied: vectors.occupied)
            #expect(recoded.codes.array == rebuilt.quantized!.codes.array && recoded.scales.array == rebuilt.quantized!.scales.array)
        }
    }

    @Test("Once most rows have changed since the open, the item cache decodes the rest and lets the snapshot's pages go, every item kept")
    func encodedCacheDecodesWhenMostlyChanged() async throws {
        let fixture = try IndexFixture(.disk)
        let count = ItemCache.decodeAllAfter * 2 + 100
        var items = SyntheticCorpus(seed: 17).items(count: count)
        let live = try fixture.open()
        try await live.upsert(items)
        #expect(await live.saveSnapshot())
        let opened = try fixture.open()
        #expect(await opened.state.items.isEncoded)
        for i in 0..<(count / 2) { items[i].title = "Changed \(i)" }
        try await opened.upsert(Array(items[0..<(count / 2 - 10)]))
        #expect(await opened.state.items.isEncoded)
        try await opened.upsert(Array(items[(count / 2 - 10)..<(count / 2 + 1)]))
        #expect(await !opened.state.items.isEncoded)
        #expect(await opened.allItems() == items.sorted { $0.id < $1.id })
        try await opened.checkInvariants()
    }
}
