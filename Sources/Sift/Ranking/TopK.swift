/// Keeps the `k` best (score, row) pairs seen, in a bounded min-heap.
///
/// Order: higher score first; equal scores by the tie-break key ascending (the ``ItemID``), so
/// rankings are deterministic.
struct TopK<Key: Comparable> {
    struct Entry {
        var score: Float
        var row: Int32
        var key: Key
    }

    let k: Int
    private(set) var heap: [Entry] = []

    init(k: Int) {
        self.k = max(k, 0)
        heap.reserveCapacity(self.k)
    }

    /// `a` ranks below `b`.
    @inline(__always)
    private static func worse(_ a: Entry, _ b: Entry) -> Bool {
        a.score != b.score ? a.score < b.score : a.key > b.key
    }

    /// The score an entry must reach to enter: −∞ until full, +∞ when k is 0 (nothing enters).
    var threshold: Float { k == 0 ? .infinity : heap.count < k ? -.infinity : heap[0].score }

    /// - Complexity: O(log k).
    mutating func insert(score: Float, row: Int32, key: @autoclosure () -> Key) {
        guard k > 0 else { return }
        if heap.count == k && score < heap[0].score { return }
        let entry = Entry(score: score, row: row, key: key())
        if heap.count < k {
            heap.append(entry)
            var i = heap.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                if Self.worse(heap[i], heap[parent]) { heap.swapAt(i, parent); i = parent } else { break }
            }
        } else if Self.worse(heap[0], entry) {
            heap[0] = entry
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count && Self.worse(heap[l], heap[m]) { m = l }
                if r < heap.count && Self.worse(heap[r], heap[m]) { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
        }
    }

    /// The kept entries, best first. - Complexity: O(k log k).
    func sorted() -> [Entry] {
        heap.sorted { Self.worse($1, $0) }
    }
}

/// ``TopK`` over rows whose tie-break key is looked up only when two scores are equal: the
/// entries are (score, row), 8 bytes, and `precedes(a, b)` — row `a`'s key sorts before row
/// `b`'s — is asked only for ties. The same selection and order as `TopK<Key>` with those keys.
struct RowTopK {
    struct Entry {
        var score: Float
        var row: Int32
    }

    let k: Int
    private(set) var heap: [Entry] = []

    init(k: Int) {
        self.k = max(k, 0)
        heap.reserveCapacity(self.k)
    }

    /// The score an entry must reach to enter: −∞ until full, +∞ when k is 0 (nothing enters).
    var threshold: Float { k == 0 ? .infinity : heap.count < k ? -.infinity : heap[0].score }

    /// - Complexity: O(log k).
    @inline(__always)
    mutating func insert(score: Float, row: Int32, precedes: (Int32, Int32) -> Bool) {
        guard k > 0 else { return }
        if heap.count == k && score < heap[0].score { return }
        // `a` ranks below `b`.
        func worse(_ a: Entry, _ b: Entry) -> Bool {
            a.score != b.score ? a.score < b.score : precedes(b.row, a.row)
        }
        let entry = Entry(score: score, row: row)
        if heap.count < k {
            heap.append(entry)
            var i = heap.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                if worse(heap[i], heap[parent]) { heap.swapAt(i, parent); i = parent } else { break }
            }
        } else if worse(heap[0], entry) {
            heap[0] = entry
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count && worse(heap[l], heap[m]) { m = l }
                if r < heap.count && worse(heap[r], heap[m]) { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
        }
    }

    /// The kept entries, best first. - Complexity: O(k log k).
    func sorted(precedes: (Int32, Int32) -> Bool) -> [Entry] {
        heap.sorted { a, b in a.score != b.score ? a.score > b.score : precedes(a.row, b.row) }
    }
}
