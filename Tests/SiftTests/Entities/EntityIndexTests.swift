import Foundation
import Sift
import Testing

extension Entities {
    @Suite("Indexing entities")
    struct EntityIndexTests {
        @Test("Public entities are indexed with their attributes; withheld ones never reach upsert")
        func policyAppliedBeforeUpsert() async throws {
            let (spy, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            let summary = try await entities.indexEntities(Fixtures.notes)

            #expect(summary.indexed == 2)
            #expect(summary.withheld == ["note/n3": .markedPrivate, "note/n4": .hiddenFromSearch, "note/n5": .archived])
            #expect(summary.deleted == 0)
            let indexable: [ItemID] = ["note/n1", "note/n2"]
            #expect(await spy.upsertedIDs == indexable)
            #expect(await spy.mutations == [.delete(["note/n3", "note/n4", "note/n5"]), .upsert(indexable)])
            #expect(await index.allItems().map(\.id) == indexable)

            let item = try #require(await index.item("note/n2"))
            #expect(item.domain == "note")
            #expect(item.title == "Deadline week")
            #expect(item.content == "Work stress before the product launch deadline.")
            #expect(item.keywords == ["work", "stress", "product", "launch"])
            #expect(item.date == Fixtures.day(2))
            #expect(item.displayName == "Notes")
            #expect(item.url == "https://elsewhere.example/notes/n2")
            #expect(!item.isPrivate && !item.isHidden)
        }

        @Test("An entity that becomes private is deleted from the index: an index event")
        func becomingPrivateDeletes() async throws {
            let (spy, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            var note = Fixtures.notes[0]
            try await entities.indexEntities([note])
            #expect(try await entities.search("river").map(\.itemID) == [note.itemID])
            await spy.reset()

            note.isPrivate = true
            let summary = try await entities.indexEntities([note])
            #expect(summary.deleted == 1)
            #expect(summary.withheld == [note.itemID: .markedPrivate])
            #expect(await spy.mutations == [.delete([note.itemID])])
            #expect(await index.item(note.itemID) == nil)
            #expect(try await entities.search("river").isEmpty)
            try await index.checkInvariants()
        }

        @Test("Empty input does not call the index at all")
        func emptyInputMakesNoCalls() async throws {
            let (spy, _) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            #expect(try await entities.indexEntities([Note]()) == EntityIndexingSummary())
            #expect(try await entities.deleteEntities([Note]()) == 0)
            #expect(try await entities.deleteEntities(Recipe.self, ids: []) == 0)
            #expect(try await entities.donationRecorder.donate(IntentDonation(intent: "Open", entities: [Note]())) == 0)
            #expect(await spy.calls.isEmpty)
        }

        @Test("When deleting a withheld entity fails, nothing is upserted")
        func deleteFailureStopsTheUpsert() async throws {
            let failing = FailingIndex()
            let entities = try Fixtures.entityIndex(failing)
            await #expect(throws: FailingIndex.Failure.self) { try await entities.indexEntities(Fixtures.notes) }
            #expect(await failing.attempted == ["delete"])
        }

        @Test("What hides itself from search is withheld even by alwaysAllow; alwaysAllow indexes the rest")
        func hiddenHonouredByEveryPolicy() async throws {
            let (spy, _) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy, policy: .alwaysAllow)
            let summary = try await entities.indexEntities(Fixtures.notes)
            #expect(summary.withheld == ["note/n4": .hiddenFromSearch])
            #expect(await spy.upsertedIDs == ["note/n1", "note/n2", "note/n3", "note/n5"])
        }

        @Test("respectPrivacyFlag withholds private entities but indexes archived ones")
        func respectPrivacyFlag() async throws {
            let (spy, _) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy, policy: .respectPrivacyFlag)
            let summary = try await entities.indexEntities(Fixtures.notes)
            #expect(summary.withheld == ["note/n3": .markedPrivate, "note/n4": .hiddenFromSearch])
            #expect(await spy.upsertedIDs == ["note/n1", "note/n2", "note/n5"])
        }

        @Test("Without a policy, private entities are withheld and archived ones indexed")
        func defaultPolicy() async throws {
            let (spy, _) = try Fixtures.spyIndex()
            let entities = try EntityIndex(index: spy, entityTypes: [Note.self])
            let summary = try await entities.indexEntities(Fixtures.notes)
            #expect(summary.withheld == ["note/n3": .markedPrivate, "note/n4": .hiddenFromSearch])
            #expect(await spy.upsertedIDs == ["note/n1", "note/n2", "note/n5"])
        }

        @Test("An app's own policy decides with its own reason")
        func customPolicy() async throws {
            struct NoRecipes: PrivacyPolicy {
                func withholdingReason(for entity: some IndexedEntity) -> WithholdingReason? {
                    entity is Recipe ? .policy("recipes are off in Settings") : nil
                }
            }
            let (spy, _) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy, policy: NoRecipes())
            let summary = try await entities.indexEntities([Recipe(id: 1, name: "Soup", method: "Boil.")])
            #expect(summary.withheld.values.map(\.description) == ["recipes are off in Settings"])
            #expect(await spy.upsertedIDs.isEmpty)
        }

        @Test("Of duplicates in one call the last wins")
        func duplicatesLastWins() async throws {
            let (spy, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            var later = Fixtures.notes[0]
            later.title = "Sunday evening"
            var hidden = Fixtures.notes[1]
            hidden.isPrivate = true
            let summary = try await entities.indexEntities([Fixtures.notes[0], Fixtures.notes[1], later, hidden])
            #expect(summary.indexed == 1)
            #expect(await index.item("note/n1")?.title == "Sunday evening")
            #expect(await index.item("note/n2") == nil)
        }

        @Test("An unregistered type or an empty identifier is refused before the index is called")
        func misuseIsRefusedUpFront() async throws {
            let (spy, _) = try Fixtures.spyIndex()
            let notesOnly = try EntityIndex(index: spy, entityTypes: [Note.self])
            await #expect(throws: EntityError.unregisteredType("recipe", registered: ["note"])) {
                try await notesOnly.indexEntities([Recipe(id: 1, name: "Soup", method: "")])
            }
            await #expect(throws: EntityError.emptyIdentifier("note")) {
                try await notesOnly.indexEntities([Note(id: "", title: "Untitled", body: "")])
            }
            #expect(await spy.calls.isEmpty)
        }

        @Test("deleteEntities removes exactly those entities' items")
        func deleteEntities() async throws {
            let (spy, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            try await entities.indexEntities(Fixtures.notes)
            #expect(try await entities.deleteEntities([Fixtures.notes[1], Fixtures.notes[2]]) == 1)
            #expect(await index.allItems().map(\.id) == ["note/n1"])
        }

        @Test("reindex replaces a type's items with the given entities and leaves other types alone")
        func reindexReplacesTheDomain() async throws {
            let (spy, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            try await entities.indexEntities(Fixtures.notes)
            try await entities.indexEntities([Recipe(id: 1, name: "Lentil soup", method: "Simmer lentils.")])
            await spy.reset()

            let fresh = [Note(id: "n9", title: "Monday", body: "Fresh start."), Fixtures.notes[2]]
            let summary = try await entities.reindex(Note.self, with: fresh)
            #expect(summary.replaced == 2)
            #expect(summary.indexed == 1)
            #expect(Array(summary.withheld.keys) == ["note/n3"])
            #expect(await spy.mutations == [.deleteDomains(["note"]), .upsert(["note/n9"])])
            #expect(await index.allItems().map(\.id) == ["note/n9", "recipe/1"])
            try await index.checkInvariants()
        }

        @Test("An entity whose expiry has passed is not indexed")
        func expiredIsNotIndexed() async throws {
            struct Offer: IndexedEntity {
                static let domainIdentifier = "offer"
                static let typeDisplayName = "Offers"
                let id: Int
                var displayRepresentation: EntityDisplayRepresentation { .init(title: "Offer \(id)") }
                var attributeSet: EntityAttributeSet {
                    EntityAttributeSet(title: "Offer \(id)", expires: Fixtures.now.addingTimeInterval(id == 1 ? -60 : 60))
                }
            }
            let (spy, index) = try Fixtures.spyIndex()
            let entities = try EntityIndex(index: spy, entityTypes: [Offer.self])
            let summary = try await entities.indexEntities([Offer(id: 1), Offer(id: 2)])
            #expect(summary.expired == 1)
            #expect(summary.indexed == 1)
            #expect(await index.allItems().map(\.id) == ["offer/2"])
        }

        @Test("SearchIndex.indexEntities indexes under a policy without building an EntityIndex")
        func searchIndexConvenience() async throws {
            let index = try SearchIndex(configuration: .init(directory: nil, clock: { Fixtures.now }))
            let summary = try await index.indexEntities(Fixtures.notes)
            #expect(summary.indexed == 3)
            #expect(await index.allItems().map(\.id) == ["note/n1", "note/n2", "note/n5"])
            #expect(try await index.deleteEntities([Fixtures.notes[0]]) == 1)
        }
    }
}
