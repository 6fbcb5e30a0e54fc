import CSiftKernels

/// The only place that hands out rows: maps each live ``ItemID`` to the dense row number used
/// by the keyword postings and the vector matrix, so the two halves cannot disagree about what
/// exists.
///
/// Rows of deleted items are recycled (lowest first) so both halves stay dense.
package struct IdentifierTable: Sendable {
    private var idByRow: [ItemID?] = []
    private var freeRows: [Int32] = []  // kept sorted descending; popLast gives the lowest
    /// The rows of the live ids, open-addressed by ``RowSlots``.
    private var slots = RowSlots(minimumCapacity: 0)

    package init() {}

    /// The table whose row r holds `ids[r]` (nil: a free row), as a snapshot recorded it; nil
    /// when an id is in two rows.
    /// - Complexity: O(rows).
    init?(rows ids: [ItemID?]) {
        guard let slots = ids.withUnsafeBufferPointer({ RowSlots(every: $0) }) else { return nil }
        self.init(rows: ids, slots: slots)
    }

    /// The table whose row r holds `ids[r]`, its slots built already (``RowSlots/init(every:)``
    /// on these ids: a snapshot's open builds them beside its other work).
    init(rows ids: [ItemID?], slots: RowSlots) {
        assert(slots.count == ids.count(where: { $0 != nil }), "slots built from other ids")
        idByRow = ids
        self.slots = slots
        for (row, id) in ids.enumerated().reversed() where id == nil { freeRows.append(Int32(row)) }
    }

    /// Runs `body` with the id at each row (nil for a free row), `capacity` of them.
    package func withIDs<R>(_ body: (UnsafeBufferPointer<ItemID?>) throws -> R) rethrows -> R {
        try idByRow.withUnsafeBufferPointer(body)
    }

    /// Number of live items.
    package var count: Int { slots.count }
    /// One past the highest row ever handed out: the size the row-indexed structures need.
    package var capacity: Int { idByRow.count }

    /// The row of `id`, if it is live. - Complexity: O(1) expected.
    package func row(of id: ItemID) -> Int32? { slots.row(of: id, ids: idByRow) }

    /// The item at `row`, or nil for a free row. - Complexity: O(1).
    package func id(at row: Int32) -> ItemID? {
        row >= 0 && Int(row) < idByRow.count ? idByRow[Int(row)] : nil
    }

    /// The row for `id`, allocating one if it is new. - Complexity: amortised O(log f) for f free rows.
    package mutating func assign(_ id: ItemID) -> (row: Int32, isNew: Bool) {
        if let row = row(of: id) { return (row, false) }
        let row: Int32
        if let free = freeRows.popLast() {
            row = free
            idByRow[Int(row)] = id
        } else {
            row = Int32(idByRow.count)
            idByRow.append(id)
        }
        slots.reserve(slots.count + 1, ids: idByRow)
        _ = slots.insert(row, id: id, ids: idByRow)
        return (row, true)
    }

    /// Frees the row of `id` and returns it, or nil if `id` is not live.
    package mutating func remove(_ id: ItemID) -> Int32? {
        guard let row = slots.remove(id, ids: idByRow) else { return nil }
        idByRow[Int(row)] = nil
        let position = freeRows.firstIndex { $0 < row } ?? freeRows.endIndex
        freeRows.insert(row, at: position)
        return row
    }

    /// Forgets everything.
    package mutating func removeAll() {
        slots = RowSlots(minimumCapacity: 0)
        idByRow.removeAll()
        freeRows.removeAll()
    }

    /// Every live identifier, by row.
    package var ids: [ItemID] { idByRow.compactMap { $0 } }

    /// Verifies the two maps are inverse and free rows are exactly the empty ones.
    package func checkInvariants() throws(InvariantViolation) {
        var occupied = 0
        for (row, item) in idByRow.enumerated() {
            guard let item else { continue }
            occupied += 1
            if self.row(of: item) != Int32(row) {
                throw InvariantViolation(
                    "identifier table: \(item) at row \(row) maps to row \(String(describing: self.row(of: item)))")
            }
        }
        if occupied != slots.count {
            throw InvariantViolation("identifier table: \(occupied) occupied rows for \(slots.count) ids")
        }
        if occupied + freeRows.count != idByRow.count || Set(freeRows).count != freeRows.count {
            throw InvariantViolation("identifier table: free list inconsistent")
        }
        for row in freeRows where idByRow[Int(row)] != nil {
            throw InvariantViolation("identifier table: free row \(row) is occupied")
        }
    }
}

/// An open-addressed map from an id to its row that stores only the row (4 bytes a slot, at
/// most half full, linear probing): the id is read back from the table's rows to compare.
/// Building it for a snapshot's 100k ids hashes each id's UTF-8 bytes once with a seeded
/// multiply–xorshift hash, several times faster than a `Dictionary<ItemID, Int32>`, at a
/// third of its memory. The seed is drawn per process, so the slots' order depends on it, and
/// nothing else does: every order this table gives (``IdentifierTable/ids``) is by row. Ids
/// are the same when their UTF-8 bytes are, as the store's keys.
struct RowSlots: Sendable {
    private var slots: [Int32]
    private var mask: Int
    private(set) var count = 0
    private static let empty: Int32 = -1
    private static let seed = UInt64.random(in: .min ... .max)

    /// Room for `minimumCapacity` ids.
    init(minimumCapacity: Int) {
        var size = 16
        while size < 2 * minimumCapacity { size *= 2 }
        slots = [Int32](repeating: Self.empty, count: size)
        mask = size - 1
    }

    /// The row holding `id` in `ids`, if any.
    func row(of id: ItemID, ids: [ItemID?]) -> Int32? {
        let mask = self.mask
        let row = slots.withUnsafeBufferPointer { slots in
            slots[Self.slot(of: id, from: Self.hash(id) & mask, in: slots, mask: mask, ids: ids)]
        }
        return row == Self.empty ? nil : row
    }

    /// The slot holding `id`, or the empty slot that ends the run from `home` when none does:
    /// the one probe of a lookup, an insert and a removal. (`ids`: the table's ids by row, an
    /// array, or a buffer while a snapshot's open fills one.)
    private static func slot<IDs: RandomAccessCollection<ItemID?>>(
        of id: ItemID, from home: Int, in slots: UnsafeBufferPointer<Int32>, mask: Int, ids: IDs
    ) -> Int where IDs.Index == Int {
        var i = home
        while slots[i] != empty, !same(ids[Int(slots[i])], id) { i = (i + 1) & mask }
        return i
    }

    /// Adds `row`, which holds `id` in `ids`; false when `id` is in the map already.
    mutating func insert(_ row: Int32, id: ItemID, ids: [ItemID?]) -> Bool {
        let home = Self.hash(id) & mask
        let mask = self.mask
        guard slots.withUnsafeMutableBufferPointer({ Self.place(row, id: id, from: home, in: $0, mask: mask, ids: ids) }) else {
            return false
        }
        count += 1
        return true
    }

    /// Puts `row` in the first empty slot from `home` on; false when `id` is in a slot already.
    private static func place<IDs: RandomAccessCollection<ItemID?>>(
        _ row: Int32, id: ItemID, from home: Int, in slots: UnsafeMutableBufferPointer<Int32>, mask: Int, ids: IDs
    ) -> Bool where IDs.Index == Int {
        let i = slot(of: id, from: home, in: UnsafeBufferPointer(slots), mask: mask, ids: ids)
        guard slots[i] == empty else { return false }
        slots[i] = row
        return true
    }

    /// The map of every id in `ids` (nil: a free row) to its row; nil when an id is in two rows.
    /// - Parameter parts: how many tasks place the ids (``insert(every:parts:)``, which rounds
    ///   it down to a power of two); nil: one a core from ``partitionedFrom`` ids on, else one.
    init?(every ids: UnsafeBufferPointer<ItemID?>, parts: Int? = nil) {
        self.init(minimumCapacity: ids.count)
        guard insert(every: ids, parts: parts ?? (ids.count >= Self.partitionedFrom ? Parallel.cores : 1)) else { return nil }
    }

    /// From this many ids on, the map is built on every core (a snapshot's open builds it last,
    /// after every items section is read: at 1M ids ~60–80 ms on one core).
    static let partitionedFrom = 1 << 16

    /// Adds the row of every id in `ids` (nil: a free row) to an empty map; false when an id is
    /// in two rows. The ids' home slots are hashed first, over the cores. The slots are then cut
    /// into `parts` equal ranges (a power of two, at most one a 16 slots), filled concurrently:
    /// each task places the ids whose home lies in its range, in row order, probing no further
    /// than the range's end; an id whose probe would cross it is placed afterwards, from its
    /// home on, once every range is filled — every slot it then passes is taken, so a lookup
    /// finds it exactly as in a map built one id at a time. Within a task, a block of ids' home
    /// slots is asked for ahead (`sift_prefetch_rows`) before they are placed: on a large table
    /// each placement is otherwise a cache miss (1M ids: 145–153 ms one by one).
    private mutating func insert(every ids: UnsafeBufferPointer<ItemID?>, parts requested: Int) -> Bool {
        var parts = 1
        while parts * 2 <= requested && parts * 32 <= slots.count { parts *= 2 }
        let mask = self.mask
        let homes = [Int32](unsafeUninitializedCapacity: ids.count) { buffer, initialized in
            let out = SharedPointer(buffer.baseAddress!)
            // Each chunk writes its own rows' homes.
            Parallel.forEachChunk(count: ids.count, chunks: ids.count < Self.partitionedFrom ? 1 : parts) { _, range in
                for r in range { (out.pointer + r).initialize(to: ids[r].map { Int32(Self.hash($0) & mask) } ?? -1) }
            }
            initialized = ids.count
        }
        let width = slots.count / parts
        var filled = [Fill](repeating: Fill(), count: parts)
        slots.withUnsafeMutableBufferPointer { slots in
            homes.withUnsafeBufferPointer { homes in
                let shared = SharedPointer((slots, homes, ids))
                filled.withUnsafeMutableBufferPointer { filled in
                    let out = SharedPointer(filled.baseAddress!)
                    // Each task writes only the slots of its range and its own result.
                    Parallel.forEach(iterations: parts) { part in
                        let (slots, homes, ids) = shared.pointer
                        out.pointer[part] = Self.fill(
                            (part * width)..<((part + 1) * width), of: slots, homes: homes, ids: ids, wraps: parts == 1)
                    }
                }
            }
        }
        guard !filled.contains(where: \.duplicate) else { return false }
        count = filled.reduce(0) { $0 + $1.placed }
        return slots.withUnsafeMutableBufferPointer { slots in
            for row in filled.flatMap(\.crossing).sorted() {
                guard Self.place(row, id: ids[Int(row)]!, from: Int(homes[Int(row)]), in: slots, mask: mask, ids: ids) else { return false }
                count += 1
            }
            return true
        }
    }

    /// What one task of ``insert(every:parts:)`` did.
    private struct Fill {
        var placed = 0
        /// Rows whose probe would have crossed the end of the task's range.
        var crossing: [Int32] = []
        var duplicate = false
    }

    /// Places the rows whose home (`homes`, -1 for a free row) lies in `range`, probing within it
    /// (or round the whole table when `wraps`, the one range).
    private static func fill(
        _ range: Range<Int>, of slots: UnsafeMutableBufferPointer<Int32>, homes: UnsafeBufferPointer<Int32>,
        ids: UnsafeBufferPointer<ItemID?>, wraps: Bool
    ) -> Fill {
        var result = Fill()
        let block = 64
        let (mask, low, high) = (slots.count - 1, Int32(range.lowerBound), Int32(range.upperBound))
        let table = UnsafeRawPointer(slots.baseAddress!)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * block) { scratch in
            let (blockHomes, blockRows) = (scratch.baseAddress!, scratch.baseAddress! + block)
            var r = 0
            while r < homes.count {
                var n = 0
                while n < block && r < homes.count {
                    if homes[r] >= low && homes[r] < high {
                        blockHomes[n] = homes[r]
                        blockRows[n] = Int32(r)
                        n += 1
                    }
                    r += 1
                }
                sift_prefetch_rows(blockHomes, 4, n, 0, .max, table, 4, table, 4, table, 4)
                for k in 0..<n {
                    let row = blockRows[k]
                    let id = ids[Int(row)]!
                    var i = Int(blockHomes[k])
                    while slots[i] != empty, !same(ids[Int(slots[i])], id) {
                        i = wraps ? (i + 1) & mask : i + 1
                        if i == range.upperBound { break }
                    }
                    if i == range.upperBound {
                        result.crossing.append(row)
                    } else if slots[i] != empty {
                        result.duplicate = true
                        return
                    } else {
                        slots[i] = row
                        result.placed += 1
                    }
                }
            }
        }
        return result
    }

    /// Room for `wanted` ids at most half full: rehashed into twice the slots when needed.
    mutating func reserve(_ wanted: Int, ids: [ItemID?]) {
        guard 2 * wanted > slots.count else { return }
        let old = slots
        self = RowSlots(minimumCapacity: wanted)
        for row in old where row != Self.empty { _ = insert(row, id: ids[Int(row)]!, ids: ids) }
    }

    /// Takes `id` out (backward-shift deletion: no tombstones) and returns its row.
    mutating func remove(_ id: ItemID, ids: [ItemID?]) -> Int32? {
        let mask = self.mask
        let i = slots.withUnsafeBufferPointer { Self.slot(of: id, from: Self.hash(id) & mask, in: $0, mask: mask, ids: ids) }
        let row = slots[i]
        guard row != Self.empty else { return nil }
        // Each later entry of the run moves back into the hole unless its home lies after it.
        var hole = i
        var j = (i + 1) & mask
        while slots[j] != Self.empty {
            let home = Self.hash(ids[Int(slots[j])]!) & mask
            if (j - home) & mask >= (j - hole) & mask {
                slots[hole] = slots[j]
                hole = j
            }
            j = (j + 1) & mask
        }
        slots[hole] = Self.empty
        count -= 1
        return row
    }

    /// A seeded hash of the id's UTF-8 bytes, eight at a time.
    static func hash(_ id: ItemID) -> Int {
        if let h = id.rawValue.utf8.withContiguousStorageIfAvailable({ hash(buffer: $0) }) { return h }
        return Array(id.rawValue.utf8).withUnsafeBufferPointer { hash(buffer: $0) }
    }

    /// Whether `a` and `b` are the same bytes, as the store's keys compare (`String`'s `==`
    /// also equates canonically equivalent spellings, which the store keeps apart).
    @inline(__always)
    static func same(_ a: ItemID?, _ b: ItemID) -> Bool {
        guard let a, a.rawValue == b.rawValue else { return false }
        return a.rawValue.utf8.elementsEqual(b.rawValue.utf8)
    }

    private static func hash(buffer bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = seed ^ (UInt64(bytes.count) &* k)
        let raw = UnsafeRawBufferPointer(bytes)
        var o = 0
        while o + 8 <= raw.count {
            h = (h ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt64.self))) &* k
            h ^= h >> 29
            o += 8
        }
        var last: UInt64 = 0
        for (shift, byte) in raw[o...].enumerated() { last |= UInt64(byte) << UInt64(8 * shift) }
        h = (h ^ last) &* k
        h ^= h >> 32
        h = h &* 0xD6E8_FEB8_6659_FD93
        h ^= h >> 32
        return Int(truncatingIfNeeded: h)
    }
}

/// A broken internal invariant, found by a `checkInvariants()` call.
package struct InvariantViolation: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
