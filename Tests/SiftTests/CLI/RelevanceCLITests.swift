import Foundation
import Testing

@Suite("sift search relevance cutoff, run as a process", .serialized)
struct RelevanceCLITests {
    func indexed() throws -> SiftProcess {
        let sift = try SiftProcess()
        var f = JSONLFixture()
        f.addGood(id: "s1", token: "soup", extra: ["title": "Lentil soup", "content": "Lentils, cumin and onion."])
        f.addGood(id: "b1", token: "bike", extra: ["title": "Bike repair", "content": "New chain and brake pads."])
        try sift.index(f, file: "notes.jsonl")
        return sift
    }

    @Test("JSON gives each result's relevance and how many were cut; --all returns them; plain output says so")
    func cutoff() throws {
        let sift = try indexed()
        let cut = try sift.run(["search", "--store", sift.store, "--json", "lentil soup"])
        #expect(cut.status == 0, "\(cut.stderr)")
        let object = try cut.json()
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.map { $0["id"] as? String } == ["s1"])
        let p = try #require(results.first?["relevance"] as? Double)
        #expect(p > 0.004 && p <= 1)
        #expect(object["below_min_relevance"] as? Int == 1)

        let all = try sift.run(["search", "--store", sift.store, "--json", "--all", "lentil soup"])
        let every = try #require(try all.json()["results"] as? [[String: Any]])
        #expect(every.map { $0["id"] as? String } == ["s1", "b1"])

        let plain = try sift.run(["search", "--store", sift.store, "lentil soup"])
        #expect(plain.stdout.contains("(1 more result below relevance 0.004 left out; --all shows them)"), "\(plain.stdout)")
        let none = try sift.run(["search", "--store", sift.store, "--mode", "keyword", "xylophone"])
        #expect(none.status == 0 && none.stdout.hasPrefix("no results"), "\(none.stdout)")
    }

    @Test(
        "Bad relevance options are usage errors",
        arguments: [
            (["search", "--min-relevance", "1.5", "x"], "--min-relevance expects a probability in 0…1"),
            (["search", "--min-relevance", "0.1", "--all", "x"], "give --all or --min-relevance, not both"),
        ])
    func usage(arguments: [String], message: String) throws {
        let sift = try SiftProcess()
        let out = try sift.run(arguments)
        #expect(out.status == 2 && out.stderr.contains(message), "\(out.stderr)")
    }
}
