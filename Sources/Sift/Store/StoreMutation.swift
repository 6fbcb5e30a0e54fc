import CSQLite
import Foundation

/// A change to the store, applied with others in one transaction.
enum StoreMutation {
    case upsert(StoredItem)
    case delete([ItemID])
    case deleteDomains([String])
    case deleteAll
    case donate([Donation])
}
