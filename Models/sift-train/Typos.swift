import Sift

/// Misspellings a phone keyboard makes — a neighbouring key, a dropped letter, a swapped pair,
/// a doubled letter — drawn from a seeded generator, for augmenting the word examples.
struct TypoGenerator {
    private static let rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"].map { Array($0.utf8) }
    private static let neighbours: [UInt8: [UInt8]] = {
        var near: [UInt8: [UInt8]] = [:]
        for (r, row) in rows.enumerated() {
            for (i, c) in row.enumerated() {
                var n: [UInt8] = []
                for j in [i - 1, i + 1] where j >= 0 && j < row.count { n.append(row[j]) }
                for rr in [r - 1, r + 1] where rr >= 0 && rr < rows.count {
                    for j in [i - 1, i, i + 1] where j >= 0 && j < rows[rr].count { n.append(rows[rr][j]) }
                }
                near[c] = n
            }
        }
        return near
    }()

    var random: SplitMix64

    /// One edit of `word` (ASCII letters); nil if the edit leaves it unchanged.
    mutating func typo(_ word: String) -> String? {
        var w = Array(word.utf8)
        guard w.count >= 2 else { return nil }
        let i = random.below(w.count)
        switch random.below(4) {
        case 0:
            guard let near = Self.neighbours[w[i]], !near.isEmpty else { return nil }
            w[i] = near[random.below(near.count)]
        case 1:
            w.remove(at: i)
        case 2:
            guard i + 1 < w.count else { return nil }
            w.swapAt(i, i + 1)
        default:
            w.insert(w[i], at: i)
        }
        let s = String(decoding: w, as: UTF8.self)
        return s == word ? nil : s
    }
}
