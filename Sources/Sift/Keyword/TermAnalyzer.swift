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
    /// ``KeywordIndex/wordHash(_:)`` of the first ``KeywordIndex/titleHeadLength`` title words
    /// (stop words included).
    var titleHeads: [UInt64] = []
}

/// Turns items into ``AnalyzedDocument``s: ``Analyzer`` words, stop words dropped, Porter
/// stems — with the stem of every word memoised, since stemming was most of the analysis and
/// most words come again (Zipf). Pure: the same item always gives the same document, whatever
/// the memo holds, so analysers may run on several threads at once and agree with one.
struct TermAnalyzer {
    let analyzer: Analyzer
    /// The index's memo, read only; "" marks a stop word.
    private var known: [String: String]
    /// Stems found here that `known` lacks, for the index to keep.
    private var learned: [String: String] = [:]
    /// The index's term ids when the analyser was made, read only.
    private var termIDs: [String: Int32]
    /// This analyser's own look-up: each word it has met → its entry in `stems` (−1: a stop
    /// word). Small and hot, so a word costs one look-up here instead of one in the memo, one
    /// for its place in the document and one for its term id.
    private var words: [String: Int32] = [:]
    /// The distinct stems met, their term ids in the index (or −1) and their place in the
    /// current document (or −1), by entry; `touched` lists the entries the document placed.
    private var stems: [String] = []
    private var stemIDs: [Int32] = []
    private var slots: [Int32] = []
    private var touched: [Int32] = []
    /// Each stem's entry (different words may share a stem).
    private var entries: [String: Int32] = [:]

    /// Words ``analyze(_:)`` keeps in its own look-up at most.
    let wordLimit: Int

    init(analyzer: Analyzer, known: [String: String], termIDs: [String: Int32] = [:], wordLimit: Int = 1 << 16) {
        self.analyzer = analyzer
        self.wordLimit = wordLimit
        self.known = known
        self.termIDs = termIDs
    }

    /// The stem of a normalised word, or nil for a stop word.
    private mutating func stem(_ word: String) -> String? {
        if let s = known[word] ?? learned[word] { return s.isEmpty ? nil : s }
        let s = analyzer.stopWords.contains(word) ? "" : PorterStemmer.stem(word)
        learned[word] = s
        return s.isEmpty ? nil : s
    }

    /// The entry of a word's stem, or −1 for a stop word.
    @inline(__always)
    private mutating func entry(_ word: String) -> Int32 {
        if let e = words[word] { return e }
        var e: Int32 = -1
        if let stem = stem(word) {
            if let known = entries[stem] {
                e = known
            } else {
                e = Int32(stems.count)
                entries[stem] = e
                stems.append(stem)
                stemIDs.append(termIDs[stem] ?? -1)
                slots.append(-1)
            }
        }
        words[word] = e
        return e
    }

    /// The keyword index's view of `item`.
    /// - Complexity: O(n) in the UTF-8 length of its title, keywords and content; one look-up
    ///   per word, stemming only words not seen before.
    mutating func analyze(_ item: SearchableItem) -> AnalyzedDocument {
        var document = AnalyzedDocument()
        // A look-up, not a result: emptied (between documents) once it holds many words, so
        // that a long tail of rare words cannot grow it without bound.
        if words.count > wordLimit {
            words.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
            stems.removeAll(keepingCapacity: true)
            stemIDs.removeAll(keepingCapacity: true)
            slots.removeAll(keepingCapacity: true)
        }
        func add(_ e: Int32, _ field: KeywordField) {
            let i: Int
            if slots[Int(e)] >= 0 {
                i = Int(slots[Int(e)])
            } else {
                i = document.terms.count
                slots[Int(e)] = Int32(i)
                touched.append(e)
                document.terms.append(stems[Int(e)])
                document.ids.append(stemIDs[Int(e)])
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
        let analyzer = self.analyzer
        var position = 0
        analyzer.forEachWord(item.title) { word, _ in
            if position < KeywordIndex.titleHeadLength { document.titleHeads.append(KeywordIndex.wordHash(word)) }
            position += 1
            let e = entry(word)
            if e >= 0 { add(e, .title) }
        }
        // Each keyword alone: a word cannot span the space that joining them would put between.
        for keyword in item.keywords {
            analyzer.forEachWord(keyword) { word, _ in
                let e = entry(word)
                if e >= 0 { add(e, .keywords) }
            }
        }
        analyzer.forEachWord(item.content) { word, _ in
            let e = entry(word)
            if e >= 0 { add(e, .content) }
        }
        for e in touched { slots[Int(e)] = -1 }
        touched.removeAll(keepingCapacity: true)
        return document
    }

    /// The stems learned here, handing back the memo and the term ids this analyser read (so
    /// that the index can add to them without copying them).
    mutating func takeLearnedStems() -> [String: String] {
        known = [:]
        termIDs = [:]
        defer { learned = [:] }
        return learned
    }
}
