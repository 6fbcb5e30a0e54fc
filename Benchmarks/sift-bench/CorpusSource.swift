import Foundation
import Sift
import SiftEvaluation

/// Where the items come from: the synthetic generator, or a file given with `--corpus`.
enum CorpusSource {
    case synthetic(SyntheticCorpus)
    case loaded(name: String, items: [SearchableItem])

    var label: String {
        switch self {
        case .synthetic(let c):
            "synthetic (seed \(c.seed), \(c.vocabulary.count) ranked words, Zipf s=\(c.exponent), \(c.domains.count) domains)"
        case .loaded(let name, let items): "\(name) (\(items.count) items)"
        }
    }

    /// The first `n` items.
    func items(_ n: Int) -> [SearchableItem] {
        switch self {
        case .synthetic(let c): c.items(count: n)
        case .loaded(_, let items): Array(items.prefix(n))
        }
    }

    /// The sizes to run: the requested ones, or for a loaded corpus its size (and any requested
    /// size below it).
    func sizes(requested: [Int], given: Bool) -> [Int] {
        switch self {
        case .synthetic: return requested
        case .loaded(_, let items):
            guard given else { return [items.count] }
            let fitting = requested.filter { $0 <= items.count }
            return fitting.isEmpty ? [items.count] : fitting
        }
    }

    /// Loads `path`: a JSONL file of Sift items (bad lines reported and skipped) or a BEIR
    /// directory (`corpus.jsonl` with `_id`, `title`, `text`; every document in domain `doc`).
    static func load(_ path: String) throws -> CorpusSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BenchFailure("--corpus \(path): no such file or directory")
        }
        var items: [SearchableItem] = []
        if isDirectory.boolValue {
            let file = (path as NSString).appendingPathComponent("corpus.jsonl")
            guard let data = FileManager.default.contents(atPath: file) else {
                throw BenchFailure("--corpus \(path): a BEIR directory needs corpus.jsonl (cannot read \(file))")
            }
            var number = 0
            for line in data.split(separator: UInt8(ascii: "\n")) {
                number += 1
                guard let o = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                    throw BenchFailure("\(file):\(number): not a JSON object")
                }
                let id = (o["_id"] as? String) ?? (o["_id"] as? NSNumber)?.stringValue
                guard let id else { throw BenchFailure("\(file):\(number): no \"_id\"") }
                items.append(
                    SearchableItem(id: ItemID(id), domain: "doc", title: o["title"] as? String ?? "", content: o["text"] as? String ?? ""))
            }
        } else {
            guard let data = FileManager.default.contents(atPath: path) else { throw BenchFailure("--corpus \(path): cannot read") }
            var rejected = 0
            JSONLItemReader(source: path).read(data) { _, result in
                switch result {
                case .success(let item) where item.isIndexable: items.append(item)
                case .success: rejected += 1
                case .failure(let error):
                    rejected += 1
                    if rejected <= 10 { Progress.log("skipped \(error)") }
                }
            }
            if rejected > 0 { Progress.log("\(path): \(rejected) line(s) skipped (bad, private or hidden)") }
        }
        guard !items.isEmpty else { throw BenchFailure("--corpus \(path): no items") }
        return .loaded(name: (path as NSString).lastPathComponent, items: items)
    }

    /// `items` as JSONL in the item format of DESIGN.md (dates in ISO 8601).
    static func jsonl(_ items: [SearchableItem]) -> String {
        var out = ""
        for item in items {
            var fields: [(String, JSONValue)] = [
                ("id", .string(item.id.rawValue)), ("domain", .string(item.domain)), ("title", .string(item.title)),
                ("content", .string(item.content)),
            ]
            if !item.keywords.isEmpty { fields.append(("keywords", .array(item.keywords.map { .string($0) }))) }
            if let date = item.date { fields.append(("date", .string(ISODate.string(date)))) }
            if let hint = item.rankingHint { fields.append(("rankingHint", .integer(hint))) }
            if let name = item.displayName { fields.append(("displayName", .string(name))) }
            out += JSONValue.object(fields).serialized(pretty: false) + "\n"
        }
        return out
    }
}
