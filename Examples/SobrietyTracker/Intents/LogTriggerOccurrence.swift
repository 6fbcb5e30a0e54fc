import Foundation
import Sift

/// "That trigger just happened": the user logs a trigger from the app, a widget or a
/// shortcut.
public struct LogTriggerOccurrence: SobrietyIntent {
    public static let inventoryEntry = IntentInventoryEntry(
        identifier: "LogTriggerOccurrence",
        purpose: "Log that a trigger just happened",
        entities: ["Trigger"],
        mutates: "appends now to the trigger's occurrences; re-indexes the trigger (new date, count, ranking hint)",
        donates: "LogTriggerOccurrence with the trigger, on the surface it came from")

    public var trigger: Trigger.ID
    public var surface: DonationSurface

    public init(trigger: Trigger.ID, surface: DonationSurface = .app) {
        self.trigger = trigger
        self.surface = surface
    }

    public func perform(in app: SobrietyApp) async throws -> Trigger {
        let now = app.clock()
        let trigger = try await app.store.logOccurrence(of: self.trigger, at: now)
        // Index first, so the donation names an item that exists.
        try await app.entities.indexEntities([trigger])
        try await app.donations.donate(
            IntentDonation(intent: Self.identifier, entities: [trigger], surface: surface, date: now))
        return trigger
    }
}
