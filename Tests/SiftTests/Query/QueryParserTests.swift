import Foundation
import Testing

@testable import Sift

/// Wednesday 2026-12-02, noon UTC: the `--now` of every phrasing below.
private let now = Date(timeIntervalSince1970: 1_796_212_800)

private let domains = [
    DomainName(identifier: "expense", displayName: "Expenses"),
    DomainName(identifier: "recipe", displayName: "Recipes"),
    DomainName(identifier: "streakDay", displayName: "Journal days"),
    DomainName(identifier: "trigger", displayName: "Triggers"),
    DomainName(identifier: "reflection", displayName: "Reflections"),
]

private let parser = QueryParser(domains: domains)

/// Midnight UTC of `yyyy-MM-dd`, or a full ISO 8601 instant.
private func instant(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: text.count == 10 ? text + "T00:00:00Z" : text)!
}

/// One query and what the parser must make of it at `now`.
struct QueryPhrasing: Sendable, CustomTestStringConvertible {
    var query: String
    /// `nil` for no date filter; else first and end (exclusive) day, `nil` for open.
    var range: (start: String?, end: String?)?
    var domains: [String]
    var text: String

    var testDescription: String { "\"\(query)\"" }

    init(_ query: String, _ start: String?, _ end: String?, _ domains: [String] = [], text: String = "") {
        self.query = query
        self.range = (start, end)
        self.domains = domains
        self.text = text
    }

    init(_ query: String, noDate domains: [String], text: String) {
        self.query = query
        self.range = nil
        self.domains = domains
        self.text = text
    }
}

private let phrasings: [QueryPhrasing] = [
    // The acceptance query: ISO weeks start on Monday, so last week is Mon 11-23 … Sun 11-29.
    QueryPhrasing("last week's expenses", "2026-11-23", "2026-11-30", ["expense"]),
    QueryPhrasing("LAST WEEK'S EXPENSES", "2026-11-23", "2026-11-30", ["expense"]),
    QueryPhrasing("last week ’s expenses", "2026-11-23", "2026-11-30", ["expense"]),
    QueryPhrasing("expenses from last week", "2026-11-23", "2026-11-30", ["expense"]),
    QueryPhrasing("what did I spend last week?", "2026-11-23", "2026-11-30", text: "what did I spend"),
    QueryPhrasing("today", "2026-12-02", "2026-12-03"),
    QueryPhrasing("today's recipes", "2026-12-02", "2026-12-03", ["recipe"]),
    QueryPhrasing("yesterday", "2026-12-01", "2026-12-02"),
    QueryPhrasing("Yesterday's reflections", "2026-12-01", "2026-12-02", ["reflection"]),
    QueryPhrasing("reflection on yesterday", "2026-12-01", "2026-12-02", ["reflection"]),
    QueryPhrasing("this week", "2026-11-30", "2026-12-07"),
    QueryPhrasing("this month", "2026-12-01", "2027-01-01"),
    QueryPhrasing("this year", "2026-01-01", "2027-01-01"),
    QueryPhrasing("last week", "2026-11-23", "2026-11-30"),
    QueryPhrasing("previous week", "2026-11-23", "2026-11-30"),
    QueryPhrasing("last month", "2026-11-01", "2026-12-01"),
    QueryPhrasing("last month's expenses", "2026-11-01", "2026-12-01", ["expense"]),
    QueryPhrasing("last year", "2025-01-01", "2026-01-01"),
    // Last N periods end with today, today included.
    QueryPhrasing("last 7 days", "2026-11-26", "2026-12-03"),
    QueryPhrasing("last seven days", "2026-11-26", "2026-12-03"),
    QueryPhrasing("past 3 days", "2026-11-30", "2026-12-03"),
    QueryPhrasing("last 2 weeks", "2026-11-19", "2026-12-03"),
    QueryPhrasing("last two weeks", "2026-11-19", "2026-12-03"),
    QueryPhrasing("last 3 months", "2026-09-03", "2026-12-03"),
    QueryPhrasing("past week", "2026-11-26", "2026-12-03"),
    QueryPhrasing("coffee expenses in the last 30 days", "2026-11-03", "2026-12-03", ["expense"], text: "coffee"),
    // Since: from the start of the day to the end of today.
    QueryPhrasing("since Monday", "2026-11-30", "2026-12-03"),
    QueryPhrasing("since wednesday", "2026-12-02", "2026-12-03"),
    QueryPhrasing("since Sunday", "2026-11-29", "2026-12-03"),
    QueryPhrasing("since 2026-11-01", "2026-11-01", "2026-12-03"),
    QueryPhrasing("since yesterday", "2026-12-01", "2026-12-03"),
    QueryPhrasing("since last month", "2026-11-01", "2026-12-03"),
    QueryPhrasing("journal days since monday", "2026-11-30", "2026-12-03", ["streakDay"]),
    // Months and years.
    QueryPhrasing("in March", "2026-03-01", "2026-04-01"),
    QueryPhrasing("in December", "2026-12-01", "2027-01-01"),
    QueryPhrasing("in March 2025", "2025-03-01", "2025-04-01"),
    QueryPhrasing("in 2025", "2025-01-01", "2026-01-01"),
    QueryPhrasing("recipes during this month", "2026-12-01", "2027-01-01", ["recipe"]),
    // Single days.
    QueryPhrasing("on 2026-11-30", "2026-11-30", "2026-12-01"),
    QueryPhrasing("on Monday", "2026-11-30", "2026-12-01"),
    QueryPhrasing("on Wednesday", "2026-12-02", "2026-12-03"),
    QueryPhrasing("last Monday", "2026-11-30", "2026-12-01"),
    QueryPhrasing("last Wednesday", "2026-11-25", "2026-11-26"),
    QueryPhrasing("on November 30", "2026-11-30", "2026-12-01"),
    QueryPhrasing("on Nov 30 2026", "2026-11-30", "2026-12-01"),
    QueryPhrasing("on Nov. 30th, 2026", "2026-11-30", "2026-12-01"),
    QueryPhrasing("on 30 November", "2026-11-30", "2026-12-01"),
    QueryPhrasing("on December 25", "2025-12-25", "2025-12-26"),
    // Open ends and pairs.
    QueryPhrasing("before 2026-11-30", nil, "2026-11-30"),
    QueryPhrasing("after 2026-11-30", "2026-12-01", nil),
    QueryPhrasing("Triggers before 2026-11-30", nil, "2026-11-30", ["trigger"]),
    QueryPhrasing("between 2026-11-01 and 2026-11-15", "2026-11-01", "2026-11-16"),
    QueryPhrasing("between 2026-11-15 and 2026-11-01", "2026-11-01", "2026-11-16"),
    QueryPhrasing("from 2026-11-01 to 2026-11-15", "2026-11-01", "2026-11-16"),
    QueryPhrasing("rent from November 1 to November 15", "2026-11-01", "2026-11-16", text: "rent"),
    // Several phrases: the overlap, or the span when they do not overlap.
    QueryPhrasing("in 2026 in March", "2026-03-01", "2026-04-01"),
    QueryPhrasing("yesterday and today", "2026-12-01", "2026-12-03"),
    QueryPhrasing("since 2027-01-01", "2027-01-01", "2027-01-01"),
    // Domains without dates.
    QueryPhrasing("pasta recipes", noDate: ["recipe"], text: "pasta"),
    QueryPhrasing("expense", noDate: ["expense"], text: ""),
    QueryPhrasing("recipe's ingredients", noDate: ["recipe"], text: "ingredients"),
    QueryPhrasing("expenses' receipts", noDate: ["expense"], text: "receipts"),
    QueryPhrasing("streak days", noDate: ["streakDay"], text: ""),
    QueryPhrasing("streakday", noDate: ["streakDay"], text: ""),
    QueryPhrasing("Journal day about running", noDate: ["streakDay"], text: "about running"),
    QueryPhrasing("triggers and reflections", noDate: ["reflection", "trigger"], text: ""),
    QueryPhrasing("pasta and recipes", noDate: ["recipe"], text: "pasta and"),
    QueryPhrasing("last twelve months of expenses", "2025-12-03", "2026-12-03", ["expense"]),
    // Phrases that do not parse stay in the text.
    QueryPhrasing("on Feb 30", noDate: [], text: "on Feb 30"),
    QueryPhrasing("in Smarch", noDate: [], text: "in Smarch"),
    QueryPhrasing("last 0 days", noDate: [], text: "last 0 days"),
    QueryPhrasing("before the meeting", noDate: [], text: "before the meeting"),
    QueryPhrasing("last night", noDate: [], text: "last night"),
    QueryPhrasing("between 5 and 10 minutes", noDate: [], text: "between 5 and 10 minutes"),
]

@Suite("Query parser")
struct QueryParserTests {
    @Test("The phrasing table, relative to Wednesday 2026-12-02 12:00 UTC", arguments: phrasings)
    func phrasing(_ case_: QueryPhrasing) {
        let parsed = parser.parse(case_.query, now: now)
        if let range = case_.range {
            #expect(parsed.dateRange == DateRange(start: range.start.map(instant), end: range.end.map(instant)))
        } else {
            #expect(parsed.dateRange == nil)
        }
        #expect(parsed.domains == case_.domains)
        #expect(parsed.text == case_.text)
    }

    @Test("The table holds at least 40 phrasings")
    func tableSize() {
        #expect(phrasings.count >= 40)
    }

    @Test("Explains what it understood")
    func explanation() {
        let parsed = parser.parse("last week's expenses", now: now)
        #expect(
            parsed.understood == [
                "last week → 2026-11-23 … 2026-11-29 (ISO weeks start on Monday)", "expenses → domain expense",
            ])
        #expect(
            parser.parse("last 7 days", now: now).understood == [
                "last 7 days → 2026-11-26 … 2026-12-02 (7 days up to and including today)"
            ])
        #expect(parser.parse("before 2026-11-30", now: now).understood == ["before 2026-11-30 → up to 2026-11-29"])
        #expect(parser.parse("yesterday", now: now).understood == ["yesterday → 2026-12-01"])
        #expect(parser.parse("pasta", now: now).understood.isEmpty)
    }

    @Test("A query without date phrases keeps its text, with white space normalised")
    func noDatePhrase() {
        let parsed = parser.parse("  pasta \t carbonara\n\nwith   guanciale ", now: now)
        #expect(parsed == ParsedQuery(text: "pasta carbonara with guanciale"))
    }

    @Test("In a month resolves to the most recent such month that has begun")
    func monthResolution() {
        let february = instant("2026-02-10T09:00:00Z")
        #expect(
            parser.parse("in March", now: february).dateRange
                == DateRange(start: instant("2025-03-01"), end: instant("2025-04-01")))
        #expect(
            parser.parse("in February", now: february).dateRange
                == DateRange(start: instant("2026-02-01"), end: instant("2026-03-01")))
        let firstOfMarch = instant("2026-03-01T00:00:00Z")
        #expect(
            parser.parse("in March", now: firstOfMarch).dateRange
                == DateRange(start: instant("2026-03-01"), end: instant("2026-04-01")))
        // A day without a year is the most recent one, as far back as a leap year for February 29.
        #expect(
            parser.parse("on Feb 29", now: now).dateRange
                == DateRange(start: instant("2024-02-29"), end: instant("2024-03-01")))
    }

    @Test("Days start at midnight in the parser's time zone, across daylight-saving changes")
    func timeZones() throws {
        let newYork = QueryParser(domains: domains, timeZone: try #require(TimeZone(identifier: "America/New_York")))
        #expect(
            newYork.parse("today", now: now).dateRange
                == DateRange(start: instant("2026-12-02T05:00:00Z"), end: instant("2026-12-03T05:00:00Z")))
        // DST ended on 2026-11-01: Monday 10-26 starts at 04:00Z, Monday 11-02 at 05:00Z.
        let afterDST = instant("2026-11-05T12:00:00Z")
        #expect(
            newYork.parse("last week", now: afterDST).dateRange
                == DateRange(start: instant("2026-10-26T04:00:00Z"), end: instant("2026-11-02T05:00:00Z")))
        // Noon UTC is already Thursday 01:00 in Auckland.
        let auckland = QueryParser(domains: domains, timeZone: try #require(TimeZone(identifier: "Pacific/Auckland")))
        #expect(
            auckland.parse("today", now: now).dateRange
                == DateRange(start: instant("2026-12-02T11:00:00Z"), end: instant("2026-12-03T11:00:00Z")))
    }

    @Test("DateRange is half-open")
    func halfOpen() {
        let range = DateRange(start: instant("2026-11-23"), end: instant("2026-11-30"))
        #expect(range.contains(instant("2026-11-23")))
        #expect(range.contains(instant("2026-11-29T23:59:59Z")))
        #expect(!range.contains(instant("2026-11-30")))
        #expect(DateRange(start: nil, end: nil).contains(now))
    }

    @Test(
        "Any input returns without crashing",
        arguments: [
            "", " ", "\t\n", "!!! ??? ... ,,, '", "'s", "’", "😤🔥 🍝", "Work — stressful! 😤",
            "\0\0last\0week\0", "\u{301}last week", "русский рецепт", "last", "between",
            "between 2026-11-01 and", "from 2026-11-01 to",
            "on", "since", "last 99999 days", "last 9999 years", "in 0999", "9999-99-99", "on 2026-02-30",
            "expenses'", "'s expenses", "last week's'", "streak", "journal",
        ])
    func robustness(_ query: String) {
        let parsed = parser.parse(query, now: now)
        #expect(parsed.domains == Array(Set(parsed.domains)).sorted())
        if let range = parsed.dateRange, let start = range.start, let end = range.end { #expect(start <= end) }
    }

    @Test("Ten thousand words parse in linear time")
    func longQueries() {
        let vocabulary = [
            "last", "week's", "expenses", "between", "2026-11-01", "and", "in", "March", "the", "pasta", "on", "since",
            "Monday", "journal", "days", "😤", "\0",
        ]
        var generator = SplitMix64(seed: 42)
        let words = (0..<10_000).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            _ = parser.parse(words.joined(separator: " "), now: now)
            _ = parser.parse(String(repeating: "between ", count: 10_000), now: now)
            _ = parser.parse(String(repeating: "last ", count: 10_000), now: now)
            _ = parser.parse(String(repeating: "x", count: 1_000_000), now: now)
        }
        #expect(elapsed < .seconds(10))
    }

    @Test("Random queries keep their surviving words in order")
    func randomQueries() {
        let vocabulary = [
            "last", "past", "this", "week", "weeks", "month's", "3", "seven", "days", "in", "on", "from", "to", "the",
            "since", "before", "after", "between", "and", "Nov", "30", "2026", "2026-11-30", "March", "Monday", "today",
            "yesterday's", "expenses", "recipe's", "journal", "day", "coffee", "'s", "—", "😤", "",
        ]
        var generator = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let count = Int(generator.next() % 12)
            let words = (0..<count).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] }
            let parsed = parser.parse(words.joined(separator: " "), now: now)
            var remaining = words.filter { !$0.isEmpty }[...]
            for word in parsed.text.split(separator: " ") {
                while let first = remaining.first, first != word { remaining.removeFirst() }
                #expect(remaining.first == String(word), "\(words) → \(parsed.text)")
                remaining = remaining.dropFirst()
            }
        }
    }
}
