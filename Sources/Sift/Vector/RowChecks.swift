import CSiftKernels

/// The checksums of a snapshot's vector rows, one a row (``SnapshotChecksum/row(_:)``), and
/// what verifying them found.
///
/// The snapshot's own checksum leaves the rows out: at 1M items they are a third of the file,
/// and reading them was the longest part of an open. Each row is verified where it is read
/// instead — a query's few rows as it reads them, every row before a pass that reads them all
/// (writing the next snapshot, copying them into memory of their own) — or, when the index
/// would read every row at its first query (no quantized copies to scan), all of them at the
/// open. A row found damaged is recorded here: the index then answers with its re-scoring
/// copy's values for that row, removes the snapshot (the next open rebuilds from the store,
/// which holds every vector) and writes no snapshot from these rows.
final class RowChecks: @unchecked Sendable {
    /// One checksum a row (a snapshot's mapped pages).
    let sums: RowBuffer<UInt32>
    /// -1 while no row is found damaged, else the first found (atomic).
    private let damage = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
    /// [0]: 1 once every row has been verified; [1]: 1 once the damage has been reported (atomic).
    private let state = UnsafeMutablePointer<Int64>.allocate(capacity: 2)

    init(sums: RowBuffer<UInt32>) {
        self.sums = sums
        damage.initialize(to: -1)
        state.initialize(repeating: 0, count: 2)
    }

    deinit {
        damage.deallocate()
        state.deallocate()
    }

    /// The first row found damaged, nil while none is.
    var damagedRow: Int? {
        let row = sift_atomic_load(damage)
        return row < 0 ? nil : Int(row)
    }

    /// The damaged row the first time it is asked for after one is found, nil otherwise: the
    /// index reports the damage once.
    func takeReport() -> Int? {
        guard let row = damagedRow else { return nil }
        return sift_atomic_compare_exchange(state + 1, 0, 1) != 0 ? row : nil
    }

    /// Whether `bytes`, row `r`'s as read, are the bytes the snapshot recorded (a row past the
    /// recorded ones has no checksum here and passes); a mismatch is recorded.
    func verify(row r: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard r < sums.count, !allIntact else { return true }
        return matches(row: r, sum: SnapshotChecksum.row(bytes))
    }

    /// Whether every row has been verified and none was damaged.
    private var allIntact: Bool { sift_atomic_load(state) == 1 && damagedRow == nil }

    /// Whether `sum` is row `r`'s recorded checksum; a mismatch is recorded.
    func matches(row r: Int, sum: UInt32) -> Bool {
        let recorded = sums.withUnsafeBufferPointer { $0[r] }
        if sum == recorded { return true }
        _ = sift_atomic_compare_exchange(damage, -1, Int64(r))
        return false
    }

    /// Verifies every recorded row of `rows` (row-major, `stride` bytes a row) once; whether no
    /// row is damaged.
    func verifyAll(_ rows: UnsafeRawBufferPointer, stride: Int) -> Bool {
        if sift_atomic_load(state) == 0 {
            for r in 0..<min(sums.count, rows.count / stride) {
                guard verify(row: r, UnsafeRawBufferPointer(rebasing: rows[(r * stride)..<((r + 1) * stride)])) else { break }
            }
            sift_atomic_store(state, 1)
        }
        return damagedRow == nil
    }
}
