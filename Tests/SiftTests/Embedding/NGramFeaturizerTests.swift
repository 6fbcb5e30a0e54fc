import Testing

@testable import Sift

@Suite("Hashed n-gram features")
struct NGramFeaturizerTests {
    let featurizer = NGramFeaturizer(bucketBits: 17)

    @Test("FNV-1a 64 with a kind byte and Fibonacci bucketing give the published golden values")
    func goldenHashes() {
        // Golden values computed independently (Python) from the spec in Models/MODEL.md.
        let cat = NGramFeaturizer.hash(kind: .word, bytes: Array("cat".utf8))
        #expect(cat == 0xdcbf_c177_f3a9_5260)
        #expect(featurizer.bucket(ofHash: cat) == 63444)
        #expect(featurizer.bucket(ofHash: NGramFeaturizer.hash(kind: .word, bytes: Array("café".utf8))) == 130994)
        #expect(featurizer.bucket(ofHash: NGramFeaturizer.hash(kind: .charNGram, bytes: Array("<ca".utf8))) == 119801)
        #expect(featurizer.bucket(ofHash: NGramFeaturizer.hash(kind: .bigram, bytes: Array("machine learning".utf8))) == 14642)
        #expect(NGramFeaturizer(bucketBits: 8).bucket(ofHash: cat) == 123)
    }

    @Test("A word gives its unigram and all 3-5-grams of <word>, weighted to sum to the char weight")
    func wordFeatures() {
        let f = featurizer.features(of: "Cat")
        // "<cat>": 3-grams <ca cat at> (3), 4-grams <cat cat> (2), 5-gram <cat> (1).
        #expect(f.count == 1 + 6)
        #expect(f[0].kind == .word && f[0].bucket == 63444 && f[0].weight == 1)
        #expect(f[1].kind == .charNGram && f[1].bucket == 119801)
        let charWeight = f.dropFirst().map(\.weight).reduce(0, +)
        #expect(abs(charWeight - 1) < 1e-6)
    }

    @Test("Consecutive terms give a bigram; stop words are dropped first")
    func bigrams() {
        let f = featurizer.features(of: "the machine of learning")
        let bigrams = f.filter { $0.kind == .bigram }
        #expect(bigrams.count == 1)
        #expect(bigrams[0].bucket == 14642)
        #expect(featurizer.terms(of: "the machine of learning") == ["machine", "learning"])
    }

    @Test("Non-ASCII n-grams are taken over Unicode scalars, after diacritic folding")
    func unicode() {
        // "Café" folds to "cafe"; "русский" keeps its letters: n-grams over scalars, not bytes.
        #expect(featurizer.terms(of: "Café русский") == ["cafe", "русскии"])  // й folds to и, as in the Analyzer
        let ru = featurizer.features(of: "русский").filter { $0.kind == .charNGram }
        // 7 letters + 2 marks = 9 scalars: 7 + 6 + 5 n-grams.
        #expect(ru.count == 18)
    }

    @Test(
        "The ASCII fast path finds exactly the Analyzer's terms",
        arguments: [
            "The quick brown fox is on a run", "Work — stressful! 😤 Big deadline.",
            "e-mail me@example.com re: Q3 2026 budget", "  ", "", "...!!!", "naïve café résumé",
            "CamelCase and UPPER lower 123abc 4x4",
        ])
    func fastPathAgreesWithAnalyzer(text: String) {
        #expect(featurizer.terms(of: text) == Analyzer().terms(text))
    }

    @Test("With a vocabulary filter, unseen words keep only their n-grams and unseen bigrams go")
    func vocabularyFilter() {
        var filter = FeatureFilter(log2Bits: 12, probes: 3)
        for word in ["machine", "learning"] {
            var w = word
            w.withUTF8 { filter.insert(NGramFeaturizer.unigramHash($0)) }
        }
        let filtered = featurizer.with(vocabulary: filter)
        #expect(filter.fillRatio > 0 && filter.fillRatio < 0.01)
        let known = filtered.features(of: "machine learning")
        #expect(known.filter { $0.kind == .word }.count == 2)
        #expect(known.filter { $0.kind == .bigram }.isEmpty)  // the bigram was not inserted
        let unseen = filtered.features(of: "machien")
        #expect(unseen.allSatisfy { $0.kind == .charNGram } && !unseen.isEmpty)
        #expect(featurizer.features(of: "machien").filter { $0.kind == .word }.count == 1)
    }

    @Test("With n-grams only for unknown words, a known word is its unigram alone; an unknown one its n-grams")
    func nGramsOnlyForUnknownWords() {
        var filter = FeatureFilter(log2Bits: 12, probes: 3)
        var w = "machine"
        w.withUTF8 { filter.insert(NGramFeaturizer.unigramHash($0)) }
        let plain = featurizer.with(vocabulary: filter)
        let sparse = NGramFeaturizer(bucketBits: 17, vocabulary: filter, nGramsOnlyForUnknownWords: true)
        #expect(sparse != plain)
        let known = sparse.features(of: "machine")
        #expect(known.count == 1 && known[0].kind == .word)
        #expect(known[0].bucket == plain.features(of: "machine").first { $0.kind == .word }?.bucket)
        // An unknown word: the same n-grams as without the option.
        let unknown = sparse.features(of: "machien")
        #expect(!unknown.isEmpty && unknown.allSatisfy { $0.kind == .charNGram })
        #expect(unknown.map(\.bucket) == plain.features(of: "machien").map(\.bucket))
        // Without a vocabulary filter every word is unknown: the option changes nothing.
        let unfiltered = NGramFeaturizer(bucketBits: 17, nGramsOnlyForUnknownWords: true)
        #expect(unfiltered.features(of: "machine learning").map(\.bucket) == featurizer.features(of: "machine learning").map(\.bucket))
    }

    /// The features of `text` taken one term at a time, as the featurizer's documentation
    /// states them: each term's unigram and n-grams, then the bigram it closes.
    private func termByTerm(
        _ f: NGramFeaturizer, _ text: String, weight: (String) -> Float
    ) -> [(bucket: Int, weight: Float, kind: NGramFeaturizer.Kind)] {
        var out: [(bucket: Int, weight: Float, kind: NGramFeaturizer.Kind)] = []
        var previous: (prefix: UInt64, weight: Float)? = nil
        for term in f.terms(of: text) {
            var bytes = Array(term.utf8)
            let w = weight(term)
            bytes.withUnsafeBufferPointer { t in
                f.forEachTermFeature(of: t) { out.append(($0, w == 1 ? $1 : $1 * w, $2)) }
                if let (prefix, pw) = previous, let bucket = f.bigramBucket(prefix: prefix, second: t) {
                    out.append((bucket, f.bigramWeight * (pw == 1 && w == 1 ? 1 : (pw * w).squareRoot()), .bigram))
                }
                previous = (f.bigramPrefix(t), w)
            }
        }
        return out
    }

    @Test("Terms held back while the filter's words are fetched give the same features, in order")
    func heldTermsChangeNothing() {
        var filter = FeatureFilter(log2Bits: 12, probes: 3)
        let words = (0..<40).map { "word\($0)" }
        for (i, word) in words.enumerated() where i % 3 != 0 {
            var w = word
            w.withUTF8 { filter.insert(NGramFeaturizer.unigramHash($0)) }
        }
        let base = NGramFeaturizer(bucketBits: 17, bigramWeight: 0.3)
        let f = base.with(vocabulary: filter)
        for i in stride(from: 1, to: 40, by: 2) {
            let prefix = Array(words[i - 1].utf8).withUnsafeBufferPointer { f.bigramPrefix($0) }
            var second = words[i]
            second.withUTF8 { filter.insert(NGramFeaturizer.bigramHash(prefix: prefix, second: $0)) }
        }
        let g = base.with(vocabulary: filter)
        let long = String(repeating: "x", count: NGramFeaturizer.heldBytes + 7)
        let texts = [
            words.joined(separator: " "),  // more terms than are held at once
            (words.prefix(10) + [long] + words.suffix(10)).joined(separator: " "),  // a term too long to hold
            words.map { String(repeating: $0, count: 9) }.joined(separator: " "),  // more bytes than are held
            "Café русский naïve " + words.prefix(20).joined(separator: " "),
        ]
        for model in [base, f, g] {
            for text in texts {
                let weight: (String) -> Float = { $0.count % 2 == 0 ? 0.5 : 1 }
                var weighted: [(bucket: Int, weight: Float, kind: NGramFeaturizer.Kind)] = []
                model.forEachFeature(in: text, termWeight: { weight(String(decoding: $0, as: UTF8.self)) }) {
                    weighted.append(($0, $1, $2))
                }
                for (got, want) in [
                    (model.features(of: text), termByTerm(model, text) { _ in 1 }), (weighted, termByTerm(model, text, weight: weight)),
                ] {
                    #expect(got.count == want.count)
                    #expect(zip(got, want).allSatisfy { $0.bucket == $1.bucket && $0.weight == $1.weight && $0.kind == $1.kind })
                }
            }
        }
    }

    @Test("Texts without terms have no features")
    func noFeatures() {
        #expect(featurizer.features(of: "").isEmpty)
        #expect(featurizer.features(of: "the of and, is!").isEmpty)
        #expect(featurizer.features(of: "😤 — …").isEmpty)
    }
}

@Suite("The featurizer's stop-word table")
struct StopWordTableTests {
    func holds(_ table: StopWordTable, _ word: String) -> Bool {
        var word = word
        return word.withUTF8 { table.contains($0) }
    }

    @Test("Holds exactly its words: not their prefixes, extensions or other words, duplicates and all")
    func membership() {
        let words = ["the", "of", "and", "a", "an", "théâtre", "of", "", "x"]
        let table = StopWordTable(words)
        for w in words { #expect(holds(table, w), "\(w)") }
        for w in ["th", "thee", "o", "ofs", "andx", "théâtr", "theatre", "b", "xx", "The"] { #expect(!holds(table, w), "\(w)") }
        // Every English stop word, and none of a list of other words.
        let english = StopWordTable(StopWords.english.sorted())
        for w in StopWords.english { #expect(holds(english, w), "\(w)") }
        for w in ["matcha", "tea", "expenses", "thereof1", "zzz"] where !StopWords.english.contains(w) {
            #expect(!holds(english, w), "\(w)")
        }
        #expect(!holds(StopWordTable([]), "the"))
        #expect(!holds(StopWordTable([]), ""))
    }
}
