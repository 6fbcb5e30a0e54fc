import Foundation
import Sift
import SiftCommandLine

// sift-train: distils the Sift hashed n-gram embedder from the teacher cache of Models/pipeline.
// Options: `sift-train COMMAND --help` (TrainCommandLine.swift).
//
//   sift-train train --corpus DIR --out MODEL [--log FILE] [options]   fit, quantise, evaluate, write
//   sift-train eval --model MODEL [--similarity DIR] [--beir DIR] [--split S] [--typo DIR]...
//   sift-train speed --model MODEL [--text FILE]                       30-word texts/s, one thread

func report(_ embedder: some Embedder, label: String, options: Options, full: Bool) throws {
    var parts: [String] = []
    if let dir = options.string("similarity") {
        let files = full ? Evaluation.similarityFiles : ["stsb_dev", "sick_trial", "wordsim353", "simlex999"]
        for (name, r) in Evaluation.similarity(embedder, directory: dir, files: files) {
            parts.append(String(format: "%@ %.4f (%d)", name, r.spearman, r.pairs))
        }
    }
    for dir in options.all("beir") {
        let name = (dir as NSString).lastPathComponent
        for split in options.all("split").isEmpty ? ["train"] : options.all("split") {
            guard FileManager.default.fileExists(atPath: dir + "/qrels/\(split).tsv") else { continue }
            let data = try Evaluation.BEIR(directory: dir, split: split)
            let docs = Evaluation.embedAll(embedder, data.docTexts)
            let clean = Evaluation.ndcg(embedder, data, docVectors: docs)
            parts.append(String(format: "beir %@ %@ ndcg@10 %.4f (%d q)", name, split, clean.ndcg, clean.queries))
            for k in (options.string("common") ?? "").split(separator: ",").compactMap({ Int($0) }) {
                let qv = Evaluation.embedAll(embedder, data.queries.map(\.text))
                for center in [false, true] where center || k > 0 {
                    let (q2, d2) = try CommonComponents.remove(
                        queries: qv, docs: docs, dimension: embedder.dimension, components: k, center: center)
                    let r = Evaluation.ndcg(queryVectors: q2, docVectors: d2, dimension: embedder.dimension, data)
                    parts.append(String(format: "common[%d%@] %@ %@ ndcg@10 %.4f", k, center ? ",centred" : "", name, split, r.ndcg))
                }
            }
            if let base = embedder as? HashedNGramEmbedder {
                for p in (options.string("term-weighting") ?? "").split(separator: ",").compactMap({ Float($0) }) {
                    let weighted = TermWeightedEmbedder(base: base, documents: data.docTexts, power: p)
                    let r = Evaluation.ndcg(weighted, data)
                    parts.append(String(format: "idf^%.2f %@ %@ ndcg@10 %.4f", p, name, split, r.ndcg))
                    let queryOnly = Evaluation.ndcg(weighted, data, docVectors: docs)
                    parts.append(String(format: "query-idf^%.2f %@ %@ ndcg@10 %.4f", p, name, split, queryOnly.ndcg))
                    if let path = options.string("zipf") {
                        var zipf: [String: Float] = [:]
                        for line in try readLines(path) {
                            let f = line.split(separator: "\t")
                            if f.count == 2, let z = Float(f[1]) { zipf[String(f[0])] = z }
                        }
                        let general = TermWeightedEmbedder(base: base, zipf: zipf, power: p)
                        let g = Evaluation.ndcg(general, data)
                        parts.append(String(format: "zipf-idf^%.2f %@ %@ ndcg@10 %.4f", p, name, split, g.ndcg))
                    }
                }
            }
            if full && dir == options.all("beir").first {  // the typo'd queries are the first collection's
                for typoDir in options.all("typo") {
                    let t = try Evaluation.BEIR(directory: dir, split: split, queriesFile: typoDir + "/queries.jsonl")
                    let r = Evaluation.ndcg(embedder, t, docVectors: docs)
                    parts.append(
                        String(
                            format: "typo[%@] %@ ndcg@10 %.4f retention %.3f",
                            (typoDir as NSString).lastPathComponent, split, r.ndcg, r.ndcg / clean.ndcg))
                }
            }
        }
    }
    log("eval \(label): " + parts.joined(separator: " | "))
}

func train(_ o: Options) throws {
    let started = Date()
    let corpus = try o.require("corpus")
    let out = try o.require("out")
    if let path = o.string("log") { try TrainLog.shared.open(path, append: o.string("log-append") == "1") }
    let dim = try o.int("dim", 256)
    let bits = try o.int("bucket-bits", 17)
    // Both lists are checked here, before the fit, so that a misspelt word does not cost one.
    let featuredWords = (o.string("featured-words") ?? "").split(separator: ",").map(String.init)
    if let w = featuredWords.first(where: { !StopWords.english.contains($0) }) {
        throw TrainError("--featured-words: \"\(w)\" is not on the stop-word list (a word off it has features already)")
    }
    let extendWords = o.string("extend-words").map { $0.split(separator: ",").map(String.init) }
    if let w = extendWords?.first(where: { !StopWords.english.subtracting(featuredWords).contains($0) }) {
        throw TrainError("--extend-words: \"\(w)\" is not on the model's stop-word list (a word off it has features already)")
    }
    var featurizer = NGramFeaturizer(
        bucketBits: bits, minN: try o.int("min-n", 3), maxN: try o.int("max-n", 5),
        usesBigrams: !o.flags.contains("no-bigrams"),
        wordWeight: try o.float("word-weight", 1), charWeight: try o.float("char-weight", 1),
        bigramWeight: try o.float("bigram-weight", 1),
        stopWords: StopWords.english.subtracting(featuredWords).sorted(),
        nGramsOnlyForUnknownWords: o.flags.contains("ngrams-for-unknown-only"))
    let solver = CGLSSolver(
        lambda: try o.float("lambda", 1e-3), iterations: try o.int("iterations", 60),
        checkpoints: (o.string("checkpoints") ?? "").split(separator: ",").compactMap { Int($0) },
        chunkWidth: try o.int("chunk-width", 64))
    let typoTop = try o.int("typo-top", 60000)
    let typoCopies = try o.int("typo-copies", 2)
    let typoWeight = try o.float("typo-weight", 0.5)
    let wordWeight = try o.float("word-example-weight", 1)
    let sentenceWeight = try o.float("sentence-example-weight", 1)
    let documentWeight = try o.float("document-example-weight", 1)
    let pairWeight = try o.float("pair-weight", 1)
    let seed = UInt64(try o.int("seed", 20_261_202))
    let center = !o.flags.contains("no-center")
    let whitening = try o.float("whiten", 0)
    guard (0...2).contains(whitening) else { throw TrainError("--whiten expects a number in 0...2") }
    let poolingPower = try o.float("pooling-power", 1)
    guard (0...1).contains(poolingPower) else { throw TrainError("--pooling-power expects a number in 0...1") }
    log("sift-train train: \(CommandLine.arguments.dropFirst().joined(separator: " "))")
    log(
        "config: dim \(dim), buckets 2^\(bits), n-grams \(featurizer.minN)...\(featurizer.maxN), bigrams \(featurizer.usesBigrams), kind weights word \(featurizer.wordWeight) char \(featurizer.charWeight) bigram \(featurizer.bigramWeight), lambda \(solver.lambda), iterations \(solver.iterations), typos top \(typoTop) × \(typoCopies) weight \(typoWeight), example weights word \(wordWeight) sentence \(sentenceWeight) document \(documentWeight) pair \(pairWeight), centre \(center), seed \(seed)"
    )

    // Teacher cache.
    var t0 = Date()
    let wordRows = try readLines(corpus + "/words.tsv").map { String($0.split(separator: "\t", maxSplits: 1).first ?? "") }
    var wordVectors = try readMatrix(corpus + "/words.f32", columns: 384)
    var sentences = try readLines(corpus + "/sentences.txt")
    var sentenceVectors = try readMatrix(corpus + "/sentences.f32", columns: 384)
    guard wordVectors.count == wordRows.count * 384, sentenceVectors.count == sentences.count * 384 else {
        throw TrainError("teacher cache rows disagree with the text files in \(corpus)")
    }
    // Extra teacher-embedded text (e.g. the documents of the corpus to be searched, never its
    // queries): TEXT file + TEXT-with-.f32 extension, as teacher.py writes them.
    func extra(_ key: String) throws -> (texts: [String], vectors: [Float]) {
        var texts: [String] = []
        var vectors: [Float] = []
        for path in o.all(key) {
            let lines = try readLines(path).map { String($0.split(separator: "\t", maxSplits: 1).first ?? "") }
            let v = try readMatrix((path as NSString).deletingPathExtension + ".f32", columns: 384)
            guard v.count == lines.count * 384 else { throw TrainError("\(path): \(lines.count) lines but \(v.count / 384) teacher rows") }
            texts += lines
            vectors += v
            log("extra \(key): \(path): \(lines.count) rows")
        }
        return (texts, vectors)
    }
    let extraWords = try extra("extra-words")
    let extraSentences = try extra("extra-sentences")
    // Whole documents (title + text, as the index embeds them), fitted with their own weight.
    let extraDocuments = try extra("extra-documents")
    var words = wordRows
    if let limit = o.string("word-limit").flatMap(Int.init), limit < words.count {
        words = Array(words.prefix(limit))
        wordVectors = Array(wordVectors.prefix(limit * 384))
    }
    if let limit = o.string("sentence-limit").flatMap(Int.init), limit < sentences.count {
        let step = Double(sentences.count) / Double(limit)
        let pick = (0..<limit).map { Int(Double($0) * step) }
        sentences = pick.map { sentences[$0] }
        sentenceVectors = pick.flatMap { sentenceVectors[($0 * 384)..<(($0 + 1) * 384)] }
    }
    words += extraWords.texts
    wordVectors += extraWords.vectors
    sentences += extraSentences.texts
    sentenceVectors += extraSentences.vectors
    sentences += extraDocuments.texts
    sentenceVectors += extraDocuments.vectors
    let firstDocument = sentences.count - extraDocuments.texts.count
    // Short → long pairs: the short text is fitted to its long text's teacher vector.
    var pairs: [(short: String, row: Int)] = []
    if !o.all("pairs").isEmpty {
        var rowOf: [String: Int] = [:]
        for (j, s) in sentences.enumerated() { rowOf[PairExamples.key(s)] = words.count + j }
        let genres = Set((o.string("pair-genres") ?? "").split(separator: ",").map(String.init))
        for path in o.all("pairs") {
            let read = try PairExamples(path: path, rowOf: rowOf, genres: genres)
            pairs += read.examples
            log(
                "pairs: \(path): \(read.read) read, \(read.examples.count) matched, \(read.unmatched) long texts not among the training texts, \(read.skippedGenre) of other genres"
            )
        }
    }
    let nW = words.count
    let nS = sentences.count
    log("teacher cache: \(nW) words, \(nS) sentences (\(elapsed(t0)))")

    // PCA of the teacher space.
    t0 = Date()
    let all = wordVectors + sentenceVectors
    wordVectors = []
    sentenceVectors = []
    let pca = try PCA(rows: all, count: nW + nS, dimension: 384, keep: dim, center: center)
    var targets = pca.project(all, count: nW + nS)
    log(
        String(
            format: "pca: %d → %d dims keeps %.2f%% of the variance (%@); top eigenvalues %@",
            384, dim, pca.explained * 100, elapsed(t0),
            pca.eigenvalues.prefix(5).map { String(format: "%.4f", $0) }.joined(separator: " ")))
    if whitening > 0 {
        let scales = pca.whiteningScales(power: whitening)
        for i in 0..<(nW + nS) { for k in 0..<dim { targets[i * dim + k] *= scales[k] } }
        log(String(format: "whitening: power %.2f, component %d scaled by %.3f (the first by 1)", whitening, dim, scales[dim - 1]))
    }

    // Vocabulary filter: the unigrams of every training text and the bigrams seen at least
    // --bigram-min-count times (typo'd copies are not added: they must look unseen).
    let filterBits = try o.int("filter-bits", 24)
    let bigramMin = try o.int("bigram-min-count", 2)
    let unigramMin = try o.int("unigram-min-count", 1)
    if filterBits > 0 {
        t0 = Date()
        var filter = FeatureFilter(log2Bits: filterBits, probes: try o.int("filter-probes", 3))
        var bigramCounts: [UInt64: Int32] = [:]
        var unigramCounts: [UInt64: Int32] = [:]
        var unigrams = 0
        for (n, text) in (words + sentences).enumerated() {
            var previous: UInt64? = nil
            featurizer.forEachTerm(in: text) { term in
                let h = NGramFeaturizer.unigramHash(term)
                // A word of the word list always; a word of the sentences once seen often enough.
                if n < words.count || unigramMin <= 1 {
                    filter.insert(h)
                } else {
                    unigramCounts[h, default: 0] += 1
                }
                unigrams += 1
                if let p = previous { bigramCounts[NGramFeaturizer.bigramHash(prefix: p, second: term), default: 0] += 1 }
                previous = featurizer.bigramPrefix(term)
            }
        }
        var unigramsKept = 0
        for (h, c) in unigramCounts where Int(c) >= unigramMin {
            filter.insert(h)
            unigramsKept += 1
        }
        if unigramMin > 1 {
            log(
                "vocabulary filter: \(unigramsKept) of \(unigramCounts.count) distinct sentence words seen ≥ \(unigramMin) times, beside the word list"
            )
        }
        var kept = 0
        if featurizer.usesBigrams {
            for (h, c) in bigramCounts where Int(c) >= bigramMin {
                filter.insert(h)
                kept += 1
            }
        }
        featurizer = featurizer.with(vocabulary: filter)
        log(
            String(
                format:
                    "vocabulary filter: 2^%d bits, %d probes; %d bigrams seen ≥ %d times of %d distinct; fill %.3f (false positives ≈ %.4f) (%@)",
                filterBits, filter.probes, kept, bigramMin, bigramCounts.count, filter.fillRatio,
                pow(filter.fillRatio, Double(filter.probes)), elapsed(t0)))
    }

    // Design.
    t0 = Date()
    var set = TrainingSet(featurizer: featurizer, poolingPower: poolingPower)
    if poolingPower != 1 { log("pooling power \(poolingPower): a text's rows summed and divided by (terms)^\(poolingPower)") }
    var skipped = 0
    for (i, w) in words.enumerated() where !set.add(w, target: i, weight: wordWeight) { skipped += 1 }
    let known = Set(wordRows)
    var typos = TypoGenerator(random: SplitMix64(seed: seed))
    var typoCount = 0
    // Typo'd copies of the most frequent words and of every extra (domain) word.
    let baseWords = nW - extraWords.texts.count
    for i in Array(0..<min(typoTop, baseWords)) + Array(baseWords..<nW) where words[i].utf8.count >= 4 {
        let w = words[i]
        for _ in 0..<typoCopies {
            if let t = typos.typo(w), !known.contains(t), set.add(t, target: i, weight: typoWeight) { typoCount += 1 }
        }
    }
    // N-gram-only copies: the word without its unigram row, as a typo'd or unseen word looks.
    let ngramTop = try o.int("ngram-only-top", 0)
    let ngramWeight = try o.float("ngram-only-weight", 0.5)
    var ngramCount = 0
    for i in Array(0..<min(ngramTop, baseWords)) + Array(ngramTop > 0 ? baseWords..<nW : nW..<nW) where words[i].utf8.count >= 4 {
        if set.addNGramsOnly(words[i], target: i, weight: ngramWeight) { ngramCount += 1 }
    }
    if ngramCount > 0 { log("n-gram-only copies: \(ngramCount) words, weight \(ngramWeight)") }
    for (j, s) in sentences.enumerated()
    where !set.add(s, target: nW + j, weight: j < firstDocument ? sentenceWeight : documentWeight) { skipped += 1 }
    let dropoutCopies = try o.int("dropout-copies", 0)
    if dropoutCopies > 0 {
        let keep = Double(try o.float("dropout-keep", 0.5))
        let minimumTerms = try o.int("dropout-min-terms", 4)
        let dropoutWeight = try o.float("dropout-weight", 0.5)
        guard keep > 0 && keep < 1 else { throw TrainError("--dropout-keep expects a number in (0, 1)") }
        var random = SplitMix64(seed: seed ^ 0xD50F)
        var dropoutCount = 0
        for (j, s) in sentences.enumerated() where j < firstDocument {
            for _ in 0..<dropoutCopies
            where set.addDropped(s, target: nW + j, weight: dropoutWeight, keep: keep, minimumTerms: minimumTerms, random: &random) {
                dropoutCount += 1
            }
        }
        log("dropout copies: \(dropoutCount) (keep \(keep), weight \(dropoutWeight))")
    }
    var pairCount = 0
    for p in pairs where set.add(p.short, target: p.row, weight: pairWeight) { pairCount += 1 }
    if !pairs.isEmpty { log("pair examples: \(pairCount), weight \(pairWeight)") }
    set.finish()
    log(
        "design: \(set.exampleCount) examples (\(typoCount) typo copies, \(skipped) texts without terms), \(set.termCount) distinct terms, \(set.featureNonZeros) non-zeros (\(elapsed(t0)))"
    )

    // Fit.
    t0 = Date()
    let outcome = solver.solve(set, targets: targets, dimension: dim, buckets: featurizer.bucketCount)
    for (it, h) in outcome.history.enumerated() where it < 5 || (it + 1) % 5 == 0 || it == outcome.history.count - 1 {
        log(String(format: "cgls iteration %3d: data %.2f ridge %.2f relative residual %.4f", it + 1, h.data, h.ridge, h.relative))
    }
    log("fit: \(elapsed(t0))")
    var table = outcome.table
    if o.flags.contains("rescaled-refit") {
        // A second fit with each example's length fitted by the first: its error then counts as
        // the angle to its target, not also its length (the cosine the model is used for).
        t0 = Date()
        let raw = set.fittedScales(table: table, targets: targets, dimension: dim)
        let sorted = raw.sorted()
        let clamped = raw.map { min(4, max(0.25, $0)) }
        log(
            String(
                format: "rescaled refit: fitted scales p10 %.3f p50 %.3f p90 %.3f, %d clamped to 0.25...4 (%@)",
                sorted[sorted.count / 10], sorted[sorted.count / 2], sorted[sorted.count * 9 / 10],
                zip(raw, clamped).filter { $0 != $1 }.count, elapsed(t0)))
        set.divideExampleScales(by: clamped)
        t0 = Date()
        let second = solver.solve(set, targets: targets, dimension: dim, buckets: featurizer.bucketCount)
        if let last = second.history.last {
            log(
                String(
                    format: "refit: data %.2f relative residual %.4f (the checkpoints above are the first fit's)",
                    last.data, last.relative))
        }
        log("refit: \(elapsed(t0))")
        table = second.table
    }
    let fitted = featurizer  // the checkpoints' tables are the fit's, before any --extend-words
    if let featured = extendWords {
        t0 = Date()
        let weights = [Float](repeating: wordWeight, count: nW) + (0..<nS).map { $0 < firstDocument ? sentenceWeight : documentWeight }
        let extended = try WordExtension(words: featured, lambda: solver.lambda, poolingPower: poolingPower).extend(
            table: &table, featurizer: featurizer, texts: words + sentences, targets: targets, weights: weights, dimension: dim)
        featurizer = extended.featurizer
        log(
            "extended words \(featured.joined(separator: ",")): \(extended.examples) examples, buckets \(extended.buckets) (\(elapsed(t0)))"
        )
    }

    // The signature of unknown words is not fitted: it is the written model's, and every figure's.
    let signature = try o.float("unknown-word-signature", 0)
    guard signature == 0 || (signature > 0 && signature <= 64 && featurizer.vocabulary != nil) else {
        throw TrainError("--unknown-word-signature expects a number in 0...64 and a vocabulary filter (--filter-bits > 0)")
    }
    featurizer = featurizer.with(unknownWordSignature: signature)
    for snap in outcome.snapshots {
        let e = HashedNGramEmbedder(
            featurizer: fitted.with(unknownWordSignature: signature), dimension: dim, weights: snap.table, quantized: false)
        try report(e, label: "fp32 @\(snap.iteration)", options: o, full: false)
    }
    let fp32 = HashedNGramEmbedder(featurizer: featurizer, dimension: dim, weights: table, quantized: false)
    try report(fp32, label: "fp32 @\(solver.iterations)", options: o, full: false)
    let name = o.string("name") ?? "sift-ngram-\(dim)"
    let int8 = HashedNGramEmbedder(featurizer: featurizer, dimension: dim, weights: table, quantized: true, name: name)
    try int8.write(to: URL(fileURLWithPath: out))
    let size = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
    log(String(format: "wrote %@: %.1f MiB, fingerprint %@", out, Double(size) / 1_048_576, int8.fingerprint))
    let loaded = try HashedNGramEmbedder(contentsOf: URL(fileURLWithPath: out))
    try report(loaded, label: "int8 (written file)", options: o, full: true)
    log(
        "speed: \(Int(Evaluation.speed(loaded, texts: Evaluation.thirtyWordTexts(from: sentences)))) texts/s per CPU-second (30-word texts, one thread)"
    )
    log("total: \(elapsed(started))")
}

func evaluate(_ o: Options) throws {
    if let path = o.string("log") { try TrainLog.shared.open(path, append: true) }
    let path = try o.require("model")
    let t0 = Date()
    var e = try HashedNGramEmbedder(contentsOf: URL(fileURLWithPath: path))
    log(
        String(
            format: "loaded %@ in %.1f ms: %@, dimension %d, buckets %d, unknown-word signature %g", path,
            Date().timeIntervalSince(t0) * 1000, e.fingerprint, e.dimension, e.featurizer.bucketCount,
            e.featurizer.unknownWordSignature))
    if let s = o.string("unknown-word-signature") {
        guard let value = Float(s), value >= 0, value <= 64, e.featurizer.vocabulary != nil || value == 0 else {
            throw TrainError("--unknown-word-signature expects a number in 0...64 and a model with a vocabulary filter, got \(s)")
        }
        e = e.with(unknownWordSignature: value)
        log("unknown-word signature set to \(value): \(e.fingerprint)")
    }
    if let out = o.string("write") {
        try e.write(to: URL(fileURLWithPath: out))
        log("wrote \(out): \(e.fingerprint)")
    }
    try report(e, label: (path as NSString).lastPathComponent, options: o, full: true)
}

func tune(_ o: Options) throws {
    if let path = o.string("log") { try TrainLog.shared.open(path, append: true) }
    let started = Date()
    log("sift-train tune: \(CommandLine.arguments.dropFirst().joined(separator: " "))")
    let source = try HashedNGramEmbedder(contentsOf: URL(fileURLWithPath: try o.require("model")))
    let out = try o.require("out")
    let d = source.dimension
    let featurizer = source.featurizer
    var table = [Float]()
    table.reserveCapacity(featurizer.bucketCount * d)
    for bucket in 0..<featurizer.bucketCount { table += source.row(bucket) }
    try report(source, label: "before", options: o, full: false)
    // The pairs, each a short text then its long text (both with terms, not the same text).
    var set = TrainingSet(featurizer: featurizer)
    let genres = Set((o.string("pair-genres") ?? "").split(separator: ",").map(String.init))
    let maxLong = try o.int("max-long-terms", 64)
    var read = 0
    for path in o.all("pairs") {
        read += try PairExamples.forEach(in: path, genres: genres) { short, long in
            var shortTerms = 0
            var longTerms = 0
            featurizer.forEachTerm(in: short) { _ in shortTerms += 1 }
            featurizer.forEachTerm(in: long) { _ in longTerms += 1 }
            guard shortTerms > 0, longTerms > 0, longTerms <= maxLong, PairExamples.key(short) != PairExamples.key(long) else { return }
            set.add(short, target: 0, weight: 1)
            set.add(long, target: 0, weight: 1)
        }.read
    }
    set.finish()
    log("tune: \(set.exampleCount / 2) pairs of \(read) read, \(set.termCount) distinct terms")
    var tuner = ContrastiveTuner()
    tuner.steps = try o.int("steps", 2000)
    tuner.batch = try o.int("batch", 256)
    tuner.learningRate = try o.float("lr", 0.002)
    tuner.temperature = try o.float("tau", 0.05)
    tuner.anchor = try o.float("anchor", 0)
    tuner.seed = UInt64(try o.int("seed", 20_261_207))
    guard tuner.batch >= 2, tuner.steps >= 1, tuner.learningRate > 0, tuner.temperature > 0, tuner.anchor >= 0 else {
        throw TrainError("tune expects --batch ≥ 2, --steps ≥ 1, --lr > 0, --tau > 0 and --anchor ≥ 0")
    }
    guard set.exampleCount / 2 >= tuner.batch else {
        throw TrainError("tune: \(set.exampleCount / 2) usable pairs, fewer than a batch (\(tuner.batch))")
    }
    tuner.tune(table: &table, set: set, dimension: d) { log($0) }
    let tuned = HashedNGramEmbedder(featurizer: featurizer, dimension: d, weights: table, quantized: true, name: source.name)
    try tuned.write(to: URL(fileURLWithPath: out))
    log("wrote \(out): \(tuned.fingerprint) (\(elapsed(started)))")
    let loaded = try HashedNGramEmbedder(contentsOf: URL(fileURLWithPath: out))
    try report(loaded, label: "tuned", options: o, full: false)
}

func speed(_ o: Options) throws {
    let e = try HashedNGramEmbedder(contentsOf: URL(fileURLWithPath: try o.require("model")))
    let lines = try readLines(o.string("text") ?? (NSHomeDirectory() + "/.cache/sift-train/corpus/sentences.txt"))
    let texts = Evaluation.thirtyWordTexts(from: lines)
    var features = 0
    for t in texts { e.featurizer.forEachFeature(in: t) { _, _, _ in features += 1 } }
    log("speed texts: \(texts.count) × 30 words, \(features / texts.count) features per text on average")
    for _ in 0..<3 {
        log(
            "speed: \(Int(Evaluation.speed(e, texts: texts, count: try o.int("count", 50000)))) texts/s per CPU-second (30-word texts, one thread)"
        )
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else {
    CommandLineTool.fail("expected a command: train, eval or speed\n\n" + TrainCommandLine.overview, program: "sift-train", status: .usage)
}
if name == "-h" || name == "--help" || name == "help" {
    print(TrainCommandLine.overview)
    exit(0)
}
guard let command = TrainCommandLine.commands.first(where: { $0.name == name }) else {
    let message = "unknown command '\(name)'; expected train, eval or speed\n\n" + TrainCommandLine.overview
    CommandLineTool.fail(message, program: "sift-train", status: .usage)
}
arguments.removeFirst()
await CommandLineTool.run(arguments, spec: command) { parsed in
    let options = Options(parsed: parsed)
    switch command.name {
    case "train": try train(options)
    case "eval": try evaluate(options)
    case "tune": try tune(options)
    default: try speed(options)
    }
    return .success
}
