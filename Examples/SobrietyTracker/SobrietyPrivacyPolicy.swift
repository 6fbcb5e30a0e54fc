import Sift

/// The app's own privacy rules: private days and reflections and archived triggers are never
/// indexed, and the user can keep every streak day out of search in Settings.
public struct SobrietyPrivacyPolicy: PrivacyPolicy, Hashable {
    /// The Settings switch "Show my streak days in search".
    public var streakDaysInSearch: Bool

    public init(streakDaysInSearch: Bool = true) {
        self.streakDaysInSearch = streakDaysInSearch
    }

    public func decision(for entity: some IndexedEntity) -> PrivacyDecision {
        if entity.isPrivate { return .withhold(.markedPrivate) }
        if entity.isArchived { return .withhold(.archived) }
        if !streakDaysInSearch && entity is StreakDay {
            return .withhold(.policy("streak days are kept out of search in Settings"))
        }
        return .index
    }
}
