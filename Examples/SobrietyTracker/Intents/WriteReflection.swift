import Sift

/// The user writes a reflection, optionally about one day.
public struct WriteReflection: SobrietyIntent {
    public static let inventoryEntry = IntentInventoryEntry(
        identifier: "WriteReflection",
        purpose: "Write a reflection, optionally about one day",
        entities: ["Reflection", "StreakDay (optional)"],
        mutates: "adds a reflection (next id r-N); indexes it",
        donates: "WriteReflection with the new reflection")

    public var title: String
    public var body: String
    public var day: StreakDay.ID?
    public var surface: DonationSurface

    public init(title: String, body: String, day: StreakDay.ID? = nil, surface: DonationSurface = .app) {
        self.title = title
        self.body = body
        self.day = day
        self.surface = surface
    }

    public func perform(in app: SobrietyApp) async throws -> Reflection {
        let now = app.clock()
        let reflection = await app.store.addReflection(title: title, body: body, date: now, dayID: day)
        try await app.entities.indexEntities([reflection])
        try await app.donations.donate(
            IntentDonation(intent: Self.identifier, entities: [reflection], surface: surface, date: now))
        return reflection
    }
}
