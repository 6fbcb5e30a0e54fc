/// Keeps the `k` best (score, row) pairs seen, in a bounded min-heap.
///
/// Order: higher score first; equal scores by the tie-break key ascending (the ``ItemID``), so
/// rankings are deterministic.
struct TopK<Key: Comparable> {
    struct Entry {
        var score: Float
        var row: Int32
        var key: Key

        /// This entry ranks below `other`.
        @inline(__always)
        func ranksBelow(_ other: Entry) -> Bool {
            score != other.score ? score < other.score : key > other.key
        }
    }

    let k: Int
    private var heap: BoundedHeap<Entry>

    init(k: Int) {
        self.k = max(k, 0)
        heap = BoundedHeap(k: k)
    }

    /// The score an entry must reach to enter: −∞ until full, +∞ when k is 0 (nothing enters).
    var threshold: Float { k == 0 ? .infinity : heap.isFull ? heap.worst!.score : -.infinity }

    /// - Complexity: O(log k).
    mutating func insert(score: Float, row: Int32, key: @autoclosure () -> Key) {
        guard k > 0 else { return }
        if heap.isFull && score < heap.worst!.score { return }
        heap.offer(Entry(score: score, row: row, key: key())) { $0.ranksBelow($1) }
    }

    /// The kept entries, best first. - Complexity: O(k log k).
    func sorted() -> [Entry] {
        heap.sorted { $0.ranksBelow($1) }
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
    private var heap: BoundedHeap<Entry>

    init(k: Int) {
        self.k = max(k, 0)
        heap = BoundedHeap(k: k)
    }

    /// The score an entry must reach to enter: −∞ until full, +∞ when k is 0 (nothing enters).
    var threshold: Float { k == 0 ? .infinity : heap.isFull ? heap.worst!.score : -.infinity }

    /// `a` ranks below `b`.
    @inline(__always)
    private static func worse(_ a: Entry, _ b: Entry, _ precedes: (Int32, Int32) -> Bool) -> Bool {
        a.score != b.score ? a.score < b.score : precedes(b.row, a.row)
    }

    /// - Complexity: O(log k).
    @inline(__always)
    mutating func insert(score: Float, row: Int32, precedes: (Int32, Int32) -> Bool) {
        guard k > 0 else { return }
        if heap.isFull && score < heap.worst!.score { return }
        heap.offer(Entry(score: score, row: row)) { Self.worse($0, $1, precedes) }
    }

    /// The kept entries, best first. - Complexity: O(k log k).
    func sorted(precedes: (Int32, Int32) -> Bool) -> [Entry] {
        heap.sorted { Self.worse($0, $1, precedes) }
    }

    /// The kept entries in no particular order (heap order). - Complexity: O(1).
    var unordered: [Entry] { heap.unordered }
}

/// At most `k` elements, kept in a heap whose root is the worst of them: the selection under
/// ``TopK``, ``RowTopK`` and the newest-first listing, each with its own order. `worse(a, b)`:
/// `a` ranks below `b`; every call on one heap must pass the same order.
struct BoundedHeap<Element> {
    let k: Int
    private var elements: [Element] = []

    init(k: Int) {
        self.k = max(k, 0)
        elements.reserveCapacity(self.k)
    }

    var isFull: Bool { elements.count >= k }
    /// The worst element kept (the first to go), nil when empty.
    var worst: Element? { elements.first }

    /// Keeps `element` while there is room, or in place of the worst when it ranks above it.
    /// - Complexity: O(log k).
    @inline(__always)
    mutating func offer(_ element: Element, worse: (Element, Element) -> Bool) {
        guard k > 0 else { return }
        if elements.count < k {
            elements.append(element)
            var i = elements.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                if worse(elements[i], elements[parent]) {
                    elements.swapAt(i, parent)
                    i = parent
                } else {
                    break
                }
            }
        } else if worse(elements[0], element) {
            elements[0] = element
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < elements.count && worse(elements[l], elements[m]) { m = l }
                if r < elements.count && worse(elements[r], elements[m]) { m = r }
                if m == i { break }
                elements.swapAt(i, m)
                i = m
            }
        }
    }

    /// The kept elements in heap order (the worst first, the rest in no useful order).
    var unordered: [Element] { elements }

    /// The kept elements, best first. - Complexity: O(k log k).
    func sorted(worse: (Element, Element) -> Bool) -> [Element] {
        elements.sorted { worse($1, $0) }
    }
}

/// Order statistics over scores.
enum Selection {
    /// The `m`-th largest of `values` (1 ≤ m ≤ count), by quickselect; `values` is reordered.
    /// - Complexity: O(count) expected.
    static func largest(_ m: Int, of values: inout [Float]) -> Float {
        precondition(m >= 1 && m <= values.count)
        return values.withUnsafeMutableBufferPointer { v in
            // The (count − m)-th smallest, 0-based.
            let target = v.count - m
            var lo = 0
            var hi = v.count - 1
            while lo < hi {
                // Median of three as the pivot, then Hoare's partition.
                let mid = lo + (hi - lo) / 2
                if v[mid] < v[lo] { v.swapAt(mid, lo) }
                if v[hi] < v[lo] { v.swapAt(hi, lo) }
                if v[hi] < v[mid] { v.swapAt(hi, mid) }
                let pivot = v[mid]
                var i = lo
                var j = hi
                while i <= j {
                    while v[i] < pivot { i += 1 }
                    while v[j] > pivot { j -= 1 }
                    if i <= j {
                        v.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if target <= j {
                    hi = j
                } else if target >= i {
                    lo = i
                } else {
                    return v[target]
                }
            }
            return v[target]
        }
    }
}
