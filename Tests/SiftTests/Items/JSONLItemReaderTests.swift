import Foundation
import Testing

@testable import Sift

/// Everything the reader made of `data`: items and errors by line number.
private func readAll(_ data: Data, source: String = "items.jsonl") -> (items: [Int: SearchableItem], errors: [Int: LineError]) {
    var items: [Int: SearchableItem] = [:]
    var errors: [Int: LineError] = [:]
    JSONLItemReader(source: source).read(data) { line, result in
        switch result {
        case .success(let item): items[line] = item
        case .failure(let error): errors[line] = error
        }
    }
    return (items, errors)
}

@Suite("JSONL item reader: every good line read, every bad one named")
struct JSONLItemReaderTests {
    @Test("A mixed file gives every good line and one error per bad line, with its number and reason", arguments: ["\n", "\r\n"])
    func mixedFile(lineEnding: String) throws {
        let fixture = JSONLFixture.mixed(lineEnding: lineEnding)
        let (items, errors) = readAll(fixture.data)
        #expect(items.count == fixture.good.count)
        for good in fixture.good {
            let item = try #require(items[good.line], "line \(good.line) should hold \(good.id)")
            #expect(item.id.rawValue == good.id)
            #expect(item.title == "\(good.token) entry")
        }
        #expect(Set(errors.keys) == Set(fixture.bad.map(\.line)))
        for bad in fixture.bad {
            let error = try #require(errors[bad.line], "line \(bad.line) should be rejected")
            #expect(error.line == bad.line)
            #expect(error.reason.contains(bad.reason), "line \(bad.line): \(error.reason)")
            #expect(error.description.hasPrefix("items.jsonl:\(bad.line): "))
        }
        // Blank lines are neither items nor errors, but they count for line numbers.
        #expect(items.count + errors.count == fixture.lines.count - 2)
    }

    @Test("A 2 MB line is read whole")
    func longLine() throws {
        let fixture = JSONLFixture.mixed()
        let (items, _) = readAll(fixture.data)
        let big = try #require(items.values.first { $0.id == "big" })
        #expect(big.content.utf8.count >= 2_000_000)
        #expect(big.content.hasPrefix("river stone meadow"))
    }

    @Test("All fields are read, with their types")
    func allFields() throws {
        let line =
            #"{"id":"r1","domain":"recipe","title":"Pancakes","content":"Flour, eggs, milk.","keywords":["breakfast","sweet"],"date":"2026-11-30T08:00:00Z","expires":"2027-01-01","url":"https://example.app/recipes/r1","rankingHint":70,"displayName":"Recipes","private":false,"hidden":false}"#
        let item = try #require(readAll(Data(line.utf8)).items[1])
        #expect(item.id == "r1" && item.domain == "recipe" && item.title == "Pancakes")
        #expect(item.content == "Flour, eggs, milk.")
        #expect(item.keywords == ["breakfast", "sweet"])
        #expect(item.date == Date(timeIntervalSince1970: 1_796_025_600))
        #expect(item.expires == Date(timeIntervalSince1970: 1_798_761_600))
        #expect(item.url == "https://example.app/recipes/r1")
        #expect(item.rankingHint == 70 && item.displayName == "Recipes")
        #expect(item.isIndexable)
    }

    @Test("An integer id, a single keyword string and the privacy flags are accepted")
    func flexibleFields() {
        let data = Data(
            """
            {"id": 7, "keywords": "solo"}
            {"id": "p", "private": true}
            {"id": "h", "hidden": true}
            """.utf8)
        let (items, errors) = readAll(data)
        #expect(errors.isEmpty)
        #expect(items[1]?.id == "7" && items[1]?.keywords == ["solo"])
        #expect(items[2]?.isPrivate == true && items[2]?.isIndexable == false)
        #expect(items[3]?.isHidden == true && items[3]?.isIndexable == false)
    }

    @Test(
        "Each kind of bad line says what is wrong",
        arguments: [
            (#"{"id": "x", "rankingHint": 101}"#, #""rankingHint" must be between 0 and 100"#),
            (#"{"id": "x", "keywords": [1, 2]}"#, #""keywords"#),
            (#"{"id": "x", "private": "yes"}"#, #""private" must be true or false"#),
            (#"{"id": "x", "expires": "soon"}"#, #""expires" is not an ISO 8601 date"#),
            (#"{"id": null}"#, #""id""#),
            (#"{"id": 1.5}"#, #""id" must be a non-empty string"#),
            (#"{"id": "x", "date": 20261130}"#, #""date" must be a string"#),
            ("not json at all", "malformed JSON"),
            ("42", "expected a JSON object"),
        ])
    func reasons(line: String, reason: String) throws {
        let (items, errors) = readAll(Data(line.utf8))
        #expect(items.isEmpty)
        let error = try #require(errors[1])
        #expect(error.reason.contains(reason), "\(error.reason)")
    }

    @Test("Invalid UTF-8 is rejected without hurting the lines around it")
    func invalidUTF8() {
        var data = Data(#"{"id": "a"}"#.utf8)
        data.append(0x0A)
        data.append(contentsOf: [0x7B, 0x22, 0x69, 0x64, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D])  // {"id":"\xC3("}
        data.append(0x0A)
        data.append(contentsOf: Array(#"{"id": "c"}"#.utf8))
        let (items, errors) = readAll(data)
        #expect(items[1]?.id == "a" && items[3]?.id == "c")
        #expect(errors[2]?.reason == "not valid UTF-8")
    }

    @Test("CRLF, a missing final newline and blank lines do not change the items")
    func lineEndings() {
        let unix = Data("{\"id\":\"a\",\"title\":\"one\"}\n\n{\"id\":\"b\",\"title\":\"two\"}\n".utf8)
        let windows = Data("{\"id\":\"a\",\"title\":\"one\"}\r\n\r\n{\"id\":\"b\",\"title\":\"two\"}".utf8)
        let u = readAll(unix)
        let w = readAll(windows)
        #expect(u.errors.isEmpty && w.errors.isEmpty)
        #expect(u.items == w.items)
        #expect(u.items[1]?.title == "one" && u.items[3]?.title == "two")
    }

    @Test("An empty input gives nothing")
    func emptyInput() {
        let (items, errors) = readAll(Data())
        #expect(items.isEmpty && errors.isEmpty)
    }
}

@Suite("ISO 8601 dates and searchable items")
struct ItemBasicsTests {
    // 2026-11-30T00:00:00Z is 1_795_996_800 s after the epoch; 08:00 is 28_800 s later.
    @Test(
        "ISODate reads the forms the JSONL format allows",
        arguments: [
            ("2026-11-30T08:00:00Z", 1_796_025_600.0),
            ("2026-11-30T08:00:00.250Z", 1_796_025_600.25),
            ("2026-11-30T09:00:00+01:00", 1_796_025_600.0),
            ("2026-11-30T08:00Z", 1_796_025_600.0),
            ("2026-11-30", 1_795_996_800.0),
        ] as [(String, Double)])
    func isoDates(text: String, seconds: Double) throws {
        let date = try #require(ISODate.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-3)
    }

    @Test("ISODate refuses words, partial dates and impossible days", arguments: ["yesterday", "2026-11", "2026-13-01", "", "30/11/2026"])
    func badDates(text: String) {
        #expect(ISODate.parse(text) == nil)
    }

    @Test("ISODate writes UTC and reads its own output")
    func roundTrip() {
        let date = Date(timeIntervalSince1970: 1_795_996_800)
        #expect(ISODate.string(date) == "2026-11-30T00:00:00Z")
        #expect(ISODate.parse(ISODate.string(date)) == date)
    }

    @Test("Expiry is inclusive of its instant; private and hidden items are not indexable")
    func itemFlags() {
        let t = Date(timeIntervalSince1970: 1_000)
        let item = SearchableItem(id: "x", expires: t)
        #expect(!item.isExpired(at: t.addingTimeInterval(-1)))
        #expect(item.isExpired(at: t))
        #expect(!SearchableItem(id: "y").isExpired(at: .distantFuture))
        #expect(SearchableItem(id: "p", isPrivate: true).isIndexable == false)
        #expect(SearchableItem(id: "h", isHidden: true).isIndexable == false)
        #expect(SearchableItem(id: "ok").isIndexable)
    }

    @Test("The embedder reads title, keywords and content, skipping empty parts")
    func embeddingText() {
        #expect(SearchableItem(id: "a", title: "T", content: "C", keywords: ["k1", "k2"]).embeddingText == "T k1 k2 C")
        #expect(SearchableItem(id: "b", content: "only content").embeddingText == "only content")
    }

    @Test("The embedding text is the present parts joined by single spaces, for every mix of empty parts")
    func embeddingTextOfEmptyParts() {
        for title in ["", "T"] {
            for keywords in [[], [""], ["", ""], ["k"], ["k1", "k2"], ["", "k"]] as [[String]] {
                for content in ["", "C é 😤"] {
                    let item = SearchableItem(id: "a", title: title, content: content, keywords: keywords)
                    var parts: [String] = []
                    if !title.isEmpty { parts.append(title) }
                    if !keywords.isEmpty { parts.append(keywords.joined(separator: " ")) }
                    if !content.isEmpty { parts.append(content) }
                    #expect(item.embeddingText == parts.joined(separator: " "), "\(title) \(keywords) \(content)")
                }
            }
        }
    }
}
