import Foundation

@testable import Sift

/// A deterministic bag-of-words embedder for ranking tests: each word maps to a fixed
/// pseudo-random direction; a text is the normalised sum of its words' directions.
struct WordDirectionEmbedder: Embedder {
    let dimension: Int
    var fingerprint: String { "test-word-directions-\(dimension)" }

    init(dimension: Int = 64) { self.dimension = dimension }

    func direction(_ word: String) -> [Float] {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in word.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        var rng = SplitMix64(seed: h)
        return (0..<dimension).map { _ in Float(Double(rng.next() >> 11) / Double(1 << 53)) * 2 - 1 }
    }

    func embed(_ text: String, into output: UnsafeMutableBufferPointer<Float>) {
        for i in 0..<dimension { output[i] = 0 }
        for word in Analyzer().terms(text) {
            let d = direction(word)
            for i in 0..<dimension { output[i] += d[i] }
        }
        var norm: Float = 0
        for i in 0..<dimension { norm += output[i] * output[i] }
        norm = norm.squareRoot()
        if norm > 0 { for i in 0..<dimension { output[i] /= norm } }
    }
}

func utc(_ text: String) -> Date { ISODate.parse(text)! }

/// The demo corpus shipped with the repository.
func demoCorpusItems() throws -> [SearchableItem] {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/demo/sample.jsonl")
    var items: [SearchableItem] = []
    JSONLItemReader(source: url.path).read(try Data(contentsOf: url)) { _, result in
        if case .success(let item) = result { items.append(item) }
    }
    return items
}
