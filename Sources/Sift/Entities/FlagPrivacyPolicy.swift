/// The policies built from the entity's own flags; ``EntityIndex``'s default is
/// ``respectPrivacyFlag``.
package struct FlagPrivacyPolicy: PrivacyPolicy, Hashable {
    /// Withhold entities whose ``IndexedEntity/isPrivate`` is true.
    package var withholdsPrivate: Bool
    /// Withhold entities whose ``IndexedEntity/isArchived`` is true.
    package var withholdsArchived: Bool

    package init(withholdsPrivate: Bool, withholdsArchived: Bool) {
        self.withholdsPrivate = withholdsPrivate
        self.withholdsArchived = withholdsArchived
    }

    package func withholdingReason(for entity: some IndexedEntity) -> WithholdingReason? {
        if withholdsPrivate && entity.isPrivate { return .markedPrivate }
        if withholdsArchived && entity.isArchived { return .archived }
        return nil
    }
}
