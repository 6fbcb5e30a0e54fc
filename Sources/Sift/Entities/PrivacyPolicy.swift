/// Decides, for each entity, whether it may be indexed. A dependency of ``EntityIndex``,
/// applied before anything reaches the index: a withheld entity is never handed to the
/// index, and one that was indexed before is deleted (the mutation that made it unindexable
/// is an index event).
///
/// Without a policy, ``EntityIndex`` withholds the entities whose ``IndexedEntity/isPrivate``
/// is true; an app writes its own for rules of its own (archived entities, a setting that
/// keeps a whole type out of search, say). ``IndexedEntity/isHiddenFromSearch`` is honoured
/// before any policy is asked.
public protocol PrivacyPolicy: Sendable {
    /// Why `entity` must be kept out of the index now, or nil to index it. Called once per
    /// entity per indexing call; must be cheap and must not block.
    func withholdingReason(for entity: some IndexedEntity) -> WithholdingReason?
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

extension PrivacyPolicy where Self == FlagPrivacyPolicy {
    /// Index everything (except what hides itself from search).
    package static var alwaysAllow: FlagPrivacyPolicy {
        FlagPrivacyPolicy(withholdsPrivate: false, withholdsArchived: false)
    }
    /// Withhold private entities: the default of ``EntityIndex``.
    package static var respectPrivacyFlag: FlagPrivacyPolicy {
        FlagPrivacyPolicy(withholdsPrivate: true, withholdsArchived: false)
    }
    /// Withhold private and archived entities.
    package static var respectPrivacyAndArchive: FlagPrivacyPolicy {
        FlagPrivacyPolicy(withholdsPrivate: true, withholdsArchived: true)
    }
}

extension IndexedEntity {
    /// Why `policy` keeps this entity out of the index (``isHiddenFromSearch`` first), or nil
    /// when it may be indexed.
    public func withholdingReason(under policy: any PrivacyPolicy) -> WithholdingReason? {
        isHiddenFromSearch ? .hiddenFromSearch : policy.withholdingReason(for: self)
    }
}
