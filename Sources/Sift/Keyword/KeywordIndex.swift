import Foundation

/// An inverted index over the title, keywords and content of every item, scored with BM25F.
///
/// Variant: the "simple BM25F" of Robertson, Zaragoza & Taylor (2004): per-field term
/// frequencies are length-normalised per field, weighted and summed into one pseudo frequency
/// `tf̃ = Σ_f w_f · tf_f / (1 − b_f + b_f · len_f / avglen_f)`, saturated once,
/// `score = Σ_t idf(t) · tf̃ · (k1 + 1) / (k1 + tf̃)`, with Lucene's non-negative
/// `idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))`.
/// Terms are analysed words (``Analyzer``) reduced by the Porter stemmer.
///
/// Rows come from the ``IdentifierTable``; the index never invents or renumbers them.
public struct KeywordIndex: Sendable {
    /// One row's term frequencies (title, keywords, content) for one term: 8 bytes. A
    /// frequency of 255 or more is stored as ``escape`` in every field that reaches it, and the
    /// exact frequencies are in `largeFrequencies`.
    struct Posting: Sendable {
        var row: Int32
        var tf: (UInt8, UInt8, UInt8)

        static let escape = UInt8.max

        /// Whether the exact frequencies are in `largeFrequencies`.
        @inline(__always) var isEscaped: Bool { max(tf.0, max(tf.1, tf.2)) == Self.escape }
    }

    package var parameters: BM25Parameters
    let analyzer: Analyzer

    // Internal rather than private so that the snapshot (Snapshot/IndexState+Snapshot.swift) can
    // write and restore them; nothing else outside this file changes them.
    var termIDs: [String: Int32] = [:]
    var termStrings: [String] = []
    var postings: [[Posting]] = []
    /// The exact frequencies (capped at 65,535) of the postings that store ``Posting/escape``,
    /// by ``largeKey(term:row:)``: words repeated 255 times in one field are rare.
    var largeFrequencies: [UInt64: (UInt16, UInt16, UInt16)] = [:]
    var rowTerms: [[Int32]?] = []
    var fieldLengths: [(UInt32, UInt32, UInt32)] = []
    /// Hashes of the first ``titleHeadLength`` title words of each row (stop words included),
    /// 0 past the end: lets as-you-type ranking recognise a query that is how a title begins.
    var titleHeads: [UInt64] = []
    static let titleHeadLength = 6
    var totalLengths: (Int, Int, Int) = (0, 0, 0)
    /// Number of live documents.
    package internal(set) var documentCount = 0
    /// The ids of the first `sortedTerms.count` terms, ordered by their UTF-8 bytes, for prefix
    /// search. Ids are dense and never reused, so terms added since are the ids from
    /// `sortedTerms.count` on; ``prepareForQueries()`` merges them in.
    var sortedTerms: [Int32] = []
    /// The stems of words analysed so far, "" for a stop word (see ``TermAnalyzer``).
    var stemMemo: [String: String] = [:]
    /// Words the memo keeps at most: Zipf's law puts nearly every token among the first few
    /// thousand distinct words, and the memo must not grow with a long tail of rare ones.
    static let stemMemoLimit = 1 << 15
    /// Postings appended since the lists were last trimmed to their size (see `prepareForQueries`).
    var appendedSinceTrim = 0

    package init(parameters: BM25Parameters = .default, analyzer: Analyzer = Analyzer()) {
        self.parameters = parameters
        self.analyzer = analyzer
    }

    /// The index terms of `text`: analysed, stop words dropped, stemmed.
    package func indexTerms(_ text: String) -> [String] {
        analyzer.terms(text).map(PorterStemmer.stem)
    }

    /// Whether `row` holds a document.
    package func contains(row: Int32) -> Bool {
        Int(row) < rowTerms.count && rowTerms[Int(row)] != nil
    }

    /// Indexes `item` at `row`, replacing whatever the row held.
    /// - Complexity: O(t + Σ p) for t terms of the item and p the postings of the terms it replaces.
    package mutating func insert(_ item: SearchableItem, at row: Int32) {
        var terms = makeTermAnalyzer()
        let document = terms.analyze(item)
        learnStems(terms.takeLearnedStems())
        insert(document, at: row)
    }

    /// A ``TermAnalyzer`` that starts from the stems this index has memoised. Analysers work
    /// apart from the index (on other threads too); hand what each learned back with
    /// ``learnStems(_:)``.
    func makeTermAnalyzer() -> TermAnalyzer {
        TermAnalyzer(analyzer: analyzer, known: stemMemo)
    }

    /// Adds stems an analyser learned to the memo, up to ``stemMemoLimit`` words.
    mutating func learnStems(_ learned: [String: String]) {
        for (word, stem) in learned where stemMemo.count < Self.stemMemoLimit {
            stemMemo[word] = stem
        }
    }

    /// Indexes an analysed item at `row`, replacing whatever the row held: the same as
    /// ``insert(_:at:)`` on the item it was made from.
    /// - Complexity: O(t log t + Σ p) for t distinct terms of the item and p the postings of the
    ///   terms it replaces; one dictionary lookup per distinct term.
    mutating func insert(_ document: AnalyzedDocument, at row: Int32) {
        remove(row: row)
        let r = Int(row)
        if r >= rowTerms.count {
            rowTerms.append(contentsOf: repeatElement(nil, count: r - rowTerms.count + 1))
            fieldLengths.append(contentsOf: repeatElement((0, 0, 0), count: r - fieldLengths.count + 1))
            titleHeads.append(contentsOf: repeatElement(0, count: (r + 1) * Self.titleHeadLength - titleHeads.count))
        }
        // Ids are handed out in the order terms first occur, as when the item is analysed here.
        var ids: [Int32] = []
        ids.reserveCapacity(document.terms.count)
        for term in document.terms { ids.append(termID(term)) }
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        var sortedIDs: [Int32] = []
        sortedIDs.reserveCapacity(ids.count)
        let e = UInt16(Posting.escape)
        for i in order {
            let tf = document.frequencies[i]
            let posting = Posting(row: row, tf: (UInt8(min(tf.0, e)), UInt8(min(tf.1, e)), UInt8(min(tf.2, e))))
            if posting.isEscaped { largeFrequencies[Self.largeKey(term: ids[i], row: row)] = tf }
            postings[Int(ids[i])].append(posting)
            sortedIDs.append(ids[i])
        }
        appendedSinceTrim += sortedIDs.count
        rowTerms[r] = sortedIDs
        for (i, h) in document.titleHeads.prefix(Self.titleHeadLength).enumerated() {
            titleHeads[r * Self.titleHeadLength + i] = h
        }
        let lengths = document.lengths
        fieldLengths[r] = lengths
        totalLengths.0 += Int(lengths.0)
        totalLengths.1 += Int(lengths.1)
        totalLengths.2 += Int(lengths.2)
        documentCount += 1
    }

    /// Removes the document at `row`, if any.
    /// - Complexity: O(Σ p) over the postings lists of its terms.
    package mutating func remove(row: Int32) {
        let r = Int(row)
        guard r < rowTerms.count, let ids = rowTerms[r] else { return }
        for id in ids {
            var list = postings[Int(id)]
            if let i = list.firstIndex(where: { $0.row == row }) {
                if list[i].isEscaped { largeFrequencies[Self.largeKey(term: id, row: row)] = nil }
                list.swapAt(i, list.count - 1)
                list.removeLast()
            }
            postings[Int(id)] = list
        }
        let lengths = fieldLengths[r]
        totalLengths.0 -= Int(lengths.0)
        totalLengths.1 -= Int(lengths.1)
        totalLengths.2 -= Int(lengths.2)
        fieldLengths[r] = (0, 0, 0)
        rowTerms[r] = nil
        for i in 0..<Self.titleHeadLength { titleHeads[r * Self.titleHeadLength + i] = 0 }
        documentCount -= 1
    }

    /// Removes every document.
    package mutating func removeAll() {
        self = KeywordIndex(parameters: parameters, analyzer: analyzer)
    }

    private mutating func termID(_ term: String) -> Int32 {
        if let id = termIDs[term] { return id }
        let id = Int32(termStrings.count)
        termIDs[term] = id
        termStrings.append(term)
        postings.append([])
        return id
    }

    static func largeKey(term: Int32, row: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: term)) << 32 | UInt64(UInt32(bitPattern: row))
    }

    /// The exact frequencies of a posting of term `term`.
    @inline(__always)
    func frequencies(_ p: Posting, term: Int32) -> (UInt16, UInt16, UInt16) {
        if p.isEscaped, let exact = largeFrequencies[Self.largeKey(term: term, row: p.row)] { return exact }
        return (UInt16(p.tf.0), UInt16(p.tf.1), UInt16(p.tf.2))
    }

    /// Document frequency of an index term.
    package func documentFrequency(_ term: String) -> Int {
        termIDs[term].map { postings[Int($0)].count } ?? 0
    }

    /// Lucene's BM25 idf.
    package func idf(documentFrequency df: Int) -> Float {
        let n = Float(documentCount), d = Float(df)
        return log(1 + (n - d + 0.5) / (d + 0.5))
    }

    /// FNV-1a 64 of a normalised word, never 0 (0 marks "no word").
    static func wordHash(_ word: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in word.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h == 0 ? 1 : h
    }

    /// Whether the title of `row` begins with `words` — all but the last exactly, the last as
    /// typed so far (a prefix) when `lastIsPrefix`. Needs at least two words; `title` supplies
    /// the row's title for the prefix check.
    /// - Complexity: O(words), plus one tokenisation of the title when the full words match.
    package func titleBegins(row: Int32, with words: [String], hashes: [UInt64], lastIsPrefix: Bool, title: () -> String) -> Bool {
        let n = words.count
        guard n >= 2, n <= Self.titleHeadLength, Int(row) < rowTerms.count else { return false }
        let base = Int(row) * Self.titleHeadLength
        for i in 0..<(n - 1) where titleHeads[base + i] != hashes[i] { return false }
        if !lastIsPrefix { return titleHeads[base + n - 1] == hashes[n - 1] }
        guard titleHeads[base + n - 1] != 0 else { return false }
        var position = 0, matches = false
        analyzer.forEachWord(title()) { word, _ in
            if position == n - 1 { matches = word.hasPrefix(words[n - 1]) }
            position += 1
        }
        return matches
    }

    // MARK: Querying

    /// One query term after analysis, and the index terms it matches.
    package struct QueryTerm: Sendable, Equatable {
        /// The word as typed (normalised).
        package var word: String
        /// The index terms it matches: its stem, or for a prefix every term starting with it.
        package var terms: [String]
        package var isPrefix: Bool
    }

    /// Analyses a query. With `prefixLastTerm`, the last word (when the query does not end in
    /// a separator) also matches every index term that starts with it, as-you-type.
    package func queryTerms(_ query: String, prefixLastTerm: Bool = true, maxExpansions: Int = 1024) -> [QueryTerm] {
        let words = analyzer.terms(query)
        var result: [QueryTerm] = []
        var seen = Set<String>()
        let endsInWord = query.unicodeScalars.last.map(Analyzer.isWordScalarOrASCIIAlnum) ?? false
        for (i, word) in words.enumerated() {
            let stem = PorterStemmer.stem(word)
            if prefixLastTerm && endsInWord && i == words.count - 1 {
                var terms = expansions(of: word, limit: maxExpansions)
                if termIDs[stem] != nil && !terms.contains(stem) { terms.append(stem) }
                result.append(QueryTerm(word: word, terms: terms.sorted(), isPrefix: true))
            } else if seen.insert(stem).inserted {
                result.append(QueryTerm(word: word, terms: [stem], isPrefix: false))
            }
        }
        return result
    }

    /// The index terms starting with `prefix`, most frequent first, at most `limit`.
    func expansions(of prefix: String, limit: Int) -> [String] {
        let sorted = sortedTermOrder()
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if termStrings[Int(sorted[mid])].utf8.lexicographicallyPrecedes(prefix.utf8) { lo = mid + 1 } else { hi = mid }
        }
        var found: [(String, Int)] = []
        var i = lo
        while i < sorted.count, termStrings[Int(sorted[i])].hasPrefix(prefix) {
            let id = Int(sorted[i])
            if !postings[id].isEmpty { found.append((termStrings[id], postings[id].count)) }
            i += 1
        }
        found.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        return found.prefix(limit).map(\.0)
    }

    /// Every term id, ordered by the term's UTF-8 bytes: the kept order with the terms added
    /// since merged in.
    /// - Complexity: O(T + k log k) string comparisons for T terms, k of them new.
    private func sortedTermOrder() -> [Int32] {
        if sortedTerms.count == termStrings.count { return sortedTerms }
        let strings = termStrings
        func precedes(_ a: Int32, _ b: Int32) -> Bool { Self.utf8Precedes(strings[Int(a)], strings[Int(b)]) }
        let added = (Int32(sortedTerms.count)..<Int32(strings.count)).sorted(by: precedes)
        var merged: [Int32] = []
        merged.reserveCapacity(strings.count)
        var i = 0, j = 0
        while i < sortedTerms.count && j < added.count {
            if precedes(added[j], sortedTerms[i]) { merged.append(added[j]); j += 1 } else { merged.append(sortedTerms[i]); i += 1 }
        }
        merged.append(contentsOf: sortedTerms[i...])
        merged.append(contentsOf: added[j...])
        return merged
    }

    /// Whether `a`'s UTF-8 bytes order before `b`'s (memcmp order, as the prefix search
    /// expects); faster than `a.utf8.lexicographicallyPrecedes(b.utf8)`.
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let n = min(x.count, y.count)
                if n > 0, let p = x.baseAddress, let q = y.baseAddress {
                    let c = memcmp(p, q, n)
                    if c != 0 { return c < 0 }
                }
                return x.count < y.count
            }
        }
    }

    /// Brings the sorted term list used for prefix search up to date, if terms were added
    /// since (merging the new ones in); after a
    /// bulk load (more postings appended since the last trim than there were before), trims
    /// every postings list to its size.
    ///
    /// Lists grow by doubling, so after a load a third of their bytes are spare capacity (about
    /// 120 bytes an item at 100k items). Trimming when the appended postings outnumber the rest
    /// costs O(total) at geometrically spaced sizes — amortised O(1) a posting — and never
    /// after a batch that is small against the index.
    package mutating func prepareForQueries() {
        if sortedTerms.count != termStrings.count { sortedTerms = sortedTermOrder() }
        if appendedSinceTrim > 0 {
            let total = postings.reduce(0) { $0 + $1.count }
            if appendedSinceTrim * 2 > total {
                for i in postings.indices where postings[i].capacity > postings[i].count {
                    var trimmed: [Posting] = []
                    trimmed.reserveCapacity(postings[i].count)
                    trimmed.append(contentsOf: postings[i])
                    postings[i] = trimmed
                }
                appendedSinceTrim = 0
            }
        }
    }

    @inline(__always)
    private func pseudoFrequency(_ f: (UInt16, UInt16, UInt16), row: Int32, averages: (Float, Float, Float)) -> Float {
        let len = fieldLengths[Int(row)]
        let w = parameters.weights, b = parameters.b
        var tf: Float = 0
        if f.0 > 0 { tf += w[0] * Float(f.0) / (1 - b[0] + b[0] * Float(len.0) / averages.0) }
        if f.1 > 0 { tf += w[1] * Float(f.1) / (1 - b[1] + b[1] * Float(len.1) / averages.1) }
        if f.2 > 0 { tf += w[2] * Float(f.2) / (1 - b[2] + b[2] * Float(len.2) / averages.2) }
        return tf
    }

    private var averageLengths: (Float, Float, Float) {
        let n = Float(max(documentCount, 1))
        return (max(Float(totalLengths.0) / n, 1e-6), max(Float(totalLengths.1) / n, 1e-6), max(Float(totalLengths.2) / n, 1e-6))
    }

    /// BM25F score of every document that matches at least one query term, accumulated into
    /// `scores` (indexed by row, at least as long as the highest row) and listed in `touched`.
    /// A prefix term contributes its best-scoring expansion per document.
    /// - Complexity: O(Σ p) over the postings of the query's terms.
    package func accumulate(_ query: [QueryTerm], scores: inout [Float], touched: inout [Int32]) {
        let averages = averageLengths
        let k1 = parameters.k1
        for term in query {
            if term.isPrefix && term.terms.count > 1 {
                var best: [Int32: Float] = [:]
                for t in term.terms {
                    guard let id = termIDs[t] else { continue }
                    let list = postings[Int(id)]
                    let idf = self.idf(documentFrequency: list.count)
                    for p in list {
                        let tf = pseudoFrequency(frequencies(p, term: id), row: p.row, averages: averages)
                        let s = idf * tf * (k1 + 1) / (k1 + tf)
                        if s > best[p.row, default: 0] { best[p.row] = s }
                    }
                }
                for (row, s) in best {
                    if scores[Int(row)] == 0 { touched.append(row) }
                    scores[Int(row)] += s
                }
            } else {
                for t in term.terms {
                    guard let id = termIDs[t] else { continue }
                    let list = postings[Int(id)]
                    let idf = self.idf(documentFrequency: list.count)
                    for p in list {
                        let tf = pseudoFrequency(frequencies(p, term: id), row: p.row, averages: averages)
                        if scores[Int(p.row)] == 0 { touched.append(p.row) }
                        scores[Int(p.row)] += idf * tf * (k1 + 1) / (k1 + tf)
                    }
                }
            }
        }
    }

    /// Calls `body` with each row holding the index term `term` that `admits`, and the term's
    /// BM25F score there (computed only for admitted rows).
    /// - Complexity: O(p) over the term's postings.
    /// - Parameter table: a per-row table of `tableStride`-byte entries that `admits` reads,
    ///   prefetched ahead of the walk (its reads are scattered), or nil.
    @inline(__always)
    func forEachScore(ofTerm term: String, admits: (Int32) -> Bool, table: UnsafeRawPointer? = nil, tableStride: Int = 1, _ body: (Int32, Float) -> Void) {
        guard let id = termIDs[term] else { return }
        let averages = averageLengths
        let k1 = parameters.k1
        postings[Int(id)].withUnsafeBufferPointer { list in
            let idf = self.idf(documentFrequency: list.count)
            for i in stride(from: 0, to: list.count, by: ScatteredReads.block) {
                if let table { ScatteredReads.prefetch(list, before: i, (table, tableStride)) }
                for j in i..<min(i + ScatteredReads.block, list.count) where admits(list[j].row) {
                    let p = list[j]
                    let tf = pseudoFrequency(frequencies(p, term: id), row: p.row, averages: averages)
                    body(p.row, idf * tf * (k1 + 1) / (k1 + tf))
                }
            }
        }
    }

    /// ``accumulate(_:scores:touched:)`` into reusable buffers: the same scores, bit for bit (the
    /// same operations in the same order), without a dictionary for prefix terms or an
    /// allocation per query. Each matching row is listed once in `accumulator.touched`.
    /// - Complexity: O(Σ p) over the postings of the query's terms.
    /// - Parameter splitAbove: the postings above which the walk is split (tests lower it).
    func accumulate(_ query: [QueryTerm], into accumulator: inout KeywordAccumulator, splitAbove: Int = parallelPostings) {
        accumulator.reserve(rows: rowTerms.count)
        let averages = averageLengths
        let k1 = parameters.k1
        let w = parameters.weights, b = parameters.b
        let (w0, w1, w2) = (w[0], w[1], w[2])
        let (b0, b1, b2) = (b[0], b[1], b[2])
        // Locals, so that the loops below index plain buffers.
        var scores: [Float] = [], best: [Float] = [], marks: [Bool] = [], titleHits: [UInt8] = []
        var touched: [Int32] = [], bestRows: [Int32] = []
        swap(&scores, &accumulator.scores); swap(&best, &accumulator.best); swap(&marks, &accumulator.marks)
        swap(&touched, &accumulator.touched); swap(&bestRows, &accumulator.bestRows); swap(&titleHits, &accumulator.titleHits)
        defer {
            swap(&scores, &accumulator.scores); swap(&best, &accumulator.best); swap(&marks, &accumulator.marks)
            swap(&touched, &accumulator.touched); swap(&bestRows, &accumulator.bestRows); swap(&titleHits, &accumulator.titleHits)
        }
        // Whole words (not prefixes) of the query: a title can begin with the query only if
        // it holds each of them (see `KeywordAccumulator.mayBeginTitle`).
        let wholeWords = query.reduce(0) { $0 + ($1.isPrefix ? 0 : 1) }
        accumulator.requiredTitleTerms = wholeWords <= Int(UInt8.max) ? wholeWords : nil
        // The query's postings: a long enough walk is split over two cores by row (each half
        // of the rows on its own thread, every posting read by both, each scored by one), which
        // keeps every row's sum in the same order, so the scores are the same bit for bit.
        var volume = 0
        for term in query { for t in term.terms { if let id = termIDs[t] { volume += postings[Int(id)].count } } }
        let rows = rowTerms.count
        let halves = volume >= splitAbove && rows >= 2 && ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1
        fieldLengths.withUnsafeBufferPointer { lengths in
        scores.withUnsafeMutableBufferPointer { scores in
        best.withUnsafeMutableBufferPointer { best in
        marks.withUnsafeMutableBufferPointer { marks in
        titleHits.withUnsafeMutableBufferPointer { titleHits in
            // Each pass writes only its own rows of the shared buffers.
            let scores = scores, best = best, marks = marks, titleHits = titleHits
            let lengths = lengths
            // The expression of `pseudoFrequency` and `accumulate(_:scores:touched:)`, unchanged.
            @inline(__always) func score(_ p: Posting, term: Int32, idf: Float) -> Float {
                let len = lengths[Int(p.row)]
                let f = p.isEscaped ? frequencies(p, term: term) : (UInt16(p.tf.0), UInt16(p.tf.1), UInt16(p.tf.2))
                var tf: Float = 0
                if f.0 > 0 { tf += w0 * Float(f.0) / (1 - b0 + b0 * Float(len.0) / averages.0) }
                if f.1 > 0 { tf += w1 * Float(f.1) / (1 - b1 + b1 * Float(len.1) / averages.1) }
                if f.2 > 0 { tf += w2 * Float(f.2) / (1 - b2 + b2 * Float(len.2) / averages.2) }
                return idf * tf * (k1 + 1) / (k1 + tf)
            }
            /// The query over the rows in `lo..<hi`.
            func pass(_ lo: Int32, _ hi: Int32, touched: inout [Int32], bestRows: inout [Int32]) {
                for term in query {
                    if term.isPrefix && term.terms.count > 1 {
                        // Per row the best expansion, then added once.
                        for t in term.terms {
                            guard let id = termIDs[t] else { continue }
                            postings[Int(id)].withUnsafeBufferPointer { list in
                                let idf = self.idf(documentFrequency: list.count)
                                for p in list where p.row >= lo && p.row < hi {
                                    let s = score(p, term: id, idf: idf)
                                    let r = Int(p.row)
                                    if s > best[r] {
                                        if best[r] == 0 { bestRows.append(p.row) }
                                        best[r] = s
                                    }
                                }
                            }
                        }
                        for row in bestRows {
                            let r = Int(row)
                            if !marks[r] { marks[r] = true; touched.append(row) }
                            scores[r] += best[r]
                            best[r] = 0
                        }
                        bestRows.removeAll(keepingCapacity: true)
                    } else {
                        let counted = !term.isPrefix && wholeWords <= Int(UInt8.max)
                        for t in term.terms {
                            guard let id = termIDs[t] else { continue }
                            postings[Int(id)].withUnsafeBufferPointer { list in
                                let idf = self.idf(documentFrequency: list.count)
                                // Rows' lengths, scores and marks are scattered reads.
                                for i in stride(from: 0, to: list.count, by: ScatteredReads.block) {
                                    ScatteredReads.prefetch(list, before: i, rows: lo..<hi,
                                                            (UnsafeRawPointer(lengths.baseAddress), MemoryLayout<(UInt32, UInt32, UInt32)>.stride),
                                                            (UnsafeRawPointer(scores.baseAddress), MemoryLayout<Float>.stride),
                                                            (UnsafeRawPointer(marks.baseAddress), MemoryLayout<Bool>.stride))
                                    for j in i..<min(i + ScatteredReads.block, list.count) {
                                        let p = list[j]
                                        guard p.row >= lo && p.row < hi else { continue }
                                        let r = Int(p.row)
                                        if !marks[r] { marks[r] = true; touched.append(p.row) }
                                        scores[r] += score(p, term: id, idf: idf)
                                        if counted && p.tf.0 > 0 { titleHits[r] &+= 1 }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if halves == 1 {
                pass(0, .max, touched: &touched, bestRows: &bestRows)
            } else {
                // The upper half's own lists, appended after the lower half's.
                var upperTouched: [Int32] = [], upperBest: [Int32] = []
                var lowerTouched = touched, lowerBest = bestRows
                let mid = Int32(rows / 2)
                Parallel.forEach(iterations: 2) { half in
                    if half == 0 {
                        pass(0, mid, touched: &lowerTouched, bestRows: &lowerBest)
                    } else {
                        pass(mid, .max, touched: &upperTouched, bestRows: &upperBest)
                    }
                }
                touched = lowerTouched + upperTouched
                bestRows = lowerBest
            }
        }
        }
        }
        }
        }
    }

    /// How many postings a query must walk before ``accumulate(_:into:)`` splits the walk over
    /// two cores: below it, the threads' start-up costs more than the half they save.
    static let parallelPostings = 20_000

    /// The BM25F score of one document, as ``accumulate(_:scores:touched:)`` computes it.
    package func score(_ query: [QueryTerm], row: Int32) -> Float {
        explain(query, row: row).reduce(0) { $0 + $1.score }
    }

    /// One term's part in a document's score, for `--explain`.
    public struct TermExplanation: Sendable, Equatable {
        public var term: String
        public var idf: Float
        /// Raw term frequency per field (title, keywords, content).
        public var frequencies: [Int]
        /// Weighted, length-normalised frequency per field.
        public var fieldParts: [Float]
        public var score: Float
    }

    /// Every term's contribution to the score of `row`.
    package func explain(_ query: [QueryTerm], row: Int32) -> [TermExplanation] {
        let averages = averageLengths
        let k1 = parameters.k1
        var result: [TermExplanation] = []
        for qt in query {
            var best: TermExplanation?
            for t in qt.terms {
                guard let id = termIDs[t], let posting = postings[Int(id)].first(where: { $0.row == row }) else { continue }
                let p = frequencies(posting, term: id)
                let df = postings[Int(id)].count
                let idf = self.idf(documentFrequency: df)
                let len = fieldLengths[Int(row)]
                let w = parameters.weights, b = parameters.b
                let parts: [Float] = [
                    p.0 > 0 ? w[0] * Float(p.0) / (1 - b[0] + b[0] * Float(len.0) / averages.0) : 0,
                    p.1 > 0 ? w[1] * Float(p.1) / (1 - b[1] + b[1] * Float(len.1) / averages.1) : 0,
                    p.2 > 0 ? w[2] * Float(p.2) / (1 - b[2] + b[2] * Float(len.2) / averages.2) : 0,
                ]
                let tf = pseudoFrequency(p, row: row, averages: averages)
                let e = TermExplanation(
                    term: t, idf: idf, frequencies: [Int(p.0), Int(p.1), Int(p.2)],
                    fieldParts: parts, score: idf * tf * (k1 + 1) / (k1 + tf))
                if qt.isPrefix {
                    if best == nil || e.score > best!.score { best = e }
                } else {
                    result.append(e)
                }
            }
            if let best { result.append(best) }
        }
        return result
    }

    /// Number of distinct terms, and of postings.
    package var statistics: (terms: Int, postings: Int) {
        (termStrings.count, postings.reduce(0) { $0 + $1.count })
    }

    /// Verifies that postings and the forward index agree and that counts add up.
    package func checkInvariants(liveRows: Set<Int32>) throws(InvariantViolation) {
        var live = Set<Int32>()
        for (r, terms) in rowTerms.enumerated() where terms != nil { live.insert(Int32(r)) }
        if live != liveRows {
            throw InvariantViolation("keyword index: rows \(live.symmetricDifference(liveRows).sorted().prefix(5)) disagree with the identifier table")
        }
        if live.count != documentCount { throw InvariantViolation("keyword index: document count \(documentCount) ≠ \(live.count) rows") }
        var fromPostings = 0, escaped = 0
        for (id, list) in postings.enumerated() {
            for p in list {
                fromPostings += 1
                guard let terms = rowTerms[Int(p.row)], terms.contains(Int32(id)) else {
                    throw InvariantViolation("keyword index: posting of '\(termStrings[id])' points at row \(p.row) which does not hold it")
                }
                if p.isEscaped {
                    escaped += 1
                    guard let exact = largeFrequencies[Self.largeKey(term: Int32(id), row: p.row)], max(exact.0, exact.1, exact.2) >= UInt16(Posting.escape) else {
                        throw InvariantViolation("keyword index: posting of '\(termStrings[id])' at row \(p.row) lacks its exact frequencies")
                    }
                }
            }
        }
        if escaped != largeFrequencies.count {
            throw InvariantViolation("keyword index: \(largeFrequencies.count) exact frequencies kept for \(escaped) escaped postings")
        }
        let forward = rowTerms.reduce(0) { $0 + ($1?.count ?? 0) }
        if forward != fromPostings { throw InvariantViolation("keyword index: \(forward) forward entries ≠ \(fromPostings) postings") }
    }
}

extension Analyzer {
    static func isWordScalarOrASCIIAlnum(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let v = scalar.value
            return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
        }
        return isWordScalar(scalar)
    }
}

/// Reusable buffers of the keyword half of a query (``KeywordIndex/accumulate(_:into:)``): per
/// row the BM25F score, 0 where no query term matched, and the rows that matched, each once.
/// ``reset()`` clears only what the last query touched, so a query costs its postings, not the
/// number of rows.
struct KeywordAccumulator: Sendable {
    /// Per row: the BM25F score of the last query (0 for rows it did not match).
    fileprivate(set) var scores: [Float] = []
    /// The rows the last query matched, each once, in the order first matched (in the lower
    /// half of the rows, then in the upper half, when the walk was split over two cores).
    fileprivate(set) var touched: [Int32] = []
    fileprivate var marks: [Bool] = []
    fileprivate var best: [Float] = []
    fileprivate var bestRows: [Int32] = []
    /// Per row: how many of the query's whole words (not prefixes) occur in its title.
    fileprivate var titleHits: [UInt8] = []
    /// How many whole words the last query had; nil when it was not accumulated (or had more
    /// than 255), and nothing is known about titles.
    fileprivate(set) var requiredTitleTerms: Int?

    /// Lends the score buffer out without a copy (the accumulator holds none until it is given
    /// back with ``giveBackScores(_:)``, with the touched rows' scores as they were).
    mutating func takeScores() -> [Float] {
        var s: [Float] = []
        swap(&s, &scores)
        return s
    }

    mutating func giveBackScores(_ s: inout [Float]) { swap(&s, &scores) }

    /// Makes room for `rows` rows (new rows zero).
    mutating func reserve(rows: Int) {
        guard scores.count < rows else { return }
        let grow = rows - scores.count
        scores.append(contentsOf: repeatElement(0, count: grow))
        best.append(contentsOf: repeatElement(0, count: grow))
        marks.append(contentsOf: repeatElement(false, count: grow))
        titleHits.append(contentsOf: repeatElement(0, count: grow))
    }

    /// False only when `row`'s title cannot begin with the last query's words (the condition of
    /// ``KeywordIndex/titleBegins(row:with:hashes:lastIsPrefix:title:)``): a title that begins
    /// with them holds each whole (non-prefix) word of the query, so its title frequency for
    /// that word's term is positive. Always true when the query was not accumulated.
    @inline(__always)
    func mayBeginTitle(row: Int32) -> Bool {
        guard let required = requiredTitleTerms else { return true }
        return Int(titleHits[Int(row)]) == required
    }

    /// Zeroes the rows the last query touched.
    mutating func reset() {
        scores.withUnsafeMutableBufferPointer { scores in
            marks.withUnsafeMutableBufferPointer { marks in
                titleHits.withUnsafeMutableBufferPointer { titleHits in
                    for row in touched { scores[Int(row)] = 0; marks[Int(row)] = false; titleHits[Int(row)] = 0 }
                }
            }
        }
        touched.removeAll(keepingCapacity: true)
        requiredTitleTerms = nil
    }
}
