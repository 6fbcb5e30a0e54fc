import Foundation
import Sift

/// Scores an embedder on a similarity benchmark (STS-B, SICK, WordSim-353, SimLex-999): the
/// Spearman correlation between the cosine of the two sides and the human score.
package struct SimilarityEvaluation: Sendable {
    /// The outcome of one benchmark file.
    package struct Result: Sendable, Equatable {
        /// Spearman's ρ (average ranks for ties), in −1...1.
        package var spearman: Double
        /// Number of scored pairs.
        package var pairs: Int
    }

    /// A row that cannot be read; the description names the file, the line and the problem.
    package struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
        package var path: String
        /// 1-based line number (1 is the header).
        package var line: Int
        package var message: String
        package var description: String { "\(path):\(line): \(message)" }
    }

    /// One pair of texts with its human score.
    package struct Pair: Sendable, Equatable {
        package var first: String
        package var second: String
        package var score: Double
    }

    package init() {}

    /// Reads a tab-separated file whose header names `sentence1`/`sentence2` or `word1`/`word2`
    /// and `score` or `relatedness` (other columns are ignored).
    /// - Throws: ``FormatError`` for a missing column or a bad row, or the read error.
    package static func readPairs(from url: URL) throws -> [Pair] {
        let path = url.path
        let data = try Data(contentsOf: url)
        guard let text = String(data: data, encoding: .utf8) else {
            throw FormatError(path: path, line: 1, message: "file is not valid UTF-8")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let headerLine = lines.first else {
            throw FormatError(path: path, line: 1, message: "empty file; expected a header line")
        }
        let header = headerLine.split(separator: "\t", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        func column(_ names: [String]) -> Int? { names.lazy.compactMap { header.firstIndex(of: $0) }.first }
        guard let a = column(["sentence1", "word1"]), let b = column(["sentence2", "word2"]) else {
            throw FormatError(
                path: path, line: 1,
                message: "header needs sentence1/sentence2 or word1/word2 columns; found \(header.joined(separator: ", "))")
        }
        guard let s = column(["score", "relatedness"]) else {
            throw FormatError(
                path: path, line: 1, message: "header needs a score or relatedness column; found \(header.joined(separator: ", "))")
        }
        var pairs: [Pair] = []
        for (i, raw) in lines.enumerated().dropFirst() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.isEmpty { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let needed = max(a, b, s) + 1
            guard fields.count >= needed else {
                throw FormatError(
                    path: path, line: i + 1, message: "expected at least \(needed) tab-separated fields, found \(fields.count)")
            }
            let scoreText = fields[s].trimmingCharacters(in: .whitespaces)
            guard let score = Double(scoreText), score.isFinite else {
                throw FormatError(path: path, line: i + 1, message: "score \"\(scoreText)\" is not a number")
            }
            pairs.append(Pair(first: String(fields[a]), second: String(fields[b]), score: score))
        }
        if pairs.isEmpty { throw FormatError(path: path, line: 2, message: "no pairs after the header") }
        return pairs
    }

    /// Spearman's ρ between cosine similarity and the human scores of `pairs`. A side with no
    /// features has the zero vector and cosine 0.
    /// - Complexity: O(pairs × embedding cost).
    package static func evaluate(_ pairs: [Pair], with embedder: some Embedder) -> Result {
        var predicted: [Double] = []
        var gold: [Double] = []
        predicted.reserveCapacity(pairs.count)
        for pair in pairs {
            let u = embedder.embed(pair.first)
            let v = embedder.embed(pair.second)
            var dot: Float = 0
            for j in u.indices { dot += u[j] * v[j] }
            predicted.append(Double(dot))
            gold.append(pair.score)
        }
        return Result(spearman: Spearman.correlation(predicted, gold), pairs: pairs.count)
    }

    /// Reads `url` and evaluates `embedder` on it.
    package static func evaluate(file url: URL, with embedder: some Embedder) throws -> Result {
        evaluate(try readPairs(from: url), with: embedder)
    }
}
