import Foundation
import Testing

@testable import Sift

extension Reliability.FuzzTests {
    /// Texts the snippet builder must take apart: several scripts, combining marks, emoji
    /// sequences, controls, long runs without a space or a sentence end.
    static let snippetSeeds: [String] = [
        "Un café crème au CAFÉ de Flore. Naïve cafe-goers run; running runs!",
        "今日は 東京 に行きました。東京タワー と 大阪！ 東京の天気は晴れ？",
        "I love☕coffee☕! 😀coffee👍🏽, family: 👨‍👩‍👧coffee 🏳️‍🌈 🇫🇷 e\u{301}te\u{301} a\u{FE0F}b",
        "  first line\n\n\tsecond\u{1B}[31m  line\r\n\u{0}\u{85}\u{2028}end",
        "Русский текст и العربية نص، ελληνικά κείμενο. हिन्दी पाठ।",
        String(repeating: "lorem ipsum dolor ", count: 40) + "target" + String(repeating: " sit amet", count: 40),
        String(repeating: "x", count: 500) + " target " + String(repeating: "ÿ", count: 300),
    ]

    static let snippetDictionary: [[UInt8]] =
        [
            "café", "cafe", "run", "running", "東京", "coffee", "target", ". ", "。", "\n", "…", "\u{301}", "\u{200D}", "\u{FE0F}",
            "👨‍👩‍👧", "🇫🇷", "\u{1B}", "  ",
        ].map { Array($0.utf8) } + [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]]

    /// A hostile text: a seed mutated at the byte level (invalid UTF-8 repaired by decoding),
    /// random scalars, or seeds spliced together.
    static func snippetText(_ rng: inout SeededGenerator, _ mutator: inout Mutator) -> String {
        switch rng.int(0..<4) {
        case 0: return mutator.garbage(rng.int(0..<400))
        case 1: return rng.pick(snippetSeeds)
        case 2: return (0..<rng.int(1..<4)).map { _ in rng.pick(snippetSeeds) }.joined(separator: rng.pick([" ", "", "\n"]))
        default:
            let bytes = mutator.mutate(Array(rng.pick(snippetSeeds).utf8), dictionary: snippetDictionary, maximumSteps: 8)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    @Test("The snippet builder takes any text and query: every highlight lies in the text, on scalar boundaries")
    func snippetBuilder() {
        var rng = SeededGenerator(seed: 701)
        var mutator = Mutator(seed: 702)
        let models: [(any Embedder)?] = [nil, FakeEmbedder(), WordDirectionEmbedder(dimension: 16)]
        for _ in 0..<Self.iterations {
            let item = SearchableItem(id: "f", title: Self.snippetText(&rng, &mutator), content: Self.snippetText(&rng, &mutator))
            var query: String
            if rng.chance(0.5) {
                // Words of the item, perhaps cut short (typed), perhaps mutated.
                let words = Analyzer().tokens(item.content + " " + item.title).map(\.text)
                query = (0..<rng.int(1..<4)).map { _ in words.isEmpty ? "" : String(rng.pick(words).prefix(rng.int(1..<8))) }
                    .joined(separator: " ")
            } else {
                query = Self.query(&rng, &mutator)
            }
            if rng.chance(0.2) {
                query = String(decoding: mutator.mutate(Array(query.utf8), dictionary: Self.snippetDictionary), as: UTF8.self)
            }
            let fixture = SnippetFixture([item], embedder: rng.pick(models))
            let length = rng.pick([1, 5, 40, 160, 161, 400])
            guard let snippet = fixture.snippet(item, query, typing: rng.chance(0.5), length: length) else {
                let blank = { (text: String) in
                    text.unicodeScalars.allSatisfy { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
                }
                #expect(blank(item.title) && blank(item.content))
                continue
            }
            #expect(!snippet.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
            #expect(snippet.text.utf8.count <= item.title.utf8.count + item.content.utf8.count + 6)
        }
    }
}
