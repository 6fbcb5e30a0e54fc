import Foundation
import Sift
import SobrietyTracker
import Testing

@Suite("Sample app: identifiers")
struct IdentifierTests {
    @Test("A day's item identifier is its type and entity id, and parses back to that id")
    func itemIdentifierMatchesEntityID() throws {
        for day in SampleData.days {
            #expect(day.itemID == ItemID("streakDay/\(day.id.uuidString)"))
            #expect(day.itemID.entityID(as: StreakDay.self) == day.id)
            #expect(EntityReference(day.itemID) == EntityReference(day))
        }
        #expect(SampleData.triggers[1].itemID == ItemID("trigger/2"))
        #expect(SampleData.reflections[0].itemID == ItemID("reflection/r-1"))
    }

    @Test("Two days with the same date and headline stay two items, each resolving to itself")
    func sameDateAndTitleStayDistinct() async throws {
        let date = SampleDates.date("2026-06-20T21:00:00Z")
        let morning = StreakDay(
            id: SampleData.dayID(101), date: date, dayNumber: 60, headline: "two entries", note: "Morning entry about the lake.",
            mood: "calm", craving: 1)
        let evening = StreakDay(
            id: SampleData.dayID(102), date: date, dayNumber: 60, headline: "two entries", note: "Evening entry about the lake.",
            mood: "tired", craving: 2)
        #expect(morning.title == evening.title)

        let index = try SearchIndex(configuration: .init(directory: nil, clock: { SampleDates.now }))
        let app = try SobrietyApp(store: SobrietyStore(days: [morning, evening]), index: index, clock: { SampleDates.now })
        let report = try await app.indexEverything()
        #expect(report.days.indexed == 2)

        let results = try await app.perform(SearchJournal(query: "lake"))
        #expect(Set(results.map(\.itemID)) == [morning.itemID, evening.itemID])
        for result in results {
            let entity = try await app.entity(for: try #require(result.entity))
            #expect(entity == .day(result.itemID == morning.itemID ? morning : evening))
        }
    }
}
