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
///      u64 analysis fingerprint, u32 dimension (0: no vectors)
/// body: items, domain names, keyword index, vectors (IndexState+Snapshot.swift)
/// u64 the file's size in bytes
/// u64 checksum of every byte before it (SnapshotChecksum)
/// ```
/// Little-endian throughout. Only plain (unprotected) indexes have snapshots: a protected
/// index's records are sealed at rest, and a snapshot would hold them in the clear.
enum IndexSnapshot {
    static let fileName = "index.snapshot"
    static let magic = Array("SIFTSNAP".utf8)
    /// Bump when the layout of the file changes.
    static let formatVersion: UInt32 = 1

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
        do throws(SnapshotRejection) {
            let writer = try SnapshotWriter(path: temporary)
            magic.withUnsafeBytes { writer.bytes($0) }
            writer.u32(formatVersion)
            writeKey(key, to: writer)
            state.writeSnapshotBody(to: writer)
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
    }

    /// Removes the snapshot of `directory`, if any (after a commit made it stale).
    static func remove(in directory: URL) {
        unlink(url(in: directory).path)
    }

    /// Removes temporary files that interrupted writes left behind.
    static func removeTemporaryFiles(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(fileName + ".tmp-") {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    /// The rejection of an index that has no snapshot file (yet).
    static let missing = "no snapshot"

    // MARK: Reading

    /// The projections in the snapshot of `directory`, when it exists, is intact and its key is
    /// `expected`; otherwise why not.
    /// - Parameter quantized: build the int8 copy of the vectors for the quantized scan.
    /// - Complexity: one read of the file: O(items + postings + vectors), no text analysis.
    static func load(in directory: URL, expected: Key, quantized: Bool) -> Result<IndexState, SnapshotRejection> {
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
            guard file.count >= r.offset + 16 else { throw SnapshotRejection("the snapshot is truncated (\(file.count) bytes)") }
            let size = UInt64(littleEndian: file.bytes.loadUnaligned(fromByteOffset: file.count - 16, as: UInt64.self))
            guard size == UInt64(file.count) else {
                throw SnapshotRejection("the snapshot is truncated or damaged (\(file.count) bytes, its trailer says \(size))")
            }
            let stored = UInt64(littleEndian: file.bytes.loadUnaligned(fromByteOffset: file.count - 8, as: UInt64.self))
            let computed = SnapshotChecksum.of(UnsafeRawBufferPointer(rebasing: file.bytes[0..<(file.count - 8)]))
            guard stored == computed else { throw SnapshotRejection("the snapshot is damaged (checksum mismatch)") }
            var body = SnapshotReader(UnsafeRawBufferPointer(rebasing: file.bytes[r.offset..<(file.count - 16)]))
            let state = try IndexState(snapshotBody: &body, bm25: expected.bm25, dimension: expected.dimension, quantized: quantized)
            guard body.remaining == 0 else { throw SnapshotRejection("the snapshot is malformed (\(body.remaining) bytes after its last section)") }
            return .success(state)
        } catch {
            return .failure(error)
        }
    }

    private static func readKey(_ r: inout SnapshotReader) throws(SnapshotRejection) -> Key {
        let generation = StoreGeneration(counter: try r.u64(), tag: try r.u64())
        let flags = try r.u32()
        guard flags == 0 else { throw SnapshotRejection("the snapshot has flags \(flags), this Sift reads only plain snapshots") }
        let fingerprint = try r.optionalString()
        let titleWeight = try r.f32()
        let k1 = try r.f32()
        let weights = try (0..<r.count(minimumSize: 4)).map { _ throws(SnapshotRejection) in try r.f32() }
        let b = try (0..<r.count(minimumSize: 4)).map { _ throws(SnapshotRejection) in try r.f32() }
        let analysis = try r.u64()
        let dimension = Int(try r.u32())
        return Key(
            generation: generation, vectorFingerprint: fingerprint, titleEmbeddingWeight: titleWeight,
            bm25: BM25Parameters(k1: k1, weights: weights, b: b), analysis: analysis, dimension: dimension)
    }

    /// Why a snapshot with key `found` cannot stand for `expected`, or nil when it can.
    static func describeMismatch(found: Key, expected: Key) -> String? {
        if found.generation != expected.generation {
            if found.generation.counter == expected.generation.counter {
                return "the snapshot is of another history of the store (generation \(found.generation.counter), another tag)"
            }
            return "the snapshot is stale (generation \(found.generation.counter), the store is at \(expected.generation.counter))"
        }
        if found.vectorFingerprint != expected.vectorFingerprint {
            return "the snapshot's vectors are from \(found.vectorFingerprint ?? "no model"), this index uses \(expected.vectorFingerprint ?? "no model")"
        }
        if found.titleEmbeddingWeight.bitPattern != expected.titleEmbeddingWeight.bitPattern {
            return "the snapshot was made with title weight \(found.titleEmbeddingWeight), this index uses \(expected.titleEmbeddingWeight)"
        }
        if found.bm25 != expected.bm25 { return "the snapshot was made with other BM25 parameters" }
        if found.analysis != expected.analysis { return "the snapshot was made by another version of the keyword analysis" }
        if found.dimension != expected.dimension {
            return "the snapshot has \(found.dimension)-dimensional vectors, this index uses \(expected.dimension)"
        }
        return nil
    }
}
