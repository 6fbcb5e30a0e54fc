import CSiftKernels
import Foundation

/// The in-memory projections of an index (identifier table, item cache, keyword index, vector
/// matrix, domain names) persisted beside its store, so that an open can load them in one pass
/// instead of re-analysing every stored item.
///
/// The store stays the source of truth: a snapshot carries the ``StoreGeneration`` it reflects
/// and everything else its contents depend on (``Key``), and is used only when all of it matches
/// the store and the configuration, and its checksum matches its bytes. Anything else — missing,
/// stale, made for another model, title weight, BM25 parameters or analysis, another format
/// version, truncated, damaged — makes the open rebuild from the store and log why. Donations
/// are not in it: they are read from the store on every open.
///
/// File `index.snapshot` in the index directory, written to a temporary file and renamed over
/// it, so a reader sees the old file or the new one, never a partial one:
/// ```
/// "SIFTSNAP"  u32 format version
/// key: u64 generation counter, u64 tag, u32 flags (0: plain), optional string vector fingerprint,
///      f32 title weight, f32 k1, u32 n + n f32 field weights, u32 n + n f32 b,
///      u64 analysis fingerprint, u32 dimension (0: no vectors), u32 bytes a vector component
///      (4: fp32, 2: fp16)
/// body: sections of items, domain names, the keyword index, the vectors — rows, quantized copy,
///       re-scoring copy (IndexState+Snapshot.swift, IndexState+SnapshotVectors.swift)
/// section table: u32 n; n × (u32 kind, u64 start, u64 end) byte ranges in the file
/// u64 offset of the section table, u64 the file's size in bytes
/// u64 checksum of every byte before it but the vector rows' (SnapshotChecksum)
/// ```
/// Little-endian throughout. The sections are decoded in parallel, the checksum computed beside
/// them; nothing decoded is used unless the checksum matches. The vector rows — a third of
/// the file at 256 dimensions — have a checksum each instead, verified as they are read
/// (``RowChecks``, `IndexState.readVectors`). Only plain (unprotected) indexes have snapshots: a protected
/// index's records are sealed at rest, and a snapshot would hold them in the clear.
enum IndexSnapshot {
    static let fileName = "index.snapshot"
    static let magic = Array("SIFTSNAP".utf8)
    /// Bump when the layout of the file changes.
    static let formatVersion: UInt32 = 10

    /// What a snapshot's contents depend on; a snapshot is used only when its key equals the
    /// one the store and the configuration give.
    struct Key: Equatable, Sendable {
        var generation: StoreGeneration
        var vectorFingerprint: String?
        var titleEmbeddingWeight: Float
        var bm25: BM25Parameters
        var analysis: UInt64
        /// The vector dimension, 0 without a model.
        var dimension: Int
        /// How the rows keep their components.
        var precision: VectorPrecision
    }

    /// The snapshot file of an index directory.
    static func url(in directory: URL) -> URL { directory.appendingPathComponent(fileName) }

    /// Why an index of this configuration has no snapshot at all, or nil when it may have one.
    static func unavailability(_ configuration: SearchIndex.Configuration) -> String? {
        if configuration.directory == nil { return "in memory" }
        if configuration.codec.scheme != PlainCodec().scheme { return "snapshots are off for protected indexes" }
        return nil
    }

    // MARK: Writing

    /// Writes `state`, which reflects `key.generation`, as the snapshot of `directory`:
    /// to a temporary file first, renamed over the old snapshot once complete.
    /// - Returns: the file's size in bytes.
    /// - Complexity: O(items + postings + vectors): one sequential write.
    static func write(_ state: IndexState, key: Key, in directory: URL) throws(SnapshotRejection) -> Int {
        let final = url(in: directory).path
        let temporary = final + ".tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        // Every row's checksum first: rows read from a snapshot that no longer match it are not
        // sealed into a new one.
        let rowSums = state.vectors.map { $0.rowSums() } ?? []
        guard let rowSums else {
            let row = state.vectors?.rowChecks?.damagedRow.map { " (row \($0))" } ?? ""
            throw SnapshotRejection(
                "the vector rows read from the last snapshot are damaged\(row): no snapshot is written, the next open rebuilds from the store"
            )
        }
        do throws(SnapshotRejection) {
            let writer = try SnapshotWriter(path: temporary)
            magic.withUnsafeBytes { writer.bytes($0) }
            writer.u32(formatVersion)
            writeKey(key, to: writer)
            let sections = state.writeSnapshotBody(to: writer, rowSums: rowSums)
            let table = writer.count
            writer.count(sections.count)
            for (kind, range) in sections {
                writer.u32(kind.rawValue)
                writer.u64(UInt64(range.lowerBound))
                writer.u64(UInt64(range.upperBound))
            }
            writer.u64(UInt64(table))
            writer.u64(UInt64(writer.count + 16))
            let size = try writer.finish()
            guard rename(temporary, final) == 0 else {
                throw SnapshotRejection("cannot rename the snapshot into place (\(String(cString: strerror(errno))))")
            }
            return size
        } catch {
            unlink(temporary)
            throw error
        }
    }

    private static func writeKey(_ key: Key, to w: SnapshotWriter) {
        w.u64(key.generation.counter)
        w.u64(key.generation.tag)
        w.u32(0)
        w.optionalString(key.vectorFingerprint)
        w.f32(key.titleEmbeddingWeight)
        w.f32(key.bm25.k1)
        w.count(key.bm25.weights.count)
        for x in key.bm25.weights { w.f32(x) }
        w.count(key.bm25.b.count)
        for x in key.bm25.b { w.f32(x) }
        w.u64(key.analysis)
        w.count(key.dimension)
        w.count(key.precision.bytesPerComponent)
    }

    /// Removes the snapshot of `directory`, if any (after a commit made it stale).
    static func remove(in directory: URL) {
        unlink(url(in: directory).path)
    }

    /// Removes temporary files that interrupted writes left behind: those whose writing process
    /// (the pid in the name) is gone — not the file another process is writing right now.
    static func removeTemporaryFiles(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let prefix = fileName + ".tmp-"
        for name in names where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap { pid_t($0) }
            if let pid, pid > 0, kill(pid, 0) == 0 || errno == EPERM { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// The rejection of an index that has no snapshot file (yet).
    static let missing = "no snapshot"

    // MARK: Reading

    /// The projections in the snapshot of `directory`, when it exists, is intact and its key is
    /// `expected`; otherwise why not.
    /// - Parameters:
    ///   - coding: build the quantized copy of the vectors for the quantized scan, coding this
    ///     many leading components of each at this many bits (nil: no copy).
    ///   - verifyAsReadFrom: an index of this many rows or more, with its quantized copies
    ///     restored, has its vector rows verified as they are read rather than at the open
    ///     (`IndexState.readVectors`; `Int.max`: always at the open).
    /// - Complexity: one read of the file: O(items + postings + vectors), no text analysis.
    static func load(in directory: URL, expected: Key, coding: QuantizedCoding?, verifyAsReadFrom: Int = .max)
        -> Result<IndexState, SnapshotRejection>
    {
        do throws(SnapshotRejection) {
            let file = try MappedSnapshot(path: url(in: directory).path)
            var r = SnapshotReader(file.bytes)
            guard file.count >= magic.count + 4, Array(try r.take(magic.count)) == magic else {
                throw SnapshotRejection("the snapshot file does not start with the snapshot magic")
            }
            let version = try r.u32()
            guard version == formatVersion else {
                throw SnapshotRejection("the snapshot has format version \(version), this Sift writes \(formatVersion)")
            }
            let key = try readKey(&r)
            if let mismatch = describeMismatch(found: key, expected: expected) { throw SnapshotRejection(mismatch) }
            guard file.count >= r.offset + 24 else { throw SnapshotRejection("the snapshot is truncated (\(file.count) bytes)") }
            let size = UInt64(littleEndian: file.bytes.loadUnaligned(fromByteOffset: file.count - 16, as: UInt64.self))
            guard size == UInt64(file.count) else {
                throw SnapshotRejection("the snapshot is truncated or damaged (\(file.count) bytes, its trailer says \(size))")
            }
            let sections = try readSectionTable(file.bytes, bodyStart: r.offset)
            let state = try decode(file, sections: sections, expected: expected, coding: coding, verifyAsReadFrom: verifyAsReadFrom)
            return .success(state)
        } catch {
            return .failure(error)
        }
    }

    typealias Section = (kind: IndexState.SnapshotSection, range: Range<Int>)

    /// The section table, checked: known kinds, in order, inside the body, one domains, keyword
    /// and vectors section each.
    static func readSectionTable(_ bytes: UnsafeRawBufferPointer, bodyStart: Int) throws(SnapshotRejection) -> [Section] {
        let tableOffset = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: bytes.count - 24, as: UInt64.self))
        guard tableOffset >= UInt64(bodyStart), tableOffset <= UInt64(bytes.count - 24) else {
            throw SnapshotRejection("the snapshot is malformed (its section table is outside the file)")
        }
        var r = SnapshotReader(UnsafeRawBufferPointer(rebasing: bytes[Int(tableOffset)..<(bytes.count - 24)]))
        let count = try r.count(minimumSize: 20)
        var sections: [Section] = []
        var end = bodyStart
        for _ in 0..<count {
            let raw = try r.u32()
            let start = try r.u64()
            let stop = try r.u64()
            guard let kind = IndexState.SnapshotSection(rawValue: raw) else {
                throw SnapshotRejection("the snapshot is malformed (section kind \(raw))")
            }
            guard start == UInt64(end), stop >= start, stop <= tableOffset else {
                throw SnapshotRejection("the snapshot is malformed (section \(sections.count) is out of place)")
            }
            sections.append((kind, Int(start)..<Int(stop)))
            end = Int(stop)
        }
        guard end == Int(tableOffset), r.remaining == 0 else {
            throw SnapshotRejection("the snapshot is malformed (its sections do not cover the body)")
        }
        for kind in [IndexState.SnapshotSection.domains, .keyword, .vectors] where sections.filter({ $0.kind == kind }).count != 1 {
            throw SnapshotRejection("the snapshot is malformed (\(kind) sections: \(sections.filter { $0.kind == kind }.count))")
        }
        return sections
    }

    /// What one task of the parallel decode produced.
    private enum Decoded {
        case checksum(UInt64?)
        case items(rows: Range<Int>, domains: [String])
        case domains([String: String?])
        case keyword(KeywordIndex, holds: [Bool])
        case vectors(VectorIndex?)
        case failure(SnapshotRejection)
    }

    /// Decodes every section and computes the checksum, spread over the cores; the state only
    /// if the checksum matches and every section is sound.
    private static func decode(
        _ file: MappedSnapshot, sections: [Section], expected: Key, coding: QuantizedCoding?, verifyAsReadFrom: Int
    ) throws(SnapshotRejection) -> IndexState {
        // Task 0 is the checksum; then the sections — the keyword index (the longest: its
        // checks read every posting and every row's term list), the vectors, the items (whose
        // ids the identifier table is made of, many short sections that even the cores out at
        // the end). Then the identifier table's slots, built on every core from the ids.
        let order = sections.indices.sorted { rank(sections[$0].kind) < rank(sections[$1].kind) }
        let tasks = 1 + order.count
        let count = file.count
        let rowCount = try rowCount(file, sections: sections)
        // The items and the vector components are used where they lie: their pages are mapped
        // again on their own, and stay when the rest of the file is unmapped.
        let items = sections.filter { $0.kind == .items }
        let itemsRegion = try items.first.map { first throws(SnapshotRejection) in
            try file.keep(first.range.lowerBound..<items.last!.range.upperBound)
        }
        guard (itemsRegion?.count ?? 0) <= Int(UInt32.max) else { throw SnapshotRejection("the snapshot's items take more than 4 GiB") }
        let vectorsSection = sections.first { $0.kind == .vectors }
        let vectorsRegion = try expected.dimension > 0 ? vectorsSection.map { v throws(SnapshotRejection) in try file.keep(v.range) } : nil
        // So are the keyword index's posting lists and the rows' term ids.
        let keywordRegion = try sections.first { $0.kind == .keyword }.map { k throws(SnapshotRejection) in try file.keep(k.range) }
        let regions = Regions(items: itemsRegion, vectors: vectorsRegion, keyword: keywordRegion, verifyAsReadFrom: verifyAsReadFrom)
        let rowsRange = vectorsSection.flatMap {
            IndexState.rowsRange(in: file.bytes, vectors: $0.range, bytesPerComponent: expected.precision.bytesPerComponent)
        }
        var rows = IndexState.RestoredRows(count: rowCount)
        let (results, slots) = rows.filling { rows in
            let results = [Decoded](unsafeUninitializedCapacity: tasks) { buffer, initialized in
                // Each task initializes only its own result.
                let out = buffer.baseAddress!
                Parallel.forEach(iterations: tasks) { task in
                    if task == 0 {
                        (out + task).initialize(to: .checksum(file.checksum(ofFirst: count - 8, excluding: rowsRange)))
                        return
                    }
                    let section = sections[order[task - 1]]
                    let reader = SnapshotReader(UnsafeRawBufferPointer(rebasing: file.bytes[section.range]))
                    (out + task).initialize(
                        to: decodeSection(section, reader, into: rows, expected: expected, coding: coding, regions: regions))
                }
                initialized = tasks
            }
            // Every items section read (a failed one leaves its rows' ids nil; the open fails on its result).
            return (results, RowSlots(every: UnsafeBufferPointer(rows.ids)))
        }
        let stored = UInt64(littleEndian: file.bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        guard case .checksum(let computed) = results[0], let computed else {
            throw SnapshotRejection("the snapshot cannot be read to its end (a read failed while checking its checksum)")
        }
        guard computed == stored else { throw SnapshotRejection("the snapshot is damaged (checksum mismatch)") }
        // Back in file order.
        var bySection = [Decoded?](repeating: nil, count: sections.count)
        for (task, i) in order.enumerated() { bySection[i] = results[task + 1] }
        var domainNames: [String: String?] = [:]
        var keyword: (KeywordIndex, holds: [Bool])?
        var vectors: VectorIndex?
        var runs: [(rows: Range<Int>, domains: [String])] = []
        for decoded in bySection {
            switch decoded! {
            case .failure(let rejection): throw rejection
            case .items(let range, let domains): runs.append((range, domains))
            case .domains(let d): domainNames = d
            case .keyword(let k, let holds): keyword = (k, holds)
            case .vectors(let v): vectors = v
            case .checksum: break
            }
        }
        return try IndexState(
            rows: consume rows, slots: slots, itemsRegion: itemsRegion, runs: runs, domainNames: domainNames, keyword: keyword!,
            vectors: vectors)
    }

    /// The rows of the items sections, which must follow one another (their total sizes the
    /// item cache).
    private static func rowCount(_ file: MappedSnapshot, sections: [Section]) throws(SnapshotRejection) -> Int {
        var rowCount = 0
        for section in sections where section.kind == .items {
            var r = SnapshotReader(UnsafeRawBufferPointer(rebasing: file.bytes[section.range]))
            let range = try IndexState.itemsRange(&r)
            guard range.lowerBound == rowCount else { throw IndexState.malformed("the items sections do not follow one another") }
            rowCount = range.upperBound
        }
        return rowCount
    }

    /// The parts of the file the state goes on reading after the open, mapped on their own.
    private struct Regions: Sendable {
        var items: MappedRegion?
        var vectors: MappedRegion?
        var keyword: MappedRegion?
        /// ``load(in:expected:coding:verifyAsReadFrom:)``'s.
        var verifyAsReadFrom: Int
    }

    /// One section, read by `r` (the section's bytes): what it decodes to, or why it cannot.
    private static func decodeSection(
        _ section: Section, _ r: SnapshotReader, into rows: IndexState.RestoredRows.Writer, expected: Key,
        coding: QuantizedCoding?, regions: Regions
    ) -> Decoded {
        var r = r
        let kind = section.kind
        do throws(SnapshotRejection) {
            let decoded: Decoded
            switch kind {
            case .items:
                let (range, domains) = try IndexState.readItems(
                    &r, sectionOffset: section.range.lowerBound, region: regions.items!, into: rows)
                decoded = .items(rows: range, domains: domains)
            case .domains: decoded = .domains(try IndexState.readDomains(&r))
            case .keyword:
                let (k, holds) = try IndexState.readKeyword(
                    &r, bm25: expected.bm25, sectionOffset: section.range.lowerBound, region: regions.keyword)
                decoded = .keyword(k, holds: holds)
            case .vectors:
                decoded = .vectors(
                    try IndexState.readVectors(
                        &r, dimension: expected.dimension, precision: expected.precision, coding: coding,
                        sectionOffset: section.range.lowerBound, region: regions.vectors, verifyAsReadFrom: regions.verifyAsReadFrom))
            }
            if r.remaining != 0 { throw IndexState.malformed("\(r.remaining) bytes after the \(kind) section") }
            return decoded
        } catch {
            return .failure(error)
        }
    }

    private static func rank(_ kind: IndexState.SnapshotSection) -> Int {
        switch kind {
        case .keyword: 0
        case .vectors: 1
        case .items: 2
        case .domains: 3
        }
    }
}
