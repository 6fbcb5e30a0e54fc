import Foundation

extension SearchIndex: SearchIndexing {}

// Values a fake of ``SearchIndexing`` in an app's tests needs to return (their memberwise
// initializers are internal).

extension SearchIndex.UpsertSummary {
    /// A summary with these counts.
    public static func make(
        indexed: Int, refusedPrivate: Int = 0, deletedBecausePrivate: Int = 0, expired: Int = 0
    ) -> Self {
        Self(indexed: indexed, refusedPrivate: refusedPrivate, deletedBecausePrivate: deletedBecausePrivate, expired: expired)
    }
}

extension QueryReport {
    /// A report of nothing understood, filtered or excluded.
    public static var empty: QueryReport { QueryReport() }
}

extension SearchResult {
    /// A result with these fields and no explanation.
    public static func make(
        id: ItemID, domain: String, title: String, score: Float, url: String? = nil, date: Date? = nil,
        displayName: String? = nil
    ) -> SearchResult {
        SearchResult(
            id: id, domain: domain, title: title, score: score, url: url, date: date, displayName: displayName,
            explanation: nil)
    }
}

extension SearchIndex {
    /// Indexes `entities` under `policy` (nil: withhold the private ones, as ``EntityIndex``
    /// does): ``EntityIndex/indexEntities(_:)`` on an entity index over this one that knows
    /// only their type.
    /// - Complexity: as ``EntityIndex/indexEntities(_:)``.
    @discardableResult
    public nonisolated func indexEntities<Entity: IndexedEntity>(
        _ entities: [Entity], policy: (any PrivacyPolicy)? = nil
    ) async throws -> EntityIndexingSummary {
        try await EntityIndex(index: self, policy: policy, entityTypes: [Entity.self]).indexEntities(entities)
    }

    /// Deletes the items of `entities`; returns how many were indexed.
    @discardableResult
    public func deleteEntities<Entity: IndexedEntity>(_ entities: [Entity]) throws -> Int {
        guard !entities.isEmpty else { return 0 }
        return try delete(ids: entities.map(\.itemID))
    }
}
