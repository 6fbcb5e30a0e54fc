import Foundation
import Testing

@testable import Sift

@Suite("Query words weighted by their rarity in the index")
struct QueryTermWeightsTests {
    let model = tinyModel(quantized: true)

    /// Four items: "tea" in every one, "matcha" in one.
    func keywordIndex() -> KeywordIndex {
        var keyword = KeywordIndex()
        let contents = ["matcha tea whisked", "green tea leaves", "black tea milk", "tea biscuits"]
        for (i, content) in contents.enumerated() {
            keyword.insert(SearchableItem(id: ItemID("i\(i)"), title: "", content: content), at: Int32(i))
        }
        return keyword
    }

    @Test("With every weight 1 the vector is the plain embedding, bit for bit")
    func unitWeights() {
        for text in ["matcha tea", "Café au lait, s'il vous plaît", "a b c d", ""] {
            var weighted = [Float](repeating: 0, count: model.dimension)
            weighted.withUnsafeMutableBufferPointer { model.embed(text, termWeight: { _ in 1 }, into: $0) }
            #expect(weighted == model.embed(text))
        }
    }

    @Test("A word weighted 0 drops out with its bigrams")
    func zeroWeight() {
        var weighted = [Float](repeating: 0, count: model.dimension)
        weighted.withUnsafeMutableBufferPointer { out in
            model.embed("matcha tea", termWeight: { String(decoding: $0, as: UTF8.self) == "tea" ? 0 : 1 }, into: out)
        }
        #expect(weighted == model.embed("matcha"))
    }

    @Test("A word every item holds weighs less than a rare one; an unknown word most; off gives the plain vector")
    func idfWeights() {
        let keyword = keywordIndex()
        let weights = QueryTermWeights(keyword: keyword, exponent: 1)
        #expect(weights.weight(of: "tea") < weights.weight(of: "matcha"))
        #expect(weights.weight(of: "matcha") < weights.weight(of: "oolong"))
        #expect(weights.weight(of: "the") < 0.2)  // a stop word counts as in every item
        let query = weights.embed("matcha tea", with: model)
        #expect(cosine(query, model.embed("matcha")) > cosine(model.embed("matcha tea"), model.embed("matcha")))
        #expect(QueryTermWeights(keyword: keyword, exponent: 0).embed("matcha tea", with: model) == model.embed("matcha tea"))
        #expect(QueryTermWeights(keyword: KeywordIndex(), exponent: 1).embed("matcha tea", with: model) == model.embed("matcha tea"))
        // The same index and query give the same vector.
        #expect(weights.embed("matcha tea", with: model) == query)
    }

    @Test("A word no item holds keeps the absent share of its weight; held words keep theirs")
    func absentWords() {
        let keyword = keywordIndex()
        let full = QueryTermWeights(keyword: keyword, exponent: 1)
        let half = QueryTermWeights(keyword: keyword, exponent: 1, absent: 0.5)
        #expect(half.weight(of: "oolong") == 0.5 * full.weight(of: "oolong"))
        #expect(half.weight(of: "matcha") == full.weight(of: "matcha") && half.weight(of: "tea") == full.weight(of: "tea"))
        // The library's default: half.
        #expect(FusionParameters.default.absentWordWeight == 0.5)
        // At 0 the absent word drops out of the vector with its bigrams.
        let none = QueryTermWeights(keyword: keyword, exponent: 1, absent: 0)
        #expect(none.embed("matcha oolong", with: model) == full.embed("matcha", with: model))
        // With the idf weighting off, only the absent share weighs words unequally.
        let plain = QueryTermWeights(keyword: keyword, exponent: 0, absent: 0)
        #expect(plain.embed("matcha oolong", with: model) == model.embed("matcha"))
        // It moves the query towards what the index holds.
        let query = half.embed("matcha oolong", with: model)
        #expect(cosine(query, model.embed("matcha")) > cosine(full.embed("matcha oolong", with: model), model.embed("matcha")))
    }
}
