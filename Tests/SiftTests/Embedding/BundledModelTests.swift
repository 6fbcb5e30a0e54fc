import Foundation
import Testing
@testable import Sift

/// Behaviour of the model that ships in Models/ (found without configuration).
@Suite("The bundled embedding model")
struct BundledModelTests {
    let model: HashedNGramEmbedder

    init() throws {
        model = try HashedNGramEmbedder.bundled()
    }

    func cos(_ a: String, _ b: String) -> Float { cosine(model.embed(a), model.embed(b)) }

    @Test("It is found without configuration, is int8, 256-d and its fingerprint names it")
    func found() {
        #expect(model.dimension == 256)
        #expect(model.isQuantized)
        #expect(model.fingerprint.hasPrefix("sift-ngram-256@"))
    }

    @Test("Misspelled words stay close to the correct spelling (cosine ≥ 0.6)",
          arguments: [("restaurant", "restaurnat"), ("expenses", "expnses"), ("meeting", "meetign"),
                      ("stressful", "stresful"), ("vacation", "vacaton"), ("breakfast", "breakfsat"),
                      ("medicine", "medicnie"), ("protein", "protien")])
    func misspellings(correct: String, typo: String) {
        let c = cos(correct, typo)
        #expect(c >= 0.6, "cos(\(correct), \(typo)) = \(c)")
        #expect(c > cos(correct, "giraffe") + 0.3)
    }

    @Test("Words it never saw get vectors near their parts (cosine ≥ 0.5)",
          arguments: [("unforgettableness", "unforgettable"), ("overcaffeinated", "caffeine"),
                      ("doomscrolling", "scrolling"), ("bioluminescently", "bioluminescent")])
    func unseenWords(unseen: String, known: String) {
        let c = cos(unseen, known)
        #expect(c >= 0.5, "cos(\(unseen), \(known)) = \(c)")
    }

    @Test("Related meanings are closer than unrelated ones")
    func meaning() {
        #expect(cos("expenses", "spending") > cos("expenses", "giraffe") + 0.2)
        #expect(cos("stressful meeting", "tense call with my boss") > cos("stressful meeting", "chocolate cake recipe"))
        #expect(cos("a man is playing a guitar", "someone plays the guitar") > 0.7)
    }

    @Test("Embedding is deterministic and unit length")
    func deterministic() {
        let a = model.embed("The quick brown fox — café!")
        #expect(a == model.embed("The quick brown fox — café!"))
        #expect(abs(a.map { $0 * $0 }.reduce(0, +) - 1) < 1e-4)
        #expect(model.embed("") == [Float](repeating: 0, count: 256))
    }
}
