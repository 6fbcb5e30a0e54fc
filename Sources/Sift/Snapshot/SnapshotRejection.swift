/// Why a snapshot was not used. Never an error of the open, which then rebuilds from the store;
/// the description goes into the open's log record, so it never holds user text.
struct SnapshotRejection: Error, CustomStringConvertible, Equatable {
    let description: String
    /// The vector row found damaged, when that is the reason (``RowChecks``).
    var damagedRow: Int?
    init(_ description: String, damagedRow: Int? = nil) {
        self.description = description
        self.damagedRow = damagedRow
    }
}
