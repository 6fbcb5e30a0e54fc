/// Each term's postings, by term id: after an open from a snapshot, the lists lie one after
/// another where the snapshot file has them (mapped, not decoded); a list is copied into an
/// array of its own the first time it changes, so the lists behave as the arrays they stand for.
///
/// A list's order is the order its postings were appended in, with a removed posting replaced
/// by the list's last (as ``KeywordIndex/remove(row:)`` does it), whether it lies in the
/// snapshot or in its own array.
struct PostingLists: Sendable, RandomAccessCollection {
    typealias Posting = KeywordIndex.Posting

    /// The lists as a snapshot left them, one after another.
    private var base = RowBuffer<Posting>()
    /// Per term of the snapshot, where its list starts in `base`, and one more entry for its end.
    private var baseStarts: [UInt32] = []
    /// Per term of the snapshot, whether its list is still the one in `base`.
    private var inBase: [Bool] = []
    /// Per term, its list, unless it is still in `base` (then empty).
    private var owned: [[Posting]] = []

    init() {}

    /// Lists as a snapshot restores them: term t's postings are `base[starts[t] ..< starts[t + 1]]`.
    init(base: RowBuffer<Posting>, starts: [UInt32]) {
        precondition(starts.count >= 1 && Int(starts.last!) <= base.count, "list bounds past the postings")
        self.base = base
        baseStarts = starts
        inBase = [Bool](repeating: true, count: starts.count - 1)
        owned = [[Posting]](repeating: [], count: starts.count - 1)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { owned.count }

    /// Term `term`'s postings (a copy where they lie in the snapshot: read them in place with
    /// ``withList(_:_:)``).
    subscript(term: Int) -> [Posting] { withList(term) { Array($0) } }

    /// Runs `body` with term `term`'s postings, without copying them.
    @inline(__always)
    func withList<R>(_ term: Int, _ body: (UnsafeBufferPointer<Posting>) throws -> R) rethrows -> R {
        if term < inBase.count && inBase[term] {
            let start = Int(baseStarts[term])
            let end = Int(baseStarts[term + 1])
            return try base.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
        }
        return try owned[term].withUnsafeBufferPointer(body)
    }

    /// The number of postings of term `term`. - Complexity: O(1).
    @inline(__always)
    func count(of term: Int) -> Int {
        term < inBase.count && inBase[term] ? Int(baseStarts[term + 1] - baseStarts[term]) : owned[term].count
    }

    /// The postings of every list.
    var total: Int { indices.reduce(0) { $0 + count(of: $1) } }

    /// Adds an empty list for a new term (id `count`).
    mutating func appendList() { owned.append([]) }

    /// Appends `posting` to term `term`'s list.
    mutating func append(_ posting: Posting, to term: Int) {
        own(term)
        owned[term].append(posting)
    }

    /// Runs `body` with term `term`'s list, to change it in place.
    mutating func modify<R>(_ term: Int, _ body: (inout [Posting]) throws -> R) rethrows -> R {
        own(term)
        return try body(&owned[term])
    }

    /// Runs `body` with every list writable, once the lists of `terms` are arrays of their own:
    /// `body` may change those lists (from several threads, each its own lists) and no others.
    mutating func withLists<R>(owning terms: [Int32], _ body: (UnsafeMutableBufferPointer<[Posting]>) throws -> R) rethrows -> R {
        for t in terms { own(Int(t)) }
        return try owned.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// Gives back the spare capacity of the lists that are arrays, beyond an eighth more than
    /// they hold: trimmed to the last posting, a list that grows again would be copied whole by
    /// its next append (doubling), and every list an upsert touches was.
    mutating func trim() {
        for i in owned.indices {
            let count = owned[i].count
            let room = Self.room(for: count)
            guard owned[i].capacity > room else { continue }
            var trimmed: [Posting] = []
            trimmed.reserveCapacity(room)
            trimmed.append(contentsOf: owned[i])
            owned[i] = trimmed
        }
    }

    /// The capacity a list of `count` postings keeps: an eighth more, and at least four more.
    static func room(for count: Int) -> Int { count + count / 8 + 4 }

    /// The number of lists still read where the snapshot has them.
    var listsInPlace: Int { inBase.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// Copies term `term`'s list out of the snapshot, the first time it is to change, and lets
    /// the whole pages it lay on go from the process (a frequent term's list is most of the
    /// postings an item adds to: kept, its pages would be counted twice).
    private mutating func own(_ term: Int) {
        guard term < inBase.count, inBase[term] else { return }
        // Room for an eighth more, so that the appends that follow do not double the list.
        var list: [Posting] = []
        withList(term) { postings in
            list.reserveCapacity(Self.room(for: postings.count))
            list.append(contentsOf: postings)
        }
        owned[term] = list
        inBase[term] = false
        base.releaseMappedPages(Int(baseStarts[term])..<Int(baseStarts[term + 1]))
    }
}
