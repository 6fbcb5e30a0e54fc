import Foundation
import Sift
import SiftCommandLine
import SiftEvaluation

/// `sift eval`: retrieval quality on a BEIR dataset, or similarity quality on a TSV of pairs.
enum EvalCommand: Command {
    static let spec = CommandSpec(
        name: "eval",
        summary:
            "Measure quality. With --dataset: index the BEIR corpus in memory, rank every judged query of the split, print nDCG@10, Recall@100, MRR@10 and latency. With --similarity: Spearman correlation of embedding cosines with human scores.",
        arguments: "(--dataset DIR | --similarity FILE.tsv)",
        options: [
            OptionSpec(names: ["--dataset"], value: "DIR", help: "BEIR layout: corpus.jsonl, queries.jsonl, qrels/<split>.tsv"),
            OptionSpec(names: ["--split"], value: "NAME", help: "qrels split (default test)"),
            OptionSpec(names: ["--mode"], value: "MODE", help: "hybrid (default), keyword or semantic"),
            OptionSpec(names: ["--queries"], value: "FILE", help: "read query texts from this queries.jsonl instead (e.g. a typo'd copy)"),
            OptionSpec(names: ["--run"], value: "FILE", help: "also write a TREC run file (for tools/beir_eval.py)"),
            OptionSpec(
                names: ["--as-you-type"], value: "N",
                help:
                    "instead: for N documents (fixed seed) query the first three title words, the third cut to 4 letters, and report the share found in the top 3"
            ),
            OptionSpec(names: ["--seed"], value: "N", help: "seed for --as-you-type (default 42)"),
            OptionSpec(
                names: ["--similarity"], value: "FILE", help: "TSV with sentence1/sentence2 (or word1/word2) and score (or relatedness)"),
            OptionSpec(
                names: ["--bm25"], value: "K1,B,WT,WK,WC",
                help: "BM25F parameters to try: k1, b, and the title, keywords and content weights"),
            OptionSpec(
                names: ["--k3"], value: "K3",
                help:
                    "keyword mode: saturation of a query word said more than once, (k3+1)·n/(k3+n) (default 1.5; 0: once; inf: n times)"
            ),
            OptionSpec(
                names: ["--k3-paragraph"], value: "T,L",
                help: "keyword mode: a query of T or more terms is a pasted paragraph, its k3 times terms / L (default 24,7; 0,0 off)"
            ),
            OptionSpec(names: ["--fusion"], value: "METHOD", help: "hybrid fusion to try: linear:ALPHA or rrf:K"),
            OptionSpec(names: ["--candidates"], value: "N", help: "semantic candidates joining the keyword matches (default 100)"),
            OptionSpec(
                names: ["--feedback"], value: "D,W", help: "vector feedback to try: first-pass documents, weight (default 3,1; 0,0 off)"),
            OptionSpec(
                names: ["--keyword-candidates"], value: "N",
                help:
                    "keyword matches taken as hybrid candidates: those at or above the N-th best BM25F (ties kept) and those whose title may begin with the query (0: all; default: the library's, all below 16,384 items)"
            ),
            OptionSpec(
                names: ["--int8"], value: nil,
                help:
                    "rank with the quantized scan (nominees re-scored exactly) whatever the collection's size; its codes are the library's (4-bit codes of the bundled model's leading half) unless --scan-bits says"
            ),
            OptionSpec(
                names: ["--exact"], value: nil,
                help: "rank on the exact path: no quantized scan, every keyword match a candidate (the reference)"
            ),
            OptionSpec(
                names: ["--int8-components"], value: "P",
                help: "with --int8: the quantized copy codes only each vector's first P components (a multiple of 32)"
            ),
            OptionSpec(
                names: ["--scan-bits"], value: "B", help: "with --int8: bits a code of the quantized copy, 8 or 4"
            ),
            OptionSpec(
                names: ["--keyword-feedback"], value: "D,T,W",
                help: "keyword feedback to try: first-pass documents, terms, weight (default 1,20,0.4; 0,0,0 off)"),
            OptionSpec(names: ["--all"], value: nil, help: "keep every result: no calibrated-relevance cutoff (as --min-relevance 0)"),
            OptionSpec(
                names: ["--min-relevance"], value: "P",
                help: "cut results whose calibrated relevance is below P (default \(SearchQuery.defaultMinimumRelevance), the library's)"),
            OptionSpec(
                names: ["--answer-floor"], value: "P",
                help:
                    "a query of two or more words answers nothing when its best result is below P and no result says two of its words side by side (default: the library's, per mode; 0 off)"
            ),
            OptionSpec(
                names: ["--title-weight"], value: "W",
                help: "how many times an item's title counts in its vector (default: the library's, 5)"),
            OptionSpec(
                names: ["--features"], value: "FILE",
                help:
                    "also write each query's best results as TSV: query, document, rank, grade, relevance and the evidence relevance read (scripts/fit-relevance.py fits on it)"
            ),
            OptionSpec(names: ["--features-depth"], value: "N", help: "how many of each query's results --features writes (default 10)"),
            OptionSpec(
                names: ["--no-answer"], value: "DIR",
                help:
                    "instead: index --dataset's corpus, search it with this other BEIR collection's judged queries (split --foreign-split, default test) and report the share that return nothing"
            ),
            OptionSpec(names: ["--foreign-split"], value: "NAME", help: "with --no-answer: the other collection's qrels split"),
            OptionSpec(
                names: ["--term-weighting"], value: "P",
                help: "query words weighted by idf^P in the semantic half (FusionParameters.queryTermWeighting; 0 off)"),
            OptionSpec(
                names: ["--absent-word-weight"], value: "X",
                help:
                    "the share of its weight a query word no item holds keeps in the semantic half (FusionParameters.absentWordWeight; default 0.5, 1 full)"
            ),
        ],
        positionals: 0...0)

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let a = context.arguments
        if let file = a.value("--similarity") {
            guard let embedder = try context.embedder(required: true) else { return .failure }
            let result = try SimilarityEvaluation.evaluate(file: URL(fileURLWithPath: file), with: embedder)
            if context.json {
                context.printJSON(["spearman": (result.spearman * 1e4).rounded() / 1e4, "pairs": result.pairs])
            } else {
                print(String(format: "spearman %.4f over %d pairs", result.spearman, result.pairs))
            }
            return .success
        }
        guard let dir = a.value("--dataset") else { throw UsageError("give --dataset DIR or --similarity FILE") }
        let mode = try SearchCommand.parseMode(a.value("--mode")) ?? .hybrid
        let dataset: BEIRDataset
        do { dataset = try BEIRDataset(directory: URL(fileURLWithPath: dir), split: a.value("--split") ?? "test") } catch {
            throw CommandFailure("\(error)")
        }
        let embedder = mode == .keyword ? nil : try context.embedder(required: true)
        var bm25 = BM25Parameters.default
        if let text = a.value("--bm25") {
            let v = text.split(separator: ",").compactMap { Float($0) }
            guard v.count == 5 else { throw UsageError("--bm25 expects five numbers K1,B,WT,WK,WC, got \"\(text)\"") }
            bm25 = BM25Parameters(k1: v[0], weights: [v[2], v[3], v[4]], b: [v[1], v[1], v[1]])
        }
        if let text = a.value("--k3") {
            guard let k3 = text == "inf" ? Float.infinity : Float(text), k3 >= 0 else {
                throw UsageError("--k3 expects a number ≥ 0 or inf, got \"\(text)\"")
            }
            bm25.k3 = k3
        }
        if let text = a.value("--k3-paragraph") {
            guard let (t, l) = countAndNumber(text) else {
                throw UsageError("--k3-paragraph expects T,L (terms ≥ 0, length ≥ 0), got \"\(text)\"")
            }
            bm25.paragraphTerms = t
            bm25.paragraphK3Length = l
        }
        var fusion = FusionParameters.default
        if let text = a.value("--fusion") {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let x = Float(parts[1]) else {
                throw UsageError("--fusion expects linear:ALPHA or rrf:K, got \"\(text)\"")
            }
            switch parts[0] {
            case "linear": fusion.method = .linear(alpha: x)
            case "rrf": fusion.method = .reciprocalRank(k: x)
            default: throw UsageError("--fusion expects linear:ALPHA or rrf:K, got \"\(text)\"")
            }
        }
        fusion.semanticCandidates = try a.int("--candidates", default: fusion.semanticCandidates, range: 1...100_000)
        if let text = a.value("--feedback") {
            guard let (d, w) = countAndNumber(text) else {
                throw UsageError("--feedback expects DOCS,WEIGHT (e.g. 3,2), got \"\(text)\"")
            }
            fusion.feedbackDocuments = d
            fusion.feedbackWeight = w
        }
        if let text = a.value("--keyword-feedback") {
            let p = text.split(separator: ",").map(String.init)
            guard p.count == 3, let d = Int(p[0]), d >= 0, let t = Int(p[1]), t >= 0, let w = Float(p[2]), w >= 0 else {
                throw UsageError("--keyword-feedback expects DOCS,TERMS,WEIGHT (e.g. 1,20,0.4), got \"\(text)\"")
            }
            fusion.keywordFeedbackDocuments = d
            fusion.keywordFeedbackTerms = t
            fusion.keywordFeedbackWeight = w
        }
        fusion.queryTermWeighting = try nonNegative(a, "--term-weighting", default: fusion.queryTermWeighting)
        fusion.absentWordWeight = try nonNegative(a, "--absent-word-weight", default: fusion.absentWordWeight)
        if a.value("--keyword-candidates") != nil {
            fusion.keywordCandidates = try a.int("--keyword-candidates", default: 0, range: 0...100_000_000)
        }
        var components: Int?
        if a.value("--int8-components") != nil {
            guard a.flag("--int8") else { throw UsageError("--int8-components needs --int8") }
            let p = try a.int("--int8-components", default: 0, range: 32...8192)
            guard p % 32 == 0 else { throw UsageError("--int8-components expects a multiple of 32, got \(p)") }
            components = p
        }
        var bits: Int?
        if a.value("--scan-bits") != nil {
            guard a.flag("--int8") else { throw UsageError("--scan-bits needs --int8") }
            let b = try a.int("--scan-bits", default: 0, range: 4...8)
            guard b == 4 || b == 8 else { throw UsageError("--scan-bits expects 4 or 8, got \(b)") }
            bits = b
        }
        let exact = a.flag("--exact")
        if exact {
            guard !a.flag("--int8") && a.value("--keyword-candidates") == nil else {
                throw UsageError("--exact excludes --int8 and --keyword-candidates")
            }
            fusion.keywordCandidates = 0
        }
        var evaluation = RetrievalEvaluation(
            mode: mode, embedder: embedder, bm25: bm25, fusion: fusion, quantizedScan: !exact, quantizedScanComponents: components,
            quantizedScanMinimumRows: a.flag("--int8") ? 0 : nil)
        evaluation.quantizedScanBits = bits
        evaluation.minimumRelevance = try minimumRelevance(a)
        if let text = a.value("--answer-floor") {
            guard let p = Float(text), p >= 0, p <= 1 else {
                throw UsageError("--answer-floor expects a probability in 0…1, got \"\(text)\"")
            }
            evaluation.answerFloor = p
        }
        if let text = a.value("--title-weight") {
            guard let w = Float(text), w >= 0, w <= 100 else {
                throw UsageError("--title-weight expects a number in 0…100, got \"\(text)\"")
            }
            evaluation.titleEmbeddingWeight = w
        }
        evaluation.judgedDepth = try a.int("--features-depth", default: 10, range: 1...1000)
        if let foreign = a.value("--no-answer") {
            try await noAnswer(
                evaluation, dataset: dataset, foreign: foreign, split: a.value("--foreign-split") ?? "test", context: context)
            return .success
        }

        if a.value("--as-you-type") != nil {
            let n = try a.int("--as-you-type", default: 500, range: 1...1_000_000)
            let seed = try a.int("--seed", default: 42, range: 0...Int(Int32.max))
            let r = try await evaluation.asYouType(dataset, documents: n, seed: UInt64(seed))
            if context.json {
                context.printJSON([
                    "top3": (r.share * 1e4).rounded() / 1e4, "documents": r.documents, "found": r.found, "mode": mode.rawValue,
                ])
            } else {
                print(
                    String(format: "as-you-type: %d of %d documents in the top 3 (%.1f%%), mode ", r.found, r.documents, r.share * 100)
                        + mode.rawValue)
            }
            return .success
        }

        var texts: [String: String]?
        if let file = a.value("--queries") {
            var map: [String: String] = [:]
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: file)) } catch { throw CommandFailure("\(file): cannot read") }
            var number = 0
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                number += 1
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let id = o["_id"] as? String ?? (o["_id"] as? NSNumber)?.stringValue
                else {
                    throw CommandFailure("\(file):\(number): expected a JSON object with \"_id\" and \"text\"")
                }
                map[id] = o["text"] as? String ?? ""
            }
            texts = map
        }
        let report = try await evaluation.run(dataset, queryTexts: texts)
        if let runFile = a.value("--run") {
            var out = ""
            for (qid, ranking) in report.run {
                for (i, (doc, score)) in ranking.enumerated() { out += "\(qid) Q0 \(doc) \(i + 1) \(score) sift\n" }
            }
            do { try out.write(toFile: runFile, atomically: false, encoding: .utf8) } catch {
                throw CommandFailure("\(runFile): cannot write")
            }
        }
        if let file = a.value("--features") { try writeFeatures(report, to: file) }
        func r4(_ x: Double) -> Double { (x * 1e4).rounded() / 1e4 }
        if context.json {
            context.printJSON([
                "ndcg@10": r4(report.ndcgAt10), "recall@100": r4(report.recallAt100), "mrr@10": r4(report.mrrAt10),
                "recall@10": r4(report.recallAt10), "ece": r4(report.calibrationError), "cut": report.cut, "empty": report.empty,
                "min_relevance": Double(evaluation.minimumRelevance),
                "queries": report.queries, "p50_ms": r4(report.p50Milliseconds), "p95_ms": r4(report.p95Milliseconds),
                "documents": report.documents, "mode": mode.rawValue, "split": dataset.split, "index_s": r4(report.indexSeconds),
            ])
        } else {
            print(
                "mode \(mode.rawValue)  "
                    + String(
                        format: "queries %d  ndcg@10 %.4f  recall@100 %.4f  mrr@10 %.4f  p50 %.2f ms  p95 %.2f ms", report.queries,
                        report.ndcgAt10, report.recallAt100, report.mrrAt10, report.p50Milliseconds, report.p95Milliseconds))
            print(
                String(
                    format:
                        "relevance: recall@10 %.4f  ECE %.4f over the top 10 (ten bins); %d results cut below %g; %d queries returned nothing",
                    report.recallAt10, report.calibrationError, report.cut, evaluation.minimumRelevance, report.empty))
        }
        return .success
    }

    /// `--all` or `--min-relevance P` (default: the library's).
    /// "N,X" with an integer N ≥ 0 and a number X ≥ 0, or nil.
    static func countAndNumber(_ text: String) -> (Int, Float)? {
        let p = text.split(separator: ",").map(String.init)
        guard p.count == 2, let n = Int(p[0]), n >= 0, let x = Float(p[1]), x >= 0 else { return nil }
        return (n, x)
    }

    /// The finite number ≥ 0 given as `name`, or `defaultValue`.
    static func nonNegative(_ a: ParsedArguments, _ name: String, default defaultValue: Float) throws -> Float {
        let x = try a.float(name, default: defaultValue)
        guard x >= 0, x.isFinite else { throw UsageError("\(name) expects a number ≥ 0, got \"\(a.value(name) ?? "")\"") }
        return x
    }

    static func minimumRelevance(_ a: ParsedArguments) throws -> Float {
        if let text = a.value("--min-relevance") {
            guard !a.flag("--all") else { throw UsageError("give --all or --min-relevance, not both") }
            guard let p = Float(text), p >= 0, p <= 1 else {
                throw UsageError("--min-relevance expects a probability in 0…1, got \"\(text)\"")
            }
            return p
        }
        return a.flag("--all") ? 0 : SearchQuery.defaultMinimumRelevance
    }

    /// `--no-answer DIR`: `foreign`'s judged queries searched in `dataset`'s corpus.
    static func noAnswer(
        _ evaluation: RetrievalEvaluation, dataset: BEIRDataset, foreign directory: String, split: String, context: CommandContext
    ) async throws {
        let foreign: BEIRDataset
        do { foreign = try BEIRDataset(directory: URL(fileURLWithPath: directory), split: split) } catch {
            throw CommandFailure("\(error)")
        }
        let r = try await evaluation.noAnswer(dataset, foreign: foreign)
        let minimum = Double(evaluation.minimumRelevance)
        if context.json {
            context.printJSON([
                "no_answer": (r.share * 1e4).rounded() / 1e4, "queries": r.queries, "empty": r.empty, "mode": evaluation.mode.rawValue,
                "min_relevance": minimum,
                "best_relevance": r.bestRelevance.map { ["query": $0.query, "relevance": Double($0.relevance)] as [String: Any] },
            ])
        } else {
            print(
                String(
                    format: "no answer: %d of %d foreign queries returned nothing (%.1f%%) at minimum relevance %g, mode ", r.empty,
                    r.queries, r.share * 100, minimum) + evaluation.mode.rawValue)
        }
    }

    /// `--features FILE`: each judged result and what its relevance read, as TSV.
    static func writeFeatures(_ report: RetrievalEvaluation.Report, to file: String) throws {
        func f(_ x: Float?) -> String { x.map { String(format: "%.6f", $0) } ?? "" }
        var out =
            "query\tdocument\trank\tgrade\trelevance\tkeyword\tcoverage\tcosine\tkeyword_score\tattainable\tquery_weight\tmatched_weight\tquery_terms\tmatched_terms\n"
        for j in report.judged {
            let e = j.evidence ?? RelevanceModel.Evidence()
            out +=
                "\(j.query)\t\(j.document)\t\(j.rank)\t\(j.grade)\t\(f(j.relevance))\t\(f(e.keyword))\t\(f(e.coverage))\t\(f(e.cosine))\t"
                + "\(f(e.keywordScore))\t\(f(e.attainable))\t\(f(e.queryWeight))\t\(f(e.matchedWeight))\t\(e.queryTerms)\t\(e.matchedTerms)\n"
        }
        do { try out.write(toFile: file, atomically: false, encoding: .utf8) } catch { throw CommandFailure("\(file): cannot write") }
    }
}
