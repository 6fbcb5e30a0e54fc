/// How the hybrid mode fuses the keyword and semantic halves.
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
    /// Cosine at or above which an item counts as matching the query in the semantic half
    /// (donations only lift matching items).
    public var semanticMatchThreshold: Float
    /// Multiplier for items of a domain the query named when that filter had to be dropped.
    public var domainBoost: Float
    /// Strength of the ranking-hint prior: factor `1 + strength · (hint − 50) / 50`.
    public var rankingHintStrength: Float

    public init(
        method: Method = .linear(alpha: 0.5), semanticCandidates: Int = 100,
        semanticMatchThreshold: Float = 0.35, domainBoost: Float = 1.2, rankingHintStrength: Float = 0.05
    ) {
        self.method = method
        self.semanticCandidates = semanticCandidates
        self.semanticMatchThreshold = semanticMatchThreshold
        self.domainBoost = domainBoost
        self.rankingHintStrength = rankingHintStrength
    }

    public static let `default` = FusionParameters()
}
