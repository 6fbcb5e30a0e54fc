import Foundation

/// Short → long pairs (`pairs.tsv` of `Models/pipeline/broad_corpus.py`: `genre<TAB>short<TAB>long`):
/// a headword and its definition, a package's synopsis and its description, a heading and its
/// paragraph. The short text is fitted to the teacher's vector of its long text, which is among
/// the training texts already: a query → document signal at no teacher cost.
struct PairExamples {
    /// The short texts, each with the training-text row of its long text.
    var examples: [(short: String, row: Int)] = []
    var read = 0
    /// Pairs whose long text is not a training text, or whose genre was not asked for.
    var unmatched = 0
    var skippedGenre = 0

    /// The key two texts share when they differ only in case and spacing (broad_corpus.py's
    /// `dedup_key`).
    static func key(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Reads `path`, matching each long text against `rowOf` (keyed by ``key(_:)``); `genres`
    /// empty takes every genre.
    init(path: String, rowOf: [String: Int], genres: Set<String>) throws {
        let counts = try Self.forEach(in: path, genres: genres) { short, long in
            guard let row = rowOf[Self.key(long)] else {
                unmatched += 1
                return
            }
            examples.append((short, row))
        }
        read = counts.read
        skippedGenre = counts.skippedGenre
    }

    /// Calls `body` with each pair of `path` whose genre is one of `genres` (empty: every
    /// genre); a line that is not `genre<TAB>short<TAB>long` is an error naming FILE:LINE.
    /// Returns how many pairs were read and how many were of other genres.
    static func forEach(
        in path: String, genres: Set<String>, _ body: (_ short: String, _ long: String) throws -> Void
    ) throws -> (read: Int, skippedGenre: Int) {
        var read = 0
        var skippedGenre = 0
        for (n, line) in try readLines(path).enumerated() where !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3 else { throw TrainError("\(path):\(n + 1): expected genre<TAB>short<TAB>long") }
            read += 1
            if !genres.isEmpty && !genres.contains(String(fields[0])) {
                skippedGenre += 1
                continue
            }
            try body(String(fields[1]), String(fields[2]))
        }
        return (read, skippedGenre)
    }
}
