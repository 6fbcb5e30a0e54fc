import Foundation

/// The semantic half's query vector with each query word weighted by its rarity in this index:
/// `idf(word)^p` (Lucene's BM25 idf of the word's stem; a word no item holds gets the largest
/// idf, a stop word none). Items are embedded as always, so the vectors stored never depend on
/// what else the index holds; only the query adapts to the collection, as BM25 does — the same
/// index and query always give the same vector. ``FusionParameters/queryTermWeighting`` is `p`;
/// 0 embeds the query plainly. A word no item holds keeps ``absent`` of its weight
/// (``FusionParameters/absentWordWeight``).
struct QueryTermWeights {
    let keyword: KeywordIndex
    let exponent: Float
    var absent: Float = 1

    /// `text`'s query vector (unit length, or zero for a text without terms).
    func embed(_ text: String, with embedder: any Embedder) -> [Float] {
        guard exponent > 0 || absent != 1, keyword.documentCount > 0, let weighted = embedder as? any TermWeightedEmbedder else {
            return embedder.embed(text)
        }
        return [Float](unsafeUninitializedCapacity: weighted.dimension) { buffer, count in
            weighted.embed(text, termWeight: { weight(of: String(decoding: $0, as: UTF8.self)) }, into: buffer)
            count = weighted.dimension
        }
    }

    /// `idf(word)^p` in this index, times ``absent`` for a word no item holds.
    func weight(of word: String) -> Float {
        let df = keyword.documentFrequency(ofWord: word)
        let idf = keyword.idf(documentFrequency: df)
        let w = exponent == 1 ? idf : pow(idf, exponent)
        return df == 0 ? absent * w : w
    }
}
