import Foundation
import Sift

/// A ``DonationRecorder`` that keeps every donation in memory: the spy for an app's tests.
public actor MemoryDonationRecorder: DonationRecorder {
    /// Every donation, in order.
    public private(set) var donations: [IntentDonation] = []

    public init() {}

    /// Records `donation`; returns the number of its entities.
    @discardableResult
    public func donate(_ donation: IntentDonation) -> Int {
        donations.append(donation)
        return donation.entities.count
    }

    /// The donations of `intent`, in order.
    public func donations(of intent: String) -> [IntentDonation] {
        donations.filter { $0.intent == intent }
    }
}

/// A spy on the ``SearchIndexing`` seam: records every call, then forwards it to the wrapped
/// index, so a test can check both what was sent (a private entity never reaches
/// ``upsert(_:)``; an empty input makes no call) and what it did.
public actor RecordingSearchIndex: SearchIndexing {
    /// One call on the seam, with the identifiers it carried.
    public enum Call: Sendable, Hashable {
        case upsert([ItemID])
        case delete([ItemID])
        case deleteDomains([String])
        case item(ItemID)
        case search(String)
        case donate(intent: String, itemIDs: [ItemID], surface: String?)
        case suggestions(limit: Int)

        /// Whether the call changes the index.
        public var isMutation: Bool {
            switch self {
            case .upsert, .delete, .deleteDomains, .donate: true
            case .item, .search, .suggestions: false
            }
        }
    }

    /// The index calls are forwarded to.
    public let wrapped: any SearchIndexing
    /// Every call, in order.
    public private(set) var calls: [Call] = []

    public init(wrapping index: any SearchIndexing) {
        self.wrapped = index
    }

    /// Wraps a new in-memory ``SearchIndex`` (keyword only unless `embedder` is given).
    public init(embedder: (any Embedder)? = nil, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.wrapped = try SearchIndex(configuration: .init(directory: nil, embedder: embedder, clock: clock))
    }

    /// The calls that change the index.
    public var mutations: [Call] { calls.filter(\.isMutation) }

    /// Every item identifier passed to ``upsert(_:)``, in order.
    public var upsertedIDs: [ItemID] {
        calls.flatMap { call -> [ItemID] in
            if case .upsert(let ids) = call { return ids }
            return []
        }
    }

    /// Forgets the calls recorded so far.
    public func reset() { calls.removeAll() }

    public func upsert(_ items: [SearchableItem]) async throws -> SearchIndex.UpsertSummary {
        calls.append(.upsert(items.map(\.id)))
        return try await wrapped.upsert(items)
    }

    public func delete(ids: [ItemID]) async throws -> Int {
        calls.append(.delete(ids))
        return try await wrapped.delete(ids: ids)
    }

    public func delete(domains: [String]) async throws -> Int {
        calls.append(.deleteDomains(domains))
        return try await wrapped.delete(domains: domains)
    }

    public func item(_ id: ItemID) async -> SearchableItem? {
        calls.append(.item(id))
        return await wrapped.item(id)
    }

    public func search(_ query: SearchQuery) async throws -> (results: [SearchResult], report: QueryReport) {
        calls.append(.search(query.text))
        return try await wrapped.search(query)
    }

    public func donate(intent: String, itemIDs: [ItemID], surface: String?, at date: Date?) async throws -> Int {
        calls.append(.donate(intent: intent, itemIDs: itemIDs, surface: surface))
        return try await wrapped.donate(intent: intent, itemIDs: itemIDs, surface: surface, at: date)
    }

    public func suggestions(limit: Int, now: Date?) async -> [(item: SearchableItem, score: Double)] {
        calls.append(.suggestions(limit: limit))
        return await wrapped.suggestions(limit: limit, now: now)
    }
}
