import Foundation

/// One search result with everything the host needs to open it (query continuation): the
/// entity's type and identifier and its URL.
public struct EntitySearchResult: Sendable, Equatable {
    /// The ranked item as the index returned it.
    public var result: SearchResult
    /// The entity the item represents; nil for an item that is not an entity's (indexed from
    /// JSONL, say).
    public var entity: EntityReference?
    /// The URL to open: the route of a registered type, else the item's own `url`.
    public var url: String?

    public var itemID: ItemID { result.id }
    public var title: String { result.title }
    public var score: Float { result.score }
}

/// Something the user did often and lately, as ``EntityIndex/suggestions(limit:now:)`` lists it.
public struct EntitySuggestion: Sendable, Equatable {
    public var entity: EntityReference?
    public var itemID: ItemID
    public var title: String
    public var url: String?
    /// Decayed donation count (see ``DonationBoost``).
    public var score: Double
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
    public func suggestions(limit: Int = 10, now: Date? = nil) async -> [EntitySuggestion] {
        await index.suggestions(limit: limit, now: now).map { item, score in
            let reference = EntityReference(item.id)
            return EntitySuggestion(
                entity: reference, itemID: item.id, title: item.title,
                url: reference.flatMap(routes.url(for:)) ?? item.url, score: score)
        }
    }

    /// The entity `url` names: ``RouteTable/reference(for:)-(String)``.
    public func reference(for url: String) throws(EntityError) -> EntityReference {
        try routes.reference(for: url)
    }

    /// A recorder that feeds donations to this index.
    public var donationRecorder: IndexDonationRecorder { IndexDonationRecorder(index: index) }
}
