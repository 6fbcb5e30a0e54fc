/// How the hybrid mode fuses the keyword and semantic halves.
///
/// The defaults were chosen by measurement on SciFact's train queries and on Cranfield
/// (nDCG@10; see `Benchmarks/RESULTS.md`): linear fusion beat reciprocal-rank fusion by 9–13
/// points on SciFact train (0.714 vs 0.626 at k = 60), α = 0.6 was best on both collections, and
/// three feedback documents at weight 2 added 1.2 points on Cranfield at no cost on SciFact.
/// With the model distilled from whole SciFact documents (2026-12-04) the semantic half is
/// stronger and weight 1 was better on SciFact train (0.7216 → 0.7245) for 0.07 points of
/// Cranfield (0.4089 → 0.4082); α = 0.5 was better still on SciFact train (0.7268) but cost
/// Cranfield 0.6 points, so α stays 0.6.
/// Keyword feedback from the best first-pass result (20 terms at weight 0.4) then added 0.3
/// points on SciFact train and 1.2 on Cranfield; from 3 documents it cost SciFact 0.5–6 points.
/// With the general model (2026-12-07, no SciFact text) α = 0.8 was 0.6 points better on
/// SciFact train (0.707 → 0.713) and 0.3 worse on Cranfield, feedback and the query-word
/// weighting best as they are; the defaults stay (`Models/MODEL.md`).
public struct FusionParameters: Sendable, Equatable {
    public enum Method: Sendable, Equatable {
        /// `α · bm25 / max bm25 + (1 − α) · (cos − floor) / (top − floor)` over the candidates,
        /// where `top` is the best candidate cosine and `floor` the lowest.
        case linear(alpha: Float)
        /// Reciprocal-rank fusion: `Σ 1 / (k + rank)` over the two rankings of the candidates.
        case reciprocalRank(k: Float)
    }

    public var method: Method
    /// How many best-cosine items join the keyword matches as candidates.
    public var semanticCandidates: Int
    /// Hybrid mode: how many keyword matches are candidates — every match scoring at least the
    /// N-th best BM25F (so ties at the bound all stay), every match whose title may begin with
    /// the query, and every match the quantized scan nominates; 0 takes every match. The matches left
    /// out still set the fusion's cosine floor (their lowest cosines are scored), so the fused
    /// scores are those of every match. The default, ``automaticKeywordCandidates``, takes every
    /// match on an index of fewer than ``automaticBoundRows`` rows and bounds a larger one at
    /// max(1,000, √(10 · rows)): 1,000 up to 100k rows, 3,162 at 1M. It bounds the work of a
    /// query whose words match much of a large index (at 100k synthetic items a query has p50
    /// 4,300 matches, p90 12,000; ten times as many at 1M). The bound grows more slowly than the
    /// index because what can lift a match from below it into the top 10 is its cosine, and the
    /// quantized scan's nominees among the matches stay candidates at any bound. On the bench's 1,000
    /// queries at 100k the default's hybrid top 10 held 99.98% of the exact path's (every match,
    /// exact scan); on 300 at 1M, 99.90% (rows / 100, the bound before: 99.93%; `Benchmarks/RESULTS.md`).
    /// SciFact and Cranfield (5,183 and 1,400 documents) are below the size, so their rankings
    /// are unchanged.
    public var keywordCandidates: Int
    /// ``keywordCandidates``' default: every match below ``automaticBoundRows`` rows, else a
    /// bound of max(1,000, √(10 · rows)).
    public static let automaticKeywordCandidates = -1
    /// The fewest rows on which ``automaticKeywordCandidates`` bounds the keyword candidates.
    public static let automaticBoundRows = 16_384
    /// Cosine at or above which an item counts as matching the query in the semantic half
    /// (donations only lift matching items).
    public var semanticMatchThreshold: Float
    /// Multiplier for items of a domain the query named when that filter had to be dropped.
    public var domainBoost: Float
    /// Strength of the ranking-hint prior: factor `1 + strength · (hint − 50) / 50`.
    public var rankingHintStrength: Float
    /// Hybrid mode with linear fusion: how many first-pass results feed the query vector
    /// (Rocchio pseudo-relevance feedback, `q' = q + weight · mean(top vectors)`); 0 turns it off.
    public var feedbackDocuments: Int
    /// The weight of the feedback vectors against the query's own.
    public var feedbackWeight: Float
    /// Hybrid mode with linear fusion: how many first-pass results lend terms to the keyword
    /// query (RM3-like feedback, `KeywordIndex/feedbackTerms(of:exclude:count:)`); 0 turns it off.
    public var keywordFeedbackDocuments: Int
    /// How many feedback terms join the keyword query.
    public var keywordFeedbackTerms: Int
    /// The feedback terms' weight in all, against one query term's: a candidate's BM25F gains
    /// `weight · (query terms) · Σ_t share(t) · BM25F(t)`.
    public var keywordFeedbackWeight: Float
    /// Multiplier for an item whose title begins with the query's words (the last one as
    /// typed so far): as-you-type users type the start of what they look for.
    public var titlePrefixBoost: Float
    /// Semantic and hybrid mode: the exponent `p` of the query words' weights in the query
    /// vector, `idf(word)^p` in this index, so that a word most items hold counts for less than
    /// a rare one (the items' vectors are not weighted); 0 embeds the query plainly. Chosen on
    /// SciFact train (semantic nDCG@10 0.566 → 0.5758 at 0.5 → 0.5764 at 1; hybrid 0.7245 →
    /// 0.7285 → 0.7297) and checked on Cranfield, which the model never saw (semantic 0.270 →
    /// 0.284 → 0.276, hybrid 0.4082 → 0.4083 → 0.4097).
    public var queryTermWeighting: Float
    /// Semantic and hybrid mode: the share of its weight that a query word no item holds keeps
    /// in the query vector (its weight is `absentWordWeight · idf^p` at the largest idf). Such a
    /// word — a typo the corrector could not fix, a name the index lacks — matches no item's
    /// words, so at full weight its letters and signature would pull the whole query away from
    /// what the rest of it says. Chosen on SciFact train and its typo'd copies 7 and 101
    /// (hybrid, the default mode, flat from 0.25 to 0.5: 2.1553–2.1556 summed over the three,
    /// 2.1530 at 1; semantic 0.5413 → 0.5455 on the clean queries, 0.5283 / 0.5262 → 0.5392 /
    /// 0.5386 typo'd, at 0.5); `Benchmarks/RESULTS.md`, "Words no item holds".
    public var absentWordWeight: Float

    public init(
        method: Method = .linear(alpha: 0.6), semanticCandidates: Int = 100, keywordCandidates: Int = automaticKeywordCandidates,
        semanticMatchThreshold: Float = 0.35, domainBoost: Float = 1.2, rankingHintStrength: Float = 0.05,
        feedbackDocuments: Int = 3, feedbackWeight: Float = 1, titlePrefixBoost: Float = 2,
        keywordFeedbackDocuments: Int = 1, keywordFeedbackTerms: Int = 20, keywordFeedbackWeight: Float = 0.4,
        queryTermWeighting: Float = 1, absentWordWeight: Float = 0.5
    ) {
        self.queryTermWeighting = queryTermWeighting
        self.absentWordWeight = absentWordWeight
        self.keywordFeedbackDocuments = keywordFeedbackDocuments
        self.keywordFeedbackTerms = keywordFeedbackTerms
        self.keywordFeedbackWeight = keywordFeedbackWeight
        self.titlePrefixBoost = titlePrefixBoost
        self.feedbackDocuments = feedbackDocuments
        self.feedbackWeight = feedbackWeight
        self.method = method
        self.semanticCandidates = semanticCandidates
        self.keywordCandidates = keywordCandidates
        self.semanticMatchThreshold = semanticMatchThreshold
        self.domainBoost = domainBoost
        self.rankingHintStrength = rankingHintStrength
    }

    public static let `default` = FusionParameters()

    /// The bound on keyword candidates for an index of `rows` rows (free ones included); 0: none.
    package func keywordCandidateBound(rows: Int) -> Int {
        guard keywordCandidates < 0 else { return keywordCandidates }
        return rows < Self.automaticBoundRows ? 0 : max(1_000, Int((10 * Double(rows)).squareRoot()))
    }
}
