import Foundation
import SiftCommandLine

// The command lines of `sift-train train|eval|speed|tune`, parsed by SiftCommandLine.

enum TrainCommandLine {
    static let commands = [train, eval, speed, tune]

    static let overview = HelpText.overview(
        program: "sift-train", about: "distils the Sift hashed n-gram embedder from the teacher cache of Models/pipeline",
        commands: commands, footer: "Run `sift-train COMMAND --help` for a command's options; see Models/MODEL.md.")

    static let train = command(
        "train",
        summary: "Fit, quantise, evaluate and write the model: PCA of the teacher vectors, vocabulary filter, "
            + "CGLS ridge fit of the n-gram table, int8 quantisation; the written file is reloaded and evaluated.",
        options: [
            option("--corpus", "DIR", "the teacher cache: words.tsv, words.f32, sentences.txt, sentences.f32 (required)"),
            option("--out", "MODEL", "the model file to write (required)"),
            option("--log", "FILE", "also write every figure to this file (Models/train.log)"),
            option("--log-append", "1", "1: append to --log instead of starting it afresh"),
            option("--name", "NAME", "the model's name (default sift-ngram-DIM)"),
            option("--dim", "N", "dimensions kept by the PCA (default 256)"),
            option("--bucket-bits", "N", "2^N n-gram buckets (default 17)"),
            option("--min-n", "N", "shortest character n-gram (default 3)"),
            option("--max-n", "N", "longest character n-gram (default 5)"),
            option("--no-bigrams", nil, "no word-bigram features"),
            option(
                "--featured-words", "W,W,...",
                "words taken off the model's stop-word list before the fit, so they get features (e.g. the negations no,not,nor)"),
            option(
                "--extend-words", "W,W,...",
                "words taken off the stop-word list after the fit: only their unigram rows are fitted, every other row stays"),
            option(
                "--ngrams-for-unknown-only", nil,
                "character n-grams only for words outside the vocabulary filter (a known word is its unigram row)"),
            option("--word-weight", "W", "weight of word features (default 1)"),
            option("--char-weight", "W", "weight of character n-gram features (default 1)"),
            option("--bigram-weight", "W", "weight of bigram features (default 1)"),
            option("--lambda", "L", "ridge penalty (default 0.001)"),
            option(
                "--rescaled-refit", nil,
                "fit twice: the second time each text's design scaled by its first fit's length, so its error is its angle"),
            option("--pooling-power", "P", "a text's summed rows divided by (its terms)^P in the fit; 1 is mean pooling (default 1)"),
            option("--whiten", "P", "scale the targets' component k by (λ_k/λ_1)^(−P/2): partial whitening (default 0)"),
            option("--iterations", "N", "CGLS iterations (default 60)"),
            option("--checkpoints", "N,N,...", "also evaluate the fp32 table after these iterations"),
            option("--chunk-width", "N", "output dimensions solved together (default 64)"),
            option("--typo-top", "N", "typo'd copies of the N most frequent words and of every extra word (default 60000)"),
            option("--typo-copies", "N", "typo'd copies per word (default 2)"),
            option("--typo-weight", "W", "weight of a typo'd copy (default 0.5)"),
            option("--dropout-copies", "N", "copies of each sentence with terms dropped at random, fitted to its target (default 0)"),
            option("--dropout-keep", "P", "probability a term is kept in a dropout copy (default 0.5)"),
            option("--dropout-min-terms", "N", "only sentences of at least N terms get dropout copies (default 4)"),
            option("--dropout-weight", "W", "weight of a dropout copy (default 0.5)"),
            option("--word-example-weight", "W", "weight of a word example (default 1)"),
            option("--sentence-example-weight", "W", "weight of a sentence example (default 1)"),
            option("--document-example-weight", "W", "weight of an --extra-documents example (default 1)"),
            option("--seed", "N", "seed of the typos (default 20261202)"),
            option("--no-center", nil, "do not subtract the mean before the PCA"),
            option("--extra-words", "FILE", "more teacher-embedded words: FILE and FILE's .f32 beside it", repeatable: true),
            option("--extra-sentences", "FILE", "more teacher-embedded sentences, as --extra-words", repeatable: true),
            option("--extra-documents", "FILE", "whole documents, fitted with --document-example-weight", repeatable: true),
            option(
                "--pairs", "FILE",
                "short → long pairs (genre<TAB>short<TAB>long): the short text is fitted to its long text's teacher vector; the long text must be a training text",
                repeatable: true),
            option("--pair-weight", "W", "weight of a pair example (default 1)"),
            option("--pair-genres", "G,G,...", "only the pairs of these genres (default: all)"),
            option("--word-limit", "N", "use only the first N words of the cache"),
            option("--sentence-limit", "N", "use only N sentences of the cache, evenly spread"),
            option("--filter-bits", "N", "2^N-bit vocabulary filter (default 24; 0: none)"),
            option("--filter-probes", "N", "probes of the vocabulary filter (default 3)"),
            option(
                "--unigram-min-count", "N",
                "words of the sentences seen fewer times stay out of the vocabulary filter (default 1; the word list's words are always in)"
            ),
            option("--bigram-min-count", "N", "bigrams seen fewer times stay out of the vocabulary filter (default 2)"),
            option("--ngram-only-top", "N", "n-gram-only copies of the N most frequent words and of every extra word (default 0)"),
            option("--ngram-only-weight", "W", "weight of an n-gram-only copy (default 0.5)"),
            option(
                "--unknown-word-signature", "S",
                "a word outside the vocabulary filter also gets a direction of its own, S × its n-gram vector's length (default 0: none)"),
        ] + evaluation)

    static let eval = command(
        "eval",
        summary: "Evaluate a model file: Spearman correlations on the similarity files, nDCG@10 on a BEIR dataset "
            + "and its typo'd queries.",
        options: [
            option("--model", "MODEL", "the model file (required)"),
            option("--unknown-word-signature", "S", "evaluate the model with this unknown-word signature instead of its own"),
            option("--write", "MODEL", "also write the evaluated model (with --unknown-word-signature, a new file) here"),
            option("--log", "FILE", "also append every figure to this file"),
        ] + evaluation)

    static let tune = command(
        "tune",
        summary: "Tune a model's table contrastively on short → long pairs (InfoNCE, in-batch negatives), "
            + "then quantise, write and evaluate it.",
        options: [
            option("--model", "MODEL", "the model file to start from (required)"),
            option("--out", "MODEL", "the model file to write (required)"),
            option("--pairs", "FILE", "short → long pairs: genre<TAB>short<TAB>long (required)", repeatable: true),
            option("--pair-genres", "G,G,...", "only the pairs of these genres (default: all)"),
            option("--max-long-terms", "N", "leave out pairs whose long text has more terms (default 64)"),
            option("--steps", "N", "batches (default 2000)"),
            option("--batch", "N", "pairs a batch (default 256)"),
            option("--lr", "R", "AdaGrad learning rate (default 0.002)"),
            option("--tau", "T", "temperature (default 0.05)"),
            option("--anchor", "A", "pull of each changed row towards the model's (default 0)"),
            option("--seed", "N", "seed of the batches (default 20261207)"),
            option("--log", "FILE", "also append every figure to this file"),
        ] + evaluation)

    static let speed = command(
        "speed", summary: "Measure the model's speed: 30-word texts embedded per CPU-second, one thread.",
        options: [
            option("--model", "MODEL", "the model file (required)"),
            option("--text", "FILE", "sentences to build the texts from (default ~/.cache/sift-train/corpus/sentences.txt)"),
            option("--count", "N", "texts per measurement (default 50000)"),
        ])

    /// The evaluation options of `train` and `eval`.
    static let evaluation = [
        option("--similarity", "DIR", "directory of the similarity files (STS-B, SICK, WordSim-353, SimLex-999)"),
        option("--beir", "DIR", "BEIR dataset to rank (corpus.jsonl, queries.jsonl, qrels/), each --split it has", repeatable: true),
        option("--term-weighting", "P,P,...", "also rank with terms weighted by idf^P over the collection (an experiment)"),
        option("--common", "K,K,...", "also rank with the documents' mean and top K principal directions taken out (an experiment)"),
        option("--zipf", "FILE", "with --term-weighting: also weight by a general word list's Zipf frequencies (words.tsv)"),
        option("--split", "S", "qrels split of --beir (default train)", repeatable: true),
        option("--typo", "DIR", "a typo'd copy of --beir's queries (DIR/queries.jsonl)", repeatable: true),
    ]

    private static func command(_ name: String, summary: String, options: [OptionSpec]) -> CommandSpec {
        let common = [
            OptionSpec(names: ["-h", "--help"], help: "show this help"),
            // Accepted and without effect, as before the options had a table.
            OptionSpec(names: ["--center"], help: "centre before the PCA (the default)", hidden: true),
            OptionSpec(names: ["--quiet"], help: "no effect", hidden: true),
        ]
        return CommandSpec(program: "sift-train", name: name, summary: summary, options: options + common, repeats: .lastWins)
    }

    private static func option(_ name: String, _ value: String?, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(names: [name], value: value, help: help, repeatable: repeatable)
    }
}

/// A parsed `sift-train` command line, read by option name without its `--`.
struct Options {
    let parsed: ParsedArguments

    /// Flags given, without their `--` (`no-bigrams`).
    var flags: Set<String> { Set(parsed.flags.map { String($0.dropFirst(2)) }) }

    func string(_ k: String) -> String? { parsed.value("--" + k) }
    func all(_ k: String) -> [String] { parsed.all("--" + k) }
    func int(_ k: String, _ d: Int) throws -> Int { try parsed.int("--" + k, default: d) }
    func float(_ k: String, _ d: Float) throws -> Float { try parsed.float("--" + k, default: d) }
    func require(_ k: String) throws -> String { try parsed.required("--" + k) }
}
