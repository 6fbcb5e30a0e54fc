import Sift

/// Searches everything by meaning ("nights I felt lonely", "last week's triggers").
public struct SearchJournal: SobrietyIntent {
    public static let inventoryEntry = IntentInventoryEntry(
        identifier: "SearchJournal",
        purpose: "Search days, triggers and reflections by meaning",
        entities: ["StreakDay", "Trigger", "Reflection"],
        mutates: "nothing",
        donates: "nothing (opening a result donates OpenEntity)")

    public var query: String
    public var limit: Int

    public init(query: String, limit: Int = 5) {
        self.query = query
        self.limit = limit
    }

    public func perform(in app: SobrietyApp) async throws -> [EntitySearchResult] {
        try await app.entities.search(SearchQuery(query, limit: limit, now: app.clock())).results
    }
}
