import Foundation

/// The item at each row of an index. After an open from a snapshot, rows stay as the snapshot
/// encodes them, in its mapped pages, and are decoded when read; rows set since (and every row
/// of an index built from its store) are kept decoded.
///
/// Reading a row gives a copy (decoded, for an encoded row): the query path reads whole items
/// only for the few rows it returns. Ids come from the ``IdentifierTable``, and the fields
/// filters and priors need from ``RowAttributes``.
struct ItemCache: Sendable {
    /// Every row's item, when the rows are not encoded.
    private var decoded: [SearchableItem?] = []
    private var encoded: EncodedItems?
    /// With `encoded`: the rows set or cleared since the open, and what they hold now.
    private var changed: [Int32: SearchableItem?] = [:]
    /// One past the highest row ever set.
    private(set) var count = 0

    init() {}

    /// The rows of a snapshot, decoded when read.
    init(encoded: EncodedItems) {
        self.encoded = encoded
        count = encoded.rows
    }

    /// Whether rows are read from a snapshot's pages.
    var isEncoded: Bool { encoded != nil }

    /// The item at `row`, nil for a free row or one past the end.
    /// - Complexity: O(1); an encoded row is decoded (its strings allocated).
    subscript(row: Int) -> SearchableItem? {
        guard row >= 0, row < count else { return nil }
        guard let encoded else { return decoded[row] }
        if let now = changed[Int32(row)] { return now }
        return row < encoded.rows ? encoded.item(at: row) : nil
    }

    mutating func set(_ item: SearchableItem?, at row: Int) {
        if row >= count { count = row + 1 }
        if let encoded {
            changed[Int32(row)] = .some(item)
            // Once most rows have changed, the records are mostly stale: decode the rest and let
            // the mapped pages go (a dictionary of changes costs more a row than an array).
            if changed.count > max(Self.decodeAllAfter, encoded.rows / 2) { decodeAll() }
            return
        }
        if row >= decoded.count { decoded.append(contentsOf: repeatElement(nil, count: row - decoded.count + 1)) }
        decoded[row] = item
    }

    /// Changed rows past which an encoded cache is decoded whole (or past half its rows).
    static let decodeAllAfter = 4096

    /// Every row decoded, the snapshot's pages no longer used.
    private mutating func decodeAll() {
        decoded = all
        encoded = nil
        changed = [:]
    }

    mutating func removeAll() { self = ItemCache() }

    /// Every row's item, in row order. - Complexity: O(rows); encoded rows are decoded.
    var all: [SearchableItem?] { (0..<count).map { self[$0] } }

    /// The snapshot encoding of `row` as it lies in the snapshot the rows were read from, when
    /// the row has not changed since (a snapshot writer copies it as it is).
    func unchangedRecord(at row: Int) -> UnsafeRawBufferPointer? {
        guard let encoded, row < encoded.rows, changed[Int32(row)] == nil else { return nil }
        return encoded.record(at: row)
    }
}

/// Items as a snapshot's items sections encode them (``IndexState/writeSnapshotBody(to:)``), in
/// the snapshot's pages, kept mapped: where each row's record starts. Every record was read in
/// full, bounds-checked, when the snapshot was opened, so decoding one again cannot fail.
struct EncodedItems: Sendable {
    let region: MappedRegion
    /// Per row the byte offset of its record in `region`.
    let offsets: [UInt32]

    var rows: Int { offsets.count }

    /// The bytes from `row`'s record to the end of the region.
    private func reader(at row: Int) -> SnapshotReader {
        let start = Int(offsets[row])
        return SnapshotReader(UnsafeRawBufferPointer(start: region.base + start, count: region.count - start))
    }

    func item(at row: Int) -> SearchableItem? {
        var r = reader(at: row)
        return (try? IndexState.readItem(&r)) ?? nil
    }

    /// `row`'s whole record.
    func record(at row: Int) -> UnsafeRawBufferPointer {
        var r = reader(at: row)
        _ = try? IndexState.skipItem(&r)
        return UnsafeRawBufferPointer(rebasing: r.bytes[0..<r.offset])
    }
}
