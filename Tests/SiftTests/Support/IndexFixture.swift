import Foundation
import Testing

@testable import Sift

/// Where a test's index lives: in memory (`directory: nil`) or in a temporary directory.
enum IndexLocation: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case disk

    var testDescription: String { rawValue }
}

/// Opens indexes for a test — repeatedly on the same directory, to test persistence — with a
/// hand-moved clock, a memory logger and optionally a fake embedder.
struct IndexFixture {
    let location: IndexLocation
    let temporary: TemporaryDirectory
    let clock: TestClock
    let logger = MemoryLogger()
    var embedder: (any Embedder)?

    init(_ location: IndexLocation = .disk, embedder: (any Embedder)? = nil, clock: TestClock = TestClock()) throws {
        self.location = location
        self.temporary = try TemporaryDirectory("sift-index")
        self.clock = clock
        self.embedder = embedder
    }

    /// The index directory (nil in memory).
    var directory: URL? { location == .disk ? temporary.url.appendingPathComponent("index", isDirectory: true) : nil }

    /// The SQLite file (disk only).
    var storeFile: URL { temporary.url.appendingPathComponent("index/\(Store.fileName)") }

    func open() throws -> SearchIndex {
        try SearchIndex(configuration: .init(directory: directory, embedder: embedder, clock: clock.function, logger: logger))
    }

    /// A second, independent connection to the store on disk, to see what really is there.
    func openStore() throws -> Store {
        try Store(directory: try #require(directory))
    }

    /// The ids the store on disk holds, in order.
    func storedIDs() throws -> [ItemID] {
        var ids: [ItemID] = []
        try openStore().forEachItem { ids.append($0.item.id) }
        return ids.sorted()
    }

    /// Size and modification time of each file of the store, to prove nothing was written.
    func storeFingerprint() throws -> [String: String] {
        guard let directory else { return [:] }
        var result: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil) {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            result[file.lastPathComponent] = "\(size) bytes, modified \(modified)"
        }
        return result
    }
}

/// A small item whose words are easy to search for.
func noteItem(
    _ id: String, _ title: String, content: String = "", domain: String = "note", keywords: [String] = [], date: Date? = nil,
    expires: Date? = nil
) -> SearchableItem {
    SearchableItem(id: ItemID(id), domain: domain, title: title, content: content, keywords: keywords, date: date, expires: expires)
}

extension SearchIndex {
    /// The ids of the keyword results for `text`, taken literally, as-you-type off.
    func keywordIDs(_ text: String, limit: Int = 1000, now: Date? = nil) throws -> [ItemID] {
        try search(SearchQuery(text, limit: limit, mode: .keyword, now: now, understandsPhrases: false, prefixLastTerm: false)).results.map(
            \.id)
    }
}
