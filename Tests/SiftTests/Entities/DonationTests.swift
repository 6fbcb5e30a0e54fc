import Foundation
import Sift
import SiftTestSupport
import Testing

extension Entities {
    @Suite("Donations")
    struct DonationTests {
        @Test("A typed donation reaches the index with its intent, items and surface, and feeds suggestions")
        func donationFeedsTheIndex() async throws {
            let (spy, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            try await entities.indexEntities(Fixtures.notes)
            await spy.reset()

            let donation = IntentDonation(intent: "OpenNote", entities: [Fixtures.notes[1]], surface: .widget, date: Fixtures.now)
            #expect(donation.itemIDs == ["note/n2"])
            #expect(try await entities.donationRecorder.donate(donation) == 1)
            #expect(await spy.calls == [.donate(intent: "OpenNote", itemIDs: ["note/n2"], surface: "widget")])
            #expect(
                await index.donations(for: "note/n2") == [
                    Donation(intent: "OpenNote", itemID: "note/n2", surface: "widget", date: Fixtures.now)
                ])

            let suggestions = await entities.suggestions()
            #expect(suggestions.map(\.entity) == [EntityReference(Fixtures.notes[1])])
            #expect(suggestions.first?.title == "Deadline week")
        }

        @Test("A suggestion is a result whose score is the decayed donation count, explained as such")
        func suggestionsAreResults() async throws {
            let (_, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(index)
            try await entities.indexEntities(Fixtures.notes)
            let note = Fixtures.notes[0]
            for _ in 0..<2 { try await index.donationRecorder.donate(IntentDonation(intent: "Open", entities: [note], date: Fixtures.now)) }

            let suggestions = await entities.suggestions(now: Fixtures.now)
            let expected = try #require(await index.suggestions(limit: 10, now: Fixtures.now).first)
            #expect(suggestions.count == 1)
            let suggestion = try #require(suggestions.first)
            #expect(suggestion.itemID == note.itemID)
            #expect(suggestion.entity == EntityReference(note))
            #expect(suggestion.title == "Sunday afternoon")
            #expect(suggestion.url == "https://elsewhere.example/notes/n1")
            #expect(suggestion.score == Float(expected.score))
            #expect(suggestion.score > 1.9)
            #expect(suggestion.result.explanation?.donationScore == suggestion.score)
        }

        @Test("A donated entity outranks its equally relevant twin")
        func donationBoostsRanking() async throws {
            let (spy, _) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            let twins = [Note(id: "a", title: "Walk", body: "river walk"), Note(id: "b", title: "Walk", body: "river walk")]
            try await entities.indexEntities(twins)
            #expect(try await entities.search("river").map(\.itemID) == ["note/a", "note/b"])
            try await entities.donationRecorder.donate(IntentDonation(intent: "Open", entities: [twins[1]], date: Fixtures.now))
            #expect(try await entities.search("river").map(\.itemID) == ["note/b", "note/a"])
        }

        @Test("A donation naming a withheld entity records nothing")
        func withheldEntityDonationDropped() async throws {
            let (spy, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            try await entities.indexEntities(Fixtures.notes)
            let recorded = try await entities.donationRecorder.donate(IntentDonation(intent: "Open", entities: [Fixtures.notes[2]]))
            #expect(recorded == 0)
            #expect(await index.suggestions(limit: 10, now: Fixtures.now).isEmpty)
        }

        @Test("The memory recorder keeps every donation for an app's tests")
        func memoryRecorder() async throws {
            let recorder = MemoryDonationRecorder()
            let a = IntentDonation(intent: "Log", entities: [Recipe(id: 1, name: "", method: "")], surface: .shortcut)
            let b = IntentDonation(intent: "Open", entities: [EntityReference(domain: "note", identifier: "n1")])
            await recorder.donate(a)
            await recorder.donate(b)
            #expect(await recorder.donations == [a, b])
            #expect(await recorder.donations(of: "Log") == [a])
        }
    }
}
