import Foundation
import Testing

@testable import Sift
@testable import SiftEvaluation

@Suite("Similarity evaluation")
struct SimilarityEvaluationTests {
    @Test("Spearman uses average ranks for ties")
    func spearmanTies() {
        #expect(Spearman.averageRanks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4])
        #expect(abs(Spearman.correlation([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) - 0.8207826816681233) < 1e-12)
        #expect(Spearman.correlation([1, 2, 3], [3, 2, 1]) == -1)
    }

    @Test("Rows are read by header name; a bad row names the file and line")
    func reading() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.tsv")
        try "pair_id\tsentence1\tsentence2\trelatedness\n1\ta cat\ta dog\t3.5\n2\tx\ty\t1\n".write(
            to: good, atomically: false, encoding: .utf8)
        let pairs = try SimilarityEvaluation.readPairs(from: good)
        #expect(pairs == [.init(first: "a cat", second: "a dog", score: 3.5), .init(first: "x", second: "y", score: 1)])
        let bad = dir.appendingPathComponent("bad.tsv")
        try "word1\tword2\tscore\ncat\tdog\t7\ncar\tauto\tlots\n".write(to: bad, atomically: false, encoding: .utf8)
        #expect(throws: SimilarityEvaluation.FormatError.self) { try SimilarityEvaluation.readPairs(from: bad) }
        do {
            _ = try SimilarityEvaluation.readPairs(from: bad)
        } catch {
            #expect("\(error)".hasSuffix("bad.tsv:3: score \"lots\" is not a number"))
        }
        let noHeader = dir.appendingPathComponent("noheader.tsv")
        try "a\tb\tc\n".write(to: noHeader, atomically: false, encoding: .utf8)
        do {
            _ = try SimilarityEvaluation.readPairs(from: noHeader)
            Issue.record("accepted a file without the named columns")
        } catch {
            #expect("\(error)".contains("noheader.tsv:1:"))
        }
    }
}
