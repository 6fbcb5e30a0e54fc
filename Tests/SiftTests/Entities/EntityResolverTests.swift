import Foundation
import Sift
import SiftTestSupport
import Testing

extension Entities {
    @Suite("Resolving entities")
    struct EntityResolverTests {
        let notes = Fixtures.notes

        func resolver() throws -> (EntityResolver<NoteSource>, RecordingSearchIndex, SearchIndex) {
            let (spy, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            return (EntityResolver(source: NoteSource(notes: notes), index: entities), spy, index)
        }

        @Test("Identifiers resolve in the order given; a missing one is reported, never replaced by a neighbour")
        func orderAndFailingClosed() async throws {
            let (resolver, _, _) = try resolver()
            let resolved = try await resolver.entities(for: ["n2", "gone", "n1", "n2"])
            #expect(resolved == [.success(notes[1]), .failure(.notFound("note/gone")), .success(notes[0]), .success(notes[1])])
        }

        @Test("An entity the policy now withholds resolves as missing, with the reason")
        func withheldResolvesAsMissing() async throws {
            let (resolver, _, _) = try resolver()
            let resolved = try await resolver.entities(for: ["n3", "n4", "n5"])
            #expect(
                resolved == [
                    .failure(.withheld("note/n3", reason: .markedPrivate)), .failure(.withheld("note/n4", reason: .hiddenFromSearch)),
                    .failure(.withheld("note/n5", reason: .archived)),
                ])
        }

        @Test("Item identifiers of another type or of no entity are reported as such")
        func foreignItemIdentifiers() async throws {
            let (resolver, _, _) = try resolver()
            let resolved = try await resolver.entities(for: ["recipe/1", "note/n1", "plain-id", "note/gone"] as [ItemID])
            #expect(
                resolved == [
                    .failure(.otherType("recipe/1", domain: "recipe")), .success(notes[0]), .failure(.notAnEntity("plain-id")),
                    .failure(.notFound("note/gone")),
                ])
        }

        @Test("Each reason an identifier did not resolve names it and says why")
        func resolutionErrorMessages() {
            #expect(EntityError.notFound("note/gone").description == "cannot resolve note/gone: no such entity")
            #expect(
                EntityError.withheld("note/n3", reason: .markedPrivate).description
                    == "cannot resolve note/n3: withheld from search (private)")
            #expect(
                EntityError.otherType("recipe/1", domain: "recipe").description
                    == "cannot resolve recipe/1: it names a recipe, not this type")
            #expect(
                EntityError.unparsableIdentifier("recipe/x").description
                    == "cannot resolve recipe/x: the identifier is not valid for this type")
            #expect(EntityError.notAnEntity("plain-id").description == "cannot resolve plain-id: it is not an entity identifier")
        }

        @Test("requireAll returns every entity or names the first that is missing")
        func requireAll() async throws {
            let (resolver, _, _) = try resolver()
            #expect(try await resolver.entities(for: ["n1", "n2"]).requireAll() == [notes[0], notes[1]])
            #expect(throws: EntityError.notFound("note/zz")) {
                try [Result<Note, EntityError>.success(notes[0]), .failure(.notFound("note/zz"))].requireAll()
            }
        }

        @Test("Suggested entities come from the donation log, best first, only of this type and only if they still exist")
        func suggestedEntities() async throws {
            let source = NoteSource(notes: Array(notes.prefix(2)) + [Note(id: "n6", title: "Gratitude", body: "Three good things.")])
            let (spy, _) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            let resolver = EntityResolver(source: source, index: entities)
            try await entities.indexEntities(source.notes)
            try await entities.indexEntities([Recipe(id: 1, name: "Soup", method: "Boil.")])
            let recorder = entities.donationRecorder
            try await recorder.donate(IntentDonation(intent: "Open", entities: [source.notes[2]], date: Fixtures.now))
            try await recorder.donate(IntentDonation(intent: "Open", entities: [source.notes[1]], date: Fixtures.now))
            try await recorder.donate(IntentDonation(intent: "Edit", entities: [source.notes[1]], date: Fixtures.now))
            try await recorder.donate(IntentDonation(intent: "Cook", entities: [Recipe(id: 1, name: "", method: "")], date: Fixtures.now))
            try await recorder.donate(IntentDonation(intent: "Cook", entities: [Recipe(id: 1, name: "", method: "")], date: Fixtures.now))
            try await recorder.donate(IntentDonation(intent: "Cook", entities: [Recipe(id: 1, name: "", method: "")], date: Fixtures.now))

            #expect(try await resolver.suggestedEntities().map(\.id) == ["n2", "n6"])
            #expect(try await resolver.suggestedEntities(limit: 1).map(\.id) == ["n2"])

            // The app deleted n2 but its item lingers: it is not suggested.
            let without = EntityResolver(source: NoteSource(notes: [source.notes[2]]), index: entities)
            #expect(try await without.suggestedEntities().map(\.id) == ["n6"])
        }

        @Test("A URL resolves to its entity; a reference of another type is refused")
        func entityForURLAndReference() async throws {
            struct Recipes: EntitySource {
                func entities(for identifiers: [Int]) async -> [Recipe] {
                    identifiers.filter { $0 < 10 }.map { Recipe(id: $0, name: "Recipe \($0)", method: "") }
                }
            }
            let (spy, _) = try Fixtures.spyIndex()
            let resolver = EntityResolver(source: Recipes(), index: try Fixtures.entityIndex(spy))
            #expect(try await resolver.entity(forURL: "https://example.app/recipes/7").id == 7)
            await #expect(throws: EntityError.notFound("recipe/12")) {
                try await resolver.entity(forURL: "https://example.app/recipes/12")
            }
            await #expect(throws: EntityError.otherType("note/n1", domain: "note")) {
                try await resolver.entity(for: EntityReference(domain: "note", identifier: "n1"))
            }
            await #expect(throws: EntityError.self) { try await resolver.entity(forURL: "https://example.app/notes/n1") }
        }
    }
}
