import Foundation
import Sift

/// A longer piece of writing, optionally about one day.
public struct Reflection: IndexedEntity, Hashable {
    public static let domainIdentifier = "reflection"
    public static let typeDisplayName = "Reflections"
    public static let urlTemplate: String? = "https://example.app/reflections/{id}"

    /// "r-1", "r-2", … assigned by the store.
    public let id: String
    public var date: Date
    public var title: String
    public var body: String
    /// The day it is about, if any.
    public var dayID: StreakDay.ID?
    public var isPrivate: Bool

    public init(id: String, date: Date, title: String, body: String, dayID: StreakDay.ID? = nil, isPrivate: Bool = false) {
        self.id = id
        self.date = date
        self.title = title
        self.body = body
        self.dayID = dayID
        self.isPrivate = isPrivate
    }

    public var displayRepresentation: EntityDisplayRepresentation {
        EntityDisplayRepresentation(title: title, subtitle: body)
    }

    public var attributeSet: EntityAttributeSet {
        EntityAttributeSet(displayRepresentation: displayRepresentation, date: date)
    }
}

/// Any of the app's entities, as an open route or a search result resolves it.
public enum SobrietyEntity: Sendable, Hashable {
    case day(StreakDay)
    case trigger(Trigger)
    case reflection(Reflection)

    public var title: String {
        switch self {
        case .day(let day): day.title
        case .trigger(let trigger): trigger.name
        case .reflection(let reflection): reflection.title
        }
    }

    public var reference: EntityReference {
        switch self {
        case .day(let day): EntityReference(day)
        case .trigger(let trigger): EntityReference(trigger)
        case .reflection(let reflection): EntityReference(reflection)
        }
    }

    /// "Streak days", "Triggers", "Reflections".
    public var typeDisplayName: String {
        switch self {
        case .day: StreakDay.typeDisplayName
        case .trigger: Trigger.typeDisplayName
        case .reflection: Reflection.typeDisplayName
        }
    }
}
