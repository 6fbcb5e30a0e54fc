import CSQLite
import Foundation
import Sift

/// The peer a user would pick instead of Sift for keyword search: SQLite FTS5, in process, on
/// the same items, with the settings of Sift's own store (WAL, `synchronous=FULL`, one
/// transaction per batch) and the tokenizer closest to Sift's analyzer
/// (`porter unicode61 remove_diacritics 2`: Unicode case folding, diacritics removed, Porter stems).
final class FTS5Peer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let path: String
    private var db: OpaquePointer?

    /// Creates a fresh database at `path` (removing any old one).
    init(path: String) throws {
        self.path = path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw Failure(description: "\(path): cannot open: \(String(cString: sqlite3_errmsg(db)))")
        }
        try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;")
        try execute("CREATE VIRTUAL TABLE fts USING fts5(title, keywords, content, tokenize = 'porter unicode61 remove_diacritics 2')")
    }

    deinit { sqlite3_close_v2(db) }

    /// Closes the connection (checkpointing the WAL into the database file).
    func close() {
        sqlite3_close_v2(db)
        db = nil
    }

    private func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw Failure(description: "\(path): \(text) in `\(sql)`")
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: "\(path): \(String(cString: sqlite3_errmsg(db))) in `\(sql)`")
        }
        return statement
    }

    /// Inserts `items` (rowid = position + 1), one transaction per `batch` items.
    /// Returns the seconds it took.
    func insert(_ items: [SearchableItem], batch: Int, progress: (Int) -> Void) throws -> Double {
        let statement = try prepare("INSERT INTO fts(rowid, title, keywords, content) VALUES (?, ?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        let start = monotonicNanoseconds()
        var i = 0
        while i < items.count {
            try execute("BEGIN")
            let end = min(i + batch, items.count)
            for r in i..<end {
                let item = items[r]
                sqlite3_bind_int64(statement, 1, Int64(r + 1))
                sqlite3_bind_text(statement, 2, item.title, -1, sift_sqlite_transient())
                sqlite3_bind_text(statement, 3, item.keywords.joined(separator: " "), -1, sift_sqlite_transient())
                sqlite3_bind_text(statement, 4, item.content, -1, sift_sqlite_transient())
                guard sqlite3_step(statement) == SQLITE_DONE else {
                    throw Failure(description: "\(path): insert of item \(r): \(String(cString: sqlite3_errmsg(db)))")
                }
                sqlite3_reset(statement)
            }
            try execute("COMMIT")
            i = end
            progress(i)
        }
        return Double(monotonicNanoseconds() - start) / 1e9
    }

    /// Latency in ms of `SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 10` for
    /// each query (prepared once, stepped to the end) until all are done or `budget` seconds have
    /// passed (at least 100 timed), and the mean number of rows returned.
    func queryLatencies(_ queries: [BenchQuery], warmUp: Int, budget: Double) throws -> (latencies: [Double], meanHits: Double) {
        let statement = try prepare("SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 10")
        defer { sqlite3_finalize(statement) }
        func run(_ q: BenchQuery) throws -> Int {
            let match = q.fts5Match
            sqlite3_bind_text(statement, 1, match, -1, sift_sqlite_transient())
            var rows = 0
            var rc = sqlite3_step(statement)
            while rc == SQLITE_ROW {
                rows += 1
                rc = sqlite3_step(statement)
            }
            sqlite3_reset(statement)
            guard rc == SQLITE_DONE else {
                throw Failure(description: "\(path): MATCH '\(match)': \(String(cString: sqlite3_errmsg(db)))")
            }
            return rows
        }
        for q in queries.prefix(warmUp) { _ = try run(q) }
        var latencies: [Double] = []
        latencies.reserveCapacity(queries.count)
        var hits = 0
        let began = monotonicNanoseconds()
        for q in queries {
            let start = monotonicNanoseconds()
            hits += try run(q)
            latencies.append(millisecondsSince(start))
            if latencies.count >= 100 && Double(monotonicNanoseconds() - began) / 1e9 > budget { break }
        }
        return (latencies, Double(hits) / Double(max(latencies.count, 1)))
    }

    static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
