import CBLAS
import Foundation
import Sift
import SiftEvaluation

/// Quality figures of a model: similarity benchmarks and BEIR retrieval (nDCG@10 as
/// ../shared/tools/beir_eval.py computes it: graded gains, log2 discount, queries with a
/// positive judgment).
enum Evaluation {
    static let similarityFiles = ["stsb_dev", "sick_trial", "wordsim353", "simlex999"]

    static func similarity(_ embedder: some Embedder, directory: String, files: [String] = similarityFiles)
        -> [(String, SimilarityEvaluation.Result)]
    {
        var out: [(String, SimilarityEvaluation.Result)] = []
        for f in files {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(f + ".tsv")
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            do { out.append((f, try SimilarityEvaluation.evaluate(file: url, with: embedder))) } catch {
                log("similarity \(f): \(error)")
            }
        }
        return out
    }

    struct BEIR {
        var docIDs: [String]
        var docTexts: [String]
        var queries: [(id: String, text: String)]
        var qrels: [String: [String: Int]]

        init(directory: String, split: String, queriesFile: String? = nil) throws {
            func jsonl(_ path: String) throws -> [[String: Any]] {
                try readLines(path).filter { !$0.isEmpty }.map {
                    guard let o = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] else {
                        throw TrainError("\(path): not a JSON object line")
                    }
                    return o
                }
            }
            var ids: [String] = []
            var texts: [String] = []
            for o in try jsonl(directory + "/corpus.jsonl") {
                ids.append("\(o["_id"] ?? "")")
                texts.append("\(o["title"] as? String ?? "") \(o["text"] as? String ?? "")")
            }
            var qrels: [String: [String: Int]] = [:]
            for (n, line) in try readLines(directory + "/qrels/\(split).tsv").enumerated() where n > 0 {
                let f = line.split(separator: "\t")
                guard f.count >= 3 else { continue }
                qrels[String(f[0]), default: [:]][String(f[1])] = Int(Double(f[2]) ?? 0)
            }
            var queries: [(String, String)] = []
            for o in try jsonl(queriesFile ?? directory + "/queries.jsonl") {
                let id = "\(o["_id"] ?? "")"
                if let rel = qrels[id], rel.values.contains(where: { $0 > 0 }) {
                    queries.append((id, o["text"] as? String ?? ""))
                }
            }
            self.docIDs = ids
            self.docTexts = texts
            self.queries = queries.map { (id: $0.0, text: $0.1) }
            self.qrels = qrels
        }
    }

    static func embedAll(_ embedder: some Embedder, _ texts: [String]) -> [Float] {
        let d = embedder.dimension
        var out = [Float](repeating: 0, count: texts.count * d)
        out.withUnsafeMutableBufferPointer { buf in
            let box = UnsafeSendable(buf)
            DispatchQueue.concurrentPerform(iterations: 2) { part in
                let buf = box.value
                for i in stride(from: part, to: texts.count, by: 2) {
                    embedder.embed(texts[i], into: UnsafeMutableBufferPointer(rebasing: buf[(i * d)..<((i + 1) * d)]))
                }
            }
        }
        return out
    }

    /// Document vectors for a corpus (cache them across query sets).
    static func ndcg(_ embedder: some Embedder, _ data: BEIR, docVectors: [Float]? = nil) -> (ndcg: Double, queries: Int) {
        let docs = docVectors ?? embedAll(embedder, data.docTexts)
        let qv = embedAll(embedder, data.queries.map(\.text))
        return ndcg(queryVectors: qv, docVectors: docs, dimension: embedder.dimension, data)
    }

    /// nDCG@10 of ranking `data`'s documents by dot product, vectors given.
    static func ndcg(queryVectors qv: [Float], docVectors docs: [Float], dimension d: Int, _ data: BEIR) -> (ndcg: Double, queries: Int) {
        let nq = data.queries.count
        let nd = data.docIDs.count
        var scores = [Float](repeating: 0, count: nq * nd)
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasTrans, Int32(nq), Int32(nd), Int32(d),
            1, qv, Int32(d), docs, Int32(d), 0, &scores, Int32(nd))
        var total = 0.0
        for (qi, q) in data.queries.enumerated() {
            let rel = data.qrels[q.id] ?? [:]
            let row = scores[(qi * nd)..<((qi + 1) * nd)]
            let top = row.indices.sorted {
                row[$0] > row[$1] || (row[$0] == row[$1] && data.docIDs[$0 - qi * nd] > data.docIDs[$1 - qi * nd])
            }.prefix(10)
            var dcg = 0.0
            for (rank, idx) in top.enumerated() {
                let g = rel[data.docIDs[idx - qi * nd]] ?? 0
                if g > 0 { dcg += Double(g) / log2(Double(rank + 2)) }
            }
            let ideal = rel.values.filter { $0 > 0 }.sorted(by: >).prefix(10)
            var idcg = 0.0
            for (rank, g) in ideal.enumerated() { idcg += Double(g) / log2(Double(rank + 2)) }
            total += idcg > 0 ? dcg / idcg : 0
        }
        return (nq > 0 ? total / Double(nq) : 0, nq)
    }

    /// 30-word texts cut from consecutive lines of running text (stop words included, as in app
    /// content), deterministic.
    static func thirtyWordTexts(from lines: [String], count: Int = 1000) -> [String] {
        var texts: [String] = []
        var current: [Substring] = []
        var i = 0
        while texts.count < count && !lines.isEmpty {
            for w in lines[i % lines.count].split(separator: " ") {
                current.append(w)
                if current.count == 30 {
                    texts.append(current.joined(separator: " "))
                    current = []
                }
            }
            i += 97  // spread over the file
        }
        return texts
    }

    /// CPU time of the calling thread, in seconds (immune to other processes on a shared machine).
    static func threadCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Texts per second of thread CPU time embedding `texts` on the calling thread.
    static func speed(_ embedder: some Embedder, texts: [String], count: Int = 20000) -> Double {
        var out = [Float](repeating: 0, count: embedder.dimension)
        var sink: Float = 0
        let start = threadCPUTime()
        out.withUnsafeMutableBufferPointer { buf in
            for i in 0..<count {
                embedder.embed(texts[i % texts.count], into: buf)
                sink += buf[0]
            }
        }
        let t = threadCPUTime() - start
        if sink.isNaN { log("nan") }
        return Double(count) / t
    }
}
