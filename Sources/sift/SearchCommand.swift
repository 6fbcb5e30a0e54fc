import Foundation
import Sift
import SiftCommandLine

/// `sift search QUERY`: ranked results, with `--explain` showing every term of every score.
enum SearchCommand: Command {
    static let spec = CommandSpec(
        name: "search",
        summary:
            "Search the index. Date phrases (\"last week\", \"in March\", \"since Monday\") become a date filter and words naming a domain (\"expenses\") a domain filter, relative to --now.",
        arguments: "QUERY",
        options: [
            OptionSpec(names: ["--limit", "-n"], value: "N", help: "number of results (default 10)"),
            OptionSpec(names: ["--domain"], value: "D", help: "only items of domain D", repeatable: true),
            OptionSpec(names: ["--mode"], value: "MODE", help: "hybrid (default), keyword or semantic"),
            OptionSpec(names: ["--since"], value: "ISO8601", help: "only items dated at or after this instant"),
            OptionSpec(names: ["--until"], value: "ISO8601", help: "only items dated before this instant"),
            OptionSpec(names: ["--now"], value: "ISO8601", help: "the present for date phrases and expiry (default: the clock)"),
            OptionSpec(names: ["--literal"], value: nil, help: "do not parse date phrases or domain words"),
            OptionSpec(names: ["--explain"], value: nil, help: "show what was understood and every term of each score"),
            OptionSpec(names: ["--no-snippets"], value: nil, help: "no passage under each result (nor \"snippet\" in --json)"),
            OptionSpec(
                names: ["--min-relevance"], value: "P",
                help: "leave out results whose calibrated relevance is below P (default \(SearchQuery.defaultMinimumRelevance))"),
            OptionSpec(names: ["--all"], value: nil, help: "return every result, however unlikely to be relevant (as --min-relevance 0)"),
        ],
        positionals: 1...Int.max)

    static func parseMode(_ text: String?) throws -> SearchMode? {
        guard let text else { return nil }
        guard let mode = SearchMode(rawValue: text) else { throw UsageError("--mode expects hybrid, keyword or semantic, got \"\(text)\"") }
        return mode
    }

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let a = context.arguments
        let requested = try parseMode(a.value("--mode"))
        let index = try context.openIndex(requireModel: requested == .semantic)
        let query = SearchQuery(
            a.positionals.joined(separator: " "), limit: try a.int("--limit", default: 10, range: 1...1000),
            mode: requested ?? .hybrid, domains: a.all("--domain"), since: try a.date("--since"), until: try a.date("--until"),
            now: try a.date("--now"), understandsPhrases: !a.flag("--literal"), explain: a.flag("--explain"),
            snippets: !a.flag("--no-snippets"), minimumRelevance: try EvalCommand.minimumRelevance(a))
        let (results, report) = try await index.search(query)
        if context.json {
            var object: [String: Any] = [
                "below_min_relevance": report.belowMinimumRelevance,
                "unanswered": report.unanswered,
                "results": results.map { r -> [String: Any] in
                    var o: [String: Any] = [
                        "id": r.id.rawValue, "domain": r.domain, "title": r.title, "score": jsonNumber(r.score),
                        "relevance": jsonNumber(r.relevance), "url": r.url ?? NSNull(),
                        "date": jsonDate(r.date),
                    ]
                    if let e = r.explanation { o["explanation"] = explanationJSON(e) }
                    if query.snippets { o["snippet"] = r.snippet.map(snippetJSON) ?? NSNull() }
                    return o
                },
            ]
            if query.explain {
                object["query"] = [
                    "searched_text": report.searchedText, "understood": report.understood, "filters": report.filters,
                    "exclusions": report.exclusions, "mode": report.mode.rawValue, "candidates": report.candidates,
                    "feedback_terms": report.feedbackTerms.map { ["term": $0.term, "weight": jsonNumber($0.weight)] as [String: Any] },
                ]
            }
            context.printJSON(object)
            return .success
        }
        if query.explain {
            print("mode: \(report.mode.rawValue); searched text: \"\(report.searchedText)\"")
            for line in report.understood { print("understood: \(line)") }
            for line in report.filters { print("filter: \(line)") }
            for line in report.exclusions { print("excluded: \(line)") }
            print("candidates: \(report.candidates)")
            if !report.feedbackTerms.isEmpty {
                print(
                    "keyword feedback: "
                        + report.feedbackTerms.map { "\($0.term) " + String(format: "%.3f", $0.weight) }.joined(separator: ", "))
            }
            print("")
        }
        if results.isEmpty { print("no results") }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let bold = isatty(STDOUT_FILENO) == 1
        for (i, r) in results.enumerated() {
            let date = r.date.map { " " + formatter.string(from: $0) } ?? ""
            print(String(format: "%2d. %.4f  p %.3f  ", i + 1, r.score, r.relevance) + "[\(r.domain)\(date)] \(r.title)  (\(r.id))")
            if let snippet = r.snippet { print("      " + marked(snippet, bold: bold)) }
            if let e = r.explanation { printExplanation(e) }
        }
        if report.unanswered {
            let n = report.belowMinimumRelevance
            print(
                "(no answer here: none of the best \(n) result\(n == 1 ? "" : "s") says two of the query's words side by side, and the best is weak; --all shows them)"
            )
        } else if report.belowMinimumRelevance > 0 {
            let n = report.belowMinimumRelevance
            print("(\(n) more result\(n == 1 ? "" : "s") below relevance \(query.minimumRelevance) left out; --all shows them)")
        }
        return .success
    }

    /// `{"text": …, "highlights": [[start, end], …]}`, the ranges in UTF-8 bytes of the text.
    static func snippetJSON(_ snippet: Snippet) -> [String: Any] {
        ["text": snippet.text, "highlights": snippet.highlights.map { [$0.lowerBound, $0.upperBound] }]
    }

    /// The snippet's text with its highlights in bold (ANSI), or plain.
    static func marked(_ snippet: Snippet, bold: Bool) -> String {
        guard bold, !snippet.highlights.isEmpty else { return snippet.text }
        var out = ""
        var last = snippet.text.startIndex
        for r in snippet.highlightRanges() where r.lowerBound >= last {
            out += snippet.text[last..<r.lowerBound] + "\u{1B}[1m" + snippet.text[r] + "\u{1B}[0m"
            last = r.upperBound
        }
        return out + snippet.text[last...]
    }

    static func explanationJSON(_ e: Explanation) -> [String: Any] {
        [
            "bm25f": jsonNumber(e.keywordScore), "bm25f_feedback": jsonNumber(e.keywordFeedbackScore),
            "cosine": e.cosine.map { jsonNumber($0) } ?? NSNull(),
            "normalized_keyword": jsonNumber(e.normalizedKeyword), "normalized_semantic": jsonNumber(e.normalizedSemantic),
            "fusion": e.fusion, "fused": jsonNumber(e.relevance), "donation_score": jsonNumber(e.donationScore),
            "donation_factor": jsonNumber(e.donationFactor), "ranking_hint_factor": jsonNumber(e.rankingHintFactor),
            "domain_boost_factor": jsonNumber(e.domainBoostFactor), "final": jsonNumber(e.finalScore),
            "calibrated_relevance": jsonNumber(e.calibratedRelevance),
            "relevance_evidence": e.relevanceEvidence.map(evidenceJSON) ?? NSNull(),
            "terms": e.keywordTerms.map { t in
                [
                    "term": t.term, "idf": jsonNumber(t.idf), "query_frequency": t.queryFrequency,
                    "query_weight": jsonNumber(t.queryWeight),
                    "tf": ["title": t.frequencies[0], "keywords": t.frequencies[1], "content": t.frequencies[2]],
                    "field_parts": [
                        "title": jsonNumber(t.fieldParts[0]), "keywords": jsonNumber(t.fieldParts[1]),
                        "content": jsonNumber(t.fieldParts[2]),
                    ],
                    "score": jsonNumber(t.score),
                ] as [String: Any]
            },
        ]
    }

    static func printExplanation(_ e: Explanation) {
        for t in e.keywordTerms {
            let times = t.queryFrequency > 1 ? String(format: " (×%d in the query: weight %.3f)", t.queryFrequency, t.queryWeight) : ""
            print(
                "      term \(t.term)\(times): "
                    + String(
                        format: "idf %.3f; tf title %d keywords %d content %d; weighted %.3f + %.3f + %.3f → bm25f %.4f",
                        t.idf, t.frequencies[0], t.frequencies[1], t.frequencies[2], t.fieldParts[0], t.fieldParts[1], t.fieldParts[2],
                        t.score))
        }
        var line = String(format: "      bm25f %.4f", e.keywordScore)
        if e.keywordFeedbackScore > 0 { line += String(format: " (of it feedback terms %.4f)", e.keywordFeedbackScore) }
        line += String(format: " (norm %.3f)", e.normalizedKeyword)
        if let c = e.cosine { line += String(format: "; cosine %.4f (norm %.3f)", c, e.normalizedSemantic) }
        line += "; \(e.fusion) → fused " + String(format: "%.4f", e.relevance)
        print(line)
        print(
            String(
                format: "      × donations %.3f (decayed %.2f) × ranking hint %.3f × domain boost %.2f = %.4f",
                e.donationFactor, e.donationScore, e.rankingHintFactor, e.domainBoostFactor, e.finalScore))
        if let v = e.relevanceEvidence {
            var evidence = String(
                format: "      relevance %.4f from bm25f %.3f of %.3f attainable (%.3f), %d of %d terms (idf %.2f of %.2f, coverage %.3f)",
                e.calibratedRelevance, v.keywordScore, v.attainable, v.keyword, v.matchedTerms, v.queryTerms, v.matchedWeight,
                v.queryWeight, v.coverage)
            if let c = v.cosine { evidence += String(format: ", cosine %.4f", c) }
            print(evidence)
        }
    }

    static func evidenceJSON(_ v: RelevanceModel.Evidence) -> [String: Any] {
        [
            "bm25f": jsonNumber(v.keywordScore), "attainable": jsonNumber(v.attainable), "keyword": jsonNumber(v.keyword),
            "query_terms": v.queryTerms, "matched_terms": v.matchedTerms, "query_weight": jsonNumber(v.queryWeight),
            "matched_weight": jsonNumber(v.matchedWeight), "coverage": jsonNumber(v.coverage),
            "cosine": v.cosine.map { jsonNumber($0) } ?? NSNull(),
        ]
    }
}
