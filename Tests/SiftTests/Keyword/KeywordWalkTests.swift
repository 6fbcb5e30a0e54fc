import Foundation
import Testing

@testable import Sift

/// The buffered walk's shortcuts — length norms looked up below `KeywordWalk.tabulatedLengths`,
/// rows stamped with the query's generation instead of cleared marks — must give what the
/// reference accumulation gives, bit for bit.
@Suite("Keyword walk: tabulated length norms and generation stamps")
struct KeywordWalkTests {
    static func words(_ word: String, _ n: Int) -> String { Array(repeating: word, count: n).joined(separator: " ") }

    @Test("Fields on both sides of the tabulated lengths score as the reference does, bit for bit")
    func normsAcrossTheTable() {
        let edge = KeywordWalk.tabulatedLengths
        var index = KeywordIndex()
        let lengths = [0, 1, 2, edge - 2, edge - 1, edge, edge + 1, 3 * edge]
        for (r, n) in lengths.enumerated() {
            // Title and content of every length around the edge, each holding "kiwi" once.
            let filler = Self.words("pear", max(n - 1, 0))
            let text = n == 0 ? "" : "kiwi " + filler
            index.insert(SearchableItem(id: ItemID("row-\(r)"), title: text, content: text + " plum"), at: Int32(r))
        }
        index.prepareForQueries()
        for query in ["kiwi", "kiwi pear", "plum", "pear plum kiwi"] {
            let terms = index.queryTerms(query, prefixLastTerm: false)
            var scores = [Float](repeating: 0, count: lengths.count)
            var touched: [Int32] = []
            index.accumulate(terms, scores: &scores, touched: &touched)
            var accumulator = KeywordAccumulator()
            index.accumulate(terms, into: &accumulator)
            #expect(Set(accumulator.touched) == Set(touched), "\(query)")
            for r in lengths.indices {
                #expect(accumulator.scores[r].bitPattern == scores[r].bitPattern, "\(query) row \(r)")
            }
        }
    }

    @Test("Generations that wrap clear the stamps: every query touches and counts its own rows only")
    func generationsWrap() {
        var index = KeywordIndex()
        let titles = ["green tea", "green tea cake", "tea", "green", "cake tea green", "black tea"]
        for (r, title) in titles.enumerated() {
            index.insert(SearchableItem(id: ItemID("row-\(r)"), title: title, content: "a cup of \(title)"), at: Int32(r))
        }
        index.prepareForQueries()
        var wrapping = KeywordAccumulator()
        for (i, query) in ["green tea", "tea", "green tea", "cake", "tea green", "green tea"].enumerated() {
            let terms = index.queryTerms(query, prefixLastTerm: false)
            var fresh = KeywordAccumulator()
            index.accumulate(terms, into: &fresh)
            index.accumulate(terms, into: &wrapping)
            #expect(wrapping.touched == fresh.touched, "\(query)")
            for r in titles.indices {
                let row = Int32(r)
                #expect(wrapping.scores[r].bitPattern == fresh.scores[r].bitPattern, "\(query) row \(r)")
                #expect(wrapping.mayBeginTitle(row: row) == fresh.mayBeginTitle(row: row), "\(query) row \(r)")
            }
            wrapping.reset()
            // Every other query, the generations run out: the stamps must be cleared.
            if i % 2 == 0 { wrapping.nextGeneration(last: wrapping.generation) }
            #expect(wrapping.generation == (i % 2 == 0 ? 1 : 2))
            #expect(wrapping.scores.allSatisfy { $0 == 0 })
        }
    }
}
