import Foundation
import SiftEvaluation
import Testing

@testable import Sift

/// An index of 200 items on a random model with its snapshot saved, and ways to open it: with
/// the quantized scan from the first row (its rows then verified as they are read) or without
/// (verified at the open).
private struct RowChecksFixture {
    var fixture: IndexFixture
    let items = SyntheticCorpus(seed: 4).items(count: 200)

    init() async throws {
        fixture = try IndexFixture(.disk, embedder: randomModel())
        let live = try open(verifiedAsRead: true)
        try await live.upsert(items)
        #expect(await live.saveSnapshot())
    }

    var directory: URL { fixture.directory! }
    var snapshotFile: URL { IndexSnapshot.url(in: directory) }

    func open(verifiedAsRead: Bool, readOnly: Bool = false) throws -> SearchIndex {
        var configuration = SearchIndex.Configuration(
            directory: directory, embedder: fixture.embedder, clock: fixture.clock.function, logger: fixture.logger)
        configuration.quantizedScan = true
        configuration.quantizedScanMinimumRows = verifiedAsRead ? 0 : .max
        configuration.readOnly = readOnly
        return try SearchIndex(configuration: configuration)
    }

    var lastOpenOutcome: String? { fixture.logger.records.last { $0.operation == "open" }?.outcome }
    var snapshotOutcomes: [String] { fixture.logger.records.filter { $0.operation == "snapshot" }.map(\.outcome) }

    /// Flips a bit in the first component of the row of `items[i]` in the snapshot file, leaving
    /// the file's own checksum matching (the rows are outside it); returns the row.
    func damageRow(ofItem i: Int) async throws -> Int {
        let reader = try open(verifiedAsRead: true, readOnly: true)
        let row = Int(try #require(await reader.table.row(of: items[i].id)))
        let vectors = try #require(await reader.vectors)
        let stride = vectors.dimension * vectors.precision.bytesPerComponent
        var bytes = [UInt8](try Data(contentsOf: snapshotFile))
        let rows = try #require(bytes.withUnsafeBytes { IndexSnapshot.rowsRange(ofFile: $0) })
        let before = bytes.withUnsafeBytes { IndexSnapshot.expectedChecksum(of: $0) }
        bytes[rows.lowerBound + row * stride + 1] ^= 0x04
        #expect(bytes.withUnsafeBytes { IndexSnapshot.expectedChecksum(of: $0) } == before)
        try Data(bytes).write(to: snapshotFile)
        return row
    }
}

@Suite("Snapshot rows: outside the file's checksum, each row verified by its own")
struct SnapshotRowChecksTests {
    @Test("The file's checksum leaves out exactly the rows: a changed byte just before or after them is damage found at the open")
    func checksumCoversAllButTheRows() async throws {
        let s = try await RowChecksFixture()
        let original = [UInt8](try Data(contentsOf: s.snapshotFile))
        let rows = try #require(original.withUnsafeBytes { IndexSnapshot.rowsRange(ofFile: $0) })
        #expect(rows.lowerBound % 64 == 0 && rows.upperBound % 64 == 0 && rows.count >= 200 * 2)
        for position in [rows.lowerBound - 1, rows.upperBound] {
            var bytes = original
            bytes[position] ^= 0x01
            try Data(bytes).write(to: s.snapshotFile)
            _ = try s.open(verifiedAsRead: true, readOnly: true)
            #expect(s.lastOpenOutcome?.hasPrefix("ok, rebuilt: the snapshot is") == true, "\(position): \(s.lastOpenOutcome ?? "")")
        }
    }

    @Test("Where the queries would scan the rows, a damaged row is found at the open: the open rebuilds and says which row")
    func damagedRowFoundAtOpen() async throws {
        let s = try await RowChecksFixture()
        let row = try await s.damageRow(ofItem: 7)
        let reopened = try s.open(verifiedAsRead: false)
        #expect(s.lastOpenOutcome == "ok, rebuilt: the snapshot is damaged (vector row \(row) does not match its checksum)")
        #expect(await reopened.allItems().count == s.items.count)
        try await reopened.checkInvariants()
    }

    @Test("sift check finds a damaged row though the file's checksum matches")
    func checkFindsDamagedRow() async throws {
        let s = try await RowChecksFixture()
        let row = try await s.damageRow(ofItem: 3)
        let report = SearchIndex.check(configuration: .init(directory: s.directory, embedder: s.fixture.embedder))
        let part = try #require(report.part("snapshot"))
        #expect(!part.isWhole && part.summary.contains("vector row \(row) does not match its checksum"), "\(part.summary)")
        #expect(part.summary.contains("answers from its re-scoring copy and removes the snapshot"), "\(part.summary)")
        #expect(report.part("items")?.isWhole == true)
    }

    @Test(
        "Verified as read, a damaged row opens, is found by the query that reads it and answered from the re-scoring copy, reported once; the snapshot is removed and the next open rebuilds"
    )
    func damagedRowFoundAsRead() async throws {
        let s = try await RowChecksFixture()
        let reference = try s.open(verifiedAsRead: true, readOnly: true)
        let target = s.items[11]
        let query = SearchQuery(target.title, mode: .hybrid, minimumRelevance: 0)
        let expected = try await reference.search(query).results
        let row = try await s.damageRow(ofItem: 11)
        let opened = try s.open(verifiedAsRead: true)
        #expect(s.lastOpenOutcome == "ok, from the snapshot")
        let earlier = s.snapshotOutcomes.count
        let found = try await opened.search(query).results
        // The damaged row's cosine is its re-scoring copy's, within about 10⁻³ of the exact one.
        let before = Dictionary(expected.map { ($0.id, $0.score) }, uniquingKeysWith: max)
        let after = Dictionary(found.map { ($0.id, $0.score) }, uniquingKeysWith: max)
        let (b, a) = (try #require(before[target.id]), try #require(after[target.id]))
        #expect(abs(a - b) <= 0.01 * max(1, abs(b)), "\(a) vs \(b)")
        #expect(found.prefix(3).map(\.id) == expected.prefix(3).map(\.id))
        let reports = Array(s.snapshotOutcomes.dropFirst(earlier))
        #expect(
            reports.count == 1 && reports[0].hasPrefix("damaged: vector row \(row) does not match its checksum")
                && reports[0].hasSuffix("the snapshot is removed, the next open rebuilds from the store"), "\(reports)")
        #expect(!FileManager.default.fileExists(atPath: s.snapshotFile.path))
        _ = try await opened.search(query)
        #expect(s.snapshotOutcomes.count == earlier + 1, "reported once")
        #expect(await opened.saveSnapshot() == false, "no snapshot is written from the damaged rows")
        #expect(s.snapshotOutcomes.last?.contains("the vector rows read from the last snapshot are damaged (row \(row))") == true)
        let rebuilt = try s.open(verifiedAsRead: true, readOnly: true)
        #expect(s.lastOpenOutcome == "ok, rebuilt: no snapshot")
        #expect(try await rebuilt.search(query).results.map(\.id) == expected.map(\.id))
    }

    @Test("A damaged row no query read is still never sealed into the next snapshot: the write after a commit finds it and refuses")
    func damagedRowIsNotResealed() async throws {
        let s = try await RowChecksFixture()
        let row = try await s.damageRow(ofItem: 20)
        let opened = try s.open(verifiedAsRead: true)
        #expect(s.lastOpenOutcome == "ok, from the snapshot")
        var added = s.items[0]
        added.id = ItemID("added-after-the-open")
        try await opened.upsert([added])
        #expect(await opened.saveSnapshot() == false)
        #expect(s.snapshotOutcomes.last?.contains("the vector rows read from the last snapshot are damaged (row \(row))") == true)
        #expect(!FileManager.default.fileExists(atPath: s.snapshotFile.path))
        let reopened = try s.open(verifiedAsRead: true)
        #expect(s.lastOpenOutcome == "ok, rebuilt: no snapshot")
        #expect(await reopened.allItems().count == s.items.count + 1)
        try await reopened.checkInvariants()
        #expect(await reopened.saveSnapshot(), "rebuilt from the store, the index writes a sound snapshot again")
    }
}
