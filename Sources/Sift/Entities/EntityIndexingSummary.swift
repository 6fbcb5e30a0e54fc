import Foundation

/// What one ``EntityIndex/indexEntities(_:)`` or ``EntityIndex/reindex(_:with:)`` did.
public struct EntityIndexingSummary: Sendable, Hashable {
    /// Entities now indexed.
    public var indexed = 0
    /// Entities kept out of the index, in input order, with the reason.
    public var withheld: [WithheldEntity] = []
    /// Of the withheld, how many were indexed before and have been deleted.
    public var deleted = 0
    /// Entities whose ``EntityAttributeSet/expires`` had passed: not indexed.
    public var expired = 0
    /// Items of the type deleted by ``EntityIndex/reindex(_:with:)`` before indexing.
    public var replaced = 0

    public init() {}
}

/// An entity kept out of the index, and why.
public struct WithheldEntity: Sendable, Hashable {
    public var itemID: ItemID
    public var reason: WithholdingReason

    public init(itemID: ItemID, reason: WithholdingReason) {
        self.itemID = itemID
        self.reason = reason
    }
}
