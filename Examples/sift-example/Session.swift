import Foundation
import Sift
import SobrietyTracker

/// The sample app wired with a real in-memory index, and how to print what it does.
struct Session {
    let app: SobrietyApp
    /// What kind of search the session has, in words.
    let searchKind: String

    static func start(interactive: Bool) async throws -> Session {
        let embedder: (any Embedder)?
        let searchKind: String
        do {
            let model = try HashedNGramEmbedder.bundled()
            embedder = model
            searchKind = "hybrid (BM25F + the bundled \(model.dimension)-d hashed n-gram model)"
        } catch {
            embedder = nil
            searchKind =
                "keyword only (BM25F): no embedding model found (Models/\(HashedNGramEmbedder.bundledFileName); set SIFT_MODEL to use another)"
        }
        let app = try SobrietyApp.live(
            store: SampleData.store(), directory: nil, embedder: embedder, clock: { SampleDates.now })
        let session = Session(app: app, searchKind: searchKind)
        print(
            "Sift sample app — a sobriety tracker (\(interactive ? "interactive: stdin is a terminal" : "scripted session: stdin is not a terminal"))"
        )
        print("Clock fixed at 2026-06-15 20:00 UTC; an in-memory index, nothing written to disk.")
        print("Search: \(searchKind)")
        return session
    }

    // MARK: Printing

    static func label(_ domain: String?) -> String {
        switch domain {
        case StreakDay.domainIdentifier: "Streak day"
        case Trigger.domainIdentifier: "Trigger"
        case Reflection.domainIdentifier: "Reflection"
        default: "Item"
        }
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    static func clip(_ s: String, _ width: Int) -> String {
        s.count <= width ? s : String(s.prefix(width - 1)) + "…"
    }

    func printResults(_ results: [EntitySearchResult], indent: String = "      ") {
        if results.isEmpty { print("\(indent)(no results)") }
        for (i, r) in results.enumerated() {
            let score = r.score == 0 ? "    -" : String(format: "%5.2f", r.score)
            print(
                "\(indent)\(i + 1). \(Self.pad(Self.label(r.entity?.domain), 11)) \(Self.pad(Self.clip(r.title, 44), 44)) \(score)  \(r.url ?? "-")"
            )
        }
    }

    func search(_ text: String, limit: Int = 4) async throws -> [EntitySearchResult] {
        let (results, report) = try await app.entities.search(SearchQuery(text, limit: limit, now: app.clock()))
        var notes: [String] = []
        if !report.understood.isEmpty { notes.append("understood: " + report.understood.joined(separator: "; ")) }
        if Analyzer().terms(report.searchedText).isEmpty { notes.append("no words left to rank by: listed newest first") }
        print("    \"\(text)\"\(notes.isEmpty ? "" : "  (" + notes.joined(separator: "; ") + ")")")
        printResults(results)
        return results
    }

    func describe(_ entity: SobrietyEntity) -> String {
        switch entity {
        case .day(let day): "Streak day \"\(day.title)\" (\(SampleDates.dayString(day.date)), mood \(day.mood), craving \(day.craving)/10)"
        case .trigger(let t):
            "Trigger \(t.id) \"\(t.name)\" (\(t.category), logged \(t.occurrences.count) time\(t.occurrences.count == 1 ? "" : "s"))"
        case .reflection(let r): "Reflection \(r.id) \"\(r.title)\" (\(SampleDates.dayString(r.date)))"
        }
    }

    func describeWithheld(_ summary: EntityIndexingSummary, names: [ItemID: String]) -> String {
        guard !summary.withheld.isEmpty else { return "" }
        let list = summary.withheld.sorted { $0.key < $1.key }.map { "\(names[$0.key] ?? $0.key.rawValue) (\($0.value))" }
        return ", \(summary.withheld.count) withheld: " + list.joined(separator: ", ")
    }

    func open(_ url: String, surface: DonationSurface = .search) async {
        do {
            let entity = try await app.perform(OpenEntity(url: url, surface: surface))
            print("    \(url)\n      → \(describe(entity))")
        } catch let error as EntityError {
            switch error {
            case .notFound, .withheld, .otherType, .unparsableIdentifier, .notAnEntity:
                // The route matched; resolving the entity failed closed.
                print("    \(url)\n      → refused (fails closed): \(error)")
            default:
                print("    \(url)\n      → route error: \(error)")
            }
        } catch {
            print("    \(url)\n      → failed: \(error)")
        }
    }

    func printSuggestions() async {
        let suggestions = await app.entities.suggestions(limit: 5)
        if suggestions.isEmpty { print("    (none yet)") }
        for (i, s) in suggestions.enumerated() {
            print(
                "    \(i + 1). \(Self.pad(Self.label(s.entity?.domain), 11)) \(Self.pad(Self.clip(s.title, 44), 44)) \(String(format: "%5.2f", s.score))  \(s.url ?? "-")"
            )
        }
    }
}
