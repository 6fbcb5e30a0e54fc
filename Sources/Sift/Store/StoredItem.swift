import Foundation

/// What the store keeps for one item: the item and, when a model is in use, its vector.
struct StoredItem: Sendable {
    var item: SearchableItem
    var vector: [Float]?
}
