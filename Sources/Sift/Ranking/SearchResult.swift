import Foundation

/// One ranked item. An immutable value: safe to hand to any thread.
public struct SearchResult: Sendable, Equatable {
    public var id: ItemID
    public var domain: String
    public var title: String
    /// The ranking score: both halves fused, times the priors (donations, ranking hint, a
    /// domain named in the query, a title the query begins). It orders one query's results and
    /// means nothing from one query to the next: ``relevance`` does.
    public var score: Float
    public var url: String?
    public var date: Date?
    public var displayName: String?
    public var explanation: Explanation?
    /// Calibrated relevance: the estimated probability that the item is relevant to the query,
    /// from this result's own evidence (`RelevanceModel`), so comparable across queries. 1 for
    /// a query with no search text (a filtered listing, newest first).
    public var relevance: Float = 1
    /// What ``relevance`` was estimated from (nil for a listing).
    package var evidence: RelevanceModel.Evidence? = nil
    /// The passage that shows why it matched (when ``SearchQuery/snippets`` is on).
    public var snippet: Snippet? = nil
}
