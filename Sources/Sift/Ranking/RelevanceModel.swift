import Foundation

/// Calibrated relevance: an estimate of the probability that a result is relevant to its
/// query, from evidence about that result alone — never from the other results — so a figure
/// means the same from one query to the next, and a host app can cut, label or say "no results".
///
/// A logistic model, one set of coefficients per mode, over measures of one result:
/// - **keyword**: its BM25F (before feedback) over the most the query could give any document,
///   every term saturated (Σ idf · (k1 + 1)), in 0…1;
/// - **coverage**: the share of the query's idf weight whose terms the result holds, in 0…1;
/// - **cosine**: the query's cosine with it (before vector feedback), where the mode has one.
///
/// `P = 1 / (1 + e^−(b + w_k · keyword + w_c · coverage + w_s · cosine))`.
/// The default was fitted on SciFact's *train* judgments only (`scripts/fit-relevance.py`, the
/// top 10 of each query) and checked on Cranfield, which the fit never saw
/// (`Benchmarks/RESULTS.md`, "Calibrated relevance").
package struct RelevanceModel: Sendable, Equatable {
    /// One mode's coefficients.
    package struct Coefficients: Sendable, Equatable {
        package var intercept: Float
        package var keyword: Float
        package var coverage: Float
        package var cosine: Float
        /// A query of two or more words has no answer when its best result is below this and
        /// no result holds two of its words side by side (``Ranker/isUnanswered(_:best:)``);
        /// 0 turns that off.
        package var answerFloor: Float

        package init(intercept: Float, keyword: Float = 0, coverage: Float = 0, cosine: Float = 0, answerFloor: Float = 0) {
            self.intercept = intercept
            self.keyword = keyword
            self.coverage = coverage
            self.cosine = cosine
            self.answerFloor = answerFloor
        }
    }

    /// What the model reads of one result, and the raw figures behind it.
    package struct Evidence: Sendable, Equatable {
        /// BM25F before keyword feedback.
        package var keywordScore: Float = 0
        /// The most BM25F the query can give any document.
        package var attainable: Float = 0
        /// Σ idf of the query's terms, and of those the result holds.
        package var queryWeight: Float = 0
        package var matchedWeight: Float = 0
        /// How many terms the query has, and how many of them the result holds.
        package var queryTerms: Int = 0
        package var matchedTerms: Int = 0
        /// Cosine with the query before vector feedback; nil where the mode has none.
        package var cosine: Float?

        package init() {}

        /// BM25F over the query's attainable maximum, in 0…1.
        package var keyword: Float { attainable > 0 ? min(1, keywordScore / attainable) : 0 }
        /// The share of the query's weight the result holds, in 0…1.
        package var coverage: Float { queryWeight > 0 ? min(1, matchedWeight / queryWeight) : 0 }
    }

    package var hybrid: Coefficients
    package var keyword: Coefficients
    package var semantic: Coefficients

    package init(hybrid: Coefficients, keyword: Coefficients, semantic: Coefficients) {
        self.hybrid = hybrid
        self.keyword = keyword
        self.semantic = semantic
    }

    /// The coefficients of `mode`.
    package func coefficients(_ mode: SearchMode) -> Coefficients {
        switch mode {
        case .hybrid: hybrid
        case .keyword: keyword
        case .semantic: semantic
        }
    }

    /// The estimated probability that a result with `evidence` is relevant, in 0…1.
    package func relevance(_ evidence: Evidence, mode: SearchMode) -> Float {
        let c = coefficients(mode)
        var z = c.intercept + c.coverage * evidence.coverage
        if mode != .semantic { z += c.keyword * evidence.keyword }
        if mode != .keyword, let cosine = evidence.cosine { z += c.cosine * cosine }
        return 1 / (1 + exp(-z))
    }

    /// Fitted on SciFact's train judgments (809 queries, the top 10 of each in each mode) by
    /// `scripts/fit-relevance.py`; `Benchmarks/RESULTS.md`, "Calibrated relevance", has the fit
    /// and its checks. Hybrid mode's coefficients were fitted again with the bundled model's
    /// unknown-word signature and with a query's real words that no item holds counted
    /// (2026-12-07, `Benchmarks/RESULTS.md`, "Unknown-word signature" and "Words the index
    /// lacks"): the cut costs SciFact train nothing, and a result that shares no word with the
    /// query (and lacks none of its words) is still shown from cosine 0.61. Semantic and keyword
    /// mode keep theirs (a refit did no better on SciFact train).
    /// The answer floors are the largest (in steps of 0.001) that cost SciFact train and its two
    /// typo'd copies (seeds 7 and 101) at most 0.001 nDCG@10 each, chosen again with the model
    /// (with the partially whitened one, 2026-12-07: hybrid 0.009 → 0.010, semantic stays
    /// 0.012), and again when the spelling corrector began to restore mistyped stop words and
    /// prefer words the model knows (twentieth stop): hybrid 0.010 → 0.013, semantic 0.012 →
    /// 0.016 (the next step up cost typo'd copy 7 0.0014 in hybrid mode, copy 101 0.0017 in
    /// semantic mode); and with the model fitted at √terms pooling (twenty-second stop): hybrid
    /// 0.013 → 0.012 (0.013 now costs typo'd copy 7 0.0013), semantic stays 0.016; and when a
    /// query word no item holds began to keep half its weight in the query vector
    /// (``FusionParameters/absentWordWeight``, twenty-fourth stop): hybrid 0.012 → 0.013 (0.014
    /// costs typo'd copy 7 0.0015), semantic 0.016 → 0.015 (0.016 now costs copy 7 0.00101).
    /// Keyword mode has none: its floor so chosen, 0.018, silenced three SciFact test
    /// queries (0.0033 nDCG@10), over the 0.002 the cut may cost.
    package static let `default` = RelevanceModel(
        hybrid: Coefficients(intercept: -6.3222, keyword: 8.0483, coverage: 1.0859, cosine: 1.3140, answerFloor: 0.013),
        keyword: Coefficients(intercept: -6.4580, keyword: 11.2707, coverage: -0.4300),
        semantic: Coefficients(intercept: -7.0463, coverage: 7.2568, cosine: 2.0697, answerFloor: 0.015))
}
