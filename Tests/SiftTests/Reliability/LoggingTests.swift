import Foundation
import Testing

@testable import Sift

extension Reliability {
    /// The logging contract: every operation is logged with its name, index, item count,
    /// duration and outcome — and no record ever carries the user's text.
    @Suite("Logging: operations are logged, user text never is")
    struct LoggingTests {
        /// Text whose every word is unmistakable if it shows up in a log.
        static let secretWords = (0..<40).map { Reliability.word($0, salt: 81) }

        static func secretItem(_ n: Int, private isPrivate: Bool = false, expires: Date? = nil) -> SearchableItem {
            var item = SearchableItem(id: ItemID("\(secretWords[n % 40])-\(n)"))
            item.domain = secretWords[(n + 1) % 40]
            item.title = "\(secretWords[(n + 2) % 40]) \(secretWords[(n + 3) % 40])"
            item.content = (4..<12).map { secretWords[(n + $0) % 40] }.joined(separator: " ")
            item.keywords = [secretWords[(n + 12) % 40]]
            item.displayName = secretWords[(n + 13) % 40]
            item.url = "https://example.app/\(secretWords[(n + 14) % 40])"
            item.isPrivate = isPrivate
            item.expires = expires
            return item
        }

        @Test("Every operation logs its name, index, count, duration and outcome, without a word of the text or the query")
        func contract() async throws {
            let temporary = try TemporaryDirectory("sift-logging")
            let logger = MemoryLogger()
            let clock = TestClock()
            let directory = temporary.path("journal")
            let index = try SearchIndex(
                configuration: .init(directory: directory, embedder: FakeEmbedder(), clock: clock.function, logger: logger))
            // A new store has no model fingerprint yet, so the first open "re-embeds" its zero items.
            var expected: [(operation: String, count: Int, outcome: String)] = [("open", 0, "ok, re-embedded 0")]

            try await index.upsert((0..<10).map { Self.secretItem($0) })
            expected.append(("upsert", 10, "ok"))
            try await index.upsert([Self.secretItem(50, private: true)])
            expected.append(("upsert", 1, "ok, nothing to store"))
            try await index.beginBatch()
            try await index.upsert((10..<15).map { Self.secretItem($0, expires: clock.now.addingTimeInterval(60)) })
            try await index.donate(intent: Self.secretWords[30], itemIDs: [Self.secretItem(1).id])
            try await index.endBatch(clientState: Self.secretWords[31])
            expected.append(("batch", 5, "ok"))
            try await index.beginBatch()
            let mismatch = await #expect(throws: IndexError.self) {
                try await index.endBatch(clientState: Self.secretWords[32], expectedClientState: Self.secretWords[33])
            }
            #expect("\(String(describing: mismatch))".contains(Self.secretWords[33]))
            expected.append(("batch", 0, "failed: client state mismatch"))
            try await index.donate(intent: Self.secretWords[34], itemIDs: [Self.secretItem(2).id, Self.secretItem(3).id])
            expected.append(("donate", 2, "ok"))
            for (n, mode) in SearchMode.allCases.enumerated() {
                let query = "\(Self.secretWords[(n + 2) % 40]) \(Self.secretWords[35]) last week"
                let results = try await index.search(SearchQuery(query, mode: mode, explain: true)).results
                expected.append(("search.\(mode.rawValue)", results.count, "ok"))
            }
            try await index.delete(ids: [Self.secretItem(4).id])
            expected.append(("delete", 1, "ok"))
            try await index.delete(domains: [Self.secretItem(5).domain])
            expected.append(("delete-domains", 1, "ok"))
            clock.advance(by: 120)
            try await index.purgeExpired()
            expected.append(("purge-expired", 5, "ok"))
            try await index.capStoreSizeForTesting(extraPages: 0)
            await #expect(throws: StoreError.self) { try await index.upsert((100..<200).map { Self.secretItem($0) }) }
            expected.append(("upsert", 100, "failed: SQLite code 13"))
            try await index.uncapStoreSizeForTesting()
            try await index.deleteAll()
            expected.append(("delete-all", 8, "ok"))

            let keywordOnly = try SearchIndex(configuration: .init(directory: temporary.path("keyword-only"), logger: logger))
            expected.append(("open", 0, "ok"))
            await #expect(throws: IndexError.self) { try await keywordOnly.search(SearchQuery(Self.secretWords[36], mode: .semantic)) }
            expected.append(("search.semantic", 0, "failed: no model"))
            let file = temporary.path("not-a-directory")
            try Data().write(to: file)
            #expect(throws: StoreError.self) {
                try SearchIndex(configuration: .init(directory: file.appendingPathComponent(Self.secretWords[37]), logger: logger))
            }
            expected.append(("open", 0, "failed: store error"))

            let records = logger.records
            #expect(records.map(\.operation) == expected.map(\.operation))
            for (record, wanted) in zip(records, expected) {
                #expect(record.itemCount == wanted.count && record.outcome == wanted.outcome, "\(record)")
                #expect(record.duration >= 0 && record.duration < 60)
                #expect(!record.index.isEmpty)
            }
            #expect(records.prefix(records.count - 3).allSatisfy { $0.index == "journal" })

            // Not one word of the items, intents, client states or queries reaches the log.
            // (The last secret word named the directory of the failed open, which is not user
            // text; it is left out.)
            let secrets = Set(Self.secretWords.prefix(37))
            for record in records {
                let text = "\(record.operation) \(record.index) \(record.itemCount) \(record.outcome)"
                let leaked = Reliability.occurrences(of: secrets, in: Data(text.utf8))
                #expect(leaked.isEmpty, "log record \(record) carries \(leaked)")
            }
        }
    }
}
