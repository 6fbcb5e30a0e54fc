import Foundation

/// What ``SearchIndex/repair(configuration:)`` did.
package struct IndexRepairReport: Sendable, Equatable {
    /// The check before the repair.
    package var before: IndexCheckReport
    /// The check after it.
    package var after: IndexCheckReport
    /// The records dropped because they could not be read; nothing readable is dropped.
    package var dropped: [UnreadableRecord]
    /// Readable donations that went with their dropped item.
    package var droppedDonationsOfDroppedItems: Int
    /// Whether SQLite found the file unsound and the store was rebuilt, into a new file, from
    /// every record that could be read (each copied byte for byte); otherwise the unreadable
    /// rows were deleted in place.
    package var rebuiltDatabase: Bool
    /// Whether a new snapshot was written (plain indexes; protected ones have none).
    package var snapshotWritten: Bool

    /// The dropped items known by id: the host app indexes these again.
    package var idsToReindex: [ItemID] { dropped.itemIDs }

    /// Row keys (hexadecimal) of dropped items whose id could not be read (a protected store's
    /// damaged records): compare them with `AESGCMCodec.lookupKey` of the host's ids.
    package var unidentifiedRowKeys: [String] {
        dropped.filter { $0.kind == .item && $0.id == nil }.map(\.rowKey).sorted()
    }
}
