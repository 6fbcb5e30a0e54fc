import Foundation
import SiftEvaluation
import Testing

@testable import Sift

/// Items with title words, keywords, accents, Cyrillic, emoji and long runs of one word, so
/// that analysis and embedding meet every path.
private func preparationCorpus(_ count: Int) -> [SearchableItem] {
    var items = SyntheticCorpus(seed: 77).items(count: count)
    for i in stride(from: 0, to: count, by: 7) {
        items[i].title = "Café naïve Résumé — \(items[i].title) 😤"
        items[i].keywords = ["русский текст", "crème brûlée", "x"]
    }
    for i in stride(from: 3, to: count, by: 11) {
        items[i].content += " " + String(repeating: "walrus ", count: 40) + "the and of"
    }
    return items
}

func bits(_ v: [Float]?) -> [UInt32]? { v?.map(\.bitPattern) }

/// `v` as a vector index of that precision keeps it (fp16: each component rounded).
func stored(_ v: [Float], as precision: VectorPrecision) -> [Float] {
    var index = VectorIndex(dimension: v.count, precision: precision)
    index.set(row: 0, vector: v)
    return index.vector(at: 0)
}

@Suite("Batch preparation: parallel embedding and analysis agree with serial, bit for bit")
struct PreparationTests {
    @Test(
        "Embedding a batch across the cores gives every item the vector, bit for bit, that embedding it alone gives",
        arguments: [1.0, 5.0] as [Float])
    func parallelEmbeddingIsSerial(titleWeight: Float) {
        let model = randomModel()
        let items = preparationCorpus(1500)
        var state = IndexState(keyword: KeywordIndex(), vectors: VectorIndex(dimension: model.dimension))
        let prepared = state.prepare(
            items.map { StoredItem(item: $0, vector: nil) }, embedder: model, titleWeight: titleWeight, needsVector: { _ in true })
        #expect(prepared.count == items.count)
        for (item, p) in zip(items, prepared) {
            #expect(p.stored.item == item)
            #expect(bits(p.stored.vector) == bits(model.embed(item: item, titleWeight: titleWeight)), "\(item.id)")
        }
    }

    @Test("Only the items that need a vector are embedded; the others keep theirs")
    func needsVectorIsHonoured() {
        let model = randomModel()
        let items = preparationCorpus(200)
        var state = IndexState(keyword: KeywordIndex(), vectors: nil)
        let stored = items.enumerated().map { StoredItem(item: $1, vector: $0 % 2 == 0 ? nil : [1, 2]) }
        let prepared = state.prepare(stored, embedder: model, titleWeight: 5, needsVector: { $0.vector == nil })
        for (s, p) in zip(stored, prepared) {
            #expect(s.vector == nil ? p.stored.vector?.count == model.dimension : p.stored.vector == [1, 2])
        }
    }

    @Test("Analysing across the cores indexes exactly what inserting one item at a time does")
    func parallelAnalysisIsSerial() throws {
        let items = preparationCorpus(3000)
        var serial = KeywordIndex()
        for (row, item) in items.enumerated() { serial.insert(item, at: Int32(row)) }
        serial.prepareForQueries()

        var state = IndexState(keyword: KeywordIndex(), vectors: nil)
        for start in stride(from: 0, to: items.count, by: 700) {
            let batch = items[start..<min(start + 700, items.count)].map { StoredItem(item: $0, vector: nil) }
            let prepared = state.prepare(batch, embedder: nil, titleWeight: 5, needsVector: { _ in false })
            // Batch by batch (new rows: postings appended by two threads), or item by item.
            if start % 1400 == 0 {
                state.project(prepared)
            } else {
                for p in prepared { state.project(p) }
            }
            state.keyword.prepareForQueries()
        }
        let parallel = state.keyword
        #expect(parallel.termStrings == serial.termStrings)
        #expect(parallel.postings.map { $0.map(\.row) } == serial.postings.map { $0.map(\.row) })
        #expect(
            parallel.postings.map { $0.map { [$0.tf.0, $0.tf.1, $0.tf.2] } }
                == serial.postings.map { $0.map { [$0.tf.0, $0.tf.1, $0.tf.2] } })
        #expect(parallel.rowTerms == serial.rowTerms)
        #expect(parallel.fieldLengths.map { [$0.0, $0.1, $0.2] } == serial.fieldLengths.map { [$0.0, $0.1, $0.2] })
        #expect(parallel.titleHeads == serial.titleHeads)
        #expect(parallel.sortedTerms == serial.sortedTerms)
        #expect(parallel.documentCount == serial.documentCount)
        #expect(!parallel.stemMemo.isEmpty && parallel.stemMemo.count <= KeywordIndex.stemMemoLimit)
        try parallel.checkInvariants(liveRows: Set((0..<Int32(items.count))))
    }

    @Test("The analysis equals the analyzer's terms, stemmed, field by field, and the title's first words")
    func analysisMatchesTheReference() {
        let items = preparationCorpus(400)
        let index = KeywordIndex()
        var analyser = index.makeTermAnalyzer()
        for item in items {
            let document = analyser.analyze(item)
            let fields = [item.title, item.keywords.joined(separator: " "), item.content]
            var expected: [String: [Int]] = [:]
            var order: [String] = []
            for (f, text) in fields.enumerated() {
                for term in index.indexTerms(text) {
                    if expected[term] == nil {
                        order.append(term)
                        expected[term] = [0, 0, 0]
                    }
                    expected[term]![f] += 1
                }
            }
            #expect(document.terms == order, "\(item.id)")
            #expect(document.frequencies.map { [Int($0.0), Int($0.1), Int($0.2)] } == order.map { expected[$0]! })
            #expect(
                [Int(document.lengths.0), Int(document.lengths.1), Int(document.lengths.2)] == fields.map { index.indexTerms($0).count })
            let words = index.analyzer.tokens(item.title).map(\.text)
            #expect(document.titleHeads == words.prefix(KeywordIndex.titleHeadLength).map(KeywordIndex.titleHash))
        }
    }

    @Test("With the memo's term ids (resolved, stale and missing), an analyser gives the documents one without a memo gives")
    func memoisedIDsChangeNothing() {
        var items = preparationCorpus(600)
        // Documents of hundreds of distinct terms (the id slots grow), and words seen again.
        for i in stride(from: 5, to: items.count, by: 13) {
            items[i].content += " " + (0..<300).map { "w\($0 * 7 + i)x" }.joined(separator: " ")
        }
        var index = KeywordIndex()
        var row: Int32 = 0
        for batch in stride(from: 0, to: items.count, by: 100) {
            index.resolveStemMemo()
            var memoised = index.makeTermAnalyzer()
            var plain = TermAnalyzer(analyzer: index.analyzer, known: [:], termIDs: index.termIDs)
            var documents: [AnalyzedDocument] = []
            for item in items[batch..<(batch + 100)] {
                let a = memoised.analyze(item)
                let b = plain.analyze(item)
                #expect(a.terms == b.terms && a.ids == b.ids, "\(item.id)")
                #expect(a.frequencies.map { [$0.0, $0.1, $0.2] } == b.frequencies.map { [$0.0, $0.1, $0.2] })
                #expect([a.lengths.0, a.lengths.1, a.lengths.2] == [b.lengths.0, b.lengths.1, b.lengths.2])
                #expect(a.titleHeads == b.titleHeads)
                documents.append(a)
            }
            index.learnStems(memoised.takeLearnedStems())
            // Half the batches are indexed before the next is analysed: the other half's new
            // stems stay without a term (their memo entries unresolved) for a while.
            if batch / 100 % 2 == 0 {
                for d in documents {
                    index.insert(d, at: row)
                    row += 1
                }
            }
        }
        #expect(index.stemMemo.values.contains { $0.id >= 0 } && index.stemMemo.values.contains { $0.id < 0 && !$0.stem.isEmpty })
    }

    @Test("An analysis whose terms all have ids carries their order by id; a stale id makes the index sort again")
    func idOrder() throws {
        let items = preparationCorpus(300)
        var index = KeywordIndex()
        for (row, item) in items.enumerated() { index.insert(item, at: Int32(row)) }
        index.resolveStemMemo()
        var analyser = index.makeTermAnalyzer()
        let document = analyser.analyze(items[0])
        let order = try #require(document.idOrder)
        #expect(order.map { document.ids[Int($0)] } == document.ids.sorted())
        #expect(document.ids.allSatisfy { $0 >= 0 })
        // A word the index does not hold: no id, no order.
        var fresh = items[1]
        fresh.content += " zyxwvutsrq"
        #expect(analyser.analyze(fresh).idOrder == nil)
        // After removeAll the ids name other terms: the index resolves them and sorts itself,
        // as for the item inserted there directly.
        var other = index
        other.removeAll()
        other.insert(items[5], at: 0)
        other.insertNew([document], at: [1])
        var reference = index
        reference.removeAll()
        reference.insert(items[5], at: 0)
        reference.insert(items[0], at: 1)
        #expect(other.termStrings == reference.termStrings)
        #expect(other.rowTerms == reference.rowTerms)
        #expect(other.postings.map { $0.map(\.row) } == reference.postings.map { $0.map(\.row) })
    }

    @Test("The term order merged batch by batch equals sorting every term by its UTF-8 bytes")
    func mergedTermOrder() {
        var index = KeywordIndex()
        let words = [
            "zeta", "alpha", "alp", "alphabet", "café", "cafe", "русский", "ρ", "a", "b1", "b10", "b2", "ångström", "über", "uber", "Z",
        ]
        for (row, word) in words.enumerated() {
            index.insert(SearchableItem(id: ItemID("w\(row)"), title: word), at: Int32(row))
            if row % 3 == 0 { index.prepareForQueries() }
        }
        index.prepareForQueries()
        let sorted = index.sortedTerms.map { index.termStrings[Int($0)] }
        #expect(sorted == index.termStrings.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(sorted).count == index.termStrings.count)
        #expect(index.expansions(of: "alp", limit: 10).sorted() == ["alp", "alpha", "alphabet"])
        #expect(
            KeywordIndex.utf8Precedes("alp", "alpha") && !KeywordIndex.utf8Precedes("alpha", "alp") && !KeywordIndex.utf8Precedes("x", "x"))
    }

    @Test("Upserting through the index stores and scans the vectors that embedding one item at a time gives")
    func indexUsesTheSerialVectors() async throws {
        let model = randomModel()
        let fixture = try IndexFixture(.disk, embedder: model)
        let items = preparationCorpus(1200)
        let index = try fixture.open()
        try await index.upsert(Array(items[0..<700]))
        try await index.upsert(Array(items[700...]))
        try await index.checkInvariants()
        let vectors = try #require(await index.vectors)
        let table = await index.table
        // The rows keep what the index's precision makes of the serial vectors (fp16 by default).
        for item in items {
            let row = try #require(table.row(of: item.id))
            #expect(
                bits(vectors.vector(at: row)) == bits(stored(model.embed(item: item, titleWeight: 5), as: vectors.precision)), "\(item.id)")
        }
        // The store keeps them as the rows do (fp16 by default: `Store.halfVectors`).
        var inStore: [ItemID: [Float]] = [:]
        try fixture.openStore().forEachItem { inStore[$0.item.id] = $0.vector }
        for item in items.prefix(50) {
            #expect(bits(inStore[item.id]) == bits(stored(model.embed(item: item, titleWeight: 5), as: vectors.precision)))
        }
    }

    @Test("A large upsert (new rows projected together) leaves the store and every projection as small upserts do")
    func largeUpsertIsSerial() async throws {
        let model = randomModel()
        var items = preparationCorpus(400)
        // In the same call: an id twice (the last wins), then made private (deleted again).
        items[20] = items[10]
        items[20].title = "second version"
        items[30] = items[15]
        items[30].isPrivate = true
        let large = try IndexFixture(.disk, embedder: model)
        let small = try IndexFixture(.disk, embedder: model)
        let a = try large.open()
        let b = try small.open()
        try await a.upsert(Array(items[0..<40]))
        try await a.upsert(Array(items[40...]))
        for start in stride(from: 0, to: items.count, by: 10) {
            try await b.upsert(Array(items[start..<min(start + 10, items.count)]))
        }
        try await a.checkInvariants()
        let (ka, kb) = (await a.keyword, await b.keyword)
        #expect(ka.termStrings == kb.termStrings)
        #expect(ka.postings.map { $0.map(\.row) } == kb.postings.map { $0.map(\.row) })
        #expect(ka.rowTerms == kb.rowTerms)
        #expect(ka.sortedTerms == kb.sortedTerms)
        #expect(await a.allItems() == b.allItems())
        let (va, vb) = (try #require(await a.vectors), try #require(await b.vectors))
        #expect(va.count == vb.count)
        for row in 0..<Int32(va.count) { #expect(bits(va.vector(at: row)) == bits(vb.vector(at: row))) }
        #expect(try large.storedIDs() == small.storedIDs())
        #expect(try large.storedIDs().contains(items[10].id))
        #expect(try !large.storedIDs().contains(items[15].id))
    }
}
