import Foundation
import Sift
import SiftTestSupport
import Testing

/// The entity layer's tests, under one suite so `--filter Entities` selects them all.
@Suite("Entities") enum Entities {}

// The fixtures live inside the suite so their short names cannot clash with other tests.
extension Entities {
    /// A journal note: String ids, privacy flags, no URL template.
    struct Note: IndexedEntity, Hashable {
        static let domainIdentifier = "note"
        static let typeDisplayName = "Notes"

        let id: String
        var title: String
        var body: String
        var date: Date?
        var isPrivate = false
        var isHiddenFromSearch = false
        var isArchived = false

        var displayRepresentation: EntityDisplayRepresentation {
            EntityDisplayRepresentation(title: title, subtitle: body)
        }

        var attributeSet: EntityAttributeSet {
            var set = EntityAttributeSet(displayRepresentation: displayRepresentation, date: date)
            set.url = "https://elsewhere.example/notes/\(id)"
            return set
        }
    }

    /// A recipe: Int ids and a URL template; the default attribute set.
    struct Recipe: IndexedEntity, Hashable {
        static let domainIdentifier = "recipe"
        static let typeDisplayName = "Recipes"
        static let urlTemplate: String? = "https://example.app/recipes/{id}"

        let id: Int
        var name: String
        var method: String

        var displayRepresentation: EntityDisplayRepresentation {
            EntityDisplayRepresentation(title: name, subtitle: method)
        }
    }

    /// Notes kept in memory, returned in reverse order with an extra neighbour — the worst a
    /// source may do — so resolution must match by id.
    struct NoteSource: EntitySource {
        let notes: [Note]
        func entities(for identifiers: [String]) async -> [Note] {
            let wanted = Set(identifiers)
            var result = notes.filter { wanted.contains($0.id) }.reversed().map { $0 }
            if let neighbour = notes.first(where: { !wanted.contains($0.id) }) { result.insert(neighbour, at: 0) }
            return result
        }
    }

    enum Fixtures {
        static let now = Date(timeIntervalSince1970: 1_781_553_600)  // 2026-06-15T20:00:00Z

        static func day(_ n: Int) -> Date { Date(timeIntervalSince1970: 1_780_261_200 + Double(n) * 86_400) }

        /// A keyword-only in-memory index with a fixed clock, behind a spy.
        static func spyIndex() throws -> (spy: RecordingSearchIndex, index: SearchIndex) {
            let index = try SearchIndex(configuration: .init(directory: nil, clock: { now }))
            return (RecordingSearchIndex(wrapping: index), index)
        }

        static func entityIndex(
            _ index: any SearchIndexing, policy: some PrivacyPolicy = .respectPrivacyAndArchive
        ) throws -> EntityIndex {
            try EntityIndex(index: index, policy: policy, entityTypes: [Note.self, Recipe.self])
        }

        static let notes: [Note] = [
            Note(id: "n1", title: "Sunday afternoon", body: "Long walk by the river, stress melting away.", date: day(1)),
            Note(id: "n2", title: "Deadline week", body: "Work stress before the product launch deadline.", date: day(2)),
            Note(id: "n3", title: "Private thoughts", body: "Nobody should read this about my brother.", date: day(3), isPrivate: true),
            Note(id: "n4", title: "Draft", body: "Hidden draft about the garden.", date: day(4), isHiddenFromSearch: true),
            Note(id: "n5", title: "Old plans", body: "Archived plans for the garden shed.", date: day(5), isArchived: true),
        ]
    }

    /// A ``SearchIndexing`` whose every call fails, recording the attempt.
    actor FailingIndex: SearchIndexing {
        struct Failure: Error {}
        private(set) var attempted: [String] = []

        func upsert(_ items: [SearchableItem]) async throws -> SearchIndex.UpsertSummary {
            attempted.append("upsert")
            throw Failure()
        }
        func delete(ids: [ItemID]) async throws -> Int {
            attempted.append("delete")
            throw Failure()
        }
        func delete(domains: [String]) async throws -> Int {
            attempted.append("deleteDomains")
            throw Failure()
        }
        func item(_ id: ItemID) async -> SearchableItem? { nil }
        func search(_ query: SearchQuery) async throws -> (results: [SearchResult], report: QueryReport) {
            attempted.append("search")
            throw Failure()
        }
        func donate(intent: String, itemIDs: [ItemID], surface: String?, at date: Date?) async throws -> Int {
            attempted.append("donate")
            throw Failure()
        }
        func suggestions(limit: Int, now: Date?) async -> [(item: SearchableItem, score: Double)] { [] }
    }
}
