import Foundation
import Testing

@testable import Sift

/// The word, its byte range, and the original bytes that range covers.
private func triples(_ text: String) -> [(String, Range<Int>, String)] {
    let bytes = Array(text.utf8)
    return Analyzer().tokens(text).map { token in
        (token.text, token.utf8Range, String(decoding: bytes[token.utf8Range], as: UTF8.self))
    }
}

@Suite("Analyzer: words, byte offsets, folding, stop words")
struct AnalyzerTests {
    let analyzer = Analyzer()

    @Test("Cyrillic is one word whose range covers its two-byte letters")
    func cyrillic() {
        let t = triples("русский")
        #expect(t.count == 1)
        // 7 letters × 2 bytes. "й" folds to "и": diacritic folding removes the breve, as it
        // removes the acute of "é", so queries typed either way meet.
        #expect(t.first?.0 == "русскии")
        #expect(t.first?.1 == 0..<14)
        #expect(t.first?.2 == "русский")
    }

    @Test("Cyrillic words are lower-cased and offsets stay in bytes after the first word")
    func cyrillicSentence() {
        let t = triples("Привет, мир")
        #expect(t.map(\.0) == ["привет", "мир"])
        #expect(t.map(\.1) == [0..<12, 14..<20])
        #expect(t.map(\.2) == ["Привет", "мир"])
    }

    @Test("Precomposed café folds to cafe and spans five bytes")
    func cafePrecomposed() {
        let text = "caf\u{E9}"
        #expect(text.utf8.count == 5)
        let t = triples(text)
        #expect(t.map(\.0) == ["cafe"])
        #expect(t.map(\.1) == [0..<5])
        #expect(t.map(\.2) == [text])
    }

    @Test("Decomposed café (e + combining acute) folds to cafe and spans six bytes")
    func cafeDecomposed() {
        let text = "cafe\u{301}"
        #expect(text.unicodeScalars.count == 5 && text.utf8.count == 6)
        let t = triples(text)
        #expect(t.map(\.0) == ["cafe"])
        #expect(t.map(\.1) == [0..<6])
        #expect(t.map(\.2) == [text])
    }

    @Test("Both forms of café, in any case, give the same term")
    func cafeFormsAgree() {
        #expect(analyzer.terms("CAF\u{C9} au lait") == analyzer.terms("cafe\u{301} AU LAIT"))
        #expect(analyzer.terms("Café au lait") == ["cafe", "au", "lait"])
    }

    @Test("Em-dash, punctuation and emoji separate words; offsets skip their bytes")
    func emDashAndEmoji() {
        let text = "Work — stressful! 😤"
        let t = triples(text)
        #expect(t.map(\.0) == ["work", "stressful"])
        // "Work"=0..<4, " "=4, "—"=5..<8 (3 bytes), " "=8, "stressful"=9..<18, "!"=18, " "=19, 😤=20..<24.
        #expect(t.map(\.1) == [0..<4, 9..<18])
        #expect(t.map(\.2) == ["Work", "stressful"])
        #expect(text.utf8.count == 24)
    }

    @Test("A word right after an emoji starts after its four bytes")
    func wordAfterEmoji() {
        let t = triples("😤deadline")
        #expect(t.map(\.0) == ["deadline"])
        #expect(t.map(\.1) == [4..<12])
    }

    @Test("Upper case and diacritics fold: ÉCOLE, Ñandú, Ångström")
    func folding() {
        #expect(analyzer.terms("ÉCOLE Ñandú Ångström") == ["ecole", "nandu", "angstrom"])
        #expect(analyzer.normalize("  Über!") == "uber")
        #expect(analyzer.normalize("—") == nil)
    }

    @Test("Digits are word characters, alone or mixed with letters")
    func digits() {
        let t = triples("Room 101 at 9am, COVID-19")
        #expect(t.map(\.0) == ["room", "101", "at", "9am", "covid", "19"])
        #expect(t.map(\.1) == [0..<4, 5..<8, 9..<11, 12..<15, 17..<22, 23..<25])
        #expect(analyzer.terms("Room 101 at 9am") == ["room", "101", "9am"])
    }

    @Test("The empty string, spaces, punctuation and emoji alone give no words")
    func empty() {
        for text in ["", "   ", "—!?…", "😤🎉", "\n\t"] {
            #expect(analyzer.tokens(text).isEmpty)
            #expect(analyzer.terms(text).isEmpty)
            #expect(analyzer.normalize(text) == nil)
        }
    }

    @Test("Tokens keep stop words with their positions; terms drop them")
    func stopWords() {
        let tokens = analyzer.tokens("The quick brown fox is on a run")
        #expect(tokens.map(\.text) == ["the", "quick", "brown", "fox", "is", "on", "a", "run"])
        #expect(tokens.map(\.position) == Array(0..<8))
        #expect(analyzer.terms("The quick brown fox is on a run") == ["quick", "brown", "fox", "run"])
    }

    @Test("Scripts without case keep their letters: 東京 and مرحبا")
    func otherScripts() {
        #expect(triples("東京 مرحبا").map(\.0) == ["東京", "مرحبا"])
        #expect(triples("東京 مرحبا").map(\.1) == [0..<6, 7..<17])
    }

    @Test("Every token's byte range lies in the text and tokens do not overlap")
    func rangesAreOrdered() {
        let text = "Ünïcödé — mixed 😤 text: naïve café, русский язык; 2026-11-30!"
        let tokens = analyzer.tokens(text)
        var previousEnd = 0
        for token in tokens {
            #expect(token.utf8Range.lowerBound >= previousEnd)
            #expect(token.utf8Range.upperBound <= text.utf8.count)
            previousEnd = token.utf8Range.upperBound
            let original = String(decoding: Array(text.utf8)[token.utf8Range], as: UTF8.self)
            #expect(analyzer.normalize(original) == token.text)
        }
        #expect(tokens.map(\.text) == ["unicode", "mixed", "text", "naive", "cafe", "русскии", "язык", "2026", "11", "30"])
    }

    @Test("An ASCII text read byte by byte gives the words and ranges the Unicode rules give it")
    func asciiFastPath() {
        var rng = SplitMix64(seed: 2_026_1206)
        let alphabet = Array("aZ09 ,.-_'\t\n!?()/:;@#$%^&*+=~`\"<>[]{}|\\Qxy7".utf8)
        var texts = ["", " ", "a", "A", "don't stop-believing", "COVID-19 at 10:30am", "trailing word", "  lead", "x\u{7F}y"]
        for _ in 0..<500 {
            let n = Int(rng.next() % 60)
            texts.append(String(decoding: (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }, as: UTF8.self))
        }
        for text in texts {
            var fast: [(String, Range<Int>)] = []
            var slow: [(String, Range<Int>)] = []
            #expect(Analyzer.forEachASCIIWord(text) { fast.append((String(decoding: $0, as: UTF8.self), $1)) })
            analyzer.forEachWordByScalar(text) { slow.append(($0, $1)) }
            #expect(fast.map(\.0) == slow.map(\.0), "\(text.debugDescription)")
            #expect(fast.map(\.1) == slow.map(\.1), "\(text.debugDescription)")
        }
        var called = false
        #expect(!Analyzer.forEachASCIIWord("café au lait") { _, _ in called = true })
        #expect(!called, "a text with a non-ASCII byte is left to the Unicode rules, untouched")
    }
}
