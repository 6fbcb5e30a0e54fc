import Foundation
import Sift

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
    /// Also measure semantic and hybrid with the int8 quantized scan.
    var int8 = true
    var quick = false
    /// Query modes to measure (all by default).
    var modes: [String] = ["keyword", "semantic", "hybrid"]
    /// Write the corpus (largest size) as JSONL in Sift's item format and exit.
    var writeCorpus: String?
    /// Internal: run as the child that measures a cold open and its memory.
    var probeOpen: String?
    /// Internal: time the query set on an existing store (see QueryProfile).
    var profileQueries: String?
    var profileRepeat = 1
    var profileInt8 = false
    var profileMemory = false
    var profileHalf = false
    /// Hybrid's bound on keyword candidates (``FusionParameters/keywordCandidates``); 0: none.
    var keywordCandidates = 0
    /// The int8 copy's coded components (``SearchIndex/Configuration/quantizedScanComponents``);
    /// nil: all.
    var quantizedComponents: Int?

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

    static let usage = """
        usage: sift-bench [options]

        Measures Sift at each corpus size N — embedding, indexing, cold open, query latency
        (keyword, semantic, hybrid), memory and disk — beside SQLite FTS5, the memory-bandwidth
        bound of the vector scan and the teacher model, in one run. Table on stdout, progress on
        stderr.

        options:
          --sizes N,N,...        corpus sizes (default 1000,10000,100000; 1000000 only when asked)
          --corpus FILE|DIR      index a JSONL file (Sift items) or a BEIR directory (corpus.jsonl)
                                 instead of the synthetic corpus; N = its size, or each --sizes
                                 value up to it
          --queries N            queries per mode and size (default 1000)
          --query-budget S       stop a mode after S seconds of queries at one size, keeping at
                                 least 100 (default 45; the row says how many ran)
          --seed N               seed of the corpus and the queries (default 20261202)
          --batch N              items per upsert / per FTS5 transaction (default 1000)
          --embed-texts N        30-word texts for the embedding figure (default 20000)
          --teacher-texts N      of those, how many the teacher embeds (default 1000)
          --open-runs N          cold opens per size, each in a fresh process (default 3)
          --json FILE            write every figure as JSON
          --svg FILE             write a log-log plot of p50 latency against N
          --model FILE           use this model file instead of the bundled one
          --stand-in-model       use the model architecture with random weights (speed only)
          --no-model             keyword figures only
          --no-teacher           skip the teacher peer
          --teacher-python PATH  the Python of the teacher venv (default
                                 $SIFT_TRAIN_CACHE/venv or ~/.cache/sift-train/venv)
          --no-fts5              skip the SQLite FTS5 peer
          --no-int8              skip semantic and hybrid with the int8 quantized scan
          --int8-components P    the int8 copy codes only each vector's first P components
                                 (a multiple of 32; Configuration.quantizedScanComponents)
          --modes M,M,...        query modes to measure (default keyword,semantic,hybrid)
          --keyword-candidates N hybrid keeps the keyword matches scoring at least the N-th best
                                 BM25F (and those whose title may begin with the query) as
                                 candidates (FusionParameters.keywordCandidates; default 0:
                                 every match)
          --work-dir DIR         where the stores are built (default: a fresh temporary directory)
          --keep                 keep the work directory
          --write-corpus FILE    write the corpus at the largest size as JSONL (Sift items) and exit
          --quick                a smoke run in seconds: sizes 200,1000, 100 queries, few texts
          -h, --help             this text

        profiling (no table; see Benchmarks/RESULTS.md):
          --profile-queries DIR  time the size's queries in each --modes mode on the store DIR
                                 (left by --keep --work-dir); --profile-repeat N passes,
                                 --profile-int8 opens it with the quantized scan,
                                 --profile-dump FILE writes every query's results instead,
                                 --profile-fp16 keeps the vectors as fp16
          --profile-memory       resident bytes per item of each in-memory structure
          --profile-scan         the bare fp32, fp16 and int8 scans beside one read of the matrix
          --profile-postings     postings touched per query and prefix expansions
          --profile-nominators   how many of the exact top 10 and top 100 the int8 copy (all
                                 components, or the first 64 or 128), or sign bits, nominate
                                 among 500…8,000 nominees, on the model's vectors of the corpus
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var o = BenchOptions()
        var i = 0
        func value(_ name: String) throws -> String {
            i += 1
            guard i < arguments.count else { throw UsageError(description: "\(name) needs a value") }
            return arguments[i]
        }
        func integer(_ name: String, min: Int = 1) throws -> Int {
            let text = try value(name)
            guard let n = Int(text.replacingOccurrences(of: "_", with: "")), n >= min else {
                throw UsageError(description: "\(name) expects an integer ≥ \(min), got '\(text)'")
            }
            return n
        }
        var quickQueries = true, quickSizes = true, quickTexts = true
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "--sizes":
                let text = try value(a)
                let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")) }
                guard !parts.isEmpty, parts.allSatisfy({ ($0 ?? 0) > 0 }) else {
                    throw UsageError(description: "--sizes expects positive integers separated by commas, got '\(text)'")
                }
                o.sizes = Array(Set(parts.map { $0! })).sorted()
                o.sizesGiven = true
                quickSizes = false
            case "--corpus": o.corpus = try value(a)
            case "--queries": o.queries = try integer(a); quickQueries = false
            case "--query-budget": o.queryBudgetSeconds = Double(try integer(a))
            case "--seed": o.seed = UInt64(try integer(a, min: 0))
            case "--batch": o.batch = try integer(a)
            case "--embed-texts": o.embedTexts = try integer(a); quickTexts = false
            case "--teacher-texts": o.teacherTexts = try integer(a); quickTexts = false
            case "--open-runs": o.openRuns = try integer(a)
            case "--json": o.json = try value(a)
            case "--svg": o.svg = try value(a)
            case "--model": o.model = .file(try value(a))
            case "--stand-in-model": o.model = .standIn
            case "--no-model": o.model = .none
            case "--no-teacher": o.teacher = false
            case "--teacher-python": o.teacherPython = try value(a)
            case "--no-fts5": o.fts5 = false
            case "--no-int8": o.int8 = false
            case "--keyword-candidates": o.keywordCandidates = try integer(a, min: 0)
            case "--int8-components":
                let p = try integer(a, min: 32)
                guard p % 32 == 0 else { throw UsageError(description: "--int8-components expects a multiple of 32, got \(p)") }
                o.quantizedComponents = p
            case "--modes":
                let text = try value(a)
                let modes = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                let known = ["keyword", "semantic", "hybrid"]
                guard !modes.isEmpty, modes.allSatisfy(known.contains) else {
                    throw UsageError(description: "--modes expects some of \(known.joined(separator: ",")), got '\(text)'")
                }
                o.modes = known.filter(modes.contains)
            case "--work-dir": o.workDirectory = try value(a)
            case "--keep": o.keepWorkDirectory = true
            case "--quick": o.quick = true
            case "--write-corpus": o.writeCorpus = try value(a)
            case "--probe-open": o.probeOpen = try value(a)
            case "--profile-queries": o.profileQueries = try value(a)
            case "--profile-repeat": o.profileRepeat = try integer(a)
            case "--profile-int8": o.profileInt8 = true
            case "--profile-memory": o.profileMemory = true
            case "--profile-fp16": o.profileHalf = true
            case "--profile-scan": o.profileScan = true
            case "--profile-nominators": o.profileNominators = true
            case "--profile-postings": o.profilePostings = true
            case "--profile-dump": o.profileDump = try value(a)
            case "-h", "--help": throw UsageError(description: "")
            default: throw UsageError(description: "unknown option '\(a)'")
            }
            i += 1
        }
        if o.quick {
            if quickSizes { o.sizes = [200, 1_000] }
            if quickQueries { o.queries = 100 }
            if quickTexts { o.embedTexts = 2_000; o.teacherTexts = 64 }
            o.openRuns = 1
        }
        o.teacherTexts = min(o.teacherTexts, o.embedTexts)
        return o
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
