import Sift

/// Opens whatever a URL names — a search result, a suggestion, a link (App Intents'
/// `OpenIntent`).
public struct OpenEntity: SobrietyIntent {
    public static let inventoryEntry = IntentInventoryEntry(
        identifier: "OpenEntity",
        purpose: "Open the day, trigger or reflection a URL names",
        entities: ["StreakDay", "Trigger", "Reflection"],
        mutates: "nothing",
        donates: "OpenEntity with the opened entity, on the surface it came from")

    public var url: String
    public var surface: DonationSurface

    public init(url: String, surface: DonationSurface = .search) {
        self.url = url
        self.surface = surface
    }

    /// - Throws: `EntityError` for a malformed or unknown URL; `EntityError.notFound` or
    ///   `.withheld` when the entity is gone or withheld (private, archived) — it fails closed.
    public func perform(in app: SobrietyApp) async throws -> SobrietyEntity {
        let reference = try app.entities.reference(for: url)
        let entity = try await app.entity(for: reference)
        try await app.donations.donate(
            IntentDonation(intent: Self.identifier, entities: [reference], surface: surface, date: app.clock()))
        return entity
    }
}
