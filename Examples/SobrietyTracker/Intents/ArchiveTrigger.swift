import Sift

/// The user archives a trigger that no longer matters (or restores it).
public struct ArchiveTrigger: SobrietyIntent {
    public static let inventoryEntry = IntentInventoryEntry(
        identifier: "ArchiveTrigger",
        purpose: "Archive a trigger that no longer matters (or restore it)",
        entities: ["Trigger"],
        mutates: "sets the trigger's isArchived; index event: an archived trigger is deleted from the index",
        donates: "nothing")

    public var trigger: Trigger.ID
    public var isArchived: Bool

    public init(trigger: Trigger.ID, isArchived: Bool = true) {
        self.trigger = trigger
        self.isArchived = isArchived
    }

    public func perform(in app: SobrietyApp) async throws -> EntityIndexingSummary {
        let trigger = try await app.store.setArchived(trigger: self.trigger, isArchived)
        return try await app.entities.indexEntities([trigger])
    }
}
