import Foundation

/// Dates of the sample, in UTC.
public enum SampleDates {
    /// The moment the scripted session runs: Monday 2026-06-15, 20:00 UTC.
    public static let now = date("2026-06-15T20:00:00Z")

    /// `2026-06-15T20:00:00Z` → a date. Only for the fixed literals of the sample.
    public static func date(_ iso: String) -> Date {
        guard let date = ISO8601DateFormatter().date(from: iso) else {
            preconditionFailure("sample date \"\(iso)\" is not ISO 8601")
        }
        return date
    }

    /// "2026-06-15" (UTC).
    public static func dayString(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        return formatter.string(from: date)
    }
}

/// The sample's data: two weeks of a sobriety journal (days 41–54), the user's triggers and
/// a few reflections, with fixed identifiers so every run is the same.
public enum SampleData {
    /// The identifier of sample day `n` (1…14): a fixed UUID.
    public static func dayID(_ n: Int) -> UUID {
        let suffix = String(n)
        let uuid = "5A0B1E00-0000-4000-8000-" + String(repeating: "0", count: 12 - suffix.count) + suffix
        guard let id = UUID(uuidString: uuid) else { preconditionFailure("bad sample UUID \(uuid)") }
        return id
    }

    public static var days: [StreakDay] {
        let entries: [(String, String, String, Int, Bool)] = [
            (
                "noon yoga and a nap",
                "Sticky, humid day, the kind that used to mean cold beer on the roof. Went to the noon yoga class and then took an unapologetic nap. Barely thought about drinking.",
                "grateful", 1, false
            ),
            (
                "first paycheck since the new job",
                "Payday used to mean a big night out. Moved the money to savings before I could think about it and cooked dinner with Sam instead.",
                "proud", 5, false
            ),
            (
                "shared at the church basement meeting",
                "Went to the 7pm meeting and actually shared. My voice shook. Two people came up afterwards to say thanks.", "hopeful", 2,
                false
            ),
            (
                "home early, soup and a bath",
                "Came home early, made soup, took a bath, done. No real cravings, just a passing thought at dinner.", "content", 0, false
            ),
            (
                "bad day at the office",
                "Argument with my boss about the roadmap in front of the whole team. Replayed it all afternoon. Went for a long run instead of the bar.",
                "angry", 7, false
            ),
            (
                "saturday hike with Dana",
                "Hiked the ridge trail with Dana, my sponsor. We talked about resentments the whole way up and ate oranges at the top.",
                "peaceful", 1, false
            ),
            (
                "rough night, phoned Dana at midnight",
                "Couldn't sleep, the old loneliness came back hard. Phoned my sponsor at midnight and she stayed on the line until I calmed down.",
                "lonely", 8, false
            ),
            (
                "movie night at home",
                "Movie night with popcorn and a pot of mint tea. A craving showed up around five; rode it out with seltzer and a shower.",
                "calm", 3, false
            ),
            (
                "the wedding invitation",
                "My cousin's wedding invitation came, open bar printed on the card. Told nobody how much that scared me.", "anxious", 6,
                true
            ),
            (
                "spent the evening writing",
                "Spent the evening writing instead of doom-scrolling. Medium craving after work, gone by the time I'd eaten.", "steady", 3,
                false
            ),
            (
                "grocery run, skipped the wine aisle", "Grocery run after work; went straight past the wine aisle without slowing down.",
                "grateful", 2, false
            ),
            (
                "team drinks, ordered a soda",
                "Friday team drinks at the pub. Ordered a soda with lime and left after an hour. Nobody cared, which was the whole revelation.",
                "relieved", 6, false
            ),
            (
                "farmers market and a long call with Mom",
                "Bought peaches at the farmers market, then a long call with Mom. She said I sound like myself again.", "happy", 1, false
            ),
            (
                "quiet Sunday, tired and flat",
                "Tired and flat all day. Not a craving exactly, more a grey boredom. Cleaned the kitchen and went to bed early.", "flat", 4,
                true
            ),
        ]
        return entries.enumerated().map { i, e in
            let day = String(format: "2026-06-%02d", i + 1)
            return StreakDay(
                id: dayID(i + 1), date: SampleDates.date("\(day)T21:00:00Z"), dayNumber: 41 + i, headline: e.0,
                note: e.1, mood: e.2, craving: e.3, isPrivate: e.4)
        }
    }

    public static var triggers: [Trigger] {
        [
            Trigger(
                id: 1, name: "Payday",
                details:
                    "Money hits the account and my brain goes straight to 'celebrate'. Old pattern: payday meant a big night out and a lost weekend.",
                category: "money", occurrences: [SampleDates.date("2026-06-02T18:30:00Z")]),
            Trigger(
                id: 2, name: "Argument with my boss",
                details:
                    "Conflict at work, especially being criticised in front of the team. I replay it for hours and want something to switch my head off.",
                category: "work", occurrences: [SampleDates.date("2026-06-05T16:10:00Z")]),
            Trigger(
                id: 3, name: "Performance review with my manager",
                details:
                    "One-on-one meetings about missed targets. Heart pounding, jaw clenched, and afterwards the urge to stop at the bar on the way home.",
                category: "work", occurrences: [SampleDates.date("2026-05-28T15:00:00Z")]),
            Trigger(
                id: 4, name: "Wine aisle at the grocery store",
                details: "Rows of bottles I used to know by label. They moved the seltzer right next to the wine.",
                category: "places", occurrences: [SampleDates.date("2026-06-11T18:45:00Z")]),
            Trigger(
                id: 5, name: "Friday team drinks",
                details: "The after-work pub round. Everyone holding a pint, and the question 'what are you having?'",
                category: "people", occurrences: [SampleDates.date("2026-06-12T19:00:00Z")]),
            Trigger(
                id: 6, name: "Loneliness late at night",
                details: "When the flat is quiet and everyone is asleep, the old voice says nobody would know.",
                category: "feelings",
                occurrences: [SampleDates.date("2026-05-30T23:40:00Z"), SampleDates.date("2026-06-07T23:55:00Z")]),
            Trigger(
                id: 7, name: "Texts from an old drinking buddy",
                details: "He used to text on Thursdays asking if I was coming out. Blocked his number in April.",
                category: "people", occurrences: [SampleDates.date("2026-04-02T20:00:00Z")], isArchived: true),
        ]
    }

    public static var reflections: [Reflection] {
        [
            Reflection(
                id: "r-1", date: SampleDates.date("2026-06-03T22:00:00Z"), title: "Looking back at the first month",
                body:
                    "Progress isn't a straight line. Some weeks I feel bulletproof, some days I'm hanging on. Reading my first entries, I barely recognise that person."
            ),
            Reflection(
                id: "r-2", date: SampleDates.date("2026-06-04T22:00:00Z"), title: "The five o'clock witching hour",
                body:
                    "Cravings come in waves. If I don't feed them, they peak and roll back out, usually in under twenty minutes. Urge surfing: notice where it sits in my body, breathe, watch.",
                dayID: dayID(4)),
            Reflection(
                id: "r-3", date: SampleDates.date("2026-06-06T22:00:00Z"), title: "Working step four",
                body: "Dana says resentments are the number one offender. I keep finding more of them under the ones I've already listed.",
                dayID: dayID(6)),
            Reflection(
                id: "r-4", date: SampleDates.date("2026-06-10T22:00:00Z"), title: "What I say when someone offers me a drink",
                body: "'I'm good, thanks' works nine times out of ten. The tenth time I say I don't drink anymore and change the subject."),
            Reflection(
                id: "r-5", date: SampleDates.date("2026-06-13T22:00:00Z"), title: "Letter to myself on day one",
                body: "You will not believe this yet, but the mornings get good. Keep going.", isPrivate: true),
        ]
    }

    /// A store holding the sample data.
    public static func store() -> SobrietyStore {
        SobrietyStore(days: days, triggers: triggers, reflections: reflections)
    }
}
