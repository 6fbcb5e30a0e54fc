import Foundation
import Sift
import Testing

extension Entities {
    @Suite("Entity identifiers")
    struct EntityIdentifierTests {
        @Test("An entity's item identifier is its domain and escaped id, and parses back to both")
        func derivedFromDomainAndID() throws {
            let note = Note(id: "a/b c%d", title: "t", body: "b")
            #expect(note.itemID == ItemID("note/a%2Fb%20c%25d"))
            let parts = try #require(note.itemID.entityComponents)
            #expect(parts.domain == "note")
            #expect(parts.identifier == "a/b c%d")
            #expect(note.itemID.entityID(as: Note.self) == "a/b c%d")
            #expect(note.itemID.entityID(as: Recipe.self) == nil)
            #expect(Recipe(id: 42, name: "Soup", method: "").itemID == ItemID("recipe/42"))
        }

        @Test("Two entities with the same title and date stay distinct and each resolves to itself")
        func sameTitleAndDateStayDistinct() async throws {
            let date = Fixtures.day(1)
            let a = Note(id: "first", title: "Sunday", body: "walked by the river", date: date)
            let b = Note(id: "second", title: "Sunday", body: "walked by the river", date: date)
            #expect(a.itemID != b.itemID)

            let (spy, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            let summary = try await entities.indexEntities([a, b])
            #expect(summary.indexed == 2)
            #expect(await index.allItems().map(\.id) == [a.itemID, b.itemID])

            let resolver = EntityResolver(source: NoteSource(notes: [a, b]), index: entities)
            let results = try await entities.search("river")
            #expect(Set(results.map(\.itemID)) == [a.itemID, b.itemID])
            for result in results {
                let resolved = try await resolver.entities(for: [result.itemID])
                #expect(resolved.map { try? $0.get() } == [result.itemID == a.itemID ? a : b])
            }
        }

        @Test(
            "Only canonical identifier strings parse",
            arguments: [
                "note", "note/", "/n1", "note/n1/extra", "note/n%2f1", "note/n%2", "note/n%ZZ1", "note/n 1", "no%74e/n1",
            ])
        func nonCanonicalIdentifiersDoNotParse(raw: String) {
            #expect(ItemID(raw).entityComponents == nil)
            #expect(EntityReference(ItemID(raw)) == nil)
        }

        @Test("Int and UUID identifiers accept only their canonical strings")
        func canonicalScalarIdentifiers() throws {
            #expect(Int.entityIdentifier(for: "42") == 42)
            #expect(Int.entityIdentifier(for: "-7") == -7)
            #expect(Int.entityIdentifier(for: "042") == nil)
            #expect(Int.entityIdentifier(for: "+42") == nil)
            let uuid = try #require(UUID(uuidString: "5A0B1E00-0000-4000-8000-000000000001"))
            #expect(UUID.entityIdentifier(for: uuid.uuidString) == uuid)
            #expect(UUID.entityIdentifier(for: uuid.uuidString.lowercased()) == nil)
            #expect(ItemID.entity(Recipe.self, id: 7).entityID(as: Recipe.self) == 7)
            #expect(ItemID("recipe/07").entityID(as: Recipe.self) == nil)
        }

        @Test("Random identifiers round-trip through the item identifier and never collide")
        func randomRoundTrip() {
            var rng = SeededGenerator(seed: 0x5EED)
            let alphabet = Array("aZ09-._~/%? #&é日😤\u{0}+=")
            var seen: [ItemID: String] = [:]
            for _ in 0..<2_000 {
                let length = rng.int(1..<13)
                let id = String((0..<length).map { _ in rng.pick(alphabet) })
                let itemID = ItemID.entity(domain: "note", identifier: id)
                #expect(itemID.rawValue.utf8.filter { $0 == UInt8(ascii: "/") }.count == 1)
                #expect(itemID.entityComponents?.identifier == id)
                if let other = seen[itemID] { #expect(other == id) }
                seen[itemID] = id
            }
        }
    }
}
