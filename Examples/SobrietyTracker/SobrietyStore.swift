import Foundation
import Sift

/// The app's own data — the source of truth. Sift only ever holds a searchable copy.
public actor SobrietyStore {
    private var days: [StreakDay.ID: StreakDay] = [:]
    private var triggers: [Trigger.ID: Trigger] = [:]
    private var reflections: [Reflection.ID: Reflection] = [:]
    private var nextReflectionNumber = 1

    public init(days: [StreakDay] = [], triggers: [Trigger] = [], reflections: [Reflection] = []) {
        for day in days { self.days[day.id] = day }
        for trigger in triggers { self.triggers[trigger.id] = trigger }
        for reflection in reflections { self.reflections[reflection.id] = reflection }
        let numbers = reflections.compactMap { Int($0.id.dropFirst(2)) }
        nextReflectionNumber = (numbers.max() ?? 0) + 1
    }

    // MARK: Reading

    /// Every day, oldest first.
    public func allDays() -> [StreakDay] {
        days.values.sorted { $0.date != $1.date ? $0.date < $1.date : $0.id.uuidString < $1.id.uuidString }
    }

    /// Every trigger, by id.
    public func allTriggers() -> [Trigger] { triggers.values.sorted { $0.id < $1.id } }

    /// Every reflection, oldest first.
    public func allReflections() -> [Reflection] {
        reflections.values.sorted { $0.date != $1.date ? $0.date < $1.date : $0.id < $1.id }
    }

    public func days(_ ids: [StreakDay.ID]) -> [StreakDay] { ids.compactMap { days[$0] } }
    public func triggers(_ ids: [Trigger.ID]) -> [Trigger] { ids.compactMap { triggers[$0] } }
    public func reflections(_ ids: [Reflection.ID]) -> [Reflection] { ids.compactMap { reflections[$0] } }

    // MARK: Changing

    /// Marks a day private (or public again).
    public func setPrivate(day id: StreakDay.ID, _ isPrivate: Bool) throws(SobrietyError) -> StreakDay {
        guard var day = days[id] else { throw .noSuchDay(id) }
        day.isPrivate = isPrivate
        days[id] = day
        return day
    }

    /// Records that the trigger happened at `date`.
    public func logOccurrence(of id: Trigger.ID, at date: Date) throws(SobrietyError) -> Trigger {
        guard var trigger = triggers[id] else { throw .noSuchTrigger(id) }
        trigger.occurrences.append(date)
        trigger.occurrences.sort()
        triggers[id] = trigger
        return trigger
    }

    /// Archives a trigger (or brings it back).
    public func setArchived(trigger id: Trigger.ID, _ isArchived: Bool) throws(SobrietyError) -> Trigger {
        guard var trigger = triggers[id] else { throw .noSuchTrigger(id) }
        trigger.isArchived = isArchived
        triggers[id] = trigger
        return trigger
    }

    /// Adds a reflection with the next identifier ("r-6").
    public func addReflection(title: String, body: String, date: Date, dayID: StreakDay.ID?) -> Reflection {
        let reflection = Reflection(id: "r-\(nextReflectionNumber)", date: date, title: title, body: body, dayID: dayID)
        nextReflectionNumber += 1
        reflections[reflection.id] = reflection
        return reflection
    }

    /// Deletes a day (the app's data, not just its search item).
    public func deleteDay(_ id: StreakDay.ID) throws(SobrietyError) -> StreakDay {
        guard let day = days.removeValue(forKey: id) else { throw .noSuchDay(id) }
        return day
    }
}

/// An identifier the app's data does not have.
public enum SobrietyError: Error, Sendable, Hashable, CustomStringConvertible {
    case noSuchDay(StreakDay.ID)
    case noSuchTrigger(Trigger.ID)

    public var description: String {
        switch self {
        case .noSuchDay(let id): "no streak day with id \(id.uuidString)"
        case .noSuchTrigger(let id): "no trigger with id \(id)"
        }
    }
}

// MARK: Entity sources (the app's half of entity resolution)

/// Streak days by id, from the store.
public struct StreakDaySource: EntitySource {
    public let store: SobrietyStore
    public init(store: SobrietyStore) { self.store = store }
    public func entities(for identifiers: [StreakDay.ID]) async -> [StreakDay] { await store.days(identifiers) }
}

/// Triggers by id, from the store.
public struct TriggerSource: EntitySource {
    public let store: SobrietyStore
    public init(store: SobrietyStore) { self.store = store }
    public func entities(for identifiers: [Trigger.ID]) async -> [Trigger] { await store.triggers(identifiers) }
}

/// Reflections by id, from the store.
public struct ReflectionSource: EntitySource {
    public let store: SobrietyStore
    public init(store: SobrietyStore) { self.store = store }
    public func entities(for identifiers: [Reflection.ID]) async -> [Reflection] {
        await store.reflections(identifiers)
    }
}
