import Foundation

/// Builds a JSON Lines file line by line — good objects, raw text, raw bytes — and remembers
/// what each line is expected to give, so tests can check every good line and every bad one.
struct JSONLFixture {
    /// A line that must become an item.
    struct Good: Equatable {
        var line: Int
        var id: String
        /// A word that occurs in this item only, to find it by search.
        var token: String
    }

    /// A line that must be rejected with a reason containing `reason`.
    struct Bad: Equatable {
        var line: Int
        var reason: String
    }

    private(set) var lines: [Data] = []
    private(set) var good: [Good] = []
    private(set) var bad: [Bad] = []
    /// Written after every line ("\n" or "\r\n").
    var lineEnding = "\n"

    /// Appends one JSON object; returns its line number.
    @discardableResult
    mutating func add(_ object: [String: Any]) -> Int {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        lines.append(data)
        return lines.count
    }

    /// Appends a good item with a unique searchable token in its title.
    @discardableResult
    mutating func addGood(id: String, token: String, domain: String = "note", extra: [String: Any] = [:]) -> Int {
        var object: [String: Any] = ["id": id, "domain": domain, "title": "\(token) entry", "content": "written for the fixture"]
        for (k, v) in extra { object[k] = v }
        let line = add(object)
        good.append(Good(line: line, id: id, token: token))
        return line
    }

    /// Appends text as one line, verbatim.
    @discardableResult
    mutating func addRaw(_ text: String) -> Int {
        addBytes(Array(text.utf8))
    }

    /// Appends bytes as one line, verbatim (they may be invalid UTF-8).
    @discardableResult
    mutating func addBytes(_ bytes: [UInt8]) -> Int {
        lines.append(Data(bytes))
        return lines.count
    }

    /// Appends a line that must be rejected for `reason`.
    mutating func addBad(_ text: String, reason: String) {
        bad.append(Bad(line: addRaw(text), reason: reason))
    }

    /// Appends bytes that must be rejected for `reason`.
    mutating func addBadBytes(_ bytes: [UInt8], reason: String) {
        bad.append(Bad(line: addBytes(bytes), reason: reason))
    }

    var data: Data {
        var result = Data()
        let ending = Data(lineEnding.utf8)
        for line in lines {
            result.append(line)
            result.append(ending)
        }
        return result
    }

    func write(to url: URL) throws {
        try data.write(to: url)
    }

    /// The file the reader and CLI tests share: good lines around a malformed line, a line
    /// without `id`, a bad date, a wrong-typed field, a 2 MB line, invalid UTF-8 and blank
    /// lines.
    static func mixed(lineEnding: String = "\n") -> JSONLFixture {
        var f = JSONLFixture()
        f.lineEnding = lineEnding
        f.addGood(id: "note-1", token: "aardvark", extra: ["keywords": ["burrow"], "date": "2026-11-30T08:00:00Z"])
        f.addBad(#"{"id": "broken", "title": "unterminated"#, reason: "malformed JSON")
        f.addGood(id: "note-2", token: "bumblebee", domain: "journal", extra: ["date": "2026-11-29"])
        f.addBad(#"{"title": "a line without an identifier"}"#, reason: #"missing "id""#)
        f.addRaw("")
        f.addGood(id: "42", token: "chameleon")
        f.addBad(#"{"id": "bad-date", "title": "when", "date": "last tuesday"}"#, reason: #""date" is not an ISO 8601 date"#)
        f.addRaw("   \t ")
        f.addBad(#"{"id": "wrong-type", "title": 17}"#, reason: #""title" must be a string"#)
        f.addGood(id: "big", token: "dromedary", extra: ["content": JSONLFixture.twoMegabytesOfText()])
        f.addBadBytes(Array(#"{"id": "latin1", "title": "caf"#.utf8) + [0xE9] + Array(#""}"#.utf8), reason: "not valid UTF-8")
        f.addGood(id: "note-3", token: "echidna", domain: "journal", extra: ["expires": "2999-01-01T00:00:00Z"])
        f.addBad(#"{"id": "", "title": "empty id"}"#, reason: #""id" must be a non-empty string"#)
        f.addBad(#"["an", "array"]"#, reason: "expected a JSON object")
        f.addGood(id: "note-4", token: "flamingo", extra: ["rankingHint": 80, "url": "https://example.app/notes/4"])
        return f
    }

    /// About 2 MB of words (a few distinct ones, repeated), for the long-line case.
    static func twoMegabytesOfText() -> String {
        let words = ["river", "stone", "meadow", "lantern", "harbor", "willow", "ember", "quartz"]
        var text = ""
        text.reserveCapacity(2_100_000)
        var i = 0
        while text.utf8.count < 2_000_000 {
            text += words[i % words.count]
            text += " "
            i += 1
        }
        return text
    }
}
