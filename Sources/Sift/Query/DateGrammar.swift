import Foundation

/// The date-phrase grammar over the keys of one query, at one `now`.
struct DateGrammar {
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
        guard let day = CalendarDay.containing(now, in: calendar) else { return nil }
        self.calendar = calendar
        self.keys = keys
        today = day.start
        tomorrow = day.end
        year = day.year
        month = day.month
        weekday = day.weekday
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

/// The calendar day that holds an instant: its midnights, year, month and weekday, as
/// ``DateGrammar`` starts from them. The last one asked for is kept (every query of a day asks
/// for the same): the calendar's arithmetic was 2–3% of a keyword query's time (`perf`).
struct CalendarDay: Sendable {
    /// Midnight at the start of the day, and at its end.
    let start: Date
    let end: Date
    let year: Int
    let month: Int
    /// 1 = Monday … 7 = Sunday.
    let weekday: Int
    let calendar: Calendar

    private final class Last: @unchecked Sendable {
        let lock = NSLock()
        var day: CalendarDay?
    }
    private static let last = Last()

    /// The day of `calendar` (its time zone) that holds `now`; nil where the calendar cannot
    /// tell (an instant beyond its range).
    static func containing(_ now: Date, in calendar: Calendar) -> CalendarDay? {
        if let day = last.lock.withLock({ last.day }), day.start <= now, now < day.end, day.calendar == calendar {
            return day
        }
        let start = calendar.startOfDay(for: now)
        guard let end = calendar.date(byAdding: .day, value: 1, to: start) else { return nil }
        let parts = calendar.dateComponents([.year, .month, .weekday], from: start)
        guard let year = parts.year, let month = parts.month, let weekday = parts.weekday else { return nil }
        // Foundation counts 1 = Sunday.
        let day = CalendarDay(
            start: start, end: end, year: year, month: month, weekday: (weekday + 5) % 7 + 1, calendar: calendar)
        last.lock.withLock { last.day = day }
        return day
    }
}
