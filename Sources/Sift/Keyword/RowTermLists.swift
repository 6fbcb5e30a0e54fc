/// Each row's term ids, ascending — or nil for a row that holds no document — with every row's
/// list in one flat byte array, so that a row costs no allocation of its own (a separate array
/// per row would take 48 bytes of header and allocator overhead, and one allocation per row to
/// restore from a snapshot).
///
/// A list is stored as LEB128 varints: its length, its first id, then each id's gap from the one
/// before. Term ids are handed out in the order terms first occur, so common words have small
/// ids, a row's ids crowd at the low end, and most gaps take one or two bytes instead of an
/// `Int32`'s four (1.4 bytes an id on the bench's 100k corpus). ``withList(_:_:)`` decodes a
/// list onto the stack for its body.
///
/// A row's new list is appended at the end of the flat array; the bytes of lists replaced or
/// removed are reclaimed once they are most of the array. After an open from a snapshot the
/// flat array is the file's own pages (a ``RowBuffer``), never changed: lists set after the open
/// are appended to a tail of the index's own, until a compaction packs every list into one array.
struct RowTermLists: Sendable, RandomAccessCollection, Equatable {
    private var bytes = RowBuffer<UInt8>()
    /// Over mapped `bytes`: the lists set since the open, at offsets from `bytes.count` on.
    private var tail: [UInt8] = []
    /// Per row, where its list starts in `bytes` (or, from `bytes.count` on, in `tail`), or
    /// ``noDocument``.
    private var starts: [UInt32] = []
    /// Bytes in `bytes` and `tail` that no row's list covers any more.
    private var unusedBytes = 0
    /// Ids of every list, in all.
    private(set) var idCount = 0

    static let noDocument = UInt32.max

    init() {}

    /// Lists as a snapshot restores them: row r's list is encoded at `bytes[starts[r]...]`, or
    /// it holds no document when `starts[r]` is ``noDocument``. The lists cover `bytes`
    /// exactly, as ``validate(_:starts:termCount:)`` checked, and hold `idCount` ids.
    init(encoded bytes: RowBuffer<UInt8>, starts: [UInt32], idCount: Int) {
        self.bytes = bytes
        self.starts = starts
        self.idCount = idCount
    }

    var startIndex: Int { 0 }
    var endIndex: Int { starts.count }

    /// Whether `row` holds a document. - Complexity: O(1).
    func holdsDocument(_ row: Int) -> Bool { row < starts.count && starts[row] != Self.noDocument }

    /// Runs `body` with `row`'s ids (nil when it holds no document), decoded onto the stack.
    /// - Complexity: O(ids of the row).
    /// After an open from a snapshot the list is read from the file (``RowBuffer/copy(_:into:)``),
    /// not through the mapping: queries read a handful of rows' lists (their results' evidence),
    /// and the lists' pages stay out of the process's resident set.
    func withList<R>(_ row: Int, _ body: (UnsafeBufferPointer<Int32>?) -> R) -> R {
        guard holdsDocument(row) else { return body(nil) }
        return withListBytes(row) { b in
            var at = 0
            let n = Int(Self.varint(b, &at))
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: Swift.max(n, 1)) { ids in
                Self.decodeIDs(b, at: &at, count: n, into: ids.baseAddress!)
                return body(UnsafeBufferPointer(start: ids.baseAddress!, count: n))
            }
        }
    }

    /// Runs `body` with the address of `row`'s list (which must hold a document): in the buffer,
    /// or — when the buffer is a snapshot's mapped pages — a copy read from the file: first the
    /// bytes a short list takes, then, if its count says it may be longer, as many as it can take
    /// (5 bytes a varint).
    private func withListBytes<R>(_ row: Int, _ body: (UnsafePointer<UInt8>) -> R) -> R {
        let start = Int(starts[row])
        if start >= bytes.count { return tail.withUnsafeBufferPointer { body($0.baseAddress! + start - bytes.count) } }
        guard bytes.isMapped else { return bytes.withUnsafeBufferPointer { body($0.baseAddress! + start) } }
        let available = bytes.count - start
        let first = Swift.min(available, Self.shortListBytes)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.shortListBytes) { head in
            bytes.copy(start..<(start + first), into: head.baseAddress!)
            var at = 0
            let n = Int(Self.varint(head.baseAddress!, &at))
            let most = Swift.min(available, 5 * (n + 1))
            guard most > first else { return body(head.baseAddress!) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: most) { whole in
                bytes.copy(start..<(start + most), into: whole.baseAddress!)
                return body(whole.baseAddress!)
            }
        }
    }

    /// The bytes the first read of a list from the file takes: most lists fit (1.4 bytes an id).
    private static let shortListBytes = 256

    /// Lets the lists' pages go from the process's resident set after the open's check read them
    /// all (``RowBuffer/releaseMappedPages()``).
    func releaseMappedPages() { bytes.releaseMappedPages() }

    /// Runs `body` with `row`'s encoding (nil when it holds no document): the bytes a snapshot
    /// stores for it.
    func withEncodedList<R>(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard holdsDocument(row) else { return body(nil) }
        let inTail = Int(starts[row]) >= bytes.count
        let start = Int(starts[row]) - (inTail ? bytes.count : 0)
        func list(_ b: UnsafeBufferPointer<UInt8>) -> R {
            body(UnsafeBufferPointer(rebasing: b[start..<Self.end(b.baseAddress!, start: start)]))
        }
        return inTail ? tail.withUnsafeBufferPointer(list) : bytes.withUnsafeBufferPointer(list)
    }

    /// The bytes of every list, in all.
    var encodedCount: Int { bytes.count + tail.count - unusedBytes }

    /// Whether the lists restored from a snapshot are still its mapped pages (until a compaction).
    var restoredListsAreMapped: Bool { bytes.isMapped }

    /// `row`'s ids, or nil when it holds no document; setting a list past the end adds rows
    /// holding none up to it. The ids must be ascending and not negative.
    subscript(row: Int) -> [Int32]? {
        get { withList(row) { $0.map(Array.init) } }
        set {
            grow(to: row + 1)
            if starts[row] != Self.noDocument {
                withListBytes(row) { b in
                    var at = 0
                    idCount -= Int(Self.varint(b, &at))
                    unusedBytes += Self.end(b, start: 0)
                }
                starts[row] = Self.noDocument
            }
            guard let newValue else { return }
            if unusedBytes > 16384 && unusedBytes > (bytes.count + tail.count) / 2 { compact() }
            let encoded = Self.encode(newValue)
            let end = bytes.count + tail.count
            precondition(end + encoded.count < Int(Self.noDocument), "more term-list bytes than a row's start can address")
            starts[row] = UInt32(end)
            idCount += newValue.count
            // Over a snapshot's pages, a new list goes to the tail: the pages stay as they are.
            if bytes.isMapped { tail.append(contentsOf: encoded) } else { bytes.append(contentsOf: encoded) }
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
        starts.append(contentsOf: repeatElement(Self.noDocument, count: rows - starts.count))
    }

    /// Rewrites the flat array with only the live lists, in row order.
    private mutating func compact() {
        var packed: [UInt8] = []
        packed.reserveCapacity(encodedCount)
        var moved = starts
        for row in starts.indices where starts[row] != Self.noDocument {
            moved[row] = UInt32(packed.count)
            withEncodedList(row) { packed.append(contentsOf: $0!) }
        }
        let source = bytes
        starts = moved
        bytes = RowBuffer(packed)
        tail = []
        unusedBytes = 0
        source.releaseMappedPages()
    }

    // MARK: Encoding

    /// `ids` (ascending, not negative) as a list is stored: its length, the first id, then each
    /// id's gap from the one before, LEB128 varints.
    static func encode(_ ids: [Int32]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(ids.count * 2 + 2)
        func put(_ value: UInt32) {
            var v = value
            while v >= 0x80 {
                out.append(UInt8(truncatingIfNeeded: v) | 0x80)
                v >>= 7
            }
            out.append(UInt8(v))
        }
        put(UInt32(ids.count))
        var previous: Int32 = 0
        for (i, id) in ids.enumerated() {
            precondition(id >= 0 && (i == 0 || id >= previous), "a row's term ids must be ascending and not negative")
            put(UInt32(id - (i == 0 ? 0 : previous)))
            previous = id
        }
        return out
    }

    /// The varint at `at` (advanced past it), in a list this type encoded or ``validate(_:starts:termCount:)`` checked.
    @inline(__always)
    private static func varint(_ b: UnsafePointer<UInt8>, _ at: inout Int) -> UInt32 {
        var byte = b[at]
        at += 1
        var value = UInt32(byte)
        if byte < 0x80 { return value }
        value &= 0x7F
        var shift: UInt32 = 7
        repeat {
            byte = b[at]
            at += 1
            value |= UInt32(byte & 0x7F) << shift
            shift += 7
        } while byte >= 0x80
        return value
    }

    /// Decodes `count` ids (first id, then gaps) from `at` into `out`.
    @inline(__always)
    private static func decodeIDs(_ b: UnsafePointer<UInt8>, at: inout Int, count: Int, into out: UnsafeMutablePointer<Int32>) {
        var id: UInt32 = 0
        for i in 0..<count {
            id &+= varint(b, &at)
            out[i] = Int32(bitPattern: id)
        }
    }

    /// Where the list starting at `start` ends.
    private static func end(_ b: UnsafePointer<UInt8>, start: Int) -> Int {
        var at = start
        let n = Int(varint(b, &at))
        // Every varint ends in the one byte below 0x80.
        var left = n
        while left > 0 {
            if b[at] < 0x80 { left -= 1 }
            at += 1
        }
        return at
    }

    /// Checks lists read from a file before they are used: the rows holding a document start in
    /// row order, the first at 0, each where the one before ends; a list's bytes (up to the next
    /// list's start, or the end) are its count and as many varints, none longer than 5 bytes;
    /// its ids name terms below `termCount`. Returns the ids in all, or why the lists are
    /// malformed.
    /// - Complexity: O(bytes): each list's gaps are summed eight bytes at a time without a branch
    ///   (a one- or two-byte gap is a coin toss a branch would mispredict).
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>, starts: [UInt32], termCount: Int) -> Result<Int, ValidationFailure> {
        let live = starts.indices.filter { starts[$0] != noDocument }
        guard let p = bytes.baseAddress, !live.isEmpty else {
            return live.isEmpty && bytes.isEmpty
                ? .success(0) : .failure(.init("the rows' term lists end at byte 0 of \(bytes.count)"))
        }
        // Ids are Int32s.
        let limit = UInt64(Swift.min(termCount, Int(Int32.max) + 1))
        var ids = 0
        var expected = 0
        for (k, row) in live.enumerated() {
            let start = Int(starts[row])
            guard start == expected else { return .failure(.init("row \(row)'s term list starts at byte \(start), not \(expected)")) }
            // A list ends where the next one starts.
            let end = k + 1 < live.count ? Int(starts[live[k + 1]]) : bytes.count
            guard end > start, end <= bytes.count else {
                return .failure(
                    .init(
                        "row \(live[k + 1])'s term list starts at byte \(end), not after row \(row)'s at \(start) and within \(bytes.count)"
                    ))
            }
            guard p[end - 1] < 0x80 else { return .failure(.init("row \(row)'s term list is cut off")) }
            // The count.
            var at = start
            var n: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = p[at]
                at += 1
                n |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
                guard shift < 35, at < end else { return .failure(.init("row \(row)'s term count is cut off or too large")) }
            }
            // The gaps. They are unsigned, so their sum is the largest id (a varint past 31 bits
            // makes it larger than any id).
            guard let (sum, ends) = gapSum(p + at, count: end - at) else {
                return .failure(.init("row \(row)'s term list has a varint longer than 5 bytes"))
            }
            guard UInt64(ends) == n else { return .failure(.init("row \(row)'s term list holds \(ends) ids, its count says \(n)")) }
            guard n == 0 || sum < limit else { return .failure(.init("row \(row) names term \(sum), past the last")) }
            ids += Int(n)
            expected = end
        }
        return .success(ids)
    }

    /// The sum of the varints in `count` bytes and how many end there (nil: a run of 5 or more
    /// continuation bytes, a varint past 35 bits). Eight bytes at a
    /// time while no varint is longer than two bytes (term-id gaps below 16,384: nearly all of
    /// them), then byte by byte.
    @inline(__always)
    private static func gapSum(_ p: UnsafePointer<UInt8>, count: Int) -> (UInt64, Int)? {
        let lows: UInt64 = 0x0101_0101_0101_0101
        var sum: UInt64 = 0
        var ends = 0
        var i = 0
        // 1 when the byte before the chunk continues a varint.
        var carry: UInt64 = 0
        while i + 8 <= count {
            let w = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
            let more = (w >> 7) & lows
            let before = (more << 8) | carry
            // Two continuation bytes in a row: a varint of three bytes or more.
            if more & before != 0 { break }
            let low = w & (lows &* 0x7F)
            let second = low & (before &* 0xFF)
            sum &+= byteSum(low ^ second) &+ (byteSum(second) << 7)
            ends &+= 8 &- more.nonzeroBitCount
            carry = more >> 56
            i += 8
        }
        var shift: UInt64 = carry &* 7
        var longest = shift
        while i < count {
            let byte = UInt64(p[i])
            sum &+= (byte & 0x7F) << shift
            let more = byte >> 7
            ends &+= Int(1 &- more)
            shift = (shift &+ 7) & (0 &- more)
            longest = Swift.max(longest, shift)
            i += 1
        }
        return longest < 35 ? (sum, ends) : nil
    }

    /// The sum of the eight bytes of `w`.
    @inline(__always)
    private static func byteSum(_ w: UInt64) -> UInt64 {
        let pairs = (w & 0x00FF_00FF_00FF_00FF) &+ ((w >> 8) & 0x00FF_00FF_00FF_00FF)
        return (pairs &* 0x0001_0001_0001_0001) >> 48
    }

    struct ValidationFailure: Error, Equatable, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
