import Foundation
import Testing

@Suite("sift search snippets, run as a process", .serialized)
struct SnippetCLITests {
    /// A store with two notes; the process for each search.
    func indexed() throws -> SiftProcess {
        let sift = try SiftProcess()
        var f = JSONLFixture()
        f.addGood(id: "c1", token: "morning", extra: ["content": "I was running past the Café Flore at dawn.\nThen home."])
        f.addGood(id: "c2", token: "soup", extra: ["content": "Lentil soup with cumin."])
        try sift.index(f, file: "notes.jsonl")
        return sift
    }

    @Test("--json gives each result's snippet: its text and the UTF-8 byte ranges of the matched words")
    func jsonSnippets() throws {
        let sift = try indexed()
        let out = try sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", "run cafe"])
        #expect(out.status == 0, "\(out.stderr)")
        let results = try #require(try out.json()["results"] as? [[String: Any]])
        #expect(results.map { $0["id"] as? String } == ["c1"])
        let snippet = try #require(results.first?["snippet"] as? [String: Any], "\(out.stdout)")
        let text = try #require(snippet["text"] as? String)
        #expect(text == "I was running past the Café Flore at dawn. Then home.")
        let ranges = try #require(snippet["highlights"] as? [[Int]])
        let bytes = Array(text.utf8)
        #expect(ranges.map { String(decoding: bytes[$0[0]..<$0[1]], as: UTF8.self) } == ["running", "Café"])
    }

    @Test("Plain output prints the snippet under the result without escape codes when not on a terminal; --no-snippets drops it")
    func plainAndOff() throws {
        let sift = try indexed()
        let plain = try sift.run(["search", "--store", sift.store, "--mode", "keyword", "lentil"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("\n      Lentil soup with cumin.\n"), "\(plain.stdout)")
        #expect(!plain.stdout.contains("\u{1B}"))

        let off = try sift.run(["search", "--store", sift.store, "--mode", "keyword", "--no-snippets", "lentil"])
        #expect(!off.stdout.contains("Lentil soup with cumin."), "\(off.stdout)")
        let json = try sift.run(["search", "--store", sift.store, "--json", "--mode", "keyword", "--no-snippets", "lentil"])
        let results = try #require(try json.json()["results"] as? [[String: Any]])
        #expect(results.count == 1 && results.allSatisfy { $0["snippet"] == nil })
    }
}
