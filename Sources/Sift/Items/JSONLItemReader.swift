import Foundation

/// A line of a JSONL file that could not be turned into an item.
package struct LineError: Error, Sendable, Equatable, CustomStringConvertible {
    package var source: String
    package var line: Int
    package var reason: String
    package var description: String { "\(source):\(line): \(reason)" }
}

/// Reads items from JSON Lines, one object per line:
/// `{"id", "domain", "title", "content", "keywords", "date", "expires", "url", "rankingHint",
/// "displayName", "private", "hidden"}` — `id` required (a non-empty string or an integer),
/// dates ISO 8601 (`2026-11-30T08:00:00Z`, with fractional seconds or an offset, or a bare
/// `2026-11-30`, taken as midnight UTC). A bad line becomes a ``LineError`` naming the line;
/// the good lines around it are unaffected. Blank lines are skipped.
package struct JSONLItemReader: Sendable {
    package var source: String
    package static let maximumLineBytes = 16 << 20

    package init(source: String) { self.source = source }

    /// Splits `data` into lines and parses each; calls `body` in order with the 1-based line
    /// number and the item or the error.
    /// - Complexity: O(n) in the bytes of `data`.
    package func read(_ data: Data, _ body: (Int, Result<SearchableItem, LineError>) throws -> Void) rethrows {
        var lineNumber = 0
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                lineNumber += 1
                var slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if let last = slice.last, last == 0x0D { slice = UnsafeBufferPointer(rebasing: slice[0..<(slice.count - 1)]) }
                if !slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    try body(lineNumber, parse(Data(buffer: slice), line: lineNumber))
                }
                start = end + 1
            }
        }
    }

    /// Parses one line.
    package func parse(_ line: Data, line number: Int) -> Result<SearchableItem, LineError> {
        func fail(_ reason: String) -> Result<SearchableItem, LineError> {
            .failure(LineError(source: source, line: number, reason: reason))
        }
        if line.count > Self.maximumLineBytes { return fail("line is \(line.count) bytes, more than the \(Self.maximumLineBytes) allowed") }
        if String(validatingUTF8Data: line) == nil { return fail("not valid UTF-8") }
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: line)
        } catch let error as DecodingError {
            return fail(Self.describe(error))
        } catch {
            return fail("malformed JSON (\(Self.shortReason(error)))")
        }
        guard let id = fields.id?.value, !id.isEmpty else {
            return fail(fields.id == nil ? "missing \"id\"" : "\"id\" must be a non-empty string")
        }
        var item = SearchableItem(id: ItemID(id))
        item.domain = fields.domain ?? ""
        item.title = fields.title ?? ""
        item.content = fields.content ?? ""
        item.url = fields.url
        item.displayName = fields.displayName
        item.keywords = fields.keywords?.values ?? []
        for (key, text, target) in [("date", fields.date, \SearchableItem.date), ("expires", fields.expires, \SearchableItem.expires)] {
            guard let text else { continue }
            guard let d = ISODate.parse(text) else { return fail("\"\(key)\" is not an ISO 8601 date: \"\(text.prefix(40))\"") }
            item[keyPath: target] = d
        }
        if let hint = fields.rankingHint {
            guard hint >= 0 && hint <= 100 else { return fail("\"rankingHint\" must be between 0 and 100, got \(hint)") }
            item.rankingHint = Int(hint.rounded())
        }
        item.isPrivate = fields.private ?? false
        item.isHidden = fields.hidden ?? false
        return .success(item)
    }

    /// The JSON shape of a line; decoding checks every field's type.
    private struct Fields: Decodable {
        var id: FlexibleID?
        var domain: String?
        var title: String?
        var content: String?
        var keywords: Keywords?
        var date: String?
        var expires: String?
        var url: String?
        var rankingHint: Double?
        var displayName: String?
        var `private`: Bool?
        var hidden: Bool?
    }

    /// An id given as a string or a whole number.
    private struct FlexibleID: Decodable {
        var value: String
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) {
                value = s
                return
            }
            if let n = try? c.decode(Int64.self) {
                value = String(n)
                return
            }
            throw DecodingError.typeMismatch(String.self, .init(codingPath: decoder.codingPath, debugDescription: "expected a string"))
        }
    }

    /// Keywords as an array of strings, or one string.
    private struct Keywords: Decodable {
        var values: [String]
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let one = try? c.decode(String.self) {
                values = [one]
                return
            }
            values = try c.decode([String].self)
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the line" : "\"" + keys.joined(separator: ".") + "\""
        }
        switch error {
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return "expected a JSON object" }
            let expected =
                type == Bool.self
                ? "true or false"
                : type == Double.self
                    ? "a number" : type == String.self ? "a string" : type == [String].self ? "an array of strings" : "\(type)"
            return path(context).hasPrefix("\"id") ? "\"id\" must be a non-empty string" : "\(path(context)) must be \(expected)"
        case .valueNotFound(_, let context):
            return "\(path(context)) is null"
        case .keyNotFound(let key, _):
            return "missing \"\(key.stringValue)\""
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "malformed JSON (\(String(context.debugDescription.prefix(120))))" }
            return "\(path(context)) is invalid"
        @unknown default:
            return "invalid line"
        }
    }

    static func shortReason(_ error: any Error) -> String {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        return String(text.prefix(120))
    }
}

extension String {
    /// Decodes `data` as UTF-8, or nil if it is not valid UTF-8.
    init?(validatingUTF8Data data: Data) {
        guard let s = String(data: data, encoding: .utf8) else { return nil }
        self = s
    }
}
