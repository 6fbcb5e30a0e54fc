import Foundation

/// One query's ranking stage, between the filters and the results. Its steps, in data-flow
/// order, each in its own file:
///
/// 1. **Candidates** (`Ranker+Candidates.swift`): the keyword half (BM25F of every match), the
///    semantic half (one scan of the vectors; in hybrid mode over the quantized copy the keyword
///    half and its candidates run beside it), the matches that pass the filters and the best
///    rows by cosine that do.
/// 2. **Feedback** (`Ranker+Feedback.swift`): the query vector moved towards the best
///    first-pass results (Rocchio), and their most telling terms added to the keyword query
///    (RM3-like); both re-score the candidates only.
/// 3. **Fusion** (`Fusion.swift`): each half min-max normalised over the candidates (for linear
///    fusion, or an explanation), then blended (linear or reciprocal rank) into a relevance.
/// 4. **Factors** (`RankingFactors.swift`): relevance times donations, ranking hint, a domain
///    named in the query and a title that begins with the query.
/// 5. **Selection** (`Ranker+Selection.swift`): the top k, skipping a candidate whose bound
///    cannot enter it; ties go to the smaller ``ItemID``. After the quantized scan, the
///    candidates' cosines are the re-scoring copy's, and the best few — of the first pass, for
///    feedback, and of the final ranking — are read from the vectors and ranked by their exact
///    cosines (`Ranker+Refinement.swift`).
/// 6. **Relevance** (`Ranker+Selection.swift`): each selected result's calibrated relevance
///    (``RelevanceModel``), from its own evidence; those below the query's minimum are cut; then
///    whether the query has an answer here at all (`Ranker+Answer.swift`).
/// 7. **Explanation**: every part of every returned score, for `--explain`.
///
/// A ranker reads the index's projections in place and lives only as long as its query: the
/// item buffer it holds is valid only inside `withUnsafeBufferPointer`.
struct Ranker {
    /// What the query asks of the ranking, once it is parsed and its filters are set.
    struct Request {
        /// The text to rank by (after query understanding and spelling correction).
        var text: String
        var terms: [KeywordIndex.QueryTerm]
        var mode: SearchMode
        var limit: Int
        var now: Date
        var prefixLastTerm: Bool
        /// Domains the query named that boost rather than filter.
        var boostDomains: Set<String>
        var explain: Bool
        /// Score every candidate instead of skipping those that cannot enter the top k.
        var exhaustive: Bool
        /// Selected results whose calibrated relevance is below this are left out.
        var minimumRelevance: Float = 0
    }

    /// What the semantic half found: the query's vector and whether every row has a cosine
    /// (an approximate one, from the quantized copy, until nominees are re-scored exactly).
    struct SemanticHalf {
        var queryVector: [Float] = []
        var hasCosine = false
        var approximate = false
        /// The candidates' cosines are the re-scoring copy's (``VectorIndex/rescores(for:rows:into:cached:)``):
        /// the best few are read from the rows and ranked again (``refinedSelection()``).
        var rescored = false
        /// The query vector after vector feedback, when feedback moved it.
        var feedbackVector: [Float]?
        /// The rows read from the vectors (``readExactly(_:)``), and each one's exact cosine
        /// with ``queryVector`` and with ``feedbackVector``.
        var read: [StoredRows] = []
        var exactCosines: [Int32: Float] = [:]
        var exactMoved: [Int32: Float] = [:]
    }

    /// What keyword feedback added: the rows, what each gained and its BM25F before.
    struct KeywordFeedbackTrace {
        var rows: [Int32] = []
        var added: [Float] = []
        var before: [Float] = []
    }

    let request: Request
    let state: IndexState
    /// The item id at each row (the identifier table's), nil for a free row.
    let ids: UnsafeBufferPointer<ItemID?>
    let fusion: FusionParameters
    let donations: DonationBoost
    let relevanceModel: RelevanceModel
    let embedder: (any Embedder)?
    /// The fewest rows on which the quantized copy, when there is one, is scanned.
    let quantizedScanMinimumRows: Int
    /// Rows of the identifier table, live or free.
    let capacity: Int
    /// The ties' order: by item id.
    let order: ItemOrder
    /// The query's factors, set up once (``RankingFactors``).
    let priors: RankingFactors

    var filter: RowFilter
    var report: QueryReport
    /// Taken from the index's ``SearchScratch`` for this query and given back after it.
    var buffers = RankingBuffers()
    /// BM25F of every row: the accumulator's scores, taken out (no copy) so that keyword
    /// feedback can add to candidates' scores; given back by ``finish()``.
    var bm25: [Float] = []
    var candidates: [Int32] = []
    /// Whether the keyword matches are among ``candidates`` already (hybrid mode gathers them
    /// beside the vector scan).
    var keywordCandidatesGathered = false
    /// Keyword matches the bound on keyword candidates left out whose cosines count toward the
    /// fusion's cosine floor (the lowest of them, ``Ranker/floorProbes``), so that the floor is
    /// the one every match would give.
    var floorRows: [Int32] = []
    var semantic = SemanticHalf()
    var keywordFeedback = KeywordFeedbackTrace()
    /// The keyword feedback terms that vector feedback found for its best first-pass result,
    /// and that row.
    var speculatedFeedback: (row: Int32, terms: [KeywordIndex.FeedbackTerm])?
    var normalizer = MinMaxNormalizer()
    var reciprocalRanks = ReciprocalRanks()

    init(
        request: Request, state: IndexState, ids: UnsafeBufferPointer<ItemID?>,
        configuration: SearchIndex.Configuration, capacity: Int, filter: RowFilter, report: QueryReport
    ) {
        self.request = request
        self.state = state
        self.ids = ids
        self.fusion = configuration.fusion
        self.donations = configuration.donations
        self.relevanceModel = configuration.relevance
        self.embedder = configuration.embedder
        self.quantizedScanMinimumRows = configuration.quantizedScanMinimumRows
        self.capacity = capacity
        self.order = ItemOrder(ids: ids)
        self.filter = filter
        self.report = report
        self.priors = RankingFactors(
            request: request, keyword: state.keyword, attributes: state.attributes, fusion: configuration.fusion,
            donations: configuration.donations, hasDonations: !state.donationLog.isEmpty)
    }

    /// The ranked results. Call ``finish()`` afterwards to hand the buffers back clean.
    mutating func rank() -> [SearchResult] {
        scoreBothHalves()
        if request.mode == .keyword {
            takeKeywordMatches()
        } else {
            gatherCandidates()
        }
        report.candidates = candidates.count
        if semantic.rescored { readFirstPass() }
        applyVectorFeedback()
        applyKeywordFeedback()
        prepareFusion()
        return results(semantic.rescored ? refinedSelection() : select())
    }

    /// Takes keyword feedback's additions off the scores and gives them back to the
    /// accumulator, clears the candidate marks and resets the accumulator, so ``buffers`` are
    /// ready for the next query.
    mutating func finish() {
        for (i, row) in keywordFeedback.rows.enumerated() { bm25[Int(row)] = keywordFeedback.before[i] }
        buffers.accumulator.giveBackScores(&bm25)
        // Keyword mode takes the matches as they are (`takeKeywordMatches`), never marked.
        if request.mode != .keyword { for row in candidates { buffers.isCandidate[Int(row)] = false } }
        candidates = []  // may share the accumulator's list: release it before the reset
        buffers.accumulator.reset()
    }
}

/// The order of ties: row `a`'s item id sorts before row `b`'s (asked only at equal scores).
struct ItemOrder {
    let ids: UnsafeBufferPointer<ItemID?>

    @inline(__always)
    func precedes(_ a: Int32, _ b: Int32) -> Bool { ids[Int(a)]! < ids[Int(b)]! }
}

extension SearchResult {
    /// The result for `item`, as a ranking or a listing returns it.
    init(_ item: SearchableItem, score: Float, explanation: Explanation?) {
        self.init(
            id: item.id, domain: item.domain, title: item.title, score: score, url: item.url, date: item.date,
            displayName: item.displayName, explanation: explanation)
    }
}
