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
    /// N-th best BM25F (so ties at the bound all stay), and besides them every match whose title
    /// may begin with the query; 0 (the default) takes every match. Bounds the work of a query
    /// whose words match much of a large index: at 1M synthetic items, 2,000 took hybrid p50 from
    /// 33–36 to 23 ms with fp16 rows, and to 11.3 ms with the int8 copy of the first 128
    /// components (`Benchmarks/RESULTS.md`, the large-index configuration). Not the default: at
    /// 2,000, SciFact train and Cranfield hybrid nDCG@10 moved within noise (0.7201 → 0.7203,
    /// 0.4096 → 0.4096) but the as-you-type gate lost one document of 500 (0.988 → 0.986).
    public var keywordCandidates: Int
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

    public init(
        method: Method = .linear(alpha: 0.6), semanticCandidates: Int = 100, keywordCandidates: Int = 0,
        semanticMatchThreshold: Float = 0.35, domainBoost: Float = 1.2, rankingHintStrength: Float = 0.05,
        feedbackDocuments: Int = 3, feedbackWeight: Float = 1, titlePrefixBoost: Float = 2,
        keywordFeedbackDocuments: Int = 1, keywordFeedbackTerms: Int = 20, keywordFeedbackWeight: Float = 0.4,
        queryTermWeighting: Float = 1
    ) {
        self.queryTermWeighting = queryTermWeighting
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
}
