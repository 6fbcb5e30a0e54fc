/// An item as the keyword index sees it: its distinct index terms with their frequency in each
/// field, its field lengths and the hashes of its first title words. Made by ``TermAnalyzer``
/// away from the index (in parallel, for a batch), then indexed by `KeywordIndex.insert(_:at:)`.
struct AnalyzedDocument: Sendable {
    /// Distinct index terms (stems), in the order they first occur: title, keywords, content.
    var terms: [String] = []
    /// The id of each term in the keyword index the analyser was made from, or −1 for a term
    /// it did not hold then: the index resolves only those, and checks the others (an id is
    /// used only while it still names its term).
    var ids: [Int32] = []
    /// Term frequency per field (title, keywords, content) of each term, saturating at 65,535.
    var frequencies: [(UInt16, UInt16, UInt16)] = []
    /// Number of index terms in each field.
    var lengths: (UInt32, UInt32, UInt32) = (0, 0, 0)
    /// ``KeywordIndex/titleHash(_:)`` of the first ``KeywordIndex/titleHeadLength`` title words
    /// (stop words included).
    var titleHeads: [UInt16] = []
    /// When every term has an id: the positions of the terms in increasing id order, the order
    /// of the row's postings, worked out with the rest of the analysis (on every core) instead
    /// of by the index as it projects the document; nil otherwise.
    var idOrder: [Int32]?
}

/// A word's stem as the memo keeps it ("" for a stop word), with the id of the stem's term in
/// the keyword index, or −1 when the index had no such term when the entry was made (term ids
/// are never reused, so an id once found stays the term's).
struct StemEntry: Sendable, Equatable {
    var stem: String
    var id: Int32
}

/// Turns items into ``AnalyzedDocument``s: ``Analyzer`` words, stop words dropped, Porter
/// stems — with the stem of every word memoised, since stemming was most of the analysis and
/// most words come again (Zipf), and with it the id of its term, so that a word costs one
/// look-up by its text and its term's place in the document one by its id. Pure: the same item
/// always gives the same document, whatever the memo holds, so analysers may run on several
/// threads at once and agree with one.
struct TermAnalyzer {
    let analyzer: Analyzer
    /// The index's memo, read only.
    private var known: StemMemo
    /// Stems found here that `known` lacks, for the index to keep.
    private var learned: [String: StemEntry] = [:]
    /// The index's term ids when the analyser was made, read only.
    private var termIDs: [String: Int32]
    /// Per document: the position in the document's lists of each term with an id, and of each
    /// term without one.
    private var idSlots = TermSlots()
    private var slots: [String: Int] = [:]

    init(analyzer: Analyzer, known: StemMemo, termIDs: [String: Int32] = [:]) {
        self.analyzer = analyzer
        self.known = known
        self.termIDs = termIDs
    }

    /// The stem of a normalised word and its term's id in `termIDs` (−1 if none), or nil for a
    /// stop word.
    private mutating func stem(_ word: UnsafeBufferPointer<UInt8>) -> StemEntry? {
        if let e = known.entry(forBytes: word) {
            if e.stem.isEmpty { return nil }
            return e.id >= 0 ? e : StemEntry(stem: e.stem, id: termIDs[e.stem] ?? -1)
        }
        return stem(String(decoding: word, as: UTF8.self))
    }

    /// ``stem(_:)`` for a word the index's memo does not hold.
    private mutating func stem(_ word: String) -> StemEntry? {
        if let e = learned[word] {
            if e.stem.isEmpty { return nil }
            return e.id >= 0 ? e : StemEntry(stem: e.stem, id: termIDs[e.stem] ?? -1)
        }
        let s = analyzer.stopWords.contains(word) ? "" : PorterStemmer.stem(word)
        let e = StemEntry(stem: s, id: s.isEmpty ? -1 : termIDs[s] ?? -1)
        learned[word] = e
        return s.isEmpty ? nil : e
    }

    /// The keyword index's view of `item`.
    /// - Complexity: O(n) in the UTF-8 length of its title, keywords and content; one memo
    ///   lookup per word, stemming only words not seen before.
    mutating func analyze(_ item: SearchableItem) -> AnalyzedDocument {
        var document = AnalyzedDocument()
        // Room for the terms a text of this size usually has (a word and its space are about
        // eight bytes): the lists are made once instead of growing by doubling from one.
        let expected = Swift.min((item.title.utf8.count + item.content.utf8.count) / 8 + 4 + item.keywords.count, 512)
        document.terms.reserveCapacity(expected)
        document.ids.reserveCapacity(expected)
        document.frequencies.reserveCapacity(expected)
        document.titleHeads.reserveCapacity(KeywordIndex.titleHeadLength)
        // The per-document tables are taken out of `self` for the walk and handed back after:
        // passed `inout` to `add`, they are checked statically, where a nested function capturing
        // them was checked at run time at every word (`swift_beginAccess`, 9% of the analysis).
        var idSlots = TermSlots(placeholder: ())
        var slots: [String: Int] = [:]
        swap(&idSlots, &self.idSlots)
        swap(&slots, &self.slots)
        idSlots.removeAll()
        slots.removeAll(keepingCapacity: true)
        defer {
            swap(&idSlots, &self.idSlots)
            swap(&slots, &self.slots)
        }
        let analyzer = self.analyzer
        var position = 0
        analyzer.forEachWordBytes(item.title) { word, _ in
            if position < KeywordIndex.titleHeadLength { document.titleHeads.append(KeywordIndex.titleHash(bytes: word)) }
            position += 1
            if let s = stem(word) { Self.add(s, .title, to: &document, &idSlots, &slots) }
        }
        // Each keyword alone: a word cannot span the space that joining them would put between.
        for keyword in item.keywords {
            analyzer.forEachWordBytes(keyword) { word, _ in
                if let s = stem(word) { Self.add(s, .keywords, to: &document, &idSlots, &slots) }
            }
        }
        analyzer.forEachWordBytes(item.content) { word, _ in
            if let s = stem(word) { Self.add(s, .content, to: &document, &idSlots, &slots) }
        }
        if slots.isEmpty {
            // No term without an id (those go through `slots`): the ids are distinct, so the
            // order is the one any sort by id gives.
            let ids = document.ids
            document.idOrder = (0..<Int32(ids.count)).sorted { ids[Int($0)] < ids[Int($1)] }
        }
        return document
    }

    /// Counts one occurrence of `term` in `field` of `document`: a new entry the first time the
    /// document holds the term (found by its id in `idSlots`, or by its stem in `slots` when it
    /// has no id yet).
    @inline(__always)
    private static func add(
        _ term: StemEntry, _ field: KeywordField, to document: inout AnalyzedDocument, _ idSlots: inout TermSlots,
        _ slots: inout [String: Int]
    ) {
        let next = document.terms.count
        let found: Int?
        if term.id >= 0 {
            found = idSlots.slot(of: term.id, orInsert: next)
        } else {
            found = slots[term.stem]
            if found == nil { slots[term.stem] = next }
        }
        let i: Int
        if let found {
            i = found
        } else {
            i = next
            document.terms.append(term.stem)
            document.ids.append(term.id)
            document.frequencies.append((0, 0, 0))
        }
        switch field {
        case .title:
            document.frequencies[i].0 &+= document.frequencies[i].0 < UInt16.max ? 1 : 0
            document.lengths.0 += 1
        case .keywords:
            document.frequencies[i].1 &+= document.frequencies[i].1 < UInt16.max ? 1 : 0
            document.lengths.1 += 1
        case .content:
            document.frequencies[i].2 &+= document.frequencies[i].2 < UInt16.max ? 1 : 0
            document.lengths.2 += 1
        }
    }

    /// The stems learned here, handing back the memo and the term ids this analyser read (so
    /// that the index can add to them without copying them).
    mutating func takeLearnedStems() -> [String: StemEntry] {
        known = StemMemo()
        termIDs = [:]
        defer { learned = [:] }
        return learned
    }
}

/// Term ids to their position in one document: open addressing over a power-of-two table,
/// emptied for the next document through the entries it used (a document holds tens to
/// thousands of distinct terms, the index up to millions).
struct TermSlots {
    private var keys: [Int32]
    private var values: [Int32]
    private var used: [Int] = []
    /// 32 − log2 of the table's size: a slot is the top bits of the id's Fibonacci hash.
    private var shift: UInt32

    init() {
        keys = [Int32](repeating: -1, count: 128)
        values = [Int32](repeating: 0, count: 128)
        shift = 32 - 7
    }

    /// A stand-in that allocates nothing, for where a table is lent out and handed back
    /// (``TermAnalyzer/analyze(_:)``); never used as a table.
    init(placeholder: Void) {
        keys = []
        values = []
        shift = 32
    }

    /// Empties the table.
    mutating func removeAll() {
        for i in used { keys[i] = -1 }
        used.removeAll(keepingCapacity: true)
    }

    /// The position of `id`; nil after entering it at `position` when it was not there.
    @inline(__always)
    mutating func slot(of id: Int32, orInsert position: Int) -> Int? {
        if 2 * used.count >= keys.count { grow() }
        let mask = keys.count - 1
        var i = Int(truncatingIfNeeded: (UInt32(bitPattern: id) &* 0x9E37_79B1) >> shift)
        while true {
            let k = keys[i]
            if k == id { return Int(values[i]) }
            if k < 0 {
                keys[i] = id
                values[i] = Int32(position)
                used.append(i)
                return nil
            }
            i = (i + 1) & mask
        }
    }

    private mutating func grow() {
        let entries = used.map { (keys[$0], values[$0]) }
        keys = [Int32](repeating: -1, count: keys.count * 2)
        values = [Int32](repeating: 0, count: keys.count)
        shift -= 1
        used.removeAll(keepingCapacity: true)
        for (k, v) in entries { _ = slot(of: k, orInsert: Int(v)) }
    }
}
