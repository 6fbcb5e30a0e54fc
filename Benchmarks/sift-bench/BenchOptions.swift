import Foundation
import Sift
import SiftCommandLine

/// The command line of `sift-bench`.
struct BenchOptions {
    enum ModelChoice: Equatable {
        /// `HashedNGramEmbedder.bundled()`; semantic figures say "not measured: no model" when absent.
        case bundled
        case file(String)
        /// The model architecture (2^17 buckets, 256 dimensions, int8 rows) with seeded random
        /// weights: the real embedder's speed, none of its quality. Labelled in every output.
        case standIn
        case none
    }

    var sizes: [Int] = [1_000, 10_000, 100_000]
    var sizesGiven = false
    var corpus: String?
    var queries = 1_000
    /// Seconds of timed queries per mode and size before the rest are skipped (≥ 100 always run).
    var queryBudgetSeconds = 45.0
    var seed: UInt64 = 20_261_202
    var batch = 1_000
    var embedTexts = 20_000
    var teacherTexts = 1_000
    var openRuns = 3
    var json: String?
    var svg: String?
    var workDirectory: String?
    var keepWorkDirectory = false
    var model: ModelChoice = .bundled
    var teacher = true
    var teacherPython: String?
    var fts5 = true
    /// Also measure semantic and hybrid on the exact path (no quantized scan, every keyword match),
    /// and how much of its top 10 the default's holds.
    var exact = true
    var quick = false
    /// Query modes to measure (all by default).
    var modes: [String] = ["keyword", "semantic", "hybrid"]
    /// Write the corpus (largest size) as JSONL in Sift's item format and exit.
    var writeCorpus: String?
    /// Internal: run as the child that measures a cold open and its memory.
    var probeOpen: String?
    /// With --probe-open: then upsert this many new items and measure the memory again.
    var probeWrites = 0
    /// Internal: time the query set on an existing store (see QueryProfile).
    var profileQueries: String?
    var profileRepeat = 1
    /// With --profile-queries: open the store on the exact path instead of the default.
    var profileExact = false
    var profileMemory = false
    var profileHalf = false
    /// Hybrid's bound on keyword candidates (``FusionParameters/keywordCandidates``); 0: none;
    /// the library's default, bounded by the index's size, unless given.
    var keywordCandidates = FusionParameters.automaticKeywordCandidates
    /// The quantized copy's coded components (``SearchIndex/Configuration/quantizedScanComponents``);
    /// nil: the library's default (the model's choice).
    var quantizedComponents: Int?
    /// Bits a code of the quantized copy (``SearchIndex/Configuration/quantizedScanBits``, 8 or
    /// 4); nil: the library's default (the model's choice).
    var quantizedBits: Int?

    /// The options that choose the quantized copy, for a child process that opens the same store.
    var scanArguments: [String] {
        (quantizedComponents.map { ["--int8-components", String($0)] } ?? []) + (quantizedBits.map { ["--scan-bits", String($0)] } ?? [])
    }

    /// A configuration's quantized copy as these options choose it.
    func applyScan(to configuration: inout SearchIndex.Configuration) {
        configuration.quantizedScanComponents = quantizedComponents
        configuration.quantizedScanBits = quantizedBits
    }

    /// The fusion every index of the run ranks with: the library's default, with the bound.
    var fusion: FusionParameters {
        var f = FusionParameters.default
        f.keywordCandidates = keywordCandidates
        return f
    }
    var profileScan = false
    var profileNominators = false
    var profilePostings = false
    var profileDump: String?

    /// The command line: every option, its value and its help (`sift-bench --help`).
    static let spec = CommandSpec(
        program: "sift-bench",
        summary: """
            Measures Sift at each corpus size N — embedding, indexing, cold open, query latency (keyword, semantic, hybrid), \
            memory and disk — beside SQLite FTS5, the memory-bandwidth bound of the vector scan and the teacher model, in one \
            run. Table on stdout, progress on stderr.
            """,
        options: [
            option("--sizes", "N,N,...", "corpus sizes (default 1000,10000,100000; 1000000 only when asked)"),
            option(
                "--corpus", "FILE|DIR",
                """
                index a JSONL file (Sift items) or a BEIR directory (corpus.jsonl) instead of the synthetic corpus; \
                N = its size, or each --sizes value up to it
                """),
            option("--queries", "N", "queries per mode and size (default 1000)"),
            option(
                "--query-budget", "S",
                """
                stop a mode after S seconds of queries at one size, keeping at least 100 (default 45; the row says how many ran)
                """),
            option("--seed", "N", "seed of the corpus and the queries (default 20261202)"),
            option("--batch", "N", "items per upsert / per FTS5 transaction (default 1000)"),
            option("--embed-texts", "N", "30-word texts for the embedding figure (default 20000)"),
            option("--teacher-texts", "N", "of those, how many the teacher embeds (default 1000)"),
            option("--open-runs", "N", "cold opens per size, each in a fresh process (default 3)"),
            option("--json", "FILE", "write every figure as JSON"),
            option("--svg", "FILE", "write a log-log plot of p50 latency against N"),
            option("--model", "FILE", "use this model file instead of the bundled one"),
            option("--stand-in-model", nil, "use the model architecture with random weights (speed only)"),
            option("--no-model", nil, "keyword figures only"),
            option("--no-teacher", nil, "skip the teacher peer"),
            option(
                "--teacher-python", "PATH",
                """
                the Python of the teacher venv (default $SIFT_TRAIN_CACHE/venv or ~/.cache/sift-train/venv)
                """),
            option("--no-fts5", nil, "skip the SQLite FTS5 peer"),
            option(
                "--no-exact", nil,
                "skip semantic and hybrid on the exact path (no quantized scan, every keyword match), measured beside the default"),
            option(
                "--int8-components", "P",
                """
                the quantized copy codes only each vector's first P components (a multiple of 32; \
                Configuration.quantizedScanComponents)
                """),
            option(
                "--scan-bits", "B",
                "bits a code of the quantized copy, 8 or 4 (default: the library's, 4 for the bundled model's leading half)"),
            option("--modes", "M,M,...", "query modes to measure (default keyword,semantic,hybrid)"),
            option(
                "--keyword-candidates", "N",
                """
                hybrid keeps the keyword matches scoring at least the N-th best BM25F (and those whose title may begin with \
                the query) as candidates (FusionParameters.keywordCandidates; 0: every match; default: the library's, \
                bounded by the index's size)
                """),
            option("--work-dir", "DIR", "where the stores are built (default: a fresh temporary directory)"),
            option("--keep", nil, "keep the work directory"),
            option("--write-corpus", "FILE", "write the corpus at the largest size as JSONL (Sift items) and exit"),
            option("--quick", nil, "a smoke run in seconds: sizes 200,1000, 100 queries, few texts"),
            OptionSpec(names: ["-h", "--help"], help: "show this help"),
            OptionSpec(names: ["--probe-open"], value: "DIR", help: "internal: the child measuring a cold open", hidden: true),
            OptionSpec(
                names: ["--probe-writes"], value: "N",
                help: "with --probe-open: then upsert N new items and print the resident memory again (rss_after_writes)", hidden: true),
        ],
        sections: [HelpSection(title: "profiling (no table; see Benchmarks/RESULTS.md)", options: profiling)],
        repeats: .lastWins, digitSeparators: true)

    static let profiling = [
        option("--profile-queries", "DIR", "time the size's queries in each --modes mode on the store DIR (left by --keep --work-dir)"),
        option("--profile-repeat", "N", "with --profile-queries: N passes (default 1)"),
        option(
            "--profile-exact", nil,
            "with --profile-queries: open the store on the exact path (no quantized scan, every keyword match) instead of the default"),
        option("--profile-dump", "FILE", "with --profile-queries: write every query's results instead"),
        option("--profile-fp16", nil, "with --profile-queries: keep the vectors as fp16"),
        option("--profile-memory", nil, "resident bytes per item of each in-memory structure"),
        option("--profile-scan", nil, "the bare fp32, fp16 and int8 scans beside one read of the matrix"),
        option("--profile-postings", nil, "postings touched per query and prefix expansions"),
        option(
            "--profile-nominators", nil,
            """
            how many of the exact top 10 and top 100 the int8 copy (all components, or the first 64 or 128), or sign bits, \
            nominate among 500…8,000 nominees, on the model's vectors of the corpus
            """),
    ]

    private static func option(_ name: String, _ value: String?, _ help: String) -> OptionSpec {
        OptionSpec(names: [name], value: value, help: help)
    }

    /// The arguments that make the child process load the same model.
    var modelArguments: [String] {
        switch model {
        case .bundled: []
        case .file(let path): ["--model", path]
        case .standIn: ["--stand-in-model"]
        case .none: ["--no-model"]
        }
    }
}

extension BenchOptions {
    /// Builds the options from a parsed command line (``spec``); a later `--model`,
    /// `--stand-in-model` or `--no-model` overrides an earlier one.
    init(_ p: ParsedArguments) throws(UsageError) {
        if let sizes = try p.ints("--sizes", range: 1...Int.max) {
            self.sizes = Array(Set(sizes)).sorted()
            sizesGiven = true
        }
        corpus = p.value("--corpus")
        queries = try p.int("--queries", default: queries, range: 1...Int.max)
        queryBudgetSeconds = try p.int("--query-budget", range: 1...Int.max).map(Double.init) ?? queryBudgetSeconds
        seed = UInt64(try p.int("--seed", default: Int(seed), range: 0...Int.max))
        batch = try p.int("--batch", default: batch, range: 1...Int.max)
        embedTexts = try p.int("--embed-texts", default: embedTexts, range: 1...Int.max)
        teacherTexts = try p.int("--teacher-texts", default: teacherTexts, range: 1...Int.max)
        openRuns = try p.int("--open-runs", default: openRuns, range: 1...Int.max)
        json = p.value("--json")
        svg = p.value("--svg")
        switch p.last(of: ["--model", "--stand-in-model", "--no-model"]) {
        case "--model": model = .file(p.value("--model") ?? "")
        case "--stand-in-model": model = .standIn
        case "--no-model": model = .none
        default: model = .bundled
        }
        teacher = !p.flag("--no-teacher")
        teacherPython = p.value("--teacher-python")
        fts5 = !p.flag("--no-fts5")
        exact = !p.flag("--no-exact")
        if p.value("--keyword-candidates") != nil {
            keywordCandidates = try p.int("--keyword-candidates", default: 0, range: 0...Int.max)
        }
        if let components = try p.int("--int8-components", range: 32...Int.max) {
            guard components % 32 == 0 else { throw UsageError("--int8-components expects a multiple of 32, got \(components)") }
            quantizedComponents = components
        }
        if let bits = try p.int("--scan-bits", range: 4...8) {
            guard bits == 4 || bits == 8 else { throw UsageError("--scan-bits expects 4 or 8, got \(bits)") }
            quantizedBits = bits
        }
        let known = ["keyword", "semantic", "hybrid"]
        if let chosen = try p.choices("--modes", from: known) { modes = known.filter(chosen.contains) }
        workDirectory = p.value("--work-dir")
        keepWorkDirectory = p.flag("--keep")
        quick = p.flag("--quick")
        writeCorpus = p.value("--write-corpus")
        try readProfiling(p)
        if quick {
            if !sizesGiven { sizes = [200, 1_000] }
            if p.value("--queries") == nil { queries = 100 }
            if p.value("--embed-texts") == nil && p.value("--teacher-texts") == nil {
                embedTexts = 2_000
                teacherTexts = 64
            }
            openRuns = 1
        }
        teacherTexts = min(teacherTexts, embedTexts)
    }

    private mutating func readProfiling(_ p: ParsedArguments) throws(UsageError) {
        probeOpen = p.value("--probe-open")
        probeWrites = try p.int("--probe-writes", default: 0, range: 0...Int.max)
        profileQueries = p.value("--profile-queries")
        profileRepeat = try p.int("--profile-repeat", default: profileRepeat, range: 1...Int.max)
        profileExact = p.flag("--profile-exact")
        profileMemory = p.flag("--profile-memory")
        profileHalf = p.flag("--profile-fp16")
        profileScan = p.flag("--profile-scan")
        profileNominators = p.flag("--profile-nominators")
        profilePostings = p.flag("--profile-postings")
        profileDump = p.value("--profile-dump")
    }
}
