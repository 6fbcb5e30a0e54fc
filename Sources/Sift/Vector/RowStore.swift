import Foundation

/// The rows of a ``VectorIndex``, `width` components each: a ``RowBuffer`` (memory of its own, or
/// a snapshot's mapped pages) and, over mapped rows, the rows changed or added since the open,
/// each in memory of its own. A change to an opened index copies the one row it changes, not the
/// buffer: the rows it does not change stay in the file (read with `pread` for the few a query
/// needs, ``copy(row:into:)``), so writing to an opened index keeps its memory. Once the changed
/// rows are a quarter of the buffer's, they and the rest are copied into one buffer of its own.
///
/// Readers that scan every row take the buffer (``withBase(_:)``, rows `0..<baseRows`) and then
/// the changed rows (``forEachChangedRow(_:)``), whose values replace the buffer's.
struct RowStore<Element: BitwiseCopyable & Sendable & Numeric>: Sendable {
    let width: Int
    private(set) var base = RowBuffer<Element>()
    /// Over a mapped buffer: each changed or added row's slot in `changed`.
    private var slots: [Int32: Int] = [:]
    /// The changed and added rows' components, slot after slot.
    private var changed: [Element] = []
    /// Rows in all, the buffer's and those added after it.
    private(set) var rows = 0
    /// A snapshot's checksums of the buffer's rows, verified as they are read while the buffer
    /// is its mapped pages (``RowChecks``), and kept after as the record of what was found.
    private(set) var checks: RowChecks?

    init(width: Int) { self.width = width }

    /// Rows as a snapshot recorded them, with their checksums when they are yet to be verified.
    init(width: Int, base: RowBuffer<Element>, checks: RowChecks? = nil) {
        precondition(width > 0 && base.count % width == 0)
        self.width = width
        self.base = base
        self.rows = base.count / width
        self.checks = checks
    }

    /// Bytes a row.
    private var stride: Int { width * MemoryLayout<Element>.stride }

    /// The checksums that apply to the buffer's rows: while it is a snapshot's pages.
    private var pendingChecks: RowChecks? { base.isMapped ? checks : nil }

    /// Whether row `r` is as the snapshot recorded it (a changed row, or one in memory of the
    /// index's own, always is); a damaged row is recorded in ``checks``.
    /// - Complexity: O(width) for a row in a snapshot's pages (read where it lies), O(1) else.
    func isIntact(row r: Int) -> Bool {
        guard let checks = pendingChecks, slots[Int32(r)] == nil, r < baseRows else { return true }
        return base.withUnsafeBytes { b in checks.verify(row: r, UnsafeRawBufferPointer(rebasing: b[(r * stride)..<((r + 1) * stride)])) }
    }

    /// Verifies every row of a snapshot's pages against its checksum, once (a damaged row is
    /// recorded in ``checks``); whether none is damaged.
    @discardableResult
    func verifyAll() -> Bool {
        guard let checks = pendingChecks else { return checks?.damagedRow == nil }
        return base.withUnsafeBytes { checks.verifyAll($0, stride: stride) }
    }

    /// Each row's checksum (``SnapshotChecksum/row(_:)``), for the next snapshot; nil when a row
    /// read from a snapshot's pages does not match the checksum recorded for it, or one was found
    /// damaged before: rows that are not the ones recorded must not be sealed into a new snapshot.
    /// - Complexity: O(rows · width), one read of every row.
    func rowSums() -> [UInt32]? {
        if checks?.damagedRow != nil { return nil }
        let stride = self.stride
        let changedRows = self.changedRows
        let checks = pendingChecks
        var intact = true
        let sums = [UInt32](unsafeUninitializedCapacity: rows) { out, initialized in
            base.withUnsafeBytes { b in
                var next = 0
                for r in 0..<baseRows {
                    if next < changedRows.count && Int(changedRows[next].row) == r {
                        next += 1
                        continue
                    }
                    let sum = SnapshotChecksum.row(UnsafeRawBufferPointer(rebasing: b[(r * stride)..<((r + 1) * stride)]))
                    if let checks, !checks.matches(row: r, sum: sum) { intact = false }
                    out[r] = sum
                }
            }
            changed.withUnsafeBytes { c in
                for (row, slot) in changedRows {
                    out[Int(row)] = SnapshotChecksum.row(UnsafeRawBufferPointer(rebasing: c[(slot * stride)..<((slot + 1) * stride)]))
                }
            }
            initialized = rows
        }
        return intact ? sums : nil
    }

    /// Rows in the buffer (the rest are changed rows).
    var baseRows: Int { base.count / width }

    /// Whether the buffer is a snapshot's mapped pages.
    var isMapped: Bool { base.isMapped }

    /// Whether some rows are held apart from the buffer.
    var hasChangedRows: Bool { !slots.isEmpty }

    /// The rows held apart from the buffer and their slots, by row.
    var changedRows: [(row: Int32, slot: Int)] { slots.map { (row: $0.key, slot: $0.value) }.sorted { $0.row < $1.row } }

    /// `body(row, slot)` for each row held apart, in no particular order (a scan's scores are
    /// written where each row's goes).
    func forEachChangedRow(_ body: (Int32, Int) -> Void) { for (row, slot) in slots { body(row, slot) } }

    /// Runs `body` with the buffer's components (rows `0..<baseRows`; a changed row's are stale).
    func withBase<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R { try base.withUnsafeBufferPointer(body) }

    /// Runs `body` with the changed rows' components (slot `s` at `s · width`).
    func withChanged<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R { try changed.withUnsafeBufferPointer(body) }

    /// Runs `body` with row `r`'s components where they lie (in the buffer — a mapped one's pages
    /// become resident — or apart).
    func withRow<R>(_ r: Int, _ body: (UnsafePointer<Element>) throws -> R) rethrows -> R {
        precondition(r >= 0 && r < rows)
        if let slot = slots[Int32(r)] { return try changed.withUnsafeBufferPointer { try body($0.baseAddress! + slot * width) } }
        return try base.withUnsafeBufferPointer { try body($0.baseAddress! + r * width) }
    }

    /// Copies row `r` to `target`: read from the file when it lies unchanged in mapped pages
    /// (``RowBuffer/copy(_:into:)``), from memory otherwise. Returns whether the row is as the
    /// snapshot recorded it (``isIntact(row:)``, verified on the copy).
    @discardableResult
    func copy(row r: Int, into target: UnsafeMutablePointer<Element>) -> Bool {
        precondition(r >= 0 && r < rows)
        if let slot = slots[Int32(r)] {
            changed.withUnsafeBufferPointer { target.update(from: $0.baseAddress! + slot * width, count: width) }
            return true
        }
        base.copy((r * width)..<((r + 1) * width), into: target)
        guard let checks = pendingChecks else { return true }
        return checks.verify(row: r, UnsafeRawBufferPointer(start: UnsafeRawPointer(target), count: stride))
    }

    /// Adds zero rows up to `count` rows.
    mutating func grow(to count: Int) {
        guard count > rows else { return }
        if base.isMapped {
            for r in rows..<count { slot(for: r) }
        } else {
            base.append(contentsOf: repeatElement(0, count: (count - rows) * width))
        }
        rows = count
        consolidateIfLarge()
    }

    /// Runs `body` with row `r`'s components to change: in the buffer when it is memory of its
    /// own, else in the row's own slot (a copy of the buffer's row, the first time).
    mutating func withMutableRow<R>(_ r: Int, _ body: (UnsafeMutablePointer<Element>) throws -> R) rethrows -> R {
        precondition(r >= 0 && r < rows)
        guard base.isMapped else {
            let width = self.width
            return try base.withUnsafeMutableBufferPointer { try body($0.baseAddress! + r * width) }
        }
        let s = slot(for: r)
        let width = self.width
        let result = try changed.withUnsafeMutableBufferPointer { try body($0.baseAddress! + s * width) }
        consolidateIfLarge()
        return result
    }

    mutating func removeAll() {
        base.removeAll()
        slots = [:]
        changed = []
        rows = 0
    }

    /// Lets a mapped buffer's pages go after a pass that read them all.
    func releaseMappedPages() { base.releaseMappedPages() }

    /// Every row's components in row order, changed rows as changed, as runs of bytes.
    func forEachRun(_ body: (UnsafeRawBufferPointer) -> Void) {
        let stride = width * MemoryLayout<Element>.stride
        base.withUnsafeBytes { b in
            changed.withUnsafeBytes { c in
                var next = 0
                for (row, slot) in changedRows {
                    let r = Int(row)
                    if r > next && next < baseRows {
                        body(UnsafeRawBufferPointer(rebasing: b[(next * stride)..<(min(r, baseRows) * stride)]))
                    }
                    body(UnsafeRawBufferPointer(rebasing: c[(slot * stride)..<((slot + 1) * stride)]))
                    next = r + 1
                }
                if next < baseRows { body(UnsafeRawBufferPointer(rebasing: b[(next * stride)..<(baseRows * stride)])) }
            }
        }
    }

    /// Row `r`'s slot, made (a copy of its components in the buffer, zeros past it) the first time.
    @discardableResult
    private mutating func slot(for r: Int) -> Int {
        if let s = slots[Int32(r)] { return s }
        let s = changed.count / width
        let width = self.width
        changed.append(contentsOf: repeatElement(0, count: width))
        if r < baseRows {
            changed.withUnsafeMutableBufferPointer { base.copy((r * width)..<((r + 1) * width), into: $0.baseAddress! + s * width) }
        }
        slots[Int32(r)] = s
        return s
    }

    /// Once the rows held apart are a quarter of the buffer's (and 1,024 or more), copies every row
    /// into one buffer of its own: past that, the slots cost more than they save.
    private mutating func consolidateIfLarge() {
        guard slots.count >= max(1024, baseRows / 4) else { return }
        // The copy leaves the snapshot's pages, and with them the checksums: verified first
        // (a damaged row stays recorded, and no snapshot is written from these rows).
        verifyAll()
        var all = [Element](repeating: 0, count: rows * width)
        all.withUnsafeMutableBytes { out in
            var at = 0
            forEachRun { run in
                out.baseAddress!.advanced(by: at).copyMemory(from: run.baseAddress!, byteCount: run.count)
                at += run.count
            }
        }
        let source = base
        base = RowBuffer(all)
        slots = [:]
        changed = []
        source.releaseMappedPages()
    }
}
