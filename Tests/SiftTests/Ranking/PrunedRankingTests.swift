import Foundation
import Testing

@testable import Sift

/// The query path skips candidates whose score bound cannot reach the top k, reuses buffers
/// between queries, and accumulates BM25F without a dictionary. None of that may change a
/// ranking: on seeded random corpora and queries — exact ties (duplicate items), ids in every
/// order, filters, expiry, prefixes, stop words, titles that begin with the query, ranking hints,
/// donations, domains named in the query — the results must equal those of scoring every
/// candidate, in all three modes.
@Suite("Pruned ranking equals exhaustive ranking")
struct PrunedRankingTests {
    static let vocabulary = [
        "tea", "teapot", "team", "tear", "teal", "green", "greenhouse", "black", "milk", "mild",
        "coffee", "cocoa", "lentil", "lemon", "lemonade", "soup", "sour", "bread", "breakfast",
        "run", "runner", "running", "walk", "walker", "budget", "buddy", "rent", "rental", "grocery",
        "groceries", "train", "trainer", "garden", "gardening", "pasta", "paste", "sugar", "salt",
    ]
    static let stopWords = ["the", "and", "of", "a"]
    static let domains: [(String, String?)] = [("note", "Notes"), ("recipe", "Recipes"), ("expense", nil), ("task", "Tasks")]

    static func corpus(seed: UInt64, count: Int, now: Date) -> [SearchableItem] {
        var rng = SeededGenerator(seed: seed)
        func word() -> String {
            // Squared uniform: a few words are common, most are rare.
            let u = Double.random(in: 0..<1, using: &rng)
            return vocabulary[Int(u * u * Double(vocabulary.count))]
        }
        func words(_ n: Int) -> String {
            (0..<n).map { _ in rng.chance(0.15) ? rng.pick(stopWords) : word() }.joined(separator: " ")
        }
        var items: [SearchableItem] = []
        for i in 0..<count {
            let (domain, display) = rng.pick(domains)
            // Ids in an order unrelated to insertion, so ties cannot follow the row order.
            let id = ItemID("\(domain)-\(String((UInt64(i) &* 0x9E37_79B9_7F4A_7C15) >> 40, radix: 36))")
            if i > 0, rng.chance(0.12) {
                // A duplicate of an earlier item under a new id: an exact tie.
                var twin = items[rng.int(0..<items.count)]
                twin.id = id
                items.append(twin)
                continue
            }
            var item = SearchableItem(id: id, domain: domain, title: words(rng.int(1..<6)), content: words(rng.int(0..<16)))
            item.displayName = display
            if rng.chance(0.3) { item.keywords = (0..<rng.int(1..<4)).map { _ in word() } }
            if rng.chance(0.7) { item.date = now.addingTimeInterval(-Double(rng.int(0..<60)) * 86_400 + Double(rng.int(0..<86_400))) }
            if rng.chance(0.1) { item.expires = now.addingTimeInterval(Double(rng.int(-5..<5)) * 86_400 + 1) }
            if rng.chance(0.25) { item.rankingHint = rng.int(-10..<121) }
            items.append(item)
        }
        return items
    }

    static func queries(seed: UInt64, items: [SearchableItem], count: Int, now: Date) -> [SearchQuery] {
        var rng = SeededGenerator(seed: seed ^ 0xA5A5)
        var result: [SearchQuery] = []
        for _ in 0..<count {
            var words: [String]
            if rng.chance(0.35) {
                // How some title begins: the title-prefix boost applies.
                let title = Analyzer().normalizedWords(rng.pick(items).title)
                words = Array(title.prefix(rng.int(1..<4)))
            } else {
                words = (0..<rng.int(1..<5)).map { _ in rng.chance(0.1) ? rng.pick(stopWords) : rng.pick(vocabulary) }
            }
            if words.isEmpty { words = [rng.pick(vocabulary)] }
            let prefix = rng.chance(0.4)
            if prefix, let last = words.last, last.count > 2 { words[words.count - 1] = String(last.prefix(rng.int(2..<last.count))) }
            if rng.chance(0.1) { words.append(rng.pick(["recipes", "notes", "tasks"])) }
            var q = SearchQuery(
                words.joined(separator: " "), limit: rng.pick([0, 1, 3, 10, 10, 40]), understandsPhrases: rng.chance(0.5),
                prefixLastTerm: prefix)
            q.now = now
            if rng.chance(0.15) { q.domains = [rng.pick(domains).0] }
            if rng.chance(0.15) { q.since = now.addingTimeInterval(-20 * 86_400) }
            if rng.chance(0.1) { q.until = now.addingTimeInterval(-5 * 86_400) }
            if rng.chance(0.05) { q.text += " " }  // a finished last word is not a prefix
            result.append(q)
        }
        return result
    }

    @Test("Keyword, semantic and hybrid rankings equal scoring every candidate", arguments: [UInt64(1), 2, 3, 4])
    func prunedEqualsExhaustive(seed: UInt64) async throws {
        let now = Date(timeIntervalSince1970: 1_796_212_800)
        let items = Self.corpus(seed: seed, count: 400, now: now)
        let index = try SearchIndex(configuration: .init(directory: nil, embedder: FakeEmbedder(dimension: 32), clock: { now }))
        try await index.upsert(items)
        // Some donations, so the donation factor varies too (not for every seed).
        if seed % 2 == 0 {
            for (i, item) in items.enumerated() where i % 17 == 0 {
                try await index.donate(intent: "Open", itemIDs: [item.id], at: now.addingTimeInterval(-Double(i) * 3_600))
            }
        }
        // Delete a few, so that free rows sit among the live ones.
        try await index.delete(ids: items.enumerated().filter { $0.offset % 29 == 5 }.map(\.element.id))
        var compared = 0
        var nonEmpty = 0
        for var query in Self.queries(seed: seed, items: items, count: 150, now: now) {
            for mode in SearchMode.allCases {
                query.mode = mode
                query.scoresEveryCandidate = false
                let pruned = try await index.search(query)
                query.scoresEveryCandidate = true
                let exhaustive = try await index.search(query)
                #expect(pruned.results.map(\.id) == exhaustive.results.map(\.id), "\(mode) \"\(query.text)\" limit \(query.limit)")
                #expect(pruned.results.map(\.score) == exhaustive.results.map(\.score), "\(mode) \"\(query.text)\"")
                #expect(pruned.report == exhaustive.report, "\(mode) \"\(query.text)\"")
                compared += 1
                if !pruned.results.isEmpty { nonEmpty += 1 }
            }
        }
        #expect(compared == 450)
        #expect(nonEmpty > 200)
        try await index.checkInvariants()
    }

    @Test("Ties at the k-th place go to the smaller id, pruned or not")
    func tiesAtTheCut() async throws {
        // Twelve identical items and one better one: the top 5 is the better one and the four
        // smallest ids of the twins, whatever the order they were indexed in.
        let twins = (0..<12).map {
            SearchableItem(id: ItemID("twin-\(String(format: "%02d", (7 * $0) % 12))"), title: "green tea", content: "leaves")
        }
        let best = SearchableItem(id: "zzz-best", title: "green tea", content: "green tea green tea")
        let index = try SearchIndex(configuration: .init(directory: nil))
        try await index.upsert(twins + [best])
        for text in ["green tea", "gre", "green te", "tea"] {
            var query = SearchQuery(text, limit: 5, mode: .keyword)
            let pruned = try await index.search(query).results
            query.scoresEveryCandidate = true
            let exhaustive = try await index.search(query).results
            #expect(pruned == exhaustive, "\(text)")
            #expect(pruned.map(\.id.rawValue) == ["zzz-best", "twin-00", "twin-01", "twin-02", "twin-03"], "\(text)")
        }
    }

    @Test(
        "The buffered accumulator gives the public accumulator's scores and rows, bit for bit, on one core or with its walk split over two",
        arguments: [Int.max, 0])
    func accumulatorEqualsReference(splitAbove: Int) {
        let now = Date(timeIntervalSince1970: 1_796_212_800)
        var keyword = KeywordIndex()
        let items = Self.corpus(seed: 9, count: 300, now: now)
        for (r, item) in items.enumerated() { keyword.insert(item, at: Int32(r)) }
        for r in stride(from: 3, to: 300, by: 31) { keyword.remove(row: Int32(r)) }
        keyword.prepareForQueries()
        var accumulator = KeywordAccumulator()
        var serial = KeywordAccumulator()
        for query in Self.queries(seed: 9, items: items, count: 200, now: now) {
            let terms = keyword.queryTerms(query.text, prefixLastTerm: query.prefixLastTerm)
            var scores = [Float](repeating: 0, count: items.count)
            var touched: [Int32] = []
            keyword.accumulate(terms, scores: &scores, touched: &touched)
            keyword.accumulate(terms, into: &accumulator, splitAbove: splitAbove)
            keyword.accumulate(terms, into: &serial, splitAbove: .max)
            for r in 0..<items.count {
                #expect(accumulator.mayBeginTitle(row: Int32(r)) == serial.mayBeginTitle(row: Int32(r)), "\(query.text) row \(r)")
            }
            serial.reset()
            #expect(Set(accumulator.touched) == Set(touched), "\(query.text)")
            #expect(accumulator.touched.count == Set(accumulator.touched).count, "each row once")
            for r in 0..<items.count {
                #expect(accumulator.scores[r] == scores[r], "\(query.text) row \(r)")
            }
            for row in touched {
                let single = keyword.score(terms, row: row)
                #expect(abs(single - scores[Int(row)]) <= 1e-5 * max(1, abs(single)), "\(query.text) row \(row)")
            }
            accumulator.reset()
            #expect(accumulator.touched.isEmpty)
            #expect(accumulator.scores.allSatisfy { $0 == 0 })
        }
    }
}

extension Analyzer {
    /// Every normalised word of `text`, stop words included.
    fileprivate func normalizedWords(_ text: String) -> [String] {
        var words: [String] = []
        forEachWord(text) { word, _ in words.append(word) }
        return words
    }
}
