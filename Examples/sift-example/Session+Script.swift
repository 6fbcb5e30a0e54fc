import Foundation
import Sift
import SobrietyTracker

extension Session {
    /// The scripted session: each step of the issue, printed.
    func runScript() async throws {
        let days = await app.store.allDays()
        let triggers = await app.store.allTriggers()
        let reflections = await app.store.allReflections()
        var names: [ItemID: String] = [:]
        for d in days { names[d.itemID] = "Day \(d.dayNumber)" }
        for t in triggers { names[t.itemID] = "\"\(t.name)\"" }
        for r in reflections { names[r.itemID] = "\"\(r.title)\"" }

        print("\n[1] Index the app's data (the privacy policy runs before anything reaches the index)")
        let report = try await app.indexEverything()
        print("    Streak days: \(report.days.indexed) indexed\(describeWithheld(report.days, names: names))")
        print("    Triggers:    \(report.triggers.indexed) indexed\(describeWithheld(report.triggers, names: names))")
        print("    Reflections: \(report.reflections.indexed) indexed\(describeWithheld(report.reflections, names: names))")
        let sample = days[0]
        print("    item identifier of Day \(sample.dayNumber): \(sample.itemID)  (type + entity id, never the date or title)")

        print("\n[2] Search by meaning (each result carries its type, entity id and URL)")
        let work = try await search("stressful meeting with my boss")
        _ = try await search("feeling lonely late at night")
        _ = try await search("last week's triggers")
        if let top = work.first, let entity = top.entity {
            print("    the top result opens as: type \(entity.domain), id \(entity.identifier), \(top.url ?? "no URL")")
        }

        print("\n[3] Donate: the user logs triggers (LogTriggerOccurrence) and opens a result (OpenEntity)")
        let logs: [(Trigger.ID, DonationSurface)] = [(5, .widget), (2, .app), (2, .shortcut)]
        for (id, surface) in logs {
            let trigger = try await app.perform(LogTriggerOccurrence(trigger: id, surface: surface))
            print(
                "    LogTriggerOccurrence \"\(trigger.name)\" from the \(surface) → donated; now logged \(trigger.occurrences.count) times")
        }
        if let r2 = reflections.first(where: { $0.id == "r-2" }), let url = app.entities.url(for: r2) {
            let opened = try await app.perform(OpenEntity(url: url, surface: .search))
            print("    OpenEntity \(url) → \"\(opened.title)\" → donated")
        }

        print("\n[4] Suggestions (the donation log, decayed with a 14-day half-life)")
        await printSuggestions()

        print("\n[5] Mark a day private and show it gone")
        guard let rough = days.first(where: { $0.dayNumber == 47 }) else { return }
        let query = "couldn't sleep, phoned my sponsor"
        print("    before:")
        _ = try await search(query, limit: 3)
        let outcome = try await app.perform(MarkDayPrivate(day: rough.id))
        let reason = outcome.indexing.withheld[rough.itemID]?.description ?? "?"
        print("    MarkDayPrivate \"\(rough.title)\" → withheld (\(reason)), deleted from the index: \(outcome.indexing.deleted) item")
        print("    after:")
        let after = try await search(query, limit: 3)
        let gone = !after.contains { $0.itemID == rough.itemID }
        print("    Day \(rough.dayNumber) in the results: \(gone ? "no — it is gone" : "YES (this is a bug)")")

        print("\n[6] Open routes (OpenEntity; a URL parses back to its entity, failing closed)")
        await open("https://example.app/triggers/2")
        if let url = app.entities.url(for: rough) { await open(url) }
        await open("https://example.app/recipes/12")
        await open("https://example.app/triggers/two")
        await open("example.app/triggers/2")

        print("\nDone. Run it in a terminal (`swift run sift-example`) for the interactive version.")
    }
}
