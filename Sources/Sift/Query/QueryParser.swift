import Foundation

/// A kind of item that a query can name, e.g. identifier `expense`, display name "Expenses".
package struct DomainName: Sendable, Hashable {
    /// The domain as items carry it (`streakDay`).
    package var identifier: String
    /// The name a person would use ("Journal days"), if it differs from the identifier.
    package var displayName: String?

    package init(identifier: String, displayName: String? = nil) {
        self.identifier = identifier
        self.displayName = displayName
    }
}

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

// MARK: - Words

/// One white-space separated word of a query.
private struct QueryWord {
    /// The word as written.
    var text: String
    /// Lower-cased, without surrounding punctuation or a possessive "'s"; what phrases match.
    var key: String

    /// A possessive written as its own word: "'s", "’s", "'".
    var isPossessiveMark: Bool {
        ["'s", "’s", "'", "’", "'S", "’S"].contains(text)
    }

    /// The words of `query`, split on white space and control characters (NUL included).
    static func split(_ query: String) -> [QueryWord] {
        var words: [QueryWord] = []
        let scalars = query.unicodeScalars
        var start: String.UnicodeScalarView.Index?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let separates =
                scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            if separates {
                if let first = start { words.append(QueryWord(String(scalars[first..<index]))) }
                start = nil
            } else if start == nil {
                start = index
            }
            scalars.formIndex(after: &index)
        }
        if let first = start { words.append(QueryWord(String(scalars[first..<scalars.endIndex]))) }
        return words
    }

    init(_ text: String) {
        self.text = text
        var scalars = Array(text.lowercased().unicodeScalars)
        var upper = scalars.count
        while upper > 0, Self.isTrimmed(scalars[upper - 1]) { upper -= 1 }
        if upper > 2, scalars[upper - 1] == "s", scalars[upper - 2] == "'" || scalars[upper - 2] == "’" {
            upper -= 2
            while upper > 0, Self.isTrimmed(scalars[upper - 1]) { upper -= 1 }
        }
        var lower = 0
        while lower < upper, Self.isTrimmed(scalars[lower]) { lower += 1 }
        scalars = Array(scalars[lower..<upper])
        var key = String.UnicodeScalarView()
        key.append(contentsOf: scalars)
        self.key = String(key)
    }

    /// Punctuation that may surround a word: quotes, brackets, commas, full stops, dashes.
    private static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
            .otherPunctuation, .dashPunctuation:
            return true
        default:
            return false
        }
    }
}

// MARK: - Domains

/// One way of writing a domain's name as words, each with the singular and plural forms it accepts.
private struct DomainPhrase: Hashable {
    var words: [String]
    var identifier: String
    var forms: [Set<String>]

    init(words: [String], identifier: String) {
        self.words = words
        self.identifier = identifier
        forms = words.map(Self.numberForms)
    }

    /// The word sequences that name `domain`: the identifier as one word and split at camel case
    /// or separators ("streakDay" → "streakday", "streak day"), and the display name split at
    /// white space and at punctuation ("To-do items" → "to-do items", "to do items").
    static func spellings(of domain: DomainName) -> [[String]] {
        var result: [[String]] = []
        func add(_ words: [String]) {
            let words = words.filter { !$0.isEmpty }
            if !words.isEmpty, !result.contains(words) { result.append(words) }
        }
        add([domain.identifier.lowercased()])
        add(camelCaseWords(domain.identifier))
        if let name = domain.displayName {
            add(name.lowercased().split(whereSeparator: { $0.isWhitespace }).map { QueryWord(String($0)).key })
            add(name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
        }
        return result
    }

    private static func camelCaseWords(_ identifier: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for character in identifier {
            if !character.isLetter && !character.isNumber {
                words.append(current)
                current = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase && previousWasLower {
                words.append(current)
                current = ""
            }
            current += character.lowercased()
            previousWasLower = character.isLowercase || character.isNumber
        }
        words.append(current)
        return words
    }

    /// `word` with its likely plural and singular spellings: expense ↔ expenses, entry ↔ entries,
    /// match ↔ matches, day ↔ days.
    static func numberForms(_ word: String) -> Set<String> {
        var forms: Set<String> = [word, word + "s", word + "es"]
        if word.count > 1, word.hasSuffix("y"), let before = word.dropLast().last, !"aeiou".contains(before) {
            forms.insert(String(word.dropLast()) + "ies")
        }
        if word.count > 3, word.hasSuffix("ies") {
            forms.insert(String(word.dropLast(3)) + "y")
        } else if ["sses", "shes", "ches", "xes", "zes", "oes"].contains(where: { word.hasSuffix($0) }) {
            forms.insert(String(word.dropLast(2)))
        } else if word.count > 1, word.hasSuffix("s"), !word.hasSuffix("ss") {
            forms.insert(String(word.dropLast()))
        }
        return forms
    }
}

// MARK: - Dates

/// The date-phrase grammar over the keys of one query, at one `now`.
private struct DateGrammar {
    /// A date phrase found in the query.
    struct Match {
        var length: Int
        var range: DateRange
        var note: String?
        /// Not introduced by its own preposition, so a glue word before it belongs to it.
        var standalone: Bool
    }

    /// A bounded stretch of days, `[start, end)`, that a preposition applies to.
    struct Span {
        var start: Date
        var end: Date
        var length: Int
        var note: String?
    }

    let calendar: Calendar
    let keys: [String]
    /// Midnight at the start of today.
    let today: Date
    /// Midnight at the end of today.
    let tomorrow: Date
    let year: Int
    let month: Int
    /// Today's weekday, 1 = Monday … 7 = Sunday.
    let weekday: Int

    init?(calendar: Calendar, now: Date, keys: [String]) {
        self.calendar = calendar
        self.keys = keys
        today = calendar.startOfDay(for: now)
        guard let tomorrow = calendar.date(byAdding: .day, value: 1, to: today) else { return nil }
        self.tomorrow = tomorrow
        let parts = calendar.dateComponents([.year, .month, .weekday], from: today)
        guard let year = parts.year, let month = parts.month, let weekday = parts.weekday else { return nil }
        self.year = year
        self.month = month
        self.weekday = (weekday + 5) % 7 + 1  // Foundation counts 1 = Sunday.
    }

    func key(_ i: Int) -> String? { i < keys.count ? keys[i] : nil }

    /// The date phrase that starts at word `i`, if any.
    func match(at i: Int) -> Match? {
        switch keys[i] {
        case "between":
            return pair(at: i, joiners: ["and"])
        case "from":
            return pair(at: i, joiners: ["to", "until", "till", "through", "thru"])
        case "since":
            guard let span = span(at: i + 1) else { return nil }
            return Match(
                length: span.length + 1, range: DateRange(start: span.start, end: max(tomorrow, span.start)),
                note: span.note, standalone: false)
        case "on", "in", "during":
            guard let span = span(at: i + 1) else { return nil }
            return Match(
                length: span.length + 1, range: DateRange(start: span.start, end: span.end), note: span.note,
                standalone: false)
        case "before":
            guard let span = span(at: i + 1) else { return nil }
            return Match(
                length: span.length + 1, range: DateRange(start: nil, end: span.start), note: span.note,
                standalone: false)
        case "after":
            guard let span = span(at: i + 1) else { return nil }
            return Match(
                length: span.length + 1, range: DateRange(start: span.end, end: nil), note: span.note,
                standalone: false)
        default:
            guard let span = rolling(at: i) ?? relative(at: i) else { return nil }
            return Match(
                length: span.length, range: DateRange(start: span.start, end: span.end), note: span.note,
                standalone: true)
        }
    }

    /// "between X and Y", "from X to Y": from the first day of either to the last day of either.
    private func pair(at i: Int, joiners: Set<String>) -> Match? {
        guard let first = span(at: i + 1), let joiner = key(i + 1 + first.length), joiners.contains(joiner),
            let second = span(at: i + 2 + first.length)
        else { return nil }
        let notes = [first.note, second.note].compactMap { $0 }
        return Match(
            length: 2 + first.length + second.length,
            range: DateRange(start: min(first.start, second.start), end: max(first.end, second.end)),
            note: notes.isEmpty ? nil : notes.joined(separator: "; "), standalone: false)
    }

    /// What may follow a preposition: a day, a month, a year or a relative phrase.
    private func span(at i: Int) -> Span? {
        guard let word = key(i) else { return nil }
        if let day = Self.isoDay(word) {
            guard let start = date(day.year, day.month, day.day) else { return nil }
            return oneDay(start, length: 1, note: nil)
        }
        if let month = Self.month(key(i)), let day = Self.dayOfMonth(key(i + 1)) {
            return dayOf(month: month, day: day, yearAt: i + 2, length: 2)
        }
        if let day = Self.dayOfMonth(word), let month = Self.month(key(i + 1)) {
            return dayOf(month: month, day: day, yearAt: i + 2, length: 2)
        }
        if let month = Self.month(word) {
            if let year = Self.year(key(i + 1)) {
                return period(.month, containing: date(year, month, 1), length: 2, note: nil)
            }
            let year = month <= self.month ? self.year : self.year - 1
            let name = Self.monthNames[month - 1].capitalized
            return period(
                .month, containing: date(year, month, 1), length: 1, note: "the most recent \(name) that has begun")
        }
        if let year = Self.year(word) {
            return period(.year, containing: date(year, 1, 1), length: 1, note: nil)
        }
        if let target = Self.weekday(word) {
            let back = (weekday - target + 7) % 7
            let name = Self.weekdayNames[target - 1].capitalized
            return oneDay(days(-back, from: today), length: 1, note: "the most recent \(name), today included")
        }
        return relative(at: i)
    }

    /// Phrases that stand on their own: today, yesterday, this/last/past week, last Monday.
    private func relative(at i: Int) -> Span? {
        let word = keys[i]
        switch word {
        case "today":
            return oneDay(today, length: 1, note: nil)
        case "yesterday":
            return oneDay(days(-1, from: today), length: 1, note: nil)
        case "this", "last", "previous", "past":
            guard let next = key(i + 1) else { return nil }
            if let unit = Self.calendarPeriod(next) {
                let note = unit == .weekOfYear ? "ISO weeks start on Monday" : nil
                switch word {
                case "this":
                    return period(unit, containing: today, length: 2, note: note)
                case "past":
                    return rollingSpan(count: 1, unit: unit, length: 2)
                default:
                    guard let current = period(unit, containing: today, length: 2, note: note),
                        let start = calendar.date(
                            byAdding: unit == .weekOfYear ? .day : unit, value: unit == .weekOfYear ? -7 : -1,
                            to: current.start)
                    else { return nil }
                    return Span(start: start, end: current.start, length: 2, note: note)
                }
            }
            if word != "this", word != "past", let target = Self.weekday(next) {
                let back = (weekday - target + 6) % 7 + 1
                let name = Self.weekdayNames[target - 1].capitalized
                return oneDay(days(-back, from: today), length: 2, note: "the most recent \(name) before today")
            }
            return nil
        default:
            return nil
        }
    }

    /// "last|past|previous N days|weeks|months|years": the N periods that end with today.
    private func rolling(at i: Int) -> Span? {
        guard ["last", "past", "previous"].contains(keys[i]), let count = Self.number(key(i + 1)),
            let unitWord = key(i + 2), let unit = Self.unit(unitWord)
        else { return nil }
        return rollingSpan(count: count, unit: unit, length: 3)
    }

    private func rollingSpan(count: Int, unit: Calendar.Component, length: Int) -> Span? {
        let (component, amount) = unit == .weekOfYear ? (Calendar.Component.day, 7 * count) : (unit, count)
        guard let start = calendar.date(byAdding: component, value: -amount, to: tomorrow) else { return nil }
        let name = [.day: "day", .weekOfYear: "day", .month: "month", .year: "year"][component] ?? "day"
        let note = "\(amount) \(name)\(amount == 1 ? "" : "s") up to and including today"
        return Span(start: start, end: tomorrow, length: length, note: note)
    }

    /// The calendar week (from Monday), month or year that holds `date`.
    private func period(_ unit: Calendar.Component, containing date: Date?, length: Int, note: String?) -> Span? {
        guard let date else { return nil }
        let start: Date?
        let end: Date?
        switch unit {
        case .weekOfYear:
            let parts = calendar.dateComponents([.weekday], from: date)
            let isoWeekday = ((parts.weekday ?? 2) + 5) % 7 + 1
            start = calendar.date(byAdding: .day, value: 1 - isoWeekday, to: calendar.startOfDay(for: date))
            end = start.flatMap { calendar.date(byAdding: .day, value: 7, to: $0) }
        case .month, .year:
            let parts = calendar.dateComponents([.year, .month], from: date)
            guard let year = parts.year, let month = parts.month else { return nil }
            start = self.date(year, unit == .year ? 1 : month, 1)
            end = start.flatMap { calendar.date(byAdding: unit, value: 1, to: $0) }
        default:
            return nil
        }
        guard let start, let end else { return nil }
        return Span(start: start, end: end, length: length, note: note)
    }

    /// "November 30 [2026]": the given year, or the most recent such day on or before today.
    private func dayOf(month: Int, day: Int, yearAt i: Int, length: Int) -> Span? {
        if let year = Self.year(key(i)) {
            return date(year, month, day).flatMap { oneDay($0, length: length + 1, note: nil) }
        }
        let name = "\(Self.monthNames[month - 1].capitalized) \(day)"
        // Eight years back always reaches a leap year, for February 29.
        for year in stride(from: self.year, through: self.year - 8, by: -1) {
            if let start = date(year, month, day), start <= today {
                return oneDay(start, length: length, note: "the most recent \(name)")
            }
        }
        return nil
    }

    private func oneDay(_ start: Date?, length: Int, note: String?) -> Span? {
        guard let start, let end = calendar.date(byAdding: .day, value: 1, to: start) else { return nil }
        return Span(start: start, end: end, length: length, note: note)
    }

    private func days(_ count: Int, from date: Date) -> Date? {
        calendar.date(byAdding: .day, value: count, to: date)
    }

    /// Midnight starting the given day, or `nil` if there is no such day (February 30).
    private func date(_ year: Int, _ month: Int, _ day: Int) -> Date? {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day))
        else { return nil }
        let check = calendar.dateComponents([.year, .month, .day], from: date)
        guard check.year == year, check.month == month, check.day == day else { return nil }
        return date
    }

    /// `range` as first and last day, e.g. "2026-11-23 … 2026-11-29".
    func describe(_ range: DateRange) -> String {
        let last = range.end.flatMap { calendar.date(byAdding: .day, value: -1, to: $0) }
        switch (range.start, last) {
        case (let start?, let last?):
            if range.isEmpty { return "no days (\(ymd(start)) has not come yet)" }
            return start == last ? ymd(start) : "\(ymd(start)) … \(ymd(last))"
        case (let start?, nil):
            return "\(ymd(start)) onwards"
        case (nil, let last?):
            return "up to \(ymd(last))"
        case (nil, nil):
            return "any date"
        }
    }

    private func ymd(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
    }

    // MARK: Vocabulary

    static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]
    static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    private static let monthAbbreviations: [String: Int] = [
        "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
        "nov": 11, "dec": 12,
    ]
    private static let numberWords = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    ]

    /// 1 … 12 for a month name or its abbreviation.
    static func month(_ word: String?) -> Int? {
        guard let word else { return nil }
        if let index = monthNames.firstIndex(of: word) { return index + 1 }
        return monthAbbreviations[word]
    }

    /// 1 = Monday … 7 = Sunday.
    static func weekday(_ word: String) -> Int? {
        weekdayNames.firstIndex(of: word).map { $0 + 1 }
    }

    /// A four-digit year, 1000 … 9999.
    static func year(_ word: String?) -> Int? {
        guard let word, word.utf8.count == 4, word.utf8.allSatisfy(isDigit), let value = Int(word), value >= 1000
        else { return nil }
        return value
    }

    /// A day of the month, 1 … 31, with or without an ordinal suffix: "30", "30th", "1st".
    static func dayOfMonth(_ word: String?) -> Int? {
        guard var word else { return nil }
        for suffix in ["st", "nd", "rd", "th"] where word.hasSuffix(suffix) {
            word.removeLast(2)
            break
        }
        guard (1...2).contains(word.utf8.count), word.utf8.allSatisfy(isDigit), let value = Int(word),
            (1...31).contains(value)
        else { return nil }
        return value
    }

    /// A count of periods: 1 … 9999 in digits, or one … twelve.
    static func number(_ word: String?) -> Int? {
        guard let word else { return nil }
        if let index = numberWords.firstIndex(of: word) { return index + 1 }
        guard (1...4).contains(word.utf8.count), word.utf8.allSatisfy(isDigit), let value = Int(word), value > 0
        else { return nil }
        return value
    }

    /// day(s), week(s), month(s), year(s).
    static func unit(_ word: String) -> Calendar.Component? {
        switch word {
        case "day", "days": return .day
        case "week", "weeks": return .weekOfYear
        case "month", "months": return .month
        case "year", "years": return .year
        default: return nil
        }
    }

    /// week, month, year: the periods that "this" and "last" name.
    static func calendarPeriod(_ word: String) -> Calendar.Component? {
        switch word {
        case "week": return .weekOfYear
        case "month": return .month
        case "year": return .year
        default: return nil
        }
    }

    /// `yyyy-MM-dd`.
    static func isoDay(_ word: String) -> (year: Int, month: Int, day: Int)? {
        let bytes = Array(word.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        return (year, month, day)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
