import Foundation

/// What one ``EntityIndex/indexEntities(_:)`` or ``EntityIndex/reindex(_:with:)`` did.
public struct EntityIndexingSummary: Sendable, Hashable {
    /// Entities now indexed.
    public var indexed = 0
    /// Entities kept out of the index: each one's item identifier (``ItemID/entity(_:)``)
    /// and why. Sort the keys to list them in a stable order.
    public var withheld: [ItemID: WithholdingReason] = [:]
    /// Of the withheld, how many were indexed before and have been deleted.
    public var deleted = 0
    /// Entities whose ``EntityAttributeSet/expires`` had passed: not indexed.
    public var expired = 0
    /// Items of the type deleted by ``EntityIndex/reindex(_:with:)`` before indexing.
    public var replaced = 0

    public init() {}
}
