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
    /// Per document: each term's position in the document's lists.
    private var slots: [String: Int] = [:]

    init(analyzer: Analyzer, known: [String: String], termIDs: [String: Int32] = [:]) {
        self.analyzer = analyzer
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

    /// The keyword index's view of `item`.
    /// - Complexity: O(n) in the UTF-8 length of its title, keywords and content; one memo
    ///   lookup per word, stemming only words not seen before.
    mutating func analyze(_ item: SearchableItem) -> AnalyzedDocument {
        var document = AnalyzedDocument()
        slots.removeAll(keepingCapacity: true)
        let analyzer = self.analyzer
        func add(_ stem: String, _ field: KeywordField) {
            let i: Int
            if let slot = slots[stem] {
                i = slot
            } else {
                i = document.terms.count
                slots[stem] = i
                document.terms.append(stem)
                document.ids.append(termIDs[stem] ?? -1)
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
        var position = 0
        analyzer.forEachWord(item.title) { word, _ in
            if position < KeywordIndex.titleHeadLength { document.titleHeads.append(KeywordIndex.titleHash(word)) }
            position += 1
            if let s = stem(word) { add(s, .title) }
        }
        // Each keyword alone: a word cannot span the space that joining them would put between.
        for keyword in item.keywords {
            analyzer.forEachWord(keyword) { word, _ in
                if let s = stem(word) { add(s, .keywords) }
            }
        }
        analyzer.forEachWord(item.content) { word, _ in
            if let s = stem(word) { add(s, .content) }
        }
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
