import Foundation

/// Turns a query such as "last week's expenses" into the text to search plus filters.
///
/// Words are separated by white space and control characters; a word is matched by its *key*:
/// lower-cased, with surrounding punctuation and a possessive "'s" / "'" removed. Nothing throws:
/// a phrase that does not parse stays in the text.
///
/// **Date phrases** (anywhere, case-insensitive), relative to `now` in ``timeZone``. Every range
/// is half-open, `[start, end)`, on midnights; "end of today" is the next midnight.
/// - `today`, `yesterday`; `this week|month|year`; `last|previous week|month|year` — the previous
///   *calendar* period. Weeks are ISO weeks: they start on **Monday** (so on Wednesday 2026-12-02,
///   last week is 2026-11-23 … 2026-11-29).
/// - `last|past|previous N days|weeks|months|years` (N as digits or one…twelve) — the N periods
///   that end with today, today included: `[endOfToday − N periods, endOfToday)`, so "last 7 days"
///   on 2026-12-02 is 2026-11-26 … 2026-12-02, and "last 2 weeks" is the last 14 days.
///   `past week|month|year` is the same with N = 1.
/// - `last|previous Monday` (…Sunday) — the most recent such day *before* today.
/// - `since X` — from the start of X to the end of today (empty if X has not begun).
///   `on X`, `in X`, `during X` — X itself. `before X` — up to the start of X. `after X` — from
///   the end of X. `between X and Y`, `from X to|until|through Y` — the first day of either to
///   the last day of either.
///   X is a day, a month, a year, or one of the phrases above:
///   - ISO `2026-11-30`; `November 30`, `Nov 30 2026`, `Nov 30th, 2026`, `30 November` — without
///     a year, the most recent such day on or before today;
///   - a weekday, `Monday` — the most recent Monday on or before today (today if it is Monday);
///   - `March 2025`; `March` — the most recent March that has begun (this year's March once it
///     has started, else last year's); `2025` — the calendar year.
/// - The glue that only served a phrase goes with it: "expenses from last week", "recipes in the
///   last 3 months", "during this month" leave "expenses", "recipes" and "".
/// - Several date phrases narrow each other (intersection); phrases that do not overlap
///   ("yesterday and today") give the span that covers them all.
///
/// **Domain words**: a run of words equal to a domain's identifier ("expense", "streakDay" or
/// "streak day") or display name ("Journal days"), case-insensitively, in singular or plural
/// ("expenses", "entries"), possessives included ("recipe's", "expenses'"), names the domain; the
/// words leave the text and the identifier goes to ``ParsedQuery/domains``. Whether that is a
/// filter or only a boost is the caller's choice.
///
/// **Leftovers**: a possessive written apart ("last week 's") and a conjunction between two
/// removed phrases ("triggers and reflections", "last 3 months of expenses") leave with them.
///
/// - Complexity: ``parse(_:now:)`` is O(n) in the length of the query: each word starts a bounded
///   number of matches of bounded length (a date phrase has at most eight words, a domain phrase
///   as many as the longest domain name).
package struct QueryParser: Sendable {
    /// The time zone in which days start at midnight.
    package let timeZone: TimeZone
    private let calendar: Calendar
    /// Domain phrases by every singular and plural form of their first word, longest first.
    private let domainPhrases: [String: [DomainPhrase]]

    /// - Parameters:
    ///   - domains: the domains a query may name.
    ///   - timeZone: where "today" is; UTC by default.
    package init(domains: [DomainName], timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        var index: [String: [DomainPhrase]] = [:]
        for domain in domains {
            for words in DomainPhrase.spellings(of: domain) {
                let phrase = DomainPhrase(words: words, identifier: domain.identifier)
                for form in phrase.forms[0] where !(index[form]?.contains(phrase) ?? false) {
                    index[form, default: []].append(phrase)
                }
            }
        }
        domainPhrases = index.mapValues { phrases in
            phrases.sorted { ($0.words.count, $1.identifier) > ($1.words.count, $0.identifier) }
        }
    }

    /// Splits `query` into the text to search, a date range and named domains.
    ///
    /// Never fails: any input, including empty or binary text, gives a result.
    /// - Parameter now: the instant that "today", "last week" … are relative to.
    /// - Complexity: O(n) in the length of `query`.
    package func parse(_ query: String, now: Date) -> ParsedQuery {
        let words = QueryWord.split(query)
        let keys = words.map(\.key)
        var consumed = [Bool](repeating: false, count: words.count)
        var understood: [String] = []
        var ranges: [DateRange] = []

        if let grammar = DateGrammar(calendar: calendar, now: now, keys: keys) {
            var i = 0
            while i < keys.count {
                guard let match = grammar.match(at: i) else {
                    i += 1
                    continue
                }
                for j in i..<(i + match.length) { consumed[j] = true }
                if match.standalone { consumeGlue(before: i, keys: keys, consumed: &consumed) }
                ranges.append(match.range)
                let phrase = keys[i..<(i + match.length)].joined(separator: " ")
                let note = match.note.map { " (\($0))" } ?? ""
                understood.append("\(phrase) → \(grammar.describe(match.range))\(note)")
                i += match.length
            }
            if ranges.count > 1, let combined = Self.combine(ranges) {
                let how = combined.overlap ? "where the phrases overlap" : "the phrases do not overlap: their span"
                understood.append("dates combined → \(grammar.describe(combined.range)) (\(how))")
            }
        }

        var domains = Set<String>()
        var i = 0
        while i < keys.count {
            guard !consumed[i], let found = domainMatch(at: i, keys: keys, consumed: consumed) else {
                i += 1
                continue
            }
            let (length, identifiers) = found
            for j in i..<(i + length) { consumed[j] = true }
            domains.formUnion(identifiers)
            let phrase = keys[i..<(i + length)].joined(separator: " ")
            let label = identifiers.count == 1 ? "domain" : "domains"
            understood.append("\(phrase) → \(label) \(identifiers.joined(separator: ", "))")
            i += length
        }

        // A possessive written apart ("last week 's") goes with the phrase before it, and a
        // conjunction between two removed phrases ("triggers and reflections") with them.
        for j in words.indices.dropFirst() where !consumed[j] && consumed[j - 1] {
            if words[j].isPossessiveMark
                || (j + 1 < words.count && consumed[j + 1]
                    && (Self.conjunctions.contains(words[j].text.lowercased()) || Self.glue.contains(words[j].key)))
            {
                consumed[j] = true
            }
        }

        let text = words.indices.lazy.filter { !consumed[$0] }.map { words[$0].text }.joined(separator: " ")
        return ParsedQuery(
            text: text, dateRange: Self.combine(ranges)?.range, domains: domains.sorted(), understood: understood)
    }

    /// Words that only join two phrases: "yesterday and today", "recipes & expenses".
    private static let conjunctions: Set<String> = ["and", "or", "&", "+", ",", "/"]

    /// Words that only tie a phrase to the query: "from last week", "in the last 3 days".
    private static let glue: Set<String> = ["from", "in", "on", "during", "for", "over", "within", "of", "throughout"]

    /// Marks "the" and one glue word right before a standalone date phrase at `i` as used.
    private func consumeGlue(before i: Int, keys: [String], consumed: inout [Bool]) {
        var j = i - 1
        if j >= 0, !consumed[j], keys[j] == "the", ["this", "last", "past", "previous"].contains(keys[i]) {
            consumed[j] = true
            j -= 1
        }
        if j >= 0, !consumed[j], Self.glue.contains(keys[j]) { consumed[j] = true }
    }

    /// Folds ranges left to right: the intersection when it is not empty, else the covering span.
    /// `overlap` is false when any step fell back to the span.
    private static func combine(_ ranges: [DateRange]) -> (range: DateRange, overlap: Bool)? {
        guard var combined = ranges.first else { return nil }
        var overlap = true
        for range in ranges.dropFirst() {
            if let both = combined.intersection(range) {
                combined = both
            } else {
                combined = combined.hull(range)
                overlap = false
            }
        }
        return (combined, overlap)
    }

    /// The longest domain phrase that starts at `i` on unused words, and every domain it names.
    private func domainMatch(at i: Int, keys: [String], consumed: [Bool]) -> (Int, [String])? {
        guard let candidates = domainPhrases[keys[i]] else { return nil }
        var length = 0
        var identifiers: [String] = []
        for phrase in candidates where phrase.words.count >= length {
            let count = phrase.words.count
            guard i + count <= keys.count else { continue }
            let fits = (0..<count).allSatisfy { t in !consumed[i + t] && phrase.forms[t].contains(keys[i + t]) }
            guard fits else { continue }
            if count > length {
                length = count
                identifiers = []
            }
            if !identifiers.contains(phrase.identifier) { identifiers.append(phrase.identifier) }
        }
        return length > 0 ? (length, identifiers.sorted()) : nil
    }
}
