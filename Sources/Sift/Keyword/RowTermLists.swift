/// Each row's term ids, ascending — or nil for a row that holds no document — with every row's
/// list in one flat array, so that a row costs no allocation of its own (a separate array per
/// row would take 48 bytes of header and allocator overhead, and one allocation per row to
/// restore from a snapshot).
///
/// A row's new list is appended at the end of the flat array; the ids of lists replaced or
/// removed are reclaimed once they are most of the array. After an open from a snapshot the
/// flat array is the file's own pages (a ``RowBuffer``), copied the first time a list changes.
struct RowTermLists: Sendable, RandomAccessCollection, Equatable {
    private var ids = RowBuffer<Int32>()
    /// Per row, where its list starts in `ids`.
    private var starts: [UInt32] = []
    /// Per row, its length, or ``noDocument``.
    private var lengths: [UInt32] = []
    /// Ids in `ids` that no row's list covers any more.
    private var unused = 0

    static let noDocument = UInt32.max

    init() {}

    /// Lists as a snapshot restores them: row r's ids are `ids[starts[r] ..< starts[r] + lengths[r]]`,
    /// or it holds no document when `lengths[r]` is ``noDocument``.
    init(ids: [Int32], starts: [UInt32], lengths: [UInt32]) {
        self.init(ids: RowBuffer(ids), starts: starts, lengths: lengths)
    }

    /// Lists as a snapshot restores them, their ids where they lie in the file (or an array).
    init(ids: RowBuffer<Int32>, starts: [UInt32], lengths: [UInt32]) {
        precondition(starts.count == lengths.count)
        self.ids = ids
        self.starts = starts
        self.lengths = lengths
        unused = ids.count - lengths.reduce(0) { $0 + ($1 == Self.noDocument ? 0 : Int($1)) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { starts.count }

    /// Whether `row` holds a document. - Complexity: O(1).
    func holdsDocument(_ row: Int) -> Bool { row < lengths.count && lengths[row] != Self.noDocument }

    /// Runs `body` with `row`'s ids (nil when it holds no document), without copying them.
    func withList<R>(_ row: Int, _ body: (UnsafeBufferPointer<Int32>?) throws -> R) rethrows -> R {
        guard holdsDocument(row) else { return try body(nil) }
        return try ids.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[Int(starts[row])..<(Int(starts[row]) + Int(lengths[row]))]))
        }
    }

    /// `row`'s ids, or nil when it holds no document; setting a list past the end adds rows
    /// holding none up to it.
    subscript(row: Int) -> [Int32]? {
        get { withList(row) { $0.map(Array.init) } }
        set {
            grow(to: row + 1)
            if lengths[row] != Self.noDocument {
                unused += Int(lengths[row])
                lengths[row] = Self.noDocument
            }
            guard let newValue else { return }
            if unused > 4096 && unused > ids.count / 2 { compact() }
            precondition(ids.count + newValue.count < Int(Self.noDocument), "more term ids than a row list can address")
            starts[row] = UInt32(ids.count)
            lengths[row] = UInt32(newValue.count)
            ids.append(contentsOf: newValue)
        }
    }

    /// The same rows holding the same lists, however they are laid out.
    static func == (a: RowTermLists, b: RowTermLists) -> Bool {
        a.count == b.count
            && a.indices.allSatisfy { row in
                a.withList(row) { x in b.withList(row) { y in x.map(Array.init) == y.map(Array.init) } }
            }
    }

    /// Adds rows that hold no document up to `rows`.
    mutating func grow(to rows: Int) {
        guard rows > starts.count else { return }
        starts.append(contentsOf: repeatElement(0, count: rows - starts.count))
        lengths.append(contentsOf: repeatElement(Self.noDocument, count: rows - lengths.count))
    }

    /// Ids of every list, in all.
    var idCount: Int { ids.count - unused }

    /// Rewrites the flat array with only the live lists, in row order.
    private mutating func compact() {
        var packed: [Int32] = []
        packed.reserveCapacity(idCount)
        ids.withUnsafeBufferPointer { ids in
            for row in starts.indices where lengths[row] != Self.noDocument {
                let start = Int(starts[row])
                starts[row] = UInt32(packed.count)
                packed.append(contentsOf: ids[start..<(start + Int(lengths[row]))])
            }
        }
        ids = RowBuffer(packed)
        unused = 0
    }
}
