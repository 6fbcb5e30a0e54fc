import Foundation
import Sift

/// One benchmark query: 1–4 words taken from one item of the corpus, so that it matches
/// something, as a user looking for a note they wrote would type it.
struct BenchQuery {
    enum Kind: String { case plain, prefix, typo }
    /// The words, in order (the last one cut short for a prefix query, one misspelled for a typo).
    var words: [String]
    var kind: Kind
    var text: String { words.joined(separator: " ") }
    /// As-you-type: the last word matches every term that starts with it.
    var isPrefix: Bool { kind == .prefix }

    /// The same query in FTS5's MATCH syntax: every word quoted (so nothing in it is read as an
    /// operator), OR-ed — Sift's BM25 also scores items that match any word — and the last one
    /// as a prefix (`"term"*`) for a prefix query.
    var fts5Match: String {
        words.enumerated().map { i, w in
            let quoted = "\"" + w.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return kind == .prefix && i == words.count - 1 ? quoted + "*" : quoted
        }.joined(separator: " OR ")
    }
}

/// A deterministic query set drawn from a corpus.
enum BenchQueries {
    /// Shares of the kinds: 20% prefixes (last word cut to ~60% of its letters, at least 3), 10%
    /// with a phone-keyboard typo in one word of 4+ letters, the rest plain.
    static let prefixShare = 0.2
    static let typoShare = 0.1
    /// Words per query: 1 (30%), 2 (35%), 3 (20%), 4 (15%).
    static let wordCountWeights: [(Int, Double)] = [(1, 0.30), (2, 0.35), (3, 0.20), (4, 0.15)]

    static func make(from items: [SearchableItem], count: Int, seed: UInt64) -> [BenchQuery] {
        var rng = BenchRandom(seed: seed ^ 0x0051_E4E5)
        var result: [BenchQuery] = []
        result.reserveCapacity(count)
        var attempts = 0
        while result.count < count && attempts < count * 50 {
            attempts += 1
            let item = items[rng.below(items.count)]
            let words = contentWords(item.title + " " + item.content)
            guard !words.isEmpty else { continue }
            var want = 1
            var u = rng.unit()
            for (n, w) in wordCountWeights {
                if u < w {
                    want = n
                    break
                }
                u -= w
            }
            let start = rng.below(words.count)
            var chosen: [String] = []
            var i = start
            while chosen.count < want && i < words.count {
                if !chosen.contains(words[i]) { chosen.append(words[i]) }
                i += 1
            }
            let k = rng.unit()
            var kind = BenchQuery.Kind.plain
            if k < prefixShare {
                kind = .prefix
                let last = chosen[chosen.count - 1]
                let keep = max(3, Int((Double(last.count) * 0.6).rounded(.up)))
                chosen[chosen.count - 1] = String(last.prefix(keep))
            } else if k < prefixShare + typoShare {
                let candidates = chosen.indices.filter { chosen[$0].count >= 4 }
                if !candidates.isEmpty {
                    let w = candidates[rng.below(candidates.count)]
                    chosen[w] = misspell(chosen[w], &rng)
                    kind = .typo
                }
            }
            result.append(BenchQuery(words: chosen, kind: kind))
        }
        return result
    }

    /// Lower-cased ASCII words of 3+ letters that are not stop words, in order.
    static func contentWords(_ text: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        func flush() {
            if current.count >= 3 {
                let w = String(decoding: current, as: UTF8.self)
                if !StopWords.english.contains(w) { words.append(w) }
            }
            current.removeAll(keepingCapacity: true)
        }
        for b in text.utf8 {
            if b >= 0x61 && b <= 0x7A { current.append(b) } else if b >= 0x41 && b <= 0x5A { current.append(b + 32) } else { flush() }
        }
        flush()
        return words
    }

    private static let keyboardRows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"].map { Array($0) }

    /// A neighbouring key on a QWERTY keyboard.
    private static func neighbour(of c: Character, _ rng: inout BenchRandom) -> Character {
        for row in keyboardRows {
            if let i = row.firstIndex(of: c) {
                let options = [i - 1, i + 1].filter { $0 >= 0 && $0 < row.count }
                return row[options[rng.below(options.count)]]
            }
        }
        return c
    }

    /// One edit a phone keyboard makes: a neighbouring key instead, a letter dropped, two
    /// letters swapped, or a neighbouring key added.
    static func misspell(_ word: String, _ rng: inout BenchRandom) -> String {
        var letters = Array(word)
        let i = 1 + rng.below(letters.count - 1)  // keep the first letter, as most typos do
        switch rng.below(4) {
        case 0: letters[i] = neighbour(of: letters[i], &rng)
        case 1: letters.remove(at: i)
        case 2:
            if i + 1 < letters.count { letters.swapAt(i, i + 1) } else { letters.swapAt(i - 1, i) }
        default: letters.insert(neighbour(of: letters[i], &rng), at: i)
        }
        return String(letters)
    }
}

/// SplitMix64, for the benchmark's own draws (queries, stand-in weights, bound matrix).
typealias BenchRandom = SplitMix64

extension SplitMix64 {
    /// Uniform float in [-1, 1).
    mutating func signedFloat() -> Float { Float(Int64(bitPattern: next()) >> 40) * 0x1p-23 }
}
