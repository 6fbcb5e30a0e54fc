import Foundation
import Testing

/// `sift eval` on a BEIR directory written by the test.
@Suite("sift eval, run as a process", .serialized)
struct EvalCLITests {
    /// Two documents whose titles and contents say opposite things, and a query the first
    /// one's title answers: how much the title counts in an item's vector decides which ranks first.
    private func writeDataset(in sift: SiftProcess) throws -> String {
        let dir = sift.scratch.url.appendingPathComponent("beir")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("qrels"), withIntermediateDirectories: true)
        let corpus = [
            #"{"_id": "a", "title": "Lentil soup", "text": "The quarterly budget review covers invoices, receipts, payroll, tax filings and the office rent for the coming year."}"#,
            #"{"_id": "b", "title": "Office budget", "text": "We simmered lentils, carrots and cumin into a thick soup and ate it with bread."}"#,
        ]
        try (corpus.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("corpus.jsonl"), atomically: true, encoding: .utf8)
        try #"{"_id": "q1", "text": "lentil soup"}"#.appending("\n")
            .write(to: dir.appendingPathComponent("queries.jsonl"), atomically: true, encoding: .utf8)
        try "query-id\tcorpus-id\tscore\nq1\ta\t1\n".write(
            to: dir.appendingPathComponent("qrels/test.tsv"), atomically: true, encoding: .utf8)
        return dir.path
    }

    @Test("--title-weight sets how much an item's title counts in its vector; a bad value is a usage error")
    func titleWeight() throws {
        let sift = try SiftProcess()
        let dataset = try writeDataset(in: sift)
        func ndcg(_ weight: String) throws -> Double {
            let out = try sift.run(["eval", "--dataset", dataset, "--mode", "semantic", "--all", "--title-weight", weight, "--json"])
            #expect(out.status == 0, "\(out.stderr)")
            let line = try #require(out.stdout.split(separator: "\n").last.map(String.init), "no output")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(report["ndcg@10"] as? Double, "no ndcg@10 in \(line)")
        }
        // Without its title, "a" is about the budget and "b" about soup; counted five times,
        // the title puts "a" first.
        let untitled = try ndcg("0")
        let titled = try ndcg("5")
        #expect(titled == 1, "title ×5: \(titled)")
        #expect(untitled < 1, "title left out: \(untitled)")

        let bad = try sift.run(["eval", "--dataset", dataset, "--mode", "semantic", "--title-weight", "-1"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--title-weight expects a number in 0…100"), "\(bad.stderr)")
    }

    @Test("--absent-word-weight runs with a share of 0 and 1; a bad value is a usage error")
    func absentWordWeight() throws {
        let sift = try SiftProcess()
        let dataset = try writeDataset(in: sift)
        for share in ["0", "1"] {
            let out = try sift.run(["eval", "--dataset", dataset, "--mode", "semantic", "--absent-word-weight", share, "--json"])
            #expect(out.status == 0, "\(out.stderr)")
        }
        let bad = try sift.run(["eval", "--dataset", dataset, "--mode", "semantic", "--absent-word-weight", "-0.5"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--absent-word-weight expects a number ≥ 0"), "\(bad.stderr)")
    }
}
