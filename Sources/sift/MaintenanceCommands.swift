import Foundation
import Sift
import SiftCommandLine

/// `sift delete`: by ids, by domains, or everything.
enum DeleteCommand: Command {
    static let spec = CommandSpec(
        name: "delete", summary: "Delete items by id, by domain, or all of them. Their donations go with them.",
        arguments: "(--id ID… | --domain D… | --all)",
        options: [
            OptionSpec(names: ["--id"], value: "ID", help: "delete this item", repeatable: true),
            OptionSpec(names: ["--domain"], value: "D", help: "delete every item of this domain", repeatable: true),
            OptionSpec(names: ["--all"], value: nil, help: "delete every item"),
        ],
        positionals: 0...0)

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let a = context.arguments
        let ids = a.all("--id")
        let domains = a.all("--domain")
        let chosen = [!ids.isEmpty, !domains.isEmpty, a.flag("--all")].filter { $0 }.count
        guard chosen == 1 else { throw UsageError("give exactly one of --id, --domain or --all") }
        let index = try context.openIndex()
        let deleted: Int
        if !ids.isEmpty {
            deleted = try await index.delete(ids: ids.map { ItemID($0) })
        } else if !domains.isEmpty {
            deleted = try await index.delete(domains: domains)
        } else {
            deleted = try await index.deleteAll()
        }
        if context.json { context.printJSON(["deleted": deleted]) } else { print("deleted \(deleted) item\(deleted == 1 ? "" : "s")") }
        return .success
    }
}

/// `sift donate`: record that the user acted on items.
enum DonateCommand: Command {
    static let spec = CommandSpec(
        name: "donate",
        summary:
            "Record that the user performed an intent on items (App Intents' donate()); donated items rank higher for matching queries and appear in `sift suggest`.",
        arguments: "--id ID…",
        options: [
            OptionSpec(names: ["--id"], value: "ID", help: "the item acted on", repeatable: true),
            OptionSpec(names: ["--intent"], value: "NAME", help: "the intent's name (default \"open\")"),
            OptionSpec(names: ["--surface"], value: "NAME", help: "where it happened (search, widget, …)"),
            OptionSpec(names: ["--at"], value: "ISO8601", help: "when (default: now)"),
        ],
        positionals: 0...0)

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let a = context.arguments
        let ids = a.all("--id")
        guard !ids.isEmpty else { throw UsageError("give at least one --id") }
        let index = try context.openIndex()
        let recorded = try await index.donate(
            intent: a.value("--intent") ?? "open", itemIDs: ids.map { ItemID($0) }, surface: a.value("--surface"), at: try a.date("--at"))
        let missing = ids.count - recorded
        if context.json {
            context.printJSON(["recorded": recorded, "unknown_ids": missing])
        } else {
            print(
                "recorded \(recorded) donation\(recorded == 1 ? "" : "s")"
                    + (missing > 0 ? " (\(missing) unknown id\(missing == 1 ? "" : "s") dropped)" : ""))
        }
        if missing > 0 { context.warn("\(missing) id\(missing == 1 ? " is" : "s are") not in the index") }
        return missing > 0 ? .failure : .success
    }
}

/// `sift suggest`: items by decayed donation score.
enum SuggestCommand: Command {
    static let spec = CommandSpec(
        name: "suggest", summary: "List items by decayed donation score (half-life 14 days): what the user is likely to want next.",
        arguments: "",
        options: [
            OptionSpec(names: ["--limit", "-n"], value: "N", help: "number of suggestions (default 10)"),
            OptionSpec(names: ["--now"], value: "ISO8601", help: "the present (default: the clock)"),
        ],
        positionals: 0...0)

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let a = context.arguments
        let index = try context.openIndex()
        let list = await index.suggestions(limit: try a.int("--limit", default: 10, range: 1...1000), now: try a.date("--now"))
        if context.json {
            context.printJSON([
                "suggestions": list.map {
                    [
                        "id": $0.item.id.rawValue, "domain": $0.item.domain, "title": $0.item.title,
                        "score": (($0.score * 1e6).rounded() / 1e6),
                    ] as [String: Any]
                }
            ])
        } else {
            if list.isEmpty { print("no suggestions (no donations yet)") }
            for (i, s) in list.enumerated() {
                print(String(format: "%2d. %.3f  ", i + 1, s.score) + "[\(s.item.domain)] \(s.item.title)  (\(s.item.id))")
            }
        }
        return .success
    }
}

/// `sift stats`.
enum StatsCommand: Command {
    static let spec = CommandSpec(
        name: "stats", summary: "Show what the index holds.", arguments: "", options: [], positionals: 0...0)

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let index = try context.openIndex()
        let s = try await index.statistics()
        if context.json {
            context.printJSON([
                "index": context.indexName, "items": s.items, "domains": s.domains, "terms": s.terms, "postings": s.postings,
                "vectors": s.vectors, "dimension": s.dimension ?? NSNull(), "donations": s.donations, "model": s.model ?? NSNull(),
                "last_client_state": s.lastClientState ?? NSNull(), "store": s.storePath, "store_bytes": s.storeBytes,
            ])
        } else {
            print("index '\(context.indexName)' at \(s.storePath)")
            print("items: \(s.items) (\(s.domains.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))")
            print("keyword terms: \(s.terms), postings: \(s.postings)")
            print("vectors: \(s.vectors)" + (s.dimension.map { " × \($0)" } ?? "") + (s.model.map { " (model \($0))" } ?? " (no model)"))
            print("donations: \(s.donations)")
            print("last client state: \(s.lastClientState ?? "none")")
            print("store size: \(s.storeBytes) bytes")
        }
        return .success
    }
}

/// `sift embed TEXT…`: print vectors.
enum EmbedCommand: Command {
    static let spec = CommandSpec(
        name: "embed", summary: "Print the embedding vector of each text.", arguments: "TEXT…", options: [], positionals: 1...Int.max)

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        guard let embedder = try context.embedder(required: true) else { return .failure }
        let texts = context.arguments.positionals
        let vectors = texts.map { embedder.embed($0) }
        if context.json {
            context.printJSON([
                "model": embedder.fingerprint, "dimension": embedder.dimension,
                "vectors": zip(texts, vectors).map { ["text": $0.0, "vector": $0.1.map { jsonNumber($0) }] as [String: Any] },
            ])
        } else {
            for (text, v) in zip(texts, vectors) {
                print("\(text)\t" + v.map { String(format: "%.5f", $0) }.joined(separator: " "))
            }
        }
        return .success
    }
}
