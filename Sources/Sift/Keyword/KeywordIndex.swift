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
package struct KeywordIndex: Sendable {
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
    /// Per term id its postings (in place in the snapshot's pages after an open, see ``PostingLists``).
    var postings = PostingLists()
    /// The exact frequencies (capped at 65,535) of the postings that store ``Posting/escape``,
    /// by ``largeKey(term:row:)``: words repeated 255 times in one field are rare.
    var largeFrequencies: [UInt64: (UInt16, UInt16, UInt16)] = [:]
    var rowTerms = RowTermLists()
    var fieldLengths: [(UInt32, UInt32, UInt32)] = []
    /// ``titleHash(_:)`` of the first ``titleHeadLength`` title words of each row (stop words
    /// included), 0 past the end: lets as-you-type ranking recognise a query that is how a title
    /// begins (a filter: ``titleBegins(row:with:hashes:lastIsPrefix:title:)`` reads the title
    /// to confirm).
    var titleHeads: [UInt16] = []
    static let titleHeadLength = 6
    var totalLengths: (Int, Int, Int) = (0, 0, 0)
    /// Number of live documents.
    package internal(set) var documentCount = 0
    /// The ids of the first `sortedTerms.count` terms, ordered by their UTF-8 bytes, for prefix
    /// search. Ids are dense and never reused, so terms added since are the ids from
    /// `sortedTerms.count` on; ``prepareForQueries()`` merges them in.
    var sortedTerms: [Int32] = []
    /// The stems of words analysed so far, "" for a stop word, with their terms' ids (see
    /// ``TermAnalyzer``).
    var stemMemo = StemMemo()
    /// Words of the memo whose stem had no term when they were learned: looked up again by
    /// ``resolveStemMemo()`` once the items that held them are indexed.
    var unresolvedStems: [String] = []
    /// Words the memo keeps at most: Zipf's law puts nearly every token among the first few
    /// thousand distinct words, and the memo must not grow with a long tail of rare ones.
    static let stemMemoLimit = 1 << 15
    /// Postings appended since the lists were last trimmed to their size (see `prepareForQueries`).
    var appendedSinceTrim = 0
    /// The number of postings, kept up by `insert` and `remove` once `prepareForQueries` has
    /// counted them (nil: not counted since the lists were set some other way, as by a snapshot).
    var postingCount: Int?

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
        rowTerms.holdsDocument(Int(row))
    }

    /// Indexes `item` at `row`, replacing whatever the row held.
    /// - Complexity: O(t + Σ p) for t terms of the item and p the postings of the terms it replaces.
    package mutating func insert(_ item: SearchableItem, at row: Int32) {
        var terms = makeTermAnalyzer()
        let document = terms.analyze(item)
        learnStems(terms.takeLearnedStems())
        insert(document, at: row)
    }

    /// A ``TermAnalyzer`` that starts from the stems this index has memoised and resolves the
    /// terms it holds to their ids (so that ``insert(_:at:)-(AnalyzedDocument,_)`` looks up only
    /// new ones). Analysers work apart from the index (on other threads too); hand what each
    /// learned back with ``learnStems(_:)``.
    func makeTermAnalyzer() -> TermAnalyzer {
        TermAnalyzer(analyzer: analyzer, known: stemMemo, termIDs: termIDs)
    }

    /// Adds stems an analyser learned to the memo, up to ``stemMemoLimit`` words.
    mutating func learnStems(_ learned: [String: StemEntry]) {
        for (word, entry) in learned where stemMemo.count < Self.stemMemoLimit {
            guard stemMemo.insert(entry, forWord: word) else { continue }
            if entry.id < 0 && !entry.stem.isEmpty { unresolvedStems.append(word) }
        }
    }

    /// Gives the memo's words whose term did not exist when they were learned their term's id,
    /// where it exists now (an analyser looks the others up by their stem each time).
    mutating func resolveStemMemo() {
        unresolvedStems.removeAll { word in
            guard let entry = stemMemo[word], entry.id < 0 else { return true }
            guard let id = termIDs[entry.stem] else { return false }
            stemMemo.setID(id, forWord: word)
            return true
        }
    }

    /// Indexes an analysed item at `row`, replacing whatever the row held: the same as
    /// ``insert(_:at:)`` on the item it was made from.
    /// - Complexity: O(t log t + Σ p) for t distinct terms of the item and p the postings of the
    ///   terms it replaces; a dictionary lookup per term the analyser did not resolve.
    mutating func insert(_ document: AnalyzedDocument, at row: Int32) {
        remove(row: row)
        let (ids, entries) = place(document, at: row)
        for (id, posting) in zip(ids, entries) { postings.append(posting, to: Int(id)) }
    }

    /// Indexes analysed items at rows that hold no document (new rows, all distinct): the same,
    /// list for list and posting for posting, as inserting them one after another, with the
    /// postings appended by two threads, each to the lists of half the terms (by id parity) in
    /// the items' order. Appending to ~30 scattered lists an item is most of a projection.
    /// - Complexity: O(Σ t log t) for t distinct terms per item.
    mutating func insertNew(_ documents: [AnalyzedDocument], at rows: [Int32]) {
        precondition(documents.count == rows.count, "one row per document")
        let total = documents.reduce(0) { $0 + $1.terms.count }
        var ids: [Int32] = []
        ids.reserveCapacity(total)
        var entries: [Posting] = []
        entries.reserveCapacity(total)
        for (document, row) in zip(documents, rows) {
            precondition(!contains(row: row), "row \(row) holds a document")
            let placed = place(document, at: row)
            ids.append(contentsOf: placed.ids)
            entries.append(contentsOf: placed.postings)
        }
        postings.withLists(owning: ids) { lists in
            ids.withUnsafeBufferPointer { ids in
                entries.withUnsafeBufferPointer { entries in
                    // Each half appends only to the lists of its own terms.
                    Parallel.forEach(iterations: ids.count >= Self.parallelAppendMinimum ? 2 : 1) { half in
                        let step = ids.count >= Self.parallelAppendMinimum ? 2 : 1
                        for k in 0..<ids.count where Int(ids[k]) % step == half {
                            lists[Int(ids[k])].append(entries[k])
                        }
                    }
                }
            }
        }
    }

    /// Postings below which ``insertNew(_:at:)`` appends on one thread.
    static let parallelAppendMinimum = 4096

    /// Everything ``insert(_:at:)`` does for a row that holds no document but append the
    /// postings: term ids (new terms get theirs, in the order they first occur), the row's term
    /// list, lengths and title words, the counts. Returns the postings to append to each term's
    /// list, in term id order.
    private mutating func place(_ document: AnalyzedDocument, at row: Int32) -> (ids: [Int32], postings: [Posting]) {
        let r = Int(row)
        if r >= rowTerms.count {
            rowTerms.grow(to: r + 1)
            fieldLengths.append(contentsOf: repeatElement((0, 0, 0), count: r - fieldLengths.count + 1))
            titleHeads.append(contentsOf: repeatElement(0, count: (r + 1) * Self.titleHeadLength - titleHeads.count))
        }
        // Ids are handed out in the order terms first occur, as when the item is analysed here.
        // The analyser resolved the terms this index held then; an id it gave is used only if
        // it still names the term (ids are never reused, but `removeAll` starts them afresh).
        var ids: [Int32] = []
        ids.reserveCapacity(document.terms.count)
        var allKnown = true
        for (i, term) in document.terms.enumerated() {
            let known = i < document.ids.count ? Int(document.ids[i]) : -1
            if known >= 0 && known < termStrings.count && termStrings[known] == term {
                ids.append(Int32(known))
            } else {
                ids.append(termID(term))
                allKnown = false
            }
        }
        // The analyser's order when it gave every id and each still names its term.
        let order: [Int32]
        if allKnown, let sorted = document.idOrder, sorted.count == ids.count {
            order = sorted
        } else {
            order = (0..<Int32(ids.count)).sorted { ids[Int($0)] < ids[Int($1)] }
        }
        var sortedIDs: [Int32] = []
        sortedIDs.reserveCapacity(ids.count)
        var entries: [Posting] = []
        entries.reserveCapacity(ids.count)
        let e = UInt16(Posting.escape)
        for k in order {
            let i = Int(k)
            let tf = document.frequencies[i]
            let posting = Posting(row: row, tf: (UInt8(min(tf.0, e)), UInt8(min(tf.1, e)), UInt8(min(tf.2, e))))
            if posting.isEscaped { largeFrequencies[Self.largeKey(term: ids[i], row: row)] = tf }
            entries.append(posting)
            sortedIDs.append(ids[i])
        }
        appendedSinceTrim += sortedIDs.count
        postingCount? += sortedIDs.count
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
        return (sortedIDs, entries)
    }

    /// Removes the document at `row`, if any.
    /// - Complexity: O(Σ p) over the postings lists of its terms.
    package mutating func remove(row: Int32) {
        let r = Int(row)
        guard r < rowTerms.count, let ids = rowTerms[r] else { return }
        for id in ids {
            // Whether the row's posting was escaped, nil when the list has none for the row.
            let removed = postings.modify(Int(id)) { list -> Bool? in
                guard let i = list.firstIndex(where: { $0.row == row }) else { return nil }
                let escaped = list[i].isEscaped
                list.swapAt(i, list.count - 1)
                list.removeLast()
                return escaped
            }
            guard let escaped = removed else { continue }
            if escaped { largeFrequencies[Self.largeKey(term: id, row: row)] = nil }
            postingCount? -= 1
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
        postings.appendList()
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
        termIDs[term].map { postings.count(of: Int($0)) } ?? 0
    }

    /// Document frequency of a normalised word (lower-cased, diacritics folded) through its
    /// stem; a stop word counts as in every document.
    package func documentFrequency(ofWord word: String) -> Int {
        let stem = stem(ofWord: word)
        return stem.isEmpty ? documentCount : documentFrequency(stem)
    }

    /// The index term of a normalised word: its stem, from the memo where it has one; "" for a
    /// stop word.
    func stem(ofWord word: String) -> String {
        stemMemo[word]?.stem ?? (analyzer.stopWords.contains(word) ? "" : PorterStemmer.stem(word))
    }

    /// Lucene's BM25 idf.
    package func idf(documentFrequency df: Int) -> Float {
        let n = Float(documentCount)
        let d = Float(df)
        return log(1 + (n - d + 0.5) / (d + 0.5))
    }

    /// FNV-1a 64 of a normalised word folded to 16 bits, never 0 (0 marks "no word"): two
    /// bytes a title word; two words share a hash one time in 65,535, and the title is read
    /// before a match counts.
    static func titleHash(_ word: String) -> UInt16 {
        var word = word
        return word.withUTF8 { titleHash(bytes: $0) }
    }

    /// ``titleHash(_:)`` of a word's UTF-8.
    static func titleHash(bytes word: UnsafeBufferPointer<UInt8>) -> UInt16 {
        let h = FNV1a.hash(word)
        let folded = UInt16(truncatingIfNeeded: h ^ (h >> 16) ^ (h >> 32) ^ (h >> 48))
        return folded == 0 ? 1 : folded
    }

    /// Whether the title of `row` begins with `words` — all but the last exactly, the last as
    /// typed so far (a prefix) when `lastIsPrefix`. Needs at least two words; `title` supplies
    /// the row's title, read when the title-word hashes match (they are a filter).
    /// - Complexity: O(words), plus one tokenisation of the title when the hashes match.
    package func titleBegins(row: Int32, with words: [String], hashes: [UInt16], lastIsPrefix: Bool, title: () -> String) -> Bool {
        let n = words.count
        guard n >= 2, n <= Self.titleHeadLength, Int(row) < rowTerms.count else { return false }
        let base = Int(row) * Self.titleHeadLength
        for i in 0..<(n - 1) where titleHeads[base + i] != hashes[i] { return false }
        if lastIsPrefix {
            guard titleHeads[base + n - 1] != 0 else { return false }
        } else {
            guard titleHeads[base + n - 1] == hashes[n - 1] else { return false }
        }
        var position = 0
        var matches = true
        analyzer.forEachWord(title()) { word, _ in
            if position < n - 1 {
                matches = matches && word == words[position]
            } else if position == n - 1 {
                matches = matches && (lastIsPrefix ? word.hasPrefix(words[n - 1]) : word == words[n - 1])
            }
            position += 1
        }
        return matches && position >= n
    }

    /// Number of distinct terms, and of postings.
    package var statistics: (terms: Int, postings: Int) {
        (termStrings.count, postings.total)
    }

    /// Verifies that postings and the forward index agree and that counts add up.
    package func checkInvariants(liveRows: Set<Int32>) throws(InvariantViolation) {
        var live = Set<Int32>()
        for r in rowTerms.indices where rowTerms.holdsDocument(r) { live.insert(Int32(r)) }
        if live != liveRows {
            throw InvariantViolation(
                "keyword index: rows \(live.symmetricDifference(liveRows).sorted().prefix(5)) disagree with the identifier table")
        }
        if live.count != documentCount { throw InvariantViolation("keyword index: document count \(documentCount) ≠ \(live.count) rows") }
        var fromPostings = 0
        var escaped = 0
        for (id, list) in postings.enumerated() {
            for p in list {
                fromPostings += 1
                guard rowTerms.withList(Int(p.row), { $0.map { Self.sortedContains($0, Int32(id)) } ?? false }) else {
                    throw InvariantViolation("keyword index: posting of '\(termStrings[id])' points at row \(p.row) which does not hold it")
                }
                if p.isEscaped {
                    escaped += 1
                    guard let exact = largeFrequencies[Self.largeKey(term: Int32(id), row: p.row)],
                        max(exact.0, exact.1, exact.2) >= UInt16(Posting.escape)
                    else {
                        throw InvariantViolation(
                            "keyword index: posting of '\(termStrings[id])' at row \(p.row) lacks its exact frequencies")
                    }
                }
            }
        }
        if escaped != largeFrequencies.count {
            throw InvariantViolation("keyword index: \(largeFrequencies.count) exact frequencies kept for \(escaped) escaped postings")
        }
        let forward = rowTerms.idCount
        if forward != fromPostings { throw InvariantViolation("keyword index: \(forward) forward entries ≠ \(fromPostings) postings") }
        if let counted = postingCount, counted != fromPostings {
            throw InvariantViolation("keyword index: \(counted) postings counted ≠ \(fromPostings) in the lists")
        }
    }
}
