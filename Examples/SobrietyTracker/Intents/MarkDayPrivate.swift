import Sift

/// The user marks a streak day private (or public again).
public struct MarkDayPrivate: SobrietyIntent {
    public static let inventoryEntry = IntentInventoryEntry(
        identifier: "MarkDayPrivate",
        purpose: "Make a streak day private (or public again)",
        entities: ["StreakDay"],
        mutates: "sets the day's isPrivate; index event: a private day is deleted from the index, a public one indexed again",
        donates: "nothing (a private day must leave no trace in suggestions)")

    public var day: StreakDay.ID
    public var isPrivate: Bool

    public init(day: StreakDay.ID, isPrivate: Bool = true) {
        self.day = day
        self.isPrivate = isPrivate
    }

    /// The day as it is now, and what the index did.
    public struct Outcome: Sendable, Hashable {
        public var day: StreakDay
        public var indexing: EntityIndexingSummary
    }

    public func perform(in app: SobrietyApp) async throws -> Outcome {
        let day = try await app.store.setPrivate(day: self.day, isPrivate)
        let summary = try await app.entities.indexEntities([day])
        return Outcome(day: day, indexing: summary)
    }
}
