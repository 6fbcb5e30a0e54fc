/// The only place that hands out rows: maps each live ``ItemID`` to the dense row number used
/// by the keyword postings and the vector matrix, so the two halves cannot disagree about what
/// exists.
///
/// Rows of deleted items are recycled (lowest first) so both halves stay dense.
package struct IdentifierTable: Sendable {
    private var rowByID: [ItemID: Int32] = [:]
    private var idByRow: [ItemID?] = []
    private var freeRows: [Int32] = []  // kept sorted descending; popLast gives the lowest

    package init() {}

    /// The table whose row r holds `ids[r]` (nil: a free row), as a snapshot recorded it; nil
    /// when an id is in two rows.
    /// - Complexity: O(rows).
    init?(rows ids: [ItemID?]) {
        rowByID.reserveCapacity(ids.count)
        for (row, id) in ids.enumerated() {
            if let id {
                guard rowByID.updateValue(Int32(row), forKey: id) == nil else { return nil }
            } else {
                freeRows.append(Int32(row))
            }
        }
        freeRows.reverse()
        idByRow = ids
    }

    /// Runs `body` with the id at each row (nil for a free row), `capacity` of them.
    package func withIDs<R>(_ body: (UnsafeBufferPointer<ItemID?>) throws -> R) rethrows -> R {
        try idByRow.withUnsafeBufferPointer(body)
    }

    /// Number of live items.
    package var count: Int { rowByID.count }
    /// One past the highest row ever handed out: the size the row-indexed structures need.
    package var capacity: Int { idByRow.count }

    /// The row of `id`, if it is live. - Complexity: O(1).
    package func row(of id: ItemID) -> Int32? { rowByID[id] }

    /// The item at `row`, or nil for a free row. - Complexity: O(1).
    package func id(at row: Int32) -> ItemID? {
        row >= 0 && Int(row) < idByRow.count ? idByRow[Int(row)] : nil
    }

    /// The row for `id`, allocating one if it is new. - Complexity: amortised O(log f) for f free rows.
    package mutating func assign(_ id: ItemID) -> (row: Int32, isNew: Bool) {
        if let row = rowByID[id] { return (row, false) }
        let row: Int32
        if let free = freeRows.popLast() {
            row = free
            idByRow[Int(row)] = id
        } else {
            row = Int32(idByRow.count)
            idByRow.append(id)
        }
        rowByID[id] = row
        return (row, true)
    }

    /// Frees the row of `id` and returns it, or nil if `id` is not live.
    package mutating func remove(_ id: ItemID) -> Int32? {
        guard let row = rowByID.removeValue(forKey: id) else { return nil }
        idByRow[Int(row)] = nil
        let position = freeRows.firstIndex { $0 < row } ?? freeRows.endIndex
        freeRows.insert(row, at: position)
        return row
    }

    /// Forgets everything.
    package mutating func removeAll() {
        rowByID.removeAll()
        idByRow.removeAll()
        freeRows.removeAll()
    }

    /// Every live identifier, in no particular order.
    package var ids: Dictionary<ItemID, Int32>.Keys { rowByID.keys }

    /// Verifies the two maps are inverse and free rows are exactly the empty ones.
    package func checkInvariants() throws(InvariantViolation) {
        for (item, row) in rowByID where id(at: row) != item {
            throw InvariantViolation("identifier table: \(item) maps to row \(row) which holds \(String(describing: id(at: row)))")
        }
        let occupied = idByRow.lazy.filter { $0 != nil }.count
        if occupied != rowByID.count {
            throw InvariantViolation("identifier table: \(occupied) occupied rows for \(rowByID.count) ids")
        }
        if occupied + freeRows.count != idByRow.count || Set(freeRows).count != freeRows.count {
            throw InvariantViolation("identifier table: free list inconsistent")
        }
        for row in freeRows where idByRow[Int(row)] != nil {
            throw InvariantViolation("identifier table: free row \(row) is occupied")
        }
    }
}

/// A broken internal invariant, found by a `checkInvariants()` call.
package struct InvariantViolation: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
