import Sift

/// One thing the user can do, from the app's screens, a widget, a shortcut or a search
/// result (App Intents' `AppIntent`). Each intent states what it is for, which entities it
/// takes, what it changes and what it donates: ``SobrietyApp/intentInventory`` lists them,
/// and `Documentation/AdoptingSift.md` carries the same table.
public protocol SobrietyIntent: Sendable {
    associatedtype Output: Sendable
    /// What the intent is, for the inventory.
    static var inventoryEntry: IntentInventoryEntry { get }
    /// Runs the intent against the app's dependencies.
    func perform(in app: SobrietyApp) async throws -> Output
}

extension SobrietyIntent {
    /// The intent's stable identifier: the name its donations carry.
    public static var identifier: String { inventoryEntry.identifier }
}

/// One row of the intent inventory.
public struct IntentInventoryEntry: Sendable, Hashable {
    /// Stable name, used in donations (`"LogTriggerOccurrence"`).
    public var identifier: String
    public var purpose: String
    /// The entity types it takes.
    public var entities: [String]
    /// What it changes in the app's data and in the index.
    public var mutates: String
    /// What it donates.
    public var donates: String
}
