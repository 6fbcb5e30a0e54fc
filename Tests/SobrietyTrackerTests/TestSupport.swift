import Foundation
import Sift
import SiftTestSupport
import SobrietyTracker

/// A hand-written spy on the `SearchIndexing` seam that records calls and answers without any
/// index behind it — what an app's own tests can write (no `@testable` needed).
actor CallLog: SearchIndexing {
    private(set) var upserts: [[SearchableItem]] = []
    private(set) var deletes: [[ItemID]] = []
    private(set) var domainDeletes: [[String]] = []
    private(set) var donations: [(intent: String, itemIDs: [ItemID])] = []
    var callCount: Int { upserts.count + deletes.count + domainDeletes.count + donations.count }

    func upsert(_ items: [SearchableItem]) async throws -> SearchIndex.UpsertSummary {
        upserts.append(items)
        return .make(indexed: items.count)
    }
    func delete(ids: [ItemID]) async throws -> Int {
        deletes.append(ids)
        return 0
    }
    func delete(domains: [String]) async throws -> Int {
        domainDeletes.append(domains)
        return 0
    }
    func item(_ id: ItemID) async -> SearchableItem? { nil }
    func search(_ query: SearchQuery) async throws -> (results: [SearchResult], report: QueryReport) {
        ([], .empty)
    }
    func donate(intent: String, itemIDs: [ItemID], surface: String?, at date: Date?) async throws -> Int {
        donations.append((intent, itemIDs))
        return itemIDs.count
    }
    func suggestions(limit: Int, now: Date?) async -> [(item: SearchableItem, score: Double)] { [] }
}

/// The sample app over a real in-memory index behind a recording spy, with a spy donation
/// recorder and the session's fixed clock.
struct TestApp {
    let app: SobrietyApp
    let spy: RecordingSearchIndex
    let index: SearchIndex
    let donations: MemoryDonationRecorder

    init(policy: SobrietyPrivacyPolicy = SobrietyPrivacyPolicy(), donationsIntoIndex: Bool = false) throws {
        index = try SearchIndex(configuration: .init(directory: nil, clock: { SampleDates.now }))
        spy = RecordingSearchIndex(wrapping: index)
        donations = MemoryDonationRecorder()
        app = try SobrietyApp(
            store: SampleData.store(), index: spy, policy: policy,
            donations: donationsIntoIndex ? nil : donations, clock: { SampleDates.now })
    }

    var publicDays: [StreakDay] { SampleData.days.filter { !$0.isPrivate } }
    var privateDays: [StreakDay] { SampleData.days.filter(\.isPrivate) }
}
