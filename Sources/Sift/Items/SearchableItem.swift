import Foundation

/// One piece of app content to index: a note, a recipe, a journal day, an expense.
///
/// Mirrors Core Spotlight's `CSSearchableItem`: a stable identifier, a domain that groups items
/// of one kind, attributes, and the privacy flags. Private and hidden items are refused at the
/// door: they never reach the store or any index.
public struct SearchableItem: Sendable, Equatable, Hashable {
    public var id: ItemID
    /// Groups items of one kind (`expense`, `recipe`); deletion by domain is one call.
    public var domain: String
    public var title: String
    public var content: String
    public var keywords: [String]
    /// The date the item is about (a journal day, an expense); used by date filters.
    public var date: Date?
    /// After this instant the item is never returned and is purged.
    public var expires: Date?
    public var url: String?
    /// A small prior, 0–100 (50 is neutral).
    public var rankingHint: Int?
    /// Display name of the item's domain ("Expenses"); lets queries name the domain.
    public var displayName: String?
    public var isPrivate: Bool
    public var isHidden: Bool

    public init(
        id: ItemID, domain: String = "", title: String = "", content: String = "",
        keywords: [String] = [], date: Date? = nil, expires: Date? = nil, url: String? = nil,
        rankingHint: Int? = nil, displayName: String? = nil, isPrivate: Bool = false,
        isHidden: Bool = false
    ) {
        self.id = id
        self.domain = domain
        self.title = title
        self.content = content
        self.keywords = keywords
        self.date = date
        self.expires = expires
        self.url = url
        self.rankingHint = rankingHint
        self.displayName = displayName
        self.isPrivate = isPrivate
        self.isHidden = isHidden
    }

    /// Whether the item may be indexed at all.
    public var isIndexable: Bool { !isPrivate && !isHidden }

    /// Whether the item has expired at `now`.
    public func isExpired(at now: Date) -> Bool {
        if let expires { return expires <= now }
        return false
    }

    /// Title, keywords and content in one string: what the embedder reads.
    public var embeddingText: String {
        // One string made to size: the parts (title, the keywords joined by spaces, content),
        // each present one after a single space.
        var text = ""
        text.reserveCapacity(title.utf8.count + content.utf8.count + keywords.reduce(0) { $0 + $1.utf8.count + 1 } + 2)
        var first = true
        if !title.isEmpty {
            text += title
            first = false
        }
        if !keywords.isEmpty {
            if !first { text += " " }
            for (i, k) in keywords.enumerated() {
                if i > 0 { text += " " }
                text += k
            }
            first = false
        }
        if !content.isEmpty {
            if !first { text += " " }
            text += content
        }
        return text
    }
}
