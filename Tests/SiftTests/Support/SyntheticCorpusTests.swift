import Foundation
import SiftEvaluation
import Testing

@testable import Sift

@Suite("Synthetic corpus")
struct SyntheticCorpusTests {
    private static let corpus = SyntheticCorpus()

    private static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == " " })
    }

    @Test("The same seed gives the same items, a different seed different ones")
    func determinism() {
        let a = SyntheticCorpus(seed: 7).items(count: 200)
        let b = SyntheticCorpus(seed: 7).items(count: 200)
        let c = SyntheticCorpus(seed: 8).items(count: 200)
        #expect(a == b)
        #expect(a.map(\.content) != c.map(\.content))
        #expect(SyntheticCorpus(seed: 7).text(words: 30, index: 3) == SyntheticCorpus(seed: 7).text(words: 30, index: 3))
    }

    @Test("A smaller corpus is the start of a bigger one, and every id is unique")
    func sizes() {
        let small = Self.corpus.items(count: 100)
        let big = Self.corpus.items(count: 1_000)
        #expect(small.count == 100)
        #expect(big.count == 1_000)
        #expect(Array(big.prefix(100)) == small)
        #expect(Set(big.map(\.id)).count == 1_000)
        #expect(Self.corpus.item(at: 567) == big[567])
        #expect(Self.corpus.items(0..<0).isEmpty)
    }

    @Test("Titles have 2–8 words and bodies 10–80, with sentences")
    func fieldLengths() {
        var titleLengths = Set<Int>()
        var bodyLengths = Set<Int>()
        for item in Self.corpus.items(count: 2_000) {
            let title = Self.words(item.title).count
            let body = Self.words(item.content).count
            #expect(SyntheticCorpus.titleWords.contains(title), "title '\(item.title)'")
            #expect(SyntheticCorpus.bodyWords.contains(body), "body of \(item.id) has \(body) words")
            #expect(item.content.hasSuffix("."))
            #expect(item.title.first?.isUppercase == true)
            titleLengths.insert(title)
            bodyLengths.insert(body)
        }
        // Both ends of each range occur in 2,000 items.
        #expect(titleLengths.contains(2) && titleLengths.contains(8))
        #expect(bodyLengths.contains(10) && bodyLengths.contains(80))
    }

    @Test("Texts for the embedding benchmark have exactly the asked number of words")
    func textLength() {
        for i in 0..<50 {
            #expect(Self.words(Self.corpus.text(words: 30, index: i)).count == 30)
        }
    }

    @Test("Every domain occurs, with its display name, and dated items fall in 2024–2026")
    func domainsAndDates() {
        let items = Self.corpus.items(count: 2_000)
        let byDomain = Dictionary(grouping: items, by: \.domain)
        #expect(Set(byDomain.keys) == Set(Self.corpus.domains.map(\.identifier)))
        for domain in Self.corpus.domains {
            #expect(byDomain[domain.identifier]?.allSatisfy { $0.displayName == domain.displayName } == true)
        }
        let end = SyntheticCorpus.firstDate.addingTimeInterval(TimeInterval(SyntheticCorpus.dateSpanDays) * 86_400)
        let dates = items.compactMap(\.date)
        #expect(dates.count > items.count / 2)
        #expect(dates.allSatisfy { $0 >= SyntheticCorpus.firstDate && $0 < end })
        #expect(byDomain["expense"]?.allSatisfy { $0.date != nil } == true)
        #expect(items.contains { !$0.keywords.isEmpty })
    }

    @Test("Word frequencies fall off like Zipf's law: the head is common, the tail is long")
    func zipfian() {
        var counts: [String: Int] = [:]
        for item in Self.corpus.items(count: 2_000) {
            for w in Self.words(item.content.lowercased()) {
                counts[String(w.filter(\.isLetter)), default: 0] += 1
            }
        }
        let sorted = counts.values.sorted(by: >)
        let total = sorted.reduce(0, +)
        // The ten most frequent words carry a large share; many words occur only once.
        #expect(Double(sorted.prefix(10).reduce(0, +)) / Double(total) > 0.15)
        #expect(sorted.filter { $0 == 1 }.count > 1_000)
        #expect(counts["the", default: 0] > counts["coffee", default: 0])
    }

    @Test("No generated word reads as a date phrase or names a domain")
    func vocabularyAvoidsParsedWords() {
        let vocabulary = Set(Self.corpus.vocabulary)
        for word in ["today", "yesterday", "week", "march", "monday", "last", "expense", "expenses", "recipes", "journal"] {
            #expect(!vocabulary.contains(word), "\(word)")
        }
        #expect(Self.corpus.vocabulary.count == 40_000)
        #expect(Self.corpus.realWordCount > 1_000)
    }
}

@Suite("Vector index bandwidth probe")
struct VectorIndexBenchmarkTests {
    @Test("Streaming the matrix reads every row: the sum of squares of all components")
    func streamsEveryRow() {
        var index = VectorIndex(dimension: 4)
        index.set(row: 0, vector: [1, 2, 0, 0])
        index.set(row: 2, vector: [0, 0, 3, 1])
        #expect(index.matrixByteCount == 3 * 4 * 4)
        #expect(index.streamMatrixOnce() == 15)
        #expect(index.streamRows(0..<1) == 5)
        #expect(index.streamRows(1..<3) == 10)
        #expect(index.streamRows(1..<1) == 0)
    }
}
