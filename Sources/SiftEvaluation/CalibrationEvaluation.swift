import Foundation
import Sift

extension RetrievalMetrics {
    /// Expected calibration error over `bins` equal-width bins of the predicted probability:
    /// Σ_b (n_b / N) · |mean prediction_b − share relevant_b| (0 for no pairs).
    package static func calibrationError(_ pairs: [(predicted: Float, relevant: Bool)], bins: Int = 10) -> Double {
        reliability(pairs, bins: bins).reduce(0) { sum, bin in
            sum + Double(bin.count) / Double(pairs.count) * abs(bin.meanPredicted - bin.observed)
        }
    }

    /// One bin of a reliability diagram: its results, their mean prediction and the share of
    /// them that are relevant.
    package struct ReliabilityBin: Sendable, Equatable {
        package var count: Int
        package var meanPredicted: Double
        package var observed: Double
    }

    /// The non-empty bins of `pairs` over `bins` equal-width bins of 0…1, lowest first (a
    /// prediction of exactly 1 goes to the top bin).
    package static func reliability(_ pairs: [(predicted: Float, relevant: Bool)], bins: Int = 10) -> [ReliabilityBin] {
        guard bins > 0 else { return [] }
        var count = [Int](repeating: 0, count: bins)
        var predicted = [Double](repeating: 0, count: bins)
        var relevant = [Int](repeating: 0, count: bins)
        for (p, r) in pairs {
            let b = min(bins - 1, max(0, Int(Double(p) * Double(bins))))
            count[b] += 1
            predicted[b] += Double(p)
            if r { relevant[b] += 1 }
        }
        return (0..<bins).filter { count[$0] > 0 }.map { b in
            ReliabilityBin(
                count: count[b], meanPredicted: predicted[b] / Double(count[b]), observed: Double(relevant[b]) / Double(count[b]))
        }
    }
}

/// One returned result of a judged query, as calibration reads it.
package struct JudgedResult: Sendable {
    package var query: String
    package var document: String
    package var rank: Int
    package var grade: Int
    package var relevance: Float
    package var evidence: RelevanceModel.Evidence?
}

/// How many of another collection's queries found nothing in this one.
package struct NoAnswerReport: Sendable {
    package var queries: Int
    package var empty: Int
    /// The best relevance each query's first result had (0 for none), by query id.
    package var bestRelevance: [(query: String, relevance: Float)]
    package var share: Double { queries > 0 ? Double(empty) / Double(queries) : 0 }
}

extension RetrievalEvaluation {
    /// Indexes `dataset`'s corpus and searches it with `foreign`'s judged queries, which have no
    /// answer here: how many return nothing at this evaluation's minimum relevance.
    package func noAnswer(_ dataset: BEIRDataset, foreign: BEIRDataset) async throws -> NoAnswerReport {
        let index = try await index(dataset)
        var empty = 0
        var best: [(String, Float)] = []
        let ids = foreign.judgedQueryIDs
        for qid in ids {
            let results = try await index.search(query(foreign.queries[qid] ?? "")).results
            if results.isEmpty { empty += 1 }
            best.append((qid, results.first?.relevance ?? 0))
        }
        return NoAnswerReport(queries: ids.count, empty: empty, bestRelevance: best)
    }
}
