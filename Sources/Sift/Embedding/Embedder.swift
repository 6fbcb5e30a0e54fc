/// Turns text into a unit-length vector whose cosine with another text's vector measures how
/// close their meanings are. The seam between the index and the model: tests use fakes.
public protocol Embedder: Sendable {
    /// Number of components of every vector.
    var dimension: Int { get }
    /// Identity of the model (name and checksum). The store records it; when it changes, every
    /// stored vector is recomputed.
    var fingerprint: String { get }
    /// Writes the L2-normalised vector of `text` into `output` (exactly `dimension` floats).
    /// A text with no features gets the zero vector.
    func embed(_ text: String, into output: UnsafeMutableBufferPointer<Float>)
    /// Writes the L2-normalised vector of several texts weighted together (an item's title
    /// counting more than its body). The default sums the parts' unit vectors times their
    /// weights; a model that can weight features directly does so instead.
    func embed(weighted parts: [(text: String, weight: Float)], into output: UnsafeMutableBufferPointer<Float>)
}

extension Embedder {
    public func embed(weighted parts: [(text: String, weight: Float)], into output: UnsafeMutableBufferPointer<Float>) {
        output.update(repeating: 0)
        var part = [Float](repeating: 0, count: dimension)
        for (text, weight) in parts where weight != 0 {
            part.withUnsafeMutableBufferPointer { embed(text, into: $0) }
            for j in 0..<dimension { output[j] += weight * part[j] }
        }
        normalizeOrZero(output)
    }

    /// The L2-normalised vector of `item`: its ``SearchableItem/embeddingText`` with the title
    /// counted `titleWeight` times in all (short queries name what titles say).
    public func embed(item: SearchableItem, titleWeight: Float) -> [Float] {
        let one: Float = 1
        let parts: [(text: String, weight: Float)] =
            !item.title.isEmpty && titleWeight != 1
            ? [(item.embeddingText, one), (item.title, titleWeight - one)] : [(item.embeddingText, one)]
        return [Float](unsafeUninitializedCapacity: dimension) { buffer, count in
            if parts.count == 1 { embed(parts[0].text, into: buffer) } else { embed(weighted: parts, into: buffer) }
            count = dimension
        }
    }

    /// The L2-normalised vector of `text`.
    public func embed(_ text: String) -> [Float] {
        [Float](unsafeUninitializedCapacity: dimension) { buffer, count in
            embed(text, into: buffer)
            count = dimension
        }
    }
}

/// A model whose components are ordered by decreasing variance (principal components), so
/// that the leading half alone ranks the nearest rows near the top: by default the int8 copy of
/// the quantized scan codes only that half (``SearchIndex/Configuration/quantizedScanComponents``).
package protocol VarianceOrderedComponents: Sendable {}

/// An embedder that can weight a text's terms unequally (the query's words by their rarity in
/// the index: ``QueryTermWeights``).
package protocol TermWeightedEmbedder: Embedder {
    func embed(
        _ text: String, termWeight: (UnsafeBufferPointer<UInt8>) -> Float, into output: UnsafeMutableBufferPointer<Float>)
}

/// A model that can tell which words it learned: spelling correction leaves those alone.
package protocol WordVocabulary: Sendable {
    /// Whether `word` (a normalised, lower-case word) was (probably) in the training vocabulary.
    func recognizes(word: String) -> Bool
    /// The same for a word's UTF-8 bytes, without making a string of them (the spelling
    /// corrector asks it of hundreds of edits of one word).
    func recognizes(utf8 word: UnsafeBufferPointer<UInt8>) -> Bool
}

extension WordVocabulary {
    package func recognizes(utf8 word: UnsafeBufferPointer<UInt8>) -> Bool {
        recognizes(word: String(decoding: word, as: UTF8.self))
    }
}

/// Scales `v` to unit length, or zeroes it when it has no length (or is not finite).
@inline(__always)
func normalizeOrZero(_ v: UnsafeMutableBufferPointer<Float>) {
    var sum: Float = 0
    for x in v { sum += x * x }
    if sum > 0 && sum.isFinite {
        let inv = 1 / sum.squareRoot()
        for j in v.indices { v[j] *= inv }
    } else {
        v.update(repeating: 0)
    }
}
