import Foundation
import Sift

/// A retrieval test collection in the BEIR layout: `corpus.jsonl` (`_id`, `title`, `text`),
/// `queries.jsonl` (`_id`, `text`) and `qrels/<split>.tsv` (`query-id`, `corpus-id`, `score`).
package struct BEIRDataset: Sendable {
    package struct Document: Sendable {
        public var id: String
        public var title: String
        public var text: String
    }
    package var documents: [Document]
    /// Query text by query id.
    package var queries: [String: String]
    /// Graded judgments: query id → document id → grade.
    package var judgments: [String: [String: Int]]
    package var split: String

    /// Loads the dataset in `directory`, judgments from `qrels/<split>.tsv`.
    package init(directory: URL, split: String = "test") throws {
        self.split = split
        documents = []
        queries = [:]
        judgments = [:]
        try Self.lines(directory.appendingPathComponent("corpus.jsonl")) { line, number, file in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let id = Self.id(o["_id"]) else {
                throw EvaluationError("\(file):\(number): expected a JSON object with \"_id\"")
            }
            documents.append(Document(id: id, title: o["title"] as? String ?? "", text: o["text"] as? String ?? ""))
        }
        try Self.lines(directory.appendingPathComponent("queries.jsonl")) { line, number, file in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let id = Self.id(o["_id"]) else {
                throw EvaluationError("\(file):\(number): expected a JSON object with \"_id\"")
            }
            queries[id] = o["text"] as? String ?? ""
        }
        var header = true
        try Self.lines(directory.appendingPathComponent("qrels/\(split).tsv")) { line, number, file in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if header {
                header = false
                if fields.first.map({ Int($0) == nil }) ?? false { return }
            }
            guard fields.count >= 3, let grade = Double(fields[2].trimmingCharacters(in: .whitespaces)) else {
                throw EvaluationError("\(file):\(number): expected query-id, corpus-id, score separated by tabs")
            }
            judgments[String(fields[0]), default: [:]][String(fields[1])] = Int(grade)
        }
    }

    private static func id(_ value: Any?) -> String? {
        if let s = value as? String { return s }
        if let n = value as? NSNumber { return n.stringValue }
        return nil
    }

    static func lines(_ url: URL, _ body: (String, Int, String) throws -> Void) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw EvaluationError("\(url.path): cannot read (\((error as NSError).localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw EvaluationError("\(url.path): not valid UTF-8") }
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { try body(trimmed, number, url.path) }
        }
    }

    /// Ids of the queries with at least one positive judgment, sorted.
    package var judgedQueryIDs: [String] {
        judgments.filter { $0.value.values.contains { $0 > 0 } }.keys.filter { queries[$0] != nil }.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
    }
}

/// A problem with evaluation input, naming the file and line.
package struct EvaluationError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
