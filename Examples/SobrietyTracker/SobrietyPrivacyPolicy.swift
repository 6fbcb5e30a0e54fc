import Sift

/// The app's own privacy rules: private days and reflections and archived triggers are never
/// indexed, and the user can keep every streak day out of search in Settings.
public struct SobrietyPrivacyPolicy: PrivacyPolicy, Hashable {
    /// The Settings switch "Show my streak days in search".
    public var streakDaysInSearch: Bool

    public init(streakDaysInSearch: Bool = true) {
        self.streakDaysInSearch = streakDaysInSearch
    }

    public func withholdingReason(for entity: some IndexedEntity) -> WithholdingReason? {
        if entity.isPrivate { return .markedPrivate }
        if entity.isArchived { return .archived }
        if !streakDaysInSearch && entity is StreakDay { return .policy("streak days are kept out of search in Settings") }
        return nil
    }
}
