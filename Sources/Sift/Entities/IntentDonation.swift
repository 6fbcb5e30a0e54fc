import Foundation

/// Where the user did something (App Intents' donation context): part of every donation, so
/// an app can tell a manual log in the app from one in a widget.
public struct DonationSurface: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// In the app's own screens.
    public static let app: DonationSurface = "app"
    /// From a search result.
    public static let search: DonationSurface = "search"
    /// From a suggestion.
    public static let suggestion: DonationSurface = "suggestion"
    /// From a widget.
    public static let widget: DonationSurface = "widget"
    /// From a shortcut or automation.
    public static let shortcut: DonationSurface = "shortcut"
    /// From a notification action.
    public static let notification: DonationSurface = "notification"

    public var description: String { rawValue }
}

/// "The user did intent X with entities Y, on surface S, at time T" (App Intents'
/// `donate()`): feeds the ranking boost and the suggestions.
public struct IntentDonation: Sendable, Hashable {
    /// The intent's stable identifier (`"LogTriggerOccurrence"`).
    public var intent: String
    /// The entities the intent acted on.
    public var entities: [EntityReference]
    public var surface: DonationSurface
    /// When it happened; nil for the index's clock.
    public var date: Date?

    public init(intent: String, entities: [EntityReference], surface: DonationSurface = .app, date: Date? = nil) {
        self.intent = intent
        self.entities = entities
        self.surface = surface
        self.date = date
    }

    /// A donation naming `entities`.
    public init<Entity: IndexedEntity>(
        intent: String, entities: [Entity], surface: DonationSurface = .app, date: Date? = nil
    ) {
        self.init(intent: intent, entities: entities.map(EntityReference.init), surface: surface, date: date)
    }

    /// The item identifiers of the entities.
    public var itemIDs: [ItemID] { entities.map(\.itemID) }
}

extension SearchIndexing {
    /// A recorder that feeds donations to this index
    /// (``SearchIndex/donate(intent:itemIDs:surface:at:)``); a donation naming no entity does
    /// not call the index.
    public var donationRecorder: any DonationRecorder { IndexDonationRecorder(index: self) }
}
