import Foundation

/// The searchable attributes of one entity (Core Spotlight's `CSSearchableItemAttributeSet`):
/// what becomes the ``SearchableItem`` that represents it.
///
/// The item's identifier, domain and domain display name come from the entity's type and `id`,
/// never from here; its URL comes from the type's ``IndexedEntity/urlTemplate`` when it has one.
public struct EntityAttributeSet: Sendable, Hashable {
    /// The main line; the keyword index weighs it above the content.
    public var title: String
    /// The body text.
    public var content: String
    /// Distinctive words, weighed above the title.
    public var keywords: [String]
    /// The date the entity is about (a journal day); used by date filters ("last week").
    public var date: Date?
    /// After this instant the item is never returned and is purged.
    public var expires: Date?
    /// The URL, used only when the type has no ``IndexedEntity/urlTemplate``.
    public var url: String?
    /// A small prior, 0–100 (50 is neutral).
    public var rankingHint: Int?

    public init(
        title: String, content: String = "", keywords: [String] = [], date: Date? = nil,
        expires: Date? = nil, url: String? = nil, rankingHint: Int? = nil
    ) {
        self.title = title
        self.content = content
        self.keywords = keywords
        self.date = date
        self.expires = expires
        self.url = url
        self.rankingHint = rankingHint
    }

    /// The default set: the display title, the subtitle as content, and up to 8 keywords
    /// extracted from the subtitle (never a title word; see `KeywordExtractor`).
    /// - Complexity: O(n) in the length of the subtitle.
    public init(displayRepresentation: EntityDisplayRepresentation, date: Date? = nil) {
        let subtitle = displayRepresentation.subtitle ?? ""
        self.init(
            title: displayRepresentation.title, content: subtitle,
            keywords: KeywordExtractor().extract(from: subtitle, excluding: [displayRepresentation.title]),
            date: date)
    }
}
