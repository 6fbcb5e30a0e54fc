/// The keyword index's memo of stems: each word analysed so far (normalised, UTF-8) to its
/// ``StemEntry``, found by the word's bytes as the analyser reads them — no String made, and a
/// byte hash (FNV-1a 64) instead of `Hasher`'s, which with the String-keyed dictionary it replaces
/// were 43% of the analysis (`perf`, 100k-item indexing). Open addressing over a power-of-two
/// table at most half full; entries are never removed. A value: analysers on other threads read
/// copies of it while the index adds to its own.
struct StemMemo: Sendable, ExpressibleByDictionaryLiteral {
    /// A slot: the entry's index + 1 in the low 32 bits (0: empty), the top 32 bits of its hash
    /// above them, so that most mismatches are rejected without reading the entry.
    private var slots: [UInt64] = [UInt64](repeating: 0, count: 16)
    /// Each entry's word: where its bytes start in `bytes`, and how many there are.
    private var starts: [UInt32] = []
    private var lengths: [UInt32] = []
    private var bytes: [UInt8] = []
    private var entries: [StemEntry] = []

    init() {}

    init(dictionaryLiteral elements: (String, StemEntry)...) {
        for (word, entry) in elements { _ = insert(entry, forWord: word) }
    }

    /// Number of words held.
    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }
    /// The entries, in the order their words came in.
    var values: [StemEntry] { entries }

    /// The hash a word is found by.
    @inline(__always)
    private static func hash(_ word: UnsafeBufferPointer<UInt8>) -> UInt64 { FNV1a.hash(word) }

    /// The index of `word`'s entry and the slot where it is (or would go).
    @inline(__always)
    private func find(_ word: UnsafeBufferPointer<UInt8>, hash h: UInt64) -> (entry: Int?, slot: Int) {
        let mask = slots.count - 1
        let tag = h >> 32
        var s = Int(truncatingIfNeeded: h ^ (h >> 32)) & mask
        return slots.withUnsafeBufferPointer { slots in
            while true {
                let v = slots[s]
                if v == 0 { return (nil, s) }
                if v >> 32 == tag {
                    let i = Int(truncatingIfNeeded: v & 0xFFFF_FFFF) - 1
                    if Int(lengths[i]) == word.count && matches(i, word) { return (i, s) }
                }
                s = (s + 1) & mask
            }
        }
    }

    @inline(__always)
    private func matches(_ i: Int, _ word: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            let start = Int(starts[i])
            for k in 0..<word.count where all[start + k] != word[k] { return false }
            return true
        }
    }

    /// The entry of the word whose UTF-8 is `word`, if held.
    @inline(__always)
    func entry(forBytes word: UnsafeBufferPointer<UInt8>) -> StemEntry? {
        guard let i = find(word, hash: Self.hash(word)).entry else { return nil }
        return entries[i]
    }

    /// The entry of `word`, if held.
    subscript(word: String) -> StemEntry? {
        var word = word
        return word.withUTF8 { entry(forBytes: $0) }
    }

    /// Adds `entry` for `word` unless the word is held; returns whether it was added.
    @discardableResult
    mutating func insert(_ entry: StemEntry, forWord word: String) -> Bool {
        var word = word
        return word.withUTF8 { word in
            let h = Self.hash(word)
            let found = find(word, hash: h)
            if found.entry != nil { return false }
            let i = entries.count
            starts.append(UInt32(bytes.count))
            lengths.append(UInt32(word.count))
            bytes.append(contentsOf: word)
            entries.append(entry)
            slots[found.slot] = (h >> 32) << 32 | UInt64(i + 1)
            if 2 * entries.count > slots.count { grow() }
            return true
        }
    }

    /// Sets the term id of a held word's entry (nothing when the word is not held).
    mutating func setID(_ id: Int32, forWord word: String) {
        var word = word
        let i = word.withUTF8 { find($0, hash: Self.hash($0)).entry }
        if let i { entries[i].id = id }
    }

    /// Doubles the table and places every entry again.
    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for i in entries.indices {
            let h = bytes.withUnsafeBufferPointer { all in
                Self.hash(UnsafeBufferPointer(rebasing: all[Int(starts[i])..<(Int(starts[i]) + Int(lengths[i]))]))
            }
            var s = Int(truncatingIfNeeded: h ^ (h >> 32)) & mask
            while slots[s] != 0 { s = (s + 1) & mask }
            slots[s] = (h >> 32) << 32 | UInt64(i + 1)
        }
    }
}
