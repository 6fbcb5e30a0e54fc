import Foundation
import Testing

@testable import Sift

/// One document of the golden corpus as counted by hand: field lengths (title, keywords,
/// content) in terms after stop words, and each query term's frequency per field.
private struct HandCounted {
    var id: String
    var item: SearchableItem
    var lengths: [Double]
    var frequencies: [String: [Double]]
}

/// The golden corpus. Every text avoids stop words and stem collisions, so the counts below
/// can be read off the strings.
private let corpus: [HandCounted] = [
    HandCounted(
        id: "d0",
        item: SearchableItem(id: "d0", title: "green tea", content: "green tea leaves steeped tea"),
        lengths: [2, 0, 5],
        frequencies: ["tea": [1, 0, 2]]),
    HandCounted(
        id: "d1",
        item: SearchableItem(id: "d1", title: "black tea", content: "black tea milk sugar", keywords: ["tea", "milk"]),
        lengths: [2, 2, 4],
        frequencies: ["tea": [1, 1, 1], "milk": [0, 1, 1]]),
    HandCounted(
        id: "d2",
        item: SearchableItem(id: "d2", title: "coffee", content: "espresso coffee milk foam", keywords: ["coffee"]),
        lengths: [1, 1, 4],
        frequencies: ["milk": [0, 0, 1], "coffee": [1, 1, 1]]),
    HandCounted(
        id: "d3",
        item: SearchableItem(id: "d3", title: "mint", content: "fresh mint leaves"),
        lengths: [1, 0, 3],
        frequencies: [:]),
]

/// BM25F exactly as documented on ``KeywordIndex`` (Robertson, Zaragoza & Taylor's simple
/// BM25F with Lucene's idf), in Double, from the hand counts:
///
///     avglen_f = Σ_d len_f(d) / N
///     tf̃(t, d) = Σ_f w_f · tf_f / (1 − b_f + b_f · len_f(d) / avglen_f)     (fields with tf_f > 0)
///     idf(t)   = ln(1 + (N − df + 0.5) / (df + 0.5))
///     score(d) = Σ_t idf(t) · tf̃ · (k1 + 1) / (k1 + tf̃)
private func handScore(_ doc: HandCounted, query: [String], in docs: [HandCounted], _ p: BM25Parameters) -> Double {
    let n = Double(docs.count)
    let k1 = Double(p.k1)
    let w = p.weights.map(Double.init)
    let b = p.b.map(Double.init)
    let average = (0..<3).map { f in docs.reduce(0) { $0 + $1.lengths[f] } / n }
    var score = 0.0
    for term in query {
        guard let tf = doc.frequencies[term] else { continue }
        let df = Double(docs.filter { $0.frequencies[term] != nil }.count)
        let idf = log(1 + (n - df + 0.5) / (df + 0.5))
        var pseudo = 0.0
        for f in 0..<3 where tf[f] > 0 {
            pseudo += w[f] * tf[f] / (1 - b[f] + b[f] * doc.lengths[f] / average[f])
        }
        score += idf * pseudo * (k1 + 1) / (k1 + pseudo)
    }
    return score
}

private let parameterSets: [BM25Parameters] = [
    BM25Parameters(k1: 0.9, weights: [1.5, 2.0, 1.0], b: [0.4, 0.4, 0.4]),
    BM25Parameters(k1: 1.2, weights: [3.0, 5.0, 1.0], b: [0.5, 0.0, 0.75]),
]

@Suite("Keyword index: BM25F golden values, prefixes, invariants")
struct KeywordIndexTests {
    private func build(_ docs: [HandCounted], _ parameters: BM25Parameters) -> KeywordIndex {
        var index = KeywordIndex(parameters: parameters)
        for (row, doc) in docs.enumerated() { index.insert(doc.item, at: Int32(row)) }
        index.prepareForQueries()
        return index
    }

    @Test("The hand counts agree with what the analyzer makes of the texts")
    func handCountsMatchTheAnalyzer() {
        let index = KeywordIndex()
        for doc in corpus {
            let fields = [doc.item.title, doc.item.keywords.joined(separator: " "), doc.item.content]
            #expect(fields.map { Double(index.indexTerms($0).count) } == doc.lengths, "\(doc.id)")
            for (term, tf) in doc.frequencies {
                let stem = PorterStemmer.stem(term)
                #expect(fields.map { Double(index.indexTerms($0).filter { $0 == stem }.count) } == tf, "\(doc.id) \(term)")
            }
        }
    }

    @Test("Scores equal hand-computed BM25F", arguments: parameterSets.indices)
    func goldenScores(parameterSet: Int) {
        let parameters = parameterSets[parameterSet]
        let index = build(corpus, parameters)
        let query = index.queryTerms("tea milk coffee", prefixLastTerm: false)
        #expect(query.map(\.word) == ["tea", "milk", "coffee"])
        var scores = [Float](repeating: 0, count: corpus.count)
        var touched: [Int32] = []
        index.accumulate(query, scores: &scores, touched: &touched)
        #expect(Set(touched) == [0, 1, 2])
        for (row, doc) in corpus.enumerated() {
            let expected = handScore(doc, query: ["tea", "milk", "coffee"], in: corpus, parameters)
            #expect(abs(Double(scores[row]) - expected) < 1e-4, "\(doc.id): \(scores[row]) vs \(expected)")
            #expect(abs(Double(index.score(query, row: Int32(row))) - expected) < 1e-4, "\(doc.id)")
        }
    }

    @Test("k1 0.9, weights 1.5/2/1, b 0.4 give the numbers computed by hand")
    func literalGoldenNumbers() {
        let index = build(corpus, BM25Parameters(k1: 0.9, weights: [1.5, 2.0, 1.0], b: [0.4, 0.4, 0.4]))
        let query = index.queryTerms("tea milk coffee", prefixLastTerm: false)
        // d0: only "tea" (df 2 of 4, idf ln 2); title 1·1.5/(0.6 + 0.4·2/1.5), content
        // 2·1/(0.6 + 0.4·5/4), saturated with k1 0.9. d1 and d2 likewise, d3 matches nothing.
        let pseudo = 1.5 / (0.6 + 0.4 * 2 / 1.5) + 2 / (0.6 + 0.4 * 5 / 4.0)
        #expect(abs(log(2) * pseudo * 1.9 / (0.9 + pseudo) - 1.0237173) < 1e-6)
        let expected: [Double] = [1.0237173, 1.9836610, 2.5991177, 0]
        for row in 0..<4 {
            #expect(abs(Double(index.score(query, row: Int32(row))) - expected[row]) < 1e-4, "row \(row)")
        }
    }

    @Test("Explanations carry the idf, the raw and the weighted frequency of every field")
    func explanationParts() {
        let p = parameterSets[0]
        let index = build(corpus, p)
        let query = index.queryTerms("tea milk", prefixLastTerm: false)
        let parts = index.explain(query, row: 1)
        #expect(parts.map(\.term) == ["tea", "milk"])
        let tea = parts[0]
        #expect(abs(Double(tea.idf) - log(2)) < 1e-6)
        #expect(tea.frequencies == [1, 1, 1])
        // avglen: title 6/4, keywords 3/4, content 16/4; d1 lengths 2, 2, 4.
        let expectedParts = [1.5 / (0.6 + 0.4 * 2 / 1.5), 2.0 / (0.6 + 0.4 * 2 / 0.75), 1.0 / (0.6 + 0.4 * 4 / 4.0)]
        for f in 0..<3 { #expect(abs(Double(tea.fieldParts[f]) - expectedParts[f]) < 1e-5) }
        #expect(parts[1].frequencies == [0, 1, 1] && parts[1].fieldParts[0] == 0)
        #expect(abs(parts.reduce(0) { $0 + Double($1.score) } - handScore(corpus[1], query: ["tea", "milk"], in: corpus, p)) < 1e-4)
    }

    @Test("Removing a document updates N, df and the average lengths", arguments: parameterSets.indices)
    func scoresAfterRemoval(parameterSet: Int) {
        let p = parameterSets[parameterSet]
        var index = build(corpus, p)
        index.remove(row: 0)  // d0
        index.prepareForQueries()
        let rest = Array(corpus.dropFirst())
        let query = index.queryTerms("tea milk coffee", prefixLastTerm: false)
        #expect(index.documentCount == 3)
        #expect(index.documentFrequency("tea") == 1)
        for (offset, doc) in rest.enumerated() {
            let row = Int32(offset + 1)
            let expected = handScore(doc, query: ["tea", "milk", "coffee"], in: rest, p)
            #expect(abs(Double(index.score(query, row: row)) - expected) < 1e-4, "\(doc.id)")
        }
        #expect(index.score(query, row: 0) == 0)
        #expect(throws: Never.self) { try index.checkInvariants(liveRows: [1, 2, 3]) }
    }

    @Test("Re-inserting a row replaces its terms")
    func insertReplaces() throws {
        var index = build(corpus, .default)
        index.insert(SearchableItem(id: "d3", title: "oolong"), at: 3)
        index.prepareForQueries()
        #expect(index.documentFrequency("mint") == 0)
        #expect(index.documentFrequency("oolong") == 1)
        #expect(index.documentCount == 4)
        try index.checkInvariants(liveRows: [0, 1, 2, 3])
    }

    @Test("The last word of a query is a prefix unless the query ends in a separator")
    func prefixQueryTerms() {
        var index = KeywordIndex()
        index.insert(SearchableItem(id: "y", title: "Yerba mate latte"), at: 0)
        index.insert(SearchableItem(id: "z", title: "Yellow zucchini"), at: 1)
        index.prepareForQueries()
        let typed = index.queryTerms("yer")
        #expect(typed.count == 1 && typed[0].isPrefix)
        #expect(typed[0].terms == ["yerba"])
        #expect(index.queryTerms("ye")[0].terms.sorted() == ["yellow", "yerba"])
        #expect(index.queryTerms("yer ").first?.isPrefix == false)
        #expect(index.queryTerms("yer", prefixLastTerm: false).first?.terms == ["yer"])
        var scores = [Float](repeating: 0, count: 2)
        var touched: [Int32] = []
        index.accumulate(typed, scores: &scores, touched: &touched)
        #expect(touched == [0] && scores[0] > 0 && scores[1] == 0)
    }

    @Test("Repeated query words count once")
    func repeatedQueryWords() {
        let index = build(corpus, .default)
        #expect(index.queryTerms("tea tea tea", prefixLastTerm: false).count == 1)
        #expect(
            index.score(index.queryTerms("tea tea", prefixLastTerm: false), row: 0)
                == index.score(index.queryTerms("tea", prefixLastTerm: false), row: 0))
    }

    @Test("Invariants catch rows the identifier table does not know")
    func invariantsDetectDisagreement() {
        let index = build(corpus, .default)
        #expect(throws: Never.self) { try index.checkInvariants(liveRows: [0, 1, 2, 3]) }
        #expect(throws: InvariantViolation.self) { try index.checkInvariants(liveRows: [0, 1, 2]) }
        #expect(throws: InvariantViolation.self) { try index.checkInvariants(liveRows: [0, 1, 2, 3, 4]) }
    }

    @Test("A title begins with a query only if its words do: title-word hashes that collide are confirmed against the title")
    func titleBeginsConfirmsHashes() throws {
        // A word whose 16-bit title hash is tea's (one in 65,535 words).
        let collider = try #require(
            (0..<2_000_000).lazy.map { "w\($0)" }.first { KeywordIndex.titleHash($0) == KeywordIndex.titleHash("tea") })
        var index = KeywordIndex()
        let titles = ["Tea mate latte", "\(collider) mate latte", "Tea", "Mate tea"]
        for (row, title) in titles.enumerated() { index.insert(SearchableItem(id: ItemID("r\(row)"), title: title), at: Int32(row)) }
        func begins(_ row: Int, _ words: [String], prefix: Bool = false) -> Bool {
            index.titleBegins(
                row: Int32(row), with: words, hashes: words.map(KeywordIndex.titleHash), lastIsPrefix: prefix, title: { titles[row] })
        }
        #expect(begins(0, ["tea", "mate"]))
        #expect(begins(0, ["tea", "mate", "lat"], prefix: true))
        #expect(!begins(0, ["tea", "mate", "lat"]))
        #expect(!begins(1, ["tea", "mate"]))
        #expect(!begins(1, ["tea", "mate", "lat"], prefix: true))
        #expect(begins(1, [collider, "mate"]))
        #expect(!begins(2, ["tea", "mate"], prefix: true))
        #expect(!begins(3, ["tea", "mate"]))
    }
}
