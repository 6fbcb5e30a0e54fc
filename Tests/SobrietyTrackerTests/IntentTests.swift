import Foundation
import Sift
import SobrietyTracker
import Testing

@Suite("Sample app: intents")
struct IntentTests {
    @Test("A manual log donates the matching intent with the trigger, surface and time")
    func manualLogDonates() async throws {
        let t = try TestApp()
        try await t.app.indexEverything()
        let trigger = try await t.app.perform(LogTriggerOccurrence(trigger: 2))
        #expect(trigger.occurrences.last == SampleDates.now)
        #expect(
            await t.donations.donations == [
                IntentDonation(
                    intent: "LogTriggerOccurrence", entities: [EntityReference(Trigger.self, id: 2)], surface: .app, date: SampleDates.now)
            ])
        // The trigger was re-indexed with its new count.
        #expect(await t.index.item("trigger/2")?.content.contains("Logged 2 times, last on 2026-06-15.") == true)
    }

    @Test("Donations reach the index's suggestions and the surface is kept")
    func donationsFeedSuggestions() async throws {
        let t = try TestApp(donationsIntoIndex: true)
        try await t.app.indexEverything()
        try await t.app.perform(LogTriggerOccurrence(trigger: 5, surface: .widget))
        try await t.app.perform(LogTriggerOccurrence(trigger: 2))
        try await t.app.perform(LogTriggerOccurrence(trigger: 2))
        #expect(try await t.app.triggers.suggestedEntities().map(\.id) == [2, 5])
        #expect(await t.index.donations(for: "trigger/5").map(\.surface) == ["widget"])
    }

    @Test("Logging an archived trigger records it but donates nothing to the index")
    func archivedTriggerLeavesNoDonation() async throws {
        let t = try TestApp(donationsIntoIndex: true)
        try await t.app.indexEverything()
        try await t.app.perform(LogTriggerOccurrence(trigger: 7))
        #expect(await t.index.item("trigger/7") == nil)
        #expect(await t.index.donations(for: "trigger/7").isEmpty)
    }

    @Test("The open route resolves the entity and donates OpenEntity")
    func openRouteResolves() async throws {
        let t = try TestApp()
        try await t.app.indexEverything()
        let results = try await t.app.perform(SearchJournal(query: "criticised in front of the team"))
        let top = try #require(results.first)
        #expect(top.itemID == "trigger/2")
        let url = try #require(top.url)
        #expect(url == "https://example.app/triggers/2")

        let entity = try await t.app.perform(OpenEntity(url: url))
        #expect(entity == .trigger(SampleData.triggers[1]))
        #expect(
            await t.donations.donations(of: "OpenEntity") == [
                IntentDonation(
                    intent: "OpenEntity", entities: [EntityReference(Trigger.self, id: 2)], surface: .search, date: SampleDates.now)
            ])
        let day = SampleData.days[0]
        #expect(try await t.app.perform(OpenEntity(url: "https://example.app/streak/\(day.id.uuidString)")) == .day(day))
        #expect(try await t.app.perform(OpenEntity(url: "https://example.app/reflections/r-2")).title == "The five o'clock witching hour")
    }

    @Test("Opening a private day's URL fails closed and donates nothing")
    func openPrivateDayFailsClosed() async throws {
        let t = try TestApp()
        try await t.app.indexEverything()
        let day = t.privateDays[0]
        await #expect(throws: EntityError.withheld(day.itemID, reason: .markedPrivate)) {
            try await t.app.perform(OpenEntity(url: "https://example.app/streak/\(day.id.uuidString)"))
        }
        await #expect(throws: EntityError.notFound("trigger/99")) {
            try await t.app.perform(OpenEntity(url: "https://example.app/triggers/99"))
        }
        await #expect(
            throws: EntityError.unknownRoute(
                "https://example.app/recipes/1",
                known: [
                    "https://example.app/streak/{id}", "https://example.app/triggers/{id}", "https://example.app/reflections/{id}",
                ])
        ) {
            try await t.app.perform(OpenEntity(url: "https://example.app/recipes/1"))
        }
        #expect(await t.donations.donations.isEmpty)
    }

    @Test("Writing a reflection indexes it under the next id and donates WriteReflection")
    func writeReflection() async throws {
        let t = try TestApp()
        try await t.app.indexEverything()
        let reflection = try await t.app.perform(WriteReflection(title: "Ninety days", body: "The fog lifted somewhere around week ten."))
        #expect(reflection.id == "r-6")
        #expect(await t.index.item("reflection/r-6")?.title == "Ninety days")
        #expect(await t.donations.donations.map(\.intent) == ["WriteReflection"])
        #expect(try await t.app.perform(SearchJournal(query: "fog lifted")).first?.entity == EntityReference(reflection))
    }

    @Test("Every intent has a unique identifier and a row in the guide's inventory")
    func inventoryIsDocumented() throws {
        let identifiers = SobrietyApp.intentInventory.map(\.identifier)
        #expect(Set(identifiers).count == identifiers.count)
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Documentation/AdoptingSift.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        for entry in SobrietyApp.intentInventory {
            #expect(text.contains("| `\(entry.identifier)` |"), "the guide's inventory lacks \(entry.identifier)")
        }
    }
}
