import Foundation

/// An app type whose values Sift indexes (App Intents' `IndexedEntity`): journal days,
/// triggers, recipes.
///
/// A conforming type declares once, for all its values, the domain its items live in, a display
/// name, how each value is shown (``displayRepresentation``) and what of it is searchable
/// (``attributeSet``, by default derived from the display representation). The item that
/// represents a value is named by ``ItemID/entity(_:)`` from the value's `id` alone, so a
/// search result, a donation or a URL always resolves back to exactly one entity.
///
/// ```swift
/// struct Recipe: IndexedEntity {
///     static let domainIdentifier = "recipe"
///     static let typeDisplayName = "Recipes"
///     static let urlTemplate: String? = "https://example.app/recipes/{id}"
///     let id: Int
///     var name: String
///     var method: String
///     var displayRepresentation: EntityDisplayRepresentation { .init(title: name, subtitle: method) }
/// }
/// ```
///
/// On Apple platforms, where App Intents declares a protocol of the same name, write
/// `Sift.IndexedEntity`.
public protocol IndexedEntity: Identifiable, Sendable where ID: EntityIdentifierConvertible {
    /// The domain of this type's items (`"streakDay"`, `"recipe"`): stable, unique in the app.
    static var domainIdentifier: String { get }
    /// The type's plural display name ("Recipes"); queries that name it filter by it.
    static var typeDisplayName: String { get }
    /// The URL of one value, with `{id}` where its identifier goes
    /// (`"https://example.app/recipes/{id}"`); nil (the default) when the type has no URL.
    static var urlTemplate: String? { get }

    /// How the value is shown in a list of results.
    var displayRepresentation: EntityDisplayRepresentation { get }
    /// What of the value is searchable. Default: the display title, the subtitle as content,
    /// and keywords extracted from the subtitle.
    var attributeSet: EntityAttributeSet { get }
    /// The value's own request never to be indexed (App Intents' `hideInSpotlight`); honoured
    /// whatever the ``PrivacyPolicy``. Default: false.
    var isHiddenFromSearch: Bool { get }
    /// The user marked the value private. ``EntityIndex``'s default policy withholds it.
    /// Default: false.
    var isPrivate: Bool { get }
    /// The value is archived; an app's ``PrivacyPolicy`` may withhold it. Default: false.
    var isArchived: Bool { get }
}

extension IndexedEntity {
    public static var urlTemplate: String? { nil }
    public var isHiddenFromSearch: Bool { false }
    public var isPrivate: Bool { false }
    public var isArchived: Bool { false }

    public var attributeSet: EntityAttributeSet {
        EntityAttributeSet(displayRepresentation: displayRepresentation)
    }

    /// The item identifier of this value: ``ItemID/entity(_:)``.
    public var itemID: ItemID { ItemID.entity(self) }

    /// Whether `string` is the canonical identifier string of some value of this type.
    public static func isValidIdentifierString(_ string: String) -> Bool {
        !string.isEmpty && ID.entityIdentifier(for: string) != nil
    }
}

/// How an entity is shown: a title and an optional subtitle (App Intents'
/// `DisplayRepresentation`).
public struct EntityDisplayRepresentation: Sendable, Hashable {
    public var title: String
    public var subtitle: String?

    public init(title: String, subtitle: String? = nil) {
        self.title = title
        self.subtitle = subtitle
    }
}
