import Foundation
import Sift

/// One day of the streak: the journal entry the user writes each evening.
public struct StreakDay: IndexedEntity, Hashable {
    public static let domainIdentifier = "streakDay"
    public static let typeDisplayName = "Streak days"
    public static let urlTemplate: String? = "https://example.app/streak/{id}"

    /// Stable record identifier: the item identifier comes from it, never from the date.
    public let id: UUID
    /// The evening the entry was written.
    public var date: Date
    /// Days sober on that date.
    public var dayNumber: Int
    public var headline: String
    public var note: String
    public var mood: String
    /// Craving intensity, 0–10.
    public var craving: Int
    /// The user marked the day private: it must never be searchable.
    public var isPrivate: Bool

    public init(
        id: UUID, date: Date, dayNumber: Int, headline: String, note: String, mood: String, craving: Int,
        isPrivate: Bool = false
    ) {
        self.id = id
        self.date = date
        self.dayNumber = dayNumber
        self.headline = headline
        self.note = note
        self.mood = mood
        self.craving = craving
        self.isPrivate = isPrivate
    }

    /// "Day 41 — noon yoga and a nap".
    public var title: String { "Day \(dayNumber) — \(headline)" }

    public var displayRepresentation: EntityDisplayRepresentation {
        EntityDisplayRepresentation(title: title, subtitle: note)
    }

    public var attributeSet: EntityAttributeSet {
        let content = "\(note) Mood: \(mood). Craving \(craving)/10."
        return EntityAttributeSet(
            title: title, content: content,
            keywords: KeywordExtractor().extract(from: "\(note) \(mood)", excluding: [title]),
            date: date)
    }
}
