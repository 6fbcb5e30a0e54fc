import Foundation

/// A search request.
public struct SearchQuery: Sendable {
    public var text: String
    /// Number of results wanted (1…1000).
    public var limit: Int
    public var mode: SearchMode
    /// Only items of these domains (empty: all).
    public var domains: [String]
    /// Only items dated on or after this instant.
    public var since: Date?
    /// Only items dated before this instant.
    public var until: Date?
    /// The present, for expiry and relative date phrases (default: the index's clock).
    public var now: Date?
    /// Parse date phrases and domain words out of the text ("last week's expenses").
    public var understandsPhrases: Bool
    /// Treat the last word as a prefix (as-you-type), unless the text ends in a separator.
    public var prefixLastTerm: Bool
    /// Attach an ``Explanation`` to every result.
    public var explain: Bool
    /// Correct words that neither the index nor the model knows to the nearest index word one
    /// edit away, and words only the index knows (by their stem) to a spelling the model knows
    /// with the same stem (`SpellingCorrector`); the report lists each correction.
    public var correctsSpelling: Bool
    /// Attach a ``Snippet`` to every result: built after ranking, for the returned results
    /// only, so it changes no score. Off by default: a snippet costs a pass over each returned
    /// result's text (about 0.05–0.15 ms a query of ten results), which a caller that shows
    /// only titles, or ranks for its own use, need not pay. `sift search` turns it on.
    public var snippets: Bool
    /// Results whose calibrated ``SearchResult/relevance`` is below this are not returned
    /// (``QueryReport/belowMinimumRelevance`` counts them); 0 returns every result. A query with
    /// no search text left (only filters, or nothing) lists items newest first and is never cut.
    public var minimumRelevance: Float
    /// The default ``minimumRelevance``, chosen on SciFact's train judgments
    /// (`Benchmarks/RESULTS.md`, "Calibrated relevance").
    public static let defaultMinimumRelevance: Float = 0.004
    /// Tests only: score every candidate instead of skipping those whose score bound cannot
    /// reach the top k — the reference the pruned ranking must equal.
    var scoresEveryCandidate = false

    public init(
        _ text: String, limit: Int = 10, mode: SearchMode = .hybrid, domains: [String] = [],
        since: Date? = nil, until: Date? = nil, now: Date? = nil, understandsPhrases: Bool = true,
        prefixLastTerm: Bool = true, explain: Bool = false, correctsSpelling: Bool = true,
        snippets: Bool = false, minimumRelevance: Float = SearchQuery.defaultMinimumRelevance
    ) {
        self.minimumRelevance = minimumRelevance
        self.snippets = snippets
        self.correctsSpelling = correctsSpelling
        self.text = text
        self.limit = limit
        self.mode = mode
        self.domains = domains
        self.since = since
        self.until = until
        self.now = now
        self.understandsPhrases = understandsPhrases
        self.prefixLastTerm = prefixLastTerm
        self.explain = explain
    }
}
