import Foundation

/// What the entity layer needs from an index: the seam between an app's search code and
/// ``SearchIndex``, so an app's tests can put a spy or a fake in its place
/// (`RecordingSearchIndex` records every call and forwards it).
///
/// ``SearchIndex`` conforms; each requirement has the meaning documented there.
public protocol SearchIndexing: Sendable {
    /// Adds or replaces items (same id replaces). See ``SearchIndex/upsert(_:)``.
    func upsert(_ items: [SearchableItem]) async throws -> SearchIndex.UpsertSummary
    /// Deletes items by id; returns how many were indexed. See ``SearchIndex/delete(ids:)``.
    func delete(ids: [ItemID]) async throws -> Int
    /// Deletes every item of these domains; returns how many. See ``SearchIndex/delete(domains:)``.
    func delete(domains: [String]) async throws -> Int
    /// The indexed item with this id, or nil.
    func item(_ id: ItemID) async -> SearchableItem?
    /// Ranked results and what the query was understood as. See ``SearchIndex/search(_:)``.
    func search(_ query: SearchQuery) async throws -> (results: [SearchResult], report: QueryReport)
    /// Records a donation; returns how many items it named that are indexed.
    func donate(intent: String, itemIDs: [ItemID], surface: String?, at date: Date?) async throws -> Int
    /// Items by decayed donation score, highest first.
    func suggestions(limit: Int, now: Date?) async -> [(item: SearchableItem, score: Double)]
}
