import Foundation
import Testing

/// The ids of a `sift search --json` answer, in order.
private func resultIDs(_ output: SiftProcess.Output) throws -> [String] {
    let results = try #require(try output.json()["results"] as? [[String: Any]], "no results array: \(output.stdout.prefix(300))")
    return results.compactMap { $0["id"] as? String }
}

/// Runs in series: each test starts several processes, and a 2-core machine gains nothing from
/// running them side by side.
@Suite("The sift command line, run as a process", .serialized)
struct CLIEndToEndTests {
    @Test("Indexing a file with bad lines reports each as FILE:LINE: reason, indexes every good line and exits 1")
    func indexMixedFile() throws {
        let sift = try SiftProcess()
        let fixture = JSONLFixture.mixed()
        let file = sift.scratch.path("items.jsonl")
        try fixture.write(to: file)

        let indexed = try sift.run(["index", "--store", sift.store, file.path])
        #expect(indexed.status == 1, "stderr: \(indexed.stderr)")
        for bad in fixture.bad {
            #expect(indexed.stderr.contains("\(file.path):\(bad.line): \(bad.reason)"), "line \(bad.line) not reported: \(indexed.stderr)")
        }
        let reported = indexed.stderr.split(separator: "\n").filter { $0.contains("\(file.path):") }
        #expect(reported.count == fixture.bad.count)
        #expect(indexed.stdout.contains("indexed \(fixture.good.count) items"), "\(indexed.stdout)")
        #expect(indexed.stdout.contains("\(fixture.bad.count) rejected"))

        // Every good line's title has the word "entry": one search finds them all. (Each
        // process rebuilds the index from the store, 2 MB line included, so searches are few.)
        let everything = try sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", "--limit", "100", "entry"])
        #expect(everything.status == 0, "\(everything.stderr)")
        #expect(try resultIDs(everything).sorted() == fixture.good.map(\.id).sorted())
        // The long line and an integer id, by their own words; the default mode (hybrid when a
        // model is bundled, keyword otherwise) finds them as well.
        #expect(try resultIDs(sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", "dromedary"])).first == "big")
        #expect(try resultIDs(sift.run(["search", "--store", sift.store, "--json", "chameleon"])).contains("42"))

        let stats = try sift.run(["stats", "--store", sift.store, "--json"]).json()
        #expect(stats["items"] as? Int == fixture.good.count)
        #expect(stats["domains"] as? [String: Int] == ["note": 4, "journal": 2])
        #expect(stats["last_client_state"] as? String == "\(file.path)#\(fixture.lines.count)")
    }

    @Test("A clean file from standard input indexes and exits 0; a bad stdin line is named <stdin>:LINE")
    func indexFromStandardInput() throws {
        let sift = try SiftProcess()
        var clean = JSONLFixture()
        clean.addGood(id: "s1", token: "quokka")
        clean.addGood(id: "s2", token: "numbat", extra: ["keywords": ["marsupial"]])
        let ok = try sift.run(["index", "--store", sift.store, "-"], stdin: clean.data)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("indexed 2 items from <stdin>"), "\(ok.stdout)")
        #expect(try resultIDs(sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", "marsupial"])) == ["s2"])

        var dirty = JSONLFixture()
        dirty.addGood(id: "s3", token: "wombat")
        dirty.addBad("{oops", reason: "malformed JSON")
        let bad = try sift.run(["index", "--store", sift.store, "--json", "-"], stdin: dirty.data)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("<stdin>:2: malformed JSON"), "\(bad.stderr)")
        let summary = try bad.json()
        #expect(summary["indexed"] as? Int == 1 && summary["rejected"] as? Int == 1)
        #expect(summary["items_in_index"] as? Int == 3)
    }

    @Test("Search JSON carries id, domain, title and score; --domain filters; --limit caps")
    func searchOutput() throws {
        let sift = try SiftProcess()
        var f = JSONLFixture()
        f.addGood(id: "j1", token: "lighthouse", domain: "journal", extra: ["content": "harbor walk"])
        f.addGood(id: "j2", token: "breakwater", domain: "journal", extra: ["content": "harbor swim"])
        f.addGood(id: "r1", token: "chowder", domain: "recipe", extra: ["content": "harbor fish"])
        try sift.index(f, file: "f.jsonl")

        let all = try sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", "harbor"])
        let results = try #require(try all.json()["results"] as? [[String: Any]])
        #expect(results.count == 3)
        for r in results {
            #expect(r["id"] is String && r["domain"] is String && r["title"] is String)
            #expect((r["score"] as? Double ?? 0) > 0)
        }
        #expect(results.first { $0["id"] as? String == "r1" }?["title"] as? String == "chowder entry")
        let journal = try resultIDs(
            sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", "--domain", "journal", "harbor"]))
        #expect(journal.sorted() == ["j1", "j2"])
        #expect(
            try resultIDs(sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", "--limit", "1", "harbor"])).count == 1)
        #expect(try resultIDs(sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", "-n", "2", "harbor"])).count == 2)
        #expect(try resultIDs(sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", "nothingmatchesthis"])).isEmpty)

        let text = try sift.run(["search", "--store", sift.store, "--mode", "keyword", "chowder"])
        #expect(text.status == 0 && text.stdout.contains("chowder entry") && text.stdout.contains("(r1)"))
    }

    @Test("--explain shows the BM25F terms of every field")
    func explain() throws {
        let sift = try SiftProcess()
        var f = JSONLFixture()
        f.addGood(id: "k", token: "pelican", extra: ["keywords": ["pelican"], "content": "a pelican story"])
        #expect(try sift.run(["index", "--store", sift.store, "-"], stdin: f.data).status == 0)
        let json = try sift.run(["search", "--store", sift.store, "--json", "--explain", "--mode", "keyword", "pelican"]).json()
        let result = try #require((json["results"] as? [[String: Any]])?.first)
        let explanation = try #require(result["explanation"] as? [String: Any])
        let term = try #require((explanation["terms"] as? [[String: Any]])?.first)
        #expect(term["term"] as? String == "pelican")
        #expect(term["tf"] as? [String: Int] == ["title": 1, "keywords": 1, "content": 1])
        let parts = try #require(term["field_parts"] as? [String: Double])
        #expect(Set(parts.keys) == ["title", "keywords", "content"])
        #expect(parts.values.allSatisfy { $0 > 0 })
        let text = try sift.run(["search", "--store", sift.store, "--explain", "--mode", "keyword", "pelican"])
        #expect(text.stdout.contains("term pelican: idf"), "\(text.stdout)")
    }

    @Test("delete --id, --domain and --all remove what they name")
    func delete() throws {
        let sift = try SiftProcess()
        var f = JSONLFixture()
        f.addGood(id: "a", token: "tapir", domain: "zoo")
        f.addGood(id: "b", token: "okapi", domain: "zoo")
        f.addGood(id: "c", token: "gecko", domain: "terrarium")
        f.addGood(id: "d", token: "axolotl", domain: "aquarium")
        #expect(try sift.run(["index", "--store", sift.store, "-"], stdin: f.data).status == 0)
        func ids(_ word: String) throws -> [String] {
            try resultIDs(sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", word]))
        }
        func count() throws -> Int? { try sift.run(["stats", "--store", sift.store, "--json"]).json()["items"] as? Int }

        let byID = try sift.run(["delete", "--store", sift.store, "--id", "a"])
        #expect(byID.status == 0 && byID.stdout.contains("deleted 1 item"))
        #expect(try ids("tapir").isEmpty && ids("okapi") == ["b"])
        let byDomain = try sift.run(["delete", "--store", sift.store, "--json", "--domain", "zoo", "--domain", "terrarium"])
        #expect(try byDomain.json()["deleted"] as? Int == 2)
        #expect(try ids("okapi").isEmpty && ids("gecko").isEmpty && ids("axolotl") == ["d"])
        #expect(try count() == 1)
        let all = try sift.run(["delete", "--store", sift.store, "--all"])
        #expect(all.status == 0 && all.stdout.contains("deleted 1 item"))
        #expect(try count() == 0)
    }

    @Test("Named indexes in one store are separate")
    func namedIndexes() throws {
        let sift = try SiftProcess()
        var f = JSONLFixture()
        f.addGood(id: "x", token: "narwhal")
        #expect(try sift.run(["index", "--store", sift.store, "--index", "first", "-"], stdin: f.data).status == 0)
        #expect(
            try resultIDs(sift.run(["search", "--store", sift.store, "--index", "first", "--json", "--mode", "keyword", "narwhal"])) == [
                "x"
            ])
        #expect(
            try resultIDs(sift.run(["search", "--store", sift.store, "--index", "second", "--json", "--mode", "keyword", "narwhal"]))
                .isEmpty)
        let stats = try sift.run(["stats", "--store", sift.store, "--index", "first", "--json"]).json()
        #expect(stats["index"] as? String == "first" && stats["items"] as? Int == 1)
    }

    @Test(
        "Usage errors exit 2 and say what is wrong",
        arguments: [
            (["search", "--bogus", "x"], "unknown option --bogus"),
            (["search"], "expects"),
            (["index"], "expects"),
            (["index", "--store"], "--store needs a value"),
            (["search", "--limit", "many", "x"], "--limit expects a whole number"),
            (["search", "--mode", "psychic", "x"], "--mode expects"),
            (["delete"], "give exactly one of --id, --domain or --all"),
            (["delete", "--id", "a", "--all"], "give exactly one of"),
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["stats", "--json=yes"], "--json takes no value"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let sift = try SiftProcess()
        let output = try sift.run(arguments)
        #expect(output.status == 2, "\(arguments): \(output.stderr)")
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.contains("usage: sift"))
    }

    @Test("An unreadable file is a failure (exit 1) naming the file")
    func missingFile() throws {
        let sift = try SiftProcess()
        let output = try sift.run(["index", "--store", sift.store, "/nonexistent/items.jsonl"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("/nonexistent/items.jsonl"))
    }

    @Test("--help prints the generated help and exits 0")
    func help() throws {
        let sift = try SiftProcess()
        let top = try sift.run(["--help"])
        #expect(top.status == 0)
        #expect(top.stdout.contains("usage: sift COMMAND"))
        for command in ["index", "search", "delete", "stats", "eval"] { #expect(top.stdout.contains("  \(command)")) }
        let search = try sift.run(["search", "--help"])
        #expect(search.status == 0)
        #expect(search.stdout.contains("usage: sift search"))
        for option in ["--limit", "--domain", "--mode", "--json", "--explain", "--store", "--index"] {
            #expect(search.stdout.contains(option), "\(option) missing from search help")
        }
        let index = try sift.run(["index", "-h"])
        #expect(index.status == 0 && index.stdout.contains("usage: sift index") && index.stdout.contains("FILE|-"))
    }
}
