/// Builds the ``Snippet`` of each result of one query: the passage of its content with the
/// most distinct query words, else of its title; for a result that no word matched, the
/// sentence closest in meaning to the query (with an embedder, within ``sentenceBudget``), else
/// the content's opening.
/// Deterministic: the same item and query always give the same snippet.
struct SnippetBuilder {
    let analyzer: Analyzer
    let matcher: SnippetMatcher
    var window = SnippetWindow()
    /// The model and the text it embeds for the closest sentence (nil: none).
    let embedder: (any Embedder)?
    let queryText: String
    /// The query's vector, made when first needed.
    private var queryVector: [Float]?
    /// Sentences this query may still embed for the closest sentence (results found by meaning
    /// alone past it show their opening): it bounds the cost of a query's snippets.
    var sentenceBudget = 12

    init(
        terms: [KeywordIndex.QueryTerm], queryText: String, analyzer: Analyzer = Analyzer(),
        stemMemo: StemMemo = StemMemo(), embedder: (any Embedder)?
    ) {
        self.analyzer = analyzer
        self.matcher = SnippetMatcher(terms: terms, stemMemo: stemMemo, stopWords: analyzer.stopWords)
        self.queryText = queryText
        self.embedder = embedder
    }

    /// The snippet of `item`, or nil when its title and content hold nothing to show (only
    /// white space and control characters).
    /// - Complexity: O(n) in the UTF-8 length of its title and content; with an embedder and
    ///   no word matching, one embedding per sentence of at most the first few.
    mutating func snippet(for item: SearchableItem) -> Snippet? {
        let content = MatchedText(item.content, analyzer: analyzer, matcher: matcher, windowLength: window.length)
        if !content.matches.isEmpty { return window.snippet(of: content) }
        let title = MatchedText(item.title, analyzer: analyzer, matcher: matcher, windowLength: window.length)
        if !title.matches.isEmpty { return window.snippet(of: title) }
        if let sentence = closestSentence(in: content), let s = Self.nonEmpty(window.snippet(of: content, sentence: sentence)) {
            return s
        }
        return Self.nonEmpty(window.snippet(of: content)) ?? Self.nonEmpty(window.snippet(of: title))
    }

    private static func nonEmpty(_ snippet: Snippet) -> Snippet? { snippet.text.isEmpty ? nil : snippet }

    /// The byte and scalar ranges of the sentence of `content` closest in meaning to the query.
    private mutating func closestSentence(in content: MatchedText) -> (bytes: Range<Int>, scalars: Range<Int>)? {
        guard let embedder, !queryText.isEmpty, content.byteCount > 0 else { return nil }
        if queryVector == nil { queryVector = embedder.embed(queryText) }
        guard let query = queryVector, query.contains(where: { $0 != 0 }) else { return nil }
        return ClosestSentence(embedder: embedder, query: query).closest(in: content, budget: &sentenceBudget)
    }
}
