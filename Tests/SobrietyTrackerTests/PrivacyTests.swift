import Foundation
import Sift
import SiftTestSupport
import SobrietyTracker
import Testing

@Suite("Sample app: indexing and privacy")
struct PrivacyTests {
    @Test("Public days are indexed, with their title, date and URL")
    func publicDaysIndexed() async throws {
        let t = try TestApp()
        let report = try await t.app.indexEverything()
        #expect(report.days.indexed == t.publicDays.count)
        #expect(await t.index.allItems().filter { $0.domain == "streakDay" }.map(\.id) == t.publicDays.map(\.itemID).sorted())
        let day = t.publicDays[0]
        let item = try #require(await t.index.item(day.itemID))
        #expect(item.title == "Day 41 — noon yoga and a nap")
        #expect(item.date == day.date)
        #expect(item.url == "https://example.app/streak/\(day.id.uuidString)")
        #expect(item.displayName == "Streak days")
    }

    @Test("Private days are filtered before indexing: they never reach the index")
    func privateDaysFilteredBeforeIndexing() async throws {
        let log = CallLog()
        let app = try SobrietyApp(store: SampleData.store(), index: log, donations: MemoryDonationRecorder())
        let report = try await app.indexEverything()
        let privateIDs = Set(SampleData.days.filter(\.isPrivate).map(\.itemID))
        #expect(report.days.withheld.keys.sorted() == SampleData.days.filter(\.isPrivate).map(\.itemID).sorted())
        #expect(report.days.withheld.values.allSatisfy { $0 == .markedPrivate })
        let upserted = await log.upserts.flatMap { $0 }
        #expect(!upserted.isEmpty)
        #expect(upserted.allSatisfy { !privateIDs.contains($0.id) })
        #expect(!upserted.contains { $0.content.contains("wedding invitation") })
    }

    @Test("Empty input does not call the index")
    func emptyInputDoesNotCallTheIndex() async throws {
        let log = CallLog()
        let app = try SobrietyApp(store: SobrietyStore(), index: log, donations: MemoryDonationRecorder())
        try await app.entities.indexEntities([StreakDay]())
        try await app.entities.deleteEntities([Trigger]())
        try await log.donationRecorder.donate(IntentDonation(intent: "LogTriggerOccurrence", entities: [Trigger]()))
        #expect(await log.callCount == 0)
    }

    @Test("Marking a day private deletes it from the index")
    func markingPrivateDeletes() async throws {
        let t = try TestApp()
        try await t.app.indexEverything()
        let day = t.publicDays.first { $0.dayNumber == 47 }!
        #expect(try await t.app.perform(SearchJournal(query: "phoned my sponsor at midnight")).first?.itemID == day.itemID)
        await t.spy.reset()

        let outcome = try await t.app.perform(MarkDayPrivate(day: day.id))
        #expect(outcome.day.isPrivate)
        #expect(outcome.indexing.deleted == 1)
        #expect(await t.spy.mutations == [.delete([day.itemID])])
        #expect(await t.index.item(day.itemID) == nil)
        #expect(try await t.app.perform(SearchJournal(query: "phoned my sponsor at midnight")).allSatisfy { $0.itemID != day.itemID })
        #expect(await t.donations.donations.isEmpty)
        try await t.index.checkInvariants()

        let back = try await t.app.perform(MarkDayPrivate(day: day.id, isPrivate: false))
        #expect(back.indexing.indexed == 1)
        #expect(await t.index.item(day.itemID) != nil)
    }

    @Test("Archiving a trigger deletes it; the archived sample trigger is never indexed")
    func archivingDeletes() async throws {
        let t = try TestApp()
        let report = try await t.app.indexEverything()
        #expect(report.triggers.withheld == ["trigger/7": .archived])
        #expect(await !t.spy.upsertedIDs.contains("trigger/7"))
        let summary = try await t.app.perform(ArchiveTrigger(trigger: 4))
        #expect(summary.deleted == 1)
        #expect(await t.index.item("trigger/4") == nil)
    }

    @Test("The Settings switch keeps every streak day out of search")
    func settingsSwitchPolicy() async throws {
        let t = try TestApp(policy: SobrietyPrivacyPolicy(streakDaysInSearch: false))
        let report = try await t.app.indexEverything()
        #expect(report.days.indexed == 0)
        #expect(report.days.withheld.count == SampleData.days.count)
        #expect(report.triggers.indexed == 6)
        #expect(await t.spy.upsertedIDs.allSatisfy { $0.entityComponents?.domain != "streakDay" })
    }
}
