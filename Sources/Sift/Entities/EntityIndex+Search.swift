import Foundation

/// One search result or suggestion with everything the host needs to open it (query
/// continuation): the entity's type and identifier and its URL.
///
/// A result of ``EntityIndex/search(_:limit:)`` carries the ranked item as the index returned
/// it; a suggestion of ``EntityIndex/suggestions(limit:now:)`` carries its item with the
/// decayed donation count as ``score`` (and as its explanation's
/// ``Explanation/donationScore``).
public struct EntitySearchResult: Sendable, Equatable {
    /// The ranked item.
    public var result: SearchResult
    /// The entity the item represents; nil for an item that is not an entity's (indexed from
    /// JSONL, say).
    public var entity: EntityReference?
    /// The URL to open: the route of a registered type, else the item's own `url`.
    public var url: String?

    public var itemID: ItemID { result.id }
    public var title: String { result.title }
    /// The ranking score of a search result; the decayed donation count (see
    /// `DonationBoost`) of a suggestion.
    public var score: Float { result.score }
}

extension EntityIndex {
    /// Ranked results of `query`, each carrying its entity reference and URL.
    /// - Complexity: as ``SearchIndex/search(_:)``, plus O(k) for k results.
    public func search(_ query: SearchQuery) async throws -> (results: [EntitySearchResult], report: QueryReport) {
        let (results, report) = try await index.search(query)
        return (results.map(entityResult), report)
    }

    /// Ranked results for `text` (hybrid, or keyword without a model).
    public func search(_ text: String, limit: Int = 10) async throws -> [EntitySearchResult] {
        try await search(SearchQuery(text, limit: limit)).results
    }

    /// The entity reference and URL of `result`.
    public func entityResult(_ result: SearchResult) -> EntitySearchResult {
        let reference = EntityReference(result.id)
        return EntitySearchResult(
            result: result, entity: reference, url: reference.flatMap(routes.url(for:)) ?? result.url)
    }

    /// Items by decayed donation score, highest first (ties by id), with their references:
    /// the "suggestions" view. Only indexed items have donations, so nothing private appears.
    public func suggestions(limit: Int = 10, now: Date? = nil) async -> [EntitySearchResult] {
        await index.suggestions(limit: limit, now: now).map { item, score in
            var explanation = Explanation()
            explanation.donationScore = Float(score)
            explanation.finalScore = Float(score)
            return entityResult(
                SearchResult(
                    id: item.id, domain: item.domain, title: item.title, score: Float(score), url: item.url,
                    date: item.date, displayName: item.displayName, explanation: explanation))
        }
    }

    /// The entity `url` names: ``RouteTable/reference(for:)-(String)``.
    public func reference(for url: String) throws(EntityError) -> EntityReference {
        try routes.reference(for: url)
    }

    /// A recorder that feeds donations to this index (``SearchIndexing/donationRecorder``).
    public var donationRecorder: any DonationRecorder { index.donationRecorder }
}
