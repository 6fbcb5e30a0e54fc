import Foundation

/// A snapshot's key as the file records it, and why one key cannot stand for another.
extension IndexSnapshot {
    static func readKey(_ r: inout SnapshotReader) throws(SnapshotRejection) -> Key {
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
        let precision: VectorPrecision
        switch try r.u32() {
        case 4: precision = .float32
        case 2: precision = .float16
        case let n: throw IndexState.malformed("vector components of \(n) bytes")
        }
        return Key(
            generation: generation, vectorFingerprint: fingerprint, titleEmbeddingWeight: titleWeight,
            bm25: BM25Parameters(k1: k1, weights: weights, b: b), analysis: analysis, dimension: dimension,
            precision: precision)
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
            return
                "the snapshot's vectors are from \(found.vectorFingerprint ?? "no model"), this index uses \(expected.vectorFingerprint ?? "no model")"
        }
        if found.titleEmbeddingWeight.bitPattern != expected.titleEmbeddingWeight.bitPattern {
            return "the snapshot was made with title weight \(found.titleEmbeddingWeight), this index uses \(expected.titleEmbeddingWeight)"
        }
        if !found.bm25.indexesAlike(expected.bm25) { return "the snapshot was made with other BM25 parameters" }
        if found.analysis != expected.analysis { return "the snapshot was made by another version of the keyword analysis" }
        if found.dimension != expected.dimension {
            return "the snapshot has \(found.dimension)-dimensional vectors, this index uses \(expected.dimension)"
        }
        if found.precision != expected.precision {
            return "the snapshot keeps \(found.precision.rawValue) vectors, this index uses \(expected.precision.rawValue)"
        }
        return nil
    }
}
