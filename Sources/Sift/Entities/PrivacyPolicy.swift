/// Decides, for each entity, whether it may be indexed. A dependency of ``EntityIndex``,
/// applied before anything reaches the index: a withheld entity is never handed to the
/// index, and one that was indexed before is deleted (the mutation that made it unindexable
/// is an index event).
///
/// Sift ships ``alwaysAllow``, ``respectPrivacyFlag`` and ``respectPrivacyAndArchive``; an app
/// writes its own for rules of its own (a setting that keeps a whole type out of search, say).
/// ``IndexedEntity/isHiddenFromSearch`` is honoured before any policy is asked.
public protocol PrivacyPolicy: Sendable {
    /// Whether `entity` may be indexed now. Called once per entity per indexing call; must be
    /// cheap and must not block.
    func decision(for entity: some IndexedEntity) -> PrivacyDecision
}

/// What a ``PrivacyPolicy`` decided for one entity.
public enum PrivacyDecision: Sendable, Hashable {
    /// Index it.
    case index
    /// Keep it out of the index (and delete it if it is there).
    case withhold(WithholdingReason)
}

/// Why an entity was kept out of the index.
public enum WithholdingReason: Sendable, Hashable, CustomStringConvertible {
    /// ``IndexedEntity/isHiddenFromSearch`` is true.
    case hiddenFromSearch
    /// ``IndexedEntity/isPrivate`` is true.
    case markedPrivate
    /// ``IndexedEntity/isArchived`` is true.
    case archived
    /// An app policy's own reason, in words.
    case policy(String)

    public var description: String {
        switch self {
        case .hiddenFromSearch: "hidden from search"
        case .markedPrivate: "private"
        case .archived: "archived"
        case .policy(let reason): reason
        }
    }
}

/// The policies built from the entity's own flags.
public struct FlagPrivacyPolicy: PrivacyPolicy, Hashable {
    /// Withhold entities whose ``IndexedEntity/isPrivate`` is true.
    public var withholdsPrivate: Bool
    /// Withhold entities whose ``IndexedEntity/isArchived`` is true.
    public var withholdsArchived: Bool

    public init(withholdsPrivate: Bool, withholdsArchived: Bool) {
        self.withholdsPrivate = withholdsPrivate
        self.withholdsArchived = withholdsArchived
    }

    public func decision(for entity: some IndexedEntity) -> PrivacyDecision {
        if withholdsPrivate && entity.isPrivate { return .withhold(.markedPrivate) }
        if withholdsArchived && entity.isArchived { return .withhold(.archived) }
        return .index
    }
}

extension PrivacyPolicy where Self == FlagPrivacyPolicy {
    /// Index everything (except what hides itself from search).
    public static var alwaysAllow: FlagPrivacyPolicy {
        FlagPrivacyPolicy(withholdsPrivate: false, withholdsArchived: false)
    }
    /// Withhold private entities.
    public static var respectPrivacyFlag: FlagPrivacyPolicy {
        FlagPrivacyPolicy(withholdsPrivate: true, withholdsArchived: false)
    }
    /// Withhold private and archived entities.
    public static var respectPrivacyAndArchive: FlagPrivacyPolicy {
        FlagPrivacyPolicy(withholdsPrivate: true, withholdsArchived: true)
    }
}

extension IndexedEntity {
    /// What `policy` decides for this entity, ``isHiddenFromSearch`` first.
    public func indexingDecision(under policy: any PrivacyPolicy) -> PrivacyDecision {
        isHiddenFromSearch ? .withhold(.hiddenFromSearch) : policy.decision(for: self)
    }
}
