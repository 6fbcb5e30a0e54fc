import Foundation
import Testing

@testable import Sift

/// The unknown-word signature (`NGramFeaturizer.unknownWordSignature`, `Models/MODEL.md`): a word
/// outside the vocabulary filter gets a direction of its own beside its character n-grams.
@Suite("Unknown-word signatures")
struct UnknownWordSignatureTests {
    static let known = ["machine", "learning", "results", "findings", "regulates", "cells"]

    /// A model whose vocabulary filter holds `known`, random rows, and signature `s`.
    static func model(signature s: Float, dimension: Int = 64) -> HashedNGramEmbedder {
        var filter = FeatureFilter(log2Bits: 16, probes: 3)
        for w in known { filter.insert(NGramFeaturizer.hash(kind: .word, bytes: Array(w.utf8))) }
        var rng = SeededGenerator(seed: 41)
        let featurizer = NGramFeaturizer(bucketBits: 10, vocabulary: filter, unknownWordSignature: s)
        let weights = (0..<(featurizer.bucketCount * dimension)).map { _ in Float(rng.int(-1000..<1000)) / 1000 }
        return HashedNGramEmbedder(featurizer: featurizer, dimension: dimension, weights: weights, quantized: true)
    }

    static func sum(_ model: HashedNGramEmbedder, _ text: String) -> [Float] {
        var v = [Float](repeating: 0, count: model.dimension)
        v.withUnsafeMutableBufferPointer { model.accumulate(text, into: $0) }
        return v
    }

    static func norm(_ v: [Float]) -> Float { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }

    @Test("An unknown word gains ±s‖n‖/√D in every component; a known word is unchanged")
    func signatureShape() {
        let plain = Self.model(signature: 0)
        let signed = plain.with(unknownWordSignature: 2)
        #expect(Self.sum(signed, "machine") == Self.sum(plain, "machine"))
        #expect(!signed.recognizes(word: "zorblax"))
        let n = Self.sum(plain, "zorblax")
        let difference = zip(Self.sum(signed, "zorblax"), n).map { $0 - $1 }
        let expected = 2 * Self.norm(n) / Float(plain.dimension).squareRoot()
        #expect(expected > 0)
        // Every component moves by the same amount, up or down (the term's sum is kept as fp16).
        for d in difference { #expect(abs(abs(d) - expected) <= 2e-3 * Self.norm(n) + 1e-3 * expected) }
        let ups = difference.filter { $0 > 0 }.count
        #expect(ups > 16 && ups < 48)
        // The same word always gets the same signature, another word another one.
        #expect(zip(Self.sum(signed, "zorblax"), Self.sum(signed.with(unknownWordSignature: 2), "zorblax")).allSatisfy { $0 == $1 })
        let other = zip(Self.sum(signed, "quuxify"), Self.sum(plain, "quuxify")).map { $0 - $1 }
        #expect(abs(cosine(difference, other)) < 0.5)
    }

    @Test("Two texts that share an unknown word come closer; the same texts without one do not move")
    func sharedUnknownWord() {
        let plain = Self.model(signature: 0)
        let signed = plain.with(unknownWordSignature: 4)
        let a = "zorblax regulates cells"
        let b = "zorblax results findings"
        #expect(cosine(signed.embed(a), signed.embed(b)) > cosine(plain.embed(a), plain.embed(b)) + 0.2)
        #expect(cosine(signed.embed(a), signed.embed(b)) > 0.35)
        let c = "machine learning results"
        #expect(signed.embed(c) == plain.embed(c))
        // A query of the unknown word finds the text that holds it first.
        let query = signed.embed("zorblax")
        #expect(cosine(query, signed.embed(a)) > cosine(query, signed.embed("quuxify regulates cells")) + 0.3)
    }

    @Test("The signature is in the file: it loads back, and changes the fingerprint")
    func fileRoundTrip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-signature-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = Self.model(signature: 0)
        let signed = plain.with(unknownWordSignature: 4)
        #expect(signed.fingerprint != plain.fingerprint)
        let url = directory.appendingPathComponent("signed.siftmodel")
        try signed.write(to: url)
        let loaded = try HashedNGramEmbedder(contentsOf: url)
        #expect(loaded.featurizer.unknownWordSignature == 4)
        #expect(loaded.featurizer == signed.featurizer && loaded.fingerprint == signed.fingerprint)
        #expect(loaded.embed("zorblax regulates cells") == signed.embed("zorblax regulates cells"))
        let plainURL = directory.appendingPathComponent("plain.siftmodel")
        try plain.write(to: plainURL)
        #expect(try HashedNGramEmbedder(contentsOf: plainURL).featurizer.unknownWordSignature == 0)
    }

    @Test("A bad signature in a header is rejected, naming the file and the field")
    func badHeader() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-signature-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func patched(_ model: HashedNGramEmbedder, signature: Float) -> [UInt8] {
            var bytes = model.fileContents()
            withUnsafeBytes(of: signature.bitPattern.littleEndian) {
                bytes.replaceSubrange(ModelFileFormat.signatureOffset..<(ModelFileFormat.signatureOffset + 4), with: $0)
            }
            let sum = bytes.withUnsafeBytes { ModelFileFormat.checksum($0) }
            withUnsafeBytes(of: sum.littleEndian) {
                bytes.replaceSubrange(ModelFileFormat.checksumOffset..<(ModelFileFormat.checksumOffset + 8), with: $0)
            }
            return bytes
        }
        let cases: [(HashedNGramEmbedder, Float, String)] = [
            (Self.model(signature: 0), 65, "not in 0...64"),
            (Self.model(signature: 0), -1, "not in 0...64"),
            (Self.model(signature: 0), .nan, "not in 0...64"),
            (tinyModel(quantized: true), 4, "without a vocabulary filter"),
        ]
        for (i, (model, signature, message)) in cases.enumerated() {
            let url = directory.appendingPathComponent("bad-\(i).siftmodel")
            try Data(patched(model, signature: signature)).write(to: url)
            do {
                _ = try HashedNGramEmbedder(contentsOf: url)
                Issue.record("signature \(signature) accepted")
            } catch {
                #expect(error.description.contains("bad-\(i).siftmodel"))
                #expect(error.description.contains("unknown-word signature") && error.description.contains(message))
            }
        }
    }
}
