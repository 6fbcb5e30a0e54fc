import Foundation

/// What the store keeps for one item: the item and, when a model is in use, its vector.
struct StoredItem: Sendable {
    var item: SearchableItem
    var vector: [Float]?
}

/// One recorded user action (App Intents' `donate()`).
public struct Donation: Sendable, Equatable, Hashable {
    public var intent: String
    public var itemID: ItemID
    public var surface: String?
    public var date: Date

    public init(intent: String, itemID: ItemID, surface: String? = nil, date: Date) {
        self.intent = intent
        self.itemID = itemID
        self.surface = surface
        self.date = date
    }
}

/// A change to the store, applied with others in one transaction.
enum StoreMutation {
    case upsert(StoredItem)
    case delete([ItemID])
    case deleteDomains([String])
    case deleteAll
    case donate([Donation])
}

/// The source of truth: a SQLite database (WAL, synchronous=FULL) in the index's directory.
/// Every in-memory structure is a projection of it that can be rebuilt on open.
///
/// Schema versions are `PRAGMA user_version`; ``Store/schemaVersion`` is the newest this code
/// knows. Older stores are migrated forward in one transaction; a newer one is refused.
final class Store {
    static let schemaVersion: Int64 = 1
    static let fileName = "index.sqlite"

    let directory: URL?
    let database: SQLiteDatabase
    var path: String { database.path }

    /// Opens the store in `directory` (created if missing), or an in-memory store for nil.
    init(directory: URL?) throws(StoreError) {
        self.directory = directory
        var path = ":memory:"
        if let directory {
            path = directory.appendingPathComponent(Store.fileName).path
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError(code: -1, message: "cannot create the index directory: \((error as NSError).localizedDescription)", path: directory.path)
            }
        }
        database = try SQLiteDatabase(path: path)
        do {
            try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
            try migrate()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(code: -1, message: "\(error)", path: path)
        }
    }

    private func migrate() throws {
        var version: Int64 = 0
        try database.query("PRAGMA user_version") { version = $0.int(0) }
        if version > Store.schemaVersion {
            throw StoreError(
                code: -1,
                message: "the store has schema version \(version), newer than this Sift understands (\(Store.schemaVersion)); upgrade Sift to open it",
                path: path)
        }
        if version == Store.schemaVersion { return }
        try database.transaction {
            if version < 1 {
                try database.execute(
                    """
                    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE items(
                        id TEXT PRIMARY KEY, domain TEXT NOT NULL, title TEXT NOT NULL,
                        content TEXT NOT NULL, keywords TEXT NOT NULL, date REAL, expires REAL,
                        url TEXT, ranking_hint INTEGER, display_name TEXT, vector BLOB
                    ) WITHOUT ROWID;
                    CREATE INDEX items_domain ON items(domain);
                    CREATE TABLE donations(
                        seq INTEGER PRIMARY KEY AUTOINCREMENT, item_id TEXT NOT NULL,
                        intent TEXT NOT NULL, surface TEXT, at REAL NOT NULL);
                    CREATE INDEX donations_item ON donations(item_id);
                    """)
            }
            try database.execute("PRAGMA user_version = \(Store.schemaVersion)")
        }
    }

    // MARK: Reading

    func forEachItem(_ body: (StoredItem) throws -> Void) throws {
        try database.query(
            "SELECT id, domain, title, content, keywords, date, expires, url, ranking_hint, display_name, vector FROM items ORDER BY id"
        ) { row in
            let keywords = row.text(4)
            let item = SearchableItem(
                id: ItemID(row.text(0)), domain: row.text(1), title: row.text(2), content: row.text(3),
                keywords: keywords.isEmpty ? [] : keywords.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init),
                date: row.optionalDouble(5).map(Date.init(timeIntervalSince1970:)),
                expires: row.optionalDouble(6).map(Date.init(timeIntervalSince1970:)),
                url: row.optionalText(7),
                rankingHint: row.isNull(8) ? nil : Int(row.int(8)),
                displayName: row.optionalText(9))
            var vector: [Float]?
            if !row.isNull(10) {
                let bytes = row.blob(10)
                vector = bytes.withUnsafeBytes { raw in
                    (0..<(bytes.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
                }
            }
            try body(StoredItem(item: item, vector: vector))
        }
    }

    func donations() throws -> [Donation] {
        var result: [Donation] = []
        try database.query("SELECT item_id, intent, surface, at FROM donations ORDER BY seq") { row in
            result.append(Donation(intent: row.text(1), itemID: ItemID(row.text(0)), surface: row.optionalText(2), date: Date(timeIntervalSince1970: row.double(3))))
        }
        return result
    }

    func meta(_ key: String) throws -> String? {
        var value: String?
        try database.query("SELECT value FROM meta WHERE key = ?", [.text(key)]) { value = $0.text(0) }
        return value
    }

    func itemCount() throws -> Int {
        var count = 0
        try database.query("SELECT count(*) FROM items") { count = Int($0.int(0)) }
        return count
    }

    func integrityCheck() throws -> String {
        var lines: [String] = []
        try database.query("PRAGMA integrity_check") { lines.append($0.text(0)) }
        return lines.joined(separator: "\n")
    }

    // MARK: Writing

    /// Applies `mutations` and the meta entries in one transaction: all or nothing.
    func apply(_ mutations: [StoreMutation], meta: [String: String] = [:]) throws {
        try database.transaction {
            for mutation in mutations { try apply(mutation) }
            for (key, value) in meta.sorted(by: { $0.key < $1.key }) {
                try database.query("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", [.text(key), .text(value)])
            }
        }
    }

    private func apply(_ mutation: StoreMutation) throws {
        switch mutation {
        case .upsert(let stored):
            let item = stored.item
            var vector = SQLValue.null
            if let v = stored.vector {
                var bytes = [UInt8](repeating: 0, count: v.count * 4)
                bytes.withUnsafeMutableBytes { raw in
                    for (i, x) in v.enumerated() { raw.storeBytes(of: x.bitPattern.littleEndian, toByteOffset: i * 4, as: UInt32.self) }
                }
                vector = .blob(bytes)
            }
            try database.query(
                "INSERT OR REPLACE INTO items(id, domain, title, content, keywords, date, expires, url, ranking_hint, display_name, vector) VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                [.text(item.id.rawValue), .text(item.domain), .text(item.title), .text(item.content),
                 .text(item.keywords.joined(separator: "\u{1F}")),
                 .optional(item.date?.timeIntervalSince1970), .optional(item.expires?.timeIntervalSince1970),
                 .optional(item.url), .optional(item.rankingHint), .optional(item.displayName), vector])
        case .delete(let ids):
            for id in ids {
                try database.query("DELETE FROM items WHERE id = ?", [.text(id.rawValue)])
                try database.query("DELETE FROM donations WHERE item_id = ?", [.text(id.rawValue)])
            }
        case .deleteDomains(let domains):
            for domain in domains {
                try database.query("DELETE FROM donations WHERE item_id IN (SELECT id FROM items WHERE domain = ?)", [.text(domain)])
                try database.query("DELETE FROM items WHERE domain = ?", [.text(domain)])
            }
        case .deleteAll:
            try database.execute("DELETE FROM items; DELETE FROM donations;")
        case .donate(let donations):
            for d in donations {
                try database.query(
                    "INSERT INTO donations(item_id, intent, surface, at) VALUES(?,?,?,?)",
                    [.text(d.itemID.rawValue), .text(d.intent), .optional(d.surface), .real(d.date.timeIntervalSince1970)])
            }
        }
    }
}
