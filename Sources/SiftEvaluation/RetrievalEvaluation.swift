import Foundation
import Sift

/// Standard ranking metrics, computed as trec_eval and BEIR do.
package enum RetrievalMetrics {
    /// nDCG@k with graded gains (gain = grade) and a log2(rank + 1) discount.
    package static func ndcg(ranked: [String], judgments: [String: Int], k: Int = 10) -> Double {
        var dcg = 0.0
        for (i, id) in ranked.prefix(k).enumerated() {
            if let g = judgments[id], g > 0 { dcg += Double(g) / log2(Double(i + 2)) }
        }
        let ideal = judgments.values.filter { $0 > 0 }.sorted(by: >).prefix(k)
        var idcg = 0.0
        for (i, g) in ideal.enumerated() { idcg += Double(g) / log2(Double(i + 2)) }
        return idcg > 0 ? dcg / idcg : 0
    }

    /// Share of the relevant documents found in the top k.
    package static func recall(ranked: [String], judgments: [String: Int], k: Int = 100) -> Double {
        let relevant = Set(judgments.filter { $0.value > 0 }.keys)
        guard !relevant.isEmpty else { return 0 }
        return Double(Set(ranked.prefix(k)).intersection(relevant).count) / Double(relevant.count)
    }

    /// Reciprocal rank of the first relevant document in the top k.
    package static func reciprocalRank(ranked: [String], judgments: [String: Int], k: Int = 10) -> Double {
        for (i, id) in ranked.prefix(k).enumerated() where (judgments[id] ?? 0) > 0 { return 1 / Double(i + 1) }
        return 0
    }

    /// The p-th percentile (0…100) by nearest rank of `values`.
    package static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank - 1, 0), sorted.count - 1)]
    }
}

/// Runs a BEIR dataset through a fresh in-memory index, exactly as `sift search` ranks.
package struct RetrievalEvaluation: Sendable {
    package struct Report: Sendable {
        package var ndcgAt10: Double
        package var recallAt100: Double
        package var mrrAt10: Double
        package var queries: Int
        package var p50Milliseconds: Double
        package var p95Milliseconds: Double
        package var documents: Int
        package var mode: SearchMode
        package var indexSeconds: Double
        /// Query id → ranked (document id, score), for a TREC run file.
        package var run: [(query: String, ranking: [(String, Float)])]
        package var recallAt10: Double = 0
        /// The best ``judgedDepth`` results of each query, with judgments and relevance.
        package var judged: [JudgedResult] = []
        /// Results of the best `depth` that the minimum relevance cut, over all queries.
        package var cut: Int = 0
        /// Queries that returned nothing.
        package var empty: Int = 0
        /// Expected calibration error of the judged top 10 (ten bins; relevant: grade > 0).
        package var calibrationError: Double {
            RetrievalMetrics.calibrationError(judged.filter { $0.rank <= 10 }.map { ($0.relevance, $0.grade > 0) })
        }
    }

    package var mode: SearchMode
    package var embedder: (any Embedder)?
    package var bm25: BM25Parameters
    package var fusion: FusionParameters
    package var depth: Int
    /// Keep the quantized copy for the quantized scan (``SearchIndex/Configuration/quantizedScan``,
    /// the library's default), coding `quantizedScanComponents` leading components at
    /// `quantizedScanBits` bits (nil: the model's choice); false ranks on the exact scan alone.
    package var quantizedScan: Bool
    package var quantizedScanComponents: Int?
    package var quantizedScanBits: Int?
    /// The fewest rows on which the quantized copy is scanned (nil: the library's default, which
    /// scans SciFact and Cranfield exactly; 0: always).
    package var quantizedScanMinimumRows: Int?
    /// Results below this calibrated relevance are cut (``SearchQuery/minimumRelevance``).
    package var minimumRelevance: Float = SearchQuery.defaultMinimumRelevance
    /// The mode's answer floor (``RelevanceModel/Coefficients/answerFloor``) instead of the
    /// library's, when set.
    package var answerFloor: Float?
    /// How many of each query's results ``Report/judged`` keeps.
    package var judgedDepth = 10
    /// How many times an item's title counts in its vector
    /// (``SearchIndex/Configuration/titleEmbeddingWeight``) instead of the library's, when set.
    package var titleEmbeddingWeight: Float?

    package init(
        mode: SearchMode, embedder: (any Embedder)?, bm25: BM25Parameters = .default, fusion: FusionParameters = .default, depth: Int = 100,
        quantizedScan: Bool = true, quantizedScanComponents: Int? = nil, quantizedScanMinimumRows: Int? = nil
    ) {
        self.quantizedScan = quantizedScan
        self.quantizedScanMinimumRows = quantizedScanMinimumRows
        self.quantizedScanComponents = quantizedScanComponents
        self.mode = mode
        self.embedder = embedder
        self.bm25 = bm25
        self.fusion = fusion
        self.depth = depth
    }

    /// The in-memory index the evaluation ranks with.
    var indexConfiguration: SearchIndex.Configuration {
        var configuration = SearchIndex.Configuration(
            directory: nil, embedder: mode == .keyword ? nil : embedder, bm25: bm25, fusion: fusion,
            quantizedScan: quantizedScan, quantizedScanComponents: quantizedScanComponents)
        if let rows = quantizedScanMinimumRows { configuration.quantizedScanMinimumRows = rows }
        configuration.quantizedScanBits = quantizedScanBits
        if let titleEmbeddingWeight { configuration.titleEmbeddingWeight = titleEmbeddingWeight }
        if let answerFloor {
            switch mode {
            case .hybrid: configuration.relevance.hybrid.answerFloor = answerFloor
            case .keyword: configuration.relevance.keyword.answerFloor = answerFloor
            case .semantic: configuration.relevance.semantic.answerFloor = answerFloor
            }
        }
        return configuration
    }

    /// The in-memory index of `dataset`'s corpus.
    func index(_ dataset: BEIRDataset) async throws -> SearchIndex {
        let index = try SearchIndex(configuration: indexConfiguration)
        let items = dataset.documents.map { SearchableItem(id: ItemID($0.id), domain: "document", title: $0.title, content: $0.text) }
        try await index.upsert(items)
        return index
    }

    /// The query as `sift eval` ranks it: the literal text (no phrases, no prefix), this
    /// evaluation's depth and minimum relevance.
    func query(_ text: String) -> SearchQuery {
        SearchQuery(
            text, limit: depth, mode: mode, understandsPhrases: false, prefixLastTerm: false, snippets: false,
            minimumRelevance: minimumRelevance)
    }

    /// Indexes `dataset`'s corpus and ranks every judged query (or the given query texts).
    package func run(_ dataset: BEIRDataset, queryTexts: [String: String]? = nil) async throws -> Report {
        let started = Date()
        let index = try await index(dataset)
        let indexSeconds = Date().timeIntervalSince(started)
        var ndcg = 0.0
        var recall = 0.0
        var recall10 = 0.0
        var mrr = 0.0
        var latencies: [Double] = []
        var run: [(String, [(String, Float)])] = []
        var judged: [JudgedResult] = []
        var cut = 0
        var empty = 0
        let ids = dataset.judgedQueryIDs
        for qid in ids {
            let text = queryTexts?[qid] ?? dataset.queries[qid] ?? ""
            let t0 = DispatchTime.now().uptimeNanoseconds
            let (results, report) = try await index.search(query(text))
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            cut += report.belowMinimumRelevance
            if results.isEmpty { empty += 1 }
            let ranked = results.map(\.id.rawValue)
            let judgments = dataset.judgments[qid] ?? [:]
            ndcg += RetrievalMetrics.ndcg(ranked: ranked, judgments: judgments)
            recall += RetrievalMetrics.recall(ranked: ranked, judgments: judgments)
            recall10 += RetrievalMetrics.recall(ranked: ranked, judgments: judgments, k: 10)
            mrr += RetrievalMetrics.reciprocalRank(ranked: ranked, judgments: judgments)
            for (i, r) in results.prefix(judgedDepth).enumerated() {
                judged.append(
                    JudgedResult(
                        query: qid, document: r.id.rawValue, rank: i + 1, grade: judgments[r.id.rawValue] ?? 0, relevance: r.relevance,
                        evidence: r.evidence))
            }
            run.append((qid, results.map { ($0.id.rawValue, $0.score) }))
        }
        let n = Double(max(ids.count, 1))
        var report = Report(
            ndcgAt10: ndcg / n, recallAt100: recall / n, mrrAt10: mrr / n, queries: ids.count,
            p50Milliseconds: RetrievalMetrics.percentile(latencies, 50), p95Milliseconds: RetrievalMetrics.percentile(latencies, 95),
            documents: dataset.documents.count, mode: mode, indexSeconds: indexSeconds, run: run)
        report.recallAt10 = recall10 / n
        report.judged = judged
        report.cut = cut
        report.empty = empty
        return report
    }
}
