import Foundation
import Testing

@testable import Sift

/// A small model with seeded random weights, built in the test (no file from outside needed).
func tinyModel(quantized: Bool, bucketBits: Int = 8, dimension: Int = 32) -> HashedNGramEmbedder {
    var state: UInt64 = 12345
    let weights = (0..<((1 << bucketBits) * dimension)).map { _ -> Float in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
    }
    return HashedNGramEmbedder(
        featurizer: NGramFeaturizer(bucketBits: bucketBits), dimension: dimension, weights: weights,
        quantized: quantized, name: "tiny")
}

func cosine(_ a: [Float], _ b: [Float]) -> Float {
    var dot: Float = 0
    var na: Float = 0
    var nb: Float = 0
    for i in a.indices {
        dot += a[i] * b[i]
        na += a[i] * a[i]
        nb += b[i] * b[i]
    }
    return dot / (na.squareRoot() * nb.squareRoot())
}

@Suite("Model file format and loader")
final class ModelFileTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sift-model-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    func loadError(_ url: URL) -> ModelError? {
        do {
            _ = try HashedNGramEmbedder(contentsOf: url)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "Golden vectors: an independent implementation of the spec gives the same components",
        arguments: [
            ("machine learning", [-0.031005, 0.198955, -0.138008, 0.077574, -0.139485, 0.207306] as [Float]),
            ("The quick brown fox", [0.01693, -0.139159, -0.180001, 0.360434, -0.00095, 0.194331]),
        ])
    func goldenVectors(text: String, expected: [Float]) {
        // Values from a separate Python implementation of Models/MODEL.md (FNV-1a 64, Fibonacci
        // bucketing, 3-5-grams of <word>, int8 rows with max|w|/127 scales) on the same seeded table,
        // summing the rows in full precision; Sift rounds each term's sum to fp16 (2^-11 of it).
        let v = tinyModel(quantized: true).embed(text)
        for (j, e) in expected.enumerated() {
            #expect(abs(v[j] - e) < 1e-4, "component \(j): \(v[j]) vs \(e)")
        }
    }

    @Test("A written model loads back with the same vectors and fingerprint")
    func roundTrip() throws {
        let model = tinyModel(quantized: true)
        let url = try write(model.fileContents(), "tiny.siftmodel")
        let loaded = try HashedNGramEmbedder(contentsOf: url)
        #expect(loaded.fingerprint == model.fingerprint)
        #expect(loaded.dimension == 32 && loaded.featurizer == model.featurizer && loaded.isQuantized)
        for text in ["machine learning", "Café русский", "a b c d e f g"] {
            #expect(loaded.embed(text) == model.embed(text))
        }
        var filter = FeatureFilter(log2Bits: 10, probes: 2)
        filter.insert(NGramFeaturizer.hash(kind: .word, bytes: Array("machine".utf8)))
        let filtered = HashedNGramEmbedder(
            featurizer: model.featurizer.with(vocabulary: filter), dimension: 32,
            weights: [Float](repeating: 0.5, count: 256 * 32), quantized: true)
        let filteredLoaded = try HashedNGramEmbedder(contentsOf: write(filtered.fileContents(), "filtered.siftmodel"))
        #expect(filteredLoaded.featurizer.vocabulary == filter)
        #expect(filteredLoaded.embed("machine learning") == filtered.embed("machine learning"))
        let f = model.featurizer
        let sparse = HashedNGramEmbedder(
            featurizer: NGramFeaturizer(
                bucketBits: f.bucketBits, vocabulary: filter, nGramsOnlyForUnknownWords: true),
            dimension: 32, weights: [Float](repeating: 0.5, count: 256 * 32), quantized: true)
        let sparseLoaded = try HashedNGramEmbedder(contentsOf: write(sparse.fileContents(), "sparse.siftmodel"))
        #expect(sparseLoaded.featurizer.nGramsOnlyForUnknownWords && sparseLoaded.featurizer == sparse.featurizer)
        #expect(sparseLoaded.fingerprint != filteredLoaded.fingerprint)
        let fp32 = tinyModel(quantized: false)
        let fp32Loaded = try HashedNGramEmbedder(contentsOf: write(fp32.fileContents(), "tiny32.siftmodel"))
        #expect(fp32Loaded.embed("machine learning") == fp32.embed("machine learning"))
    }

    @Test("A truncated file is rejected, naming the file and both sizes")
    func truncated() throws {
        let bytes = tinyModel(quantized: true).fileContents()
        let url = try write(Array(bytes.prefix(bytes.count - 100)), "truncated.siftmodel")
        let error = try #require(loadError(url))
        #expect(error.reason == .truncated(expected: bytes.count, actual: bytes.count - 100))
        #expect(error.description.contains("truncated.siftmodel"))
        #expect(error.description.contains("truncated"))
        let header = try write(Array(bytes.prefix(40)), "header.siftmodel")
        #expect(loadError(header)?.reason == .truncated(expected: 128, actual: 40))
        let empty = try write([], "empty.siftmodel")
        #expect(loadError(empty)?.reason == .truncated(expected: 128, actual: 0))
    }

    @Test("A file with bad magic is rejected")
    func badMagic() throws {
        var bytes = tinyModel(quantized: true).fileContents()
        bytes[0] = UInt8(ascii: "X")
        let error = try #require(loadError(try write(bytes, "magic.siftmodel")))
        #expect(error.reason == .badMagic)
        #expect(error.description.contains("magic.siftmodel") && error.description.contains("bad magic"))
    }

    @Test("A file of another format version is rejected")
    func wrongVersion() throws {
        var bytes = tinyModel(quantized: true).fileContents()
        bytes[8] = 2
        let error = try #require(loadError(try write(bytes, "version.siftmodel")))
        #expect(error.reason == .unsupportedVersion(found: 2, supported: 1))
        #expect(error.description.contains("version 2"))
    }

    @Test("A corrupted byte anywhere is caught by the checksum")
    func corrupted() throws {
        let original = tinyModel(quantized: true).fileContents()
        for offset in [70, 200, original.count / 2, original.count - 1] {
            var bytes = original
            bytes[offset] ^= 0x10
            let error = try #require(loadError(try write(bytes, "corrupt-\(offset).siftmodel")))
            guard case .checksumMismatch = error.reason else {
                Issue.record("offset \(offset): \(error)")
                continue
            }
            #expect(error.description.contains("bad checksum"))
        }
    }

    @Test("The stored checksum is the one Models/MODEL.md defines, computed here independently")
    func checksumDefinition() throws {
        let bytes = tinyModel(quantized: true).fileContents()
        let word = { (i: Int) in (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[i * 8 + $1]) << (8 * UInt64($1)) } }
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<(bytes.count / 8) where i != 7 { h = (h ^ word(i)) &* prime }
        h = h &* prime
        #expect(word(7) == h)
        // Not the checksum word read as zero in its place: the two definitions differ.
        var inPlace: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<(bytes.count / 8) { inPlace = (inPlace ^ (i == 7 ? 0 : word(i))) &* prime }
        #expect(inPlace != h)
    }

    @Test("Inconsistent sizes and trailing bytes are rejected")
    func inconsistent() throws {
        var bytes = tinyModel(quantized: true).fileContents()
        let grown = bytes + [0, 0, 0, 0, 0, 0, 0, 0]
        if case .inconsistent(let what)? = loadError(try write(grown, "long.siftmodel"))?.reason {
            #expect(what.contains("unexpected bytes"))
        } else {
            Issue.record("trailing bytes accepted")
        }
        bytes[16] = 64  // dimension 64: the header's file length no longer matches
        if case .inconsistent(let what)? = loadError(try write(bytes, "dim.siftmodel"))?.reason {
            #expect(what.contains("dimensions"))
        } else {
            Issue.record("wrong dimension accepted")
        }
    }

    @Test("A missing file is an error naming the path")
    func missing() {
        let url = directory.appendingPathComponent("nope.siftmodel")
        let error = loadError(url)
        #expect(error?.description.contains("nope.siftmodel") == true)
    }

    @Test("Quantised and full-precision tables give vectors with cosine ≥ 0.99")
    func quantisation() {
        let q = tinyModel(quantized: true)
        let f = tinyModel(quantized: false)
        for text in ["machine learning", "the quick brown fox jumps over the lazy dog", "Café", "x"] {
            #expect(cosine(q.embed(text), f.embed(text)) >= 0.99)
        }
    }

    @Test("Empty or featureless text embeds to the zero vector; others to unit length")
    func zeroVector() {
        let model = tinyModel(quantized: true)
        for text in ["", "   ", "the of and", "😤!!"] {
            #expect(model.embed(text) == [Float](repeating: 0, count: 32))
        }
        let v = model.embed("machine learning")
        #expect(abs(v.map { $0 * $0 }.reduce(0, +) - 1) < 1e-5)
    }
}
