import Foundation
import Sift

/// Something that sets off a craving — a place, a person, a feeling — and every time the
/// user logged it.
public struct Trigger: IndexedEntity, Hashable {
    public static let domainIdentifier = "trigger"
    public static let typeDisplayName = "Triggers"
    public static let urlTemplate: String? = "https://example.app/triggers/{id}"

    public let id: Int
    public var name: String
    public var details: String
    /// "work", "money", "places", "people", "feelings".
    public var category: String
    /// When the user logged it, oldest first.
    public var occurrences: [Date]
    /// No longer relevant; kept out of search.
    public var isArchived: Bool

    public init(
        id: Int, name: String, details: String, category: String, occurrences: [Date] = [],
        isArchived: Bool = false
    ) {
        self.id = id
        self.name = name
        self.details = details
        self.category = category
        self.occurrences = occurrences
        self.isArchived = isArchived
    }

    public var displayRepresentation: EntityDisplayRepresentation {
        EntityDisplayRepresentation(title: name, subtitle: details)
    }

    /// The last time it was logged.
    public var lastOccurrence: Date? { occurrences.max() }

    public var attributeSet: EntityAttributeSet {
        var content = details
        if let last = lastOccurrence {
            let day = SampleDates.dayString(last)
            content += " Logged \(occurrences.count) time\(occurrences.count == 1 ? "" : "s"), last on \(day)."
        }
        var keywords = [category]
        keywords += KeywordExtractor(limit: 7).extract(from: details, excluding: [name, category])
        return EntityAttributeSet(
            title: name, content: content, keywords: keywords, date: lastOccurrence,
            // Triggers logged often are a little more likely to be what the user is after.
            rankingHint: min(100, 50 + 5 * occurrences.count))
    }
}
