import Foundation
import Sift
import Testing

extension Entities {
    @Suite("Routes")
    struct RouteTests {
        let routes: RouteTable

        init() throws {
            routes = try RouteTable([Note.self, Recipe.self])
        }

        @Test("A URL from the template parses back to the entity's reference and item identifier")
        func roundTrip() throws {
            let recipe = Recipe(id: 42, name: "Soup", method: "")
            let url = try #require(routes.url(for: EntityReference(recipe)))
            #expect(url == "https://example.app/recipes/42")
            #expect(try routes.reference(for: url) == EntityReference(recipe))
            #expect(try routes.itemID(for: url) == recipe.itemID)
            #expect(try routes.reference(for: URL(string: url)!) == EntityReference(recipe))
            #expect(routes.url(for: EntityReference(Note(id: "n1", title: "", body: ""))) == nil)
        }

        @Test("Identifiers with reserved characters become one escaped path segment and come back whole")
        func escapedIdentifiers() throws {
            let template = try URLTemplate("https://example.app/notes/{id}/view")
            let url = template.url(for: "a/b c?d#e%")
            #expect(url == "https://example.app/notes/a%2Fb%20c%3Fd%23e%25/view")
            struct Page: IndexedEntity {
                static let domainIdentifier = "page"
                static let typeDisplayName = "Pages"
                static let urlTemplate: String? = "https://example.app/notes/{id}/view"
                let id: String
                var displayRepresentation: EntityDisplayRepresentation { .init(title: id) }
            }
            let table = try RouteTable([Page.self])
            #expect(try table.reference(for: url) == EntityReference(domain: "page", identifier: "a/b c?d#e%"))
        }

        @Test("Scheme and host match without case; a query and a fragment are ignored")
        func lenientMatching() throws {
            #expect(try routes.reference(for: "HTTPS://Example.App/recipes/5?from=widget#top") == EntityReference(Recipe.self, id: 5))
        }

        @Test("An unknown URL is a clear error listing the known routes")
        func unknownRoute() {
            for url in [
                "https://example.app/dishes/5", "https://other.app/recipes/5", "https://example.app/recipes/5/",
                "https://example.app/recipes",
            ] {
                #expect(throws: EntityError.unknownRoute(url, known: ["https://example.app/recipes/{id}"])) {
                    try routes.reference(for: url)
                }
            }
            let message =
                (try? routes.reference(for: "https://example.app/dishes/5")).map { _ in "" }
                ?? EntityError.unknownRoute("https://example.app/dishes/5", known: ["https://example.app/recipes/{id}"]).description
            #expect(message == "no route matches \"https://example.app/dishes/5\"; known routes: https://example.app/recipes/{id}")
        }

        @Test(
            "A malformed URL is a clear error",
            arguments: [
                "", "recipes/5", "example.app/recipes/5", "https:///recipes/5", "https://exa mple.app/recipes/5",
                "https://example.app/recipes/%ZZ", "https://example.app/recipes/%C3",
            ])
        func malformedURL(url: String) {
            #expect {
                try routes.reference(for: url)
            } throws: { error in
                guard case .malformedURL(let reported, _) = error as? EntityError else { return false }
                return reported == url
            }
        }

        @Test("A matching URL with an empty or wrongly typed identifier names the problem")
        func invalidIdentifier() {
            let cases: [(String, String)] = [
                ("https://example.app/recipes/", "the identifier is empty"),
                ("https://example.app/recipes/soup", "not an identifier of Recipes (https://example.app/recipes/{id})"),
                ("https://example.app/recipes/042", "not an identifier of Recipes (https://example.app/recipes/{id})"),
            ]
            for (url, reason) in cases {
                #expect {
                    try routes.reference(for: url)
                } throws: { error in
                    guard case .invalidIdentifier(let reported, _, let why) = error as? EntityError else { return false }
                    return reported == url && why == reason
                }
            }
        }

        @Test("An invalid template is refused with the reason")
        func invalidTemplates() {
            let cases: [(String, String)] = [
                ("https://example.app/recipes", "it has no {id} placeholder"),
                ("https://example.app/{id}/{id}", "it has more than one {id} placeholder"),
                ("https://example.app/recipes?id={id}", "a query or fragment cannot be part of a route"),
                ("/recipes/{id}", "it is not an absolute URL with a scheme and a host"),
                ("https://{id}.example.app/", "it is not an absolute URL with a scheme and a host"),
                ("https://example.app{id}", "the {id} placeholder must be in the path"),
            ]
            for (template, reason) in cases {
                #expect(throws: EntityError.invalidTemplate(template, reason: reason)) { try URLTemplate(template) }
            }
        }

        @Test("Two types with one domain or one template are refused")
        func clashes() {
            struct Dish: IndexedEntity {
                static let domainIdentifier = "dish"
                static let typeDisplayName = "Dishes"
                static let urlTemplate: String? = "https://EXAMPLE.app/recipes/{id}"
                let id: Int
                var displayRepresentation: EntityDisplayRepresentation { .init(title: "") }
            }
            #expect(throws: EntityError.duplicateDomain("note")) { try RouteTable([Note.self, Note.self]) }
            #expect(throws: EntityError.duplicateTemplate("https://EXAMPLE.app/recipes/{id}")) {
                try RouteTable([Recipe.self, Dish.self])
            }
        }

        @Test("A search result carries its type, entity id and URL: everything the host needs to open it")
        func resultsCarryTheirRoute() async throws {
            let (spy, index) = try Fixtures.spyIndex()
            let entities = try Fixtures.entityIndex(spy)
            try await entities.indexEntities([Recipe(id: 3, name: "Lentil soup", method: "Simmer red lentils with cumin.")])
            try await index.upsert([SearchableItem(id: "plain", domain: "misc", title: "Lentil notes", url: "https://x.example/plain")])
            #expect(await index.item("recipe/3")?.url == "https://example.app/recipes/3")

            let results = try await entities.search("lentil")
            let recipe = try #require(results.first { $0.itemID == "recipe/3" })
            #expect(recipe.entity == EntityReference(domain: "recipe", identifier: "3"))
            #expect(recipe.entity?.id(as: Recipe.self) == 3)
            #expect(recipe.url == "https://example.app/recipes/3")
            #expect(try entities.reference(for: try #require(recipe.url)) == recipe.entity)
            let plain = try #require(results.first { $0.itemID == "plain" })
            #expect(plain.entity == nil)
            #expect(plain.url == "https://x.example/plain")
        }
    }
}
