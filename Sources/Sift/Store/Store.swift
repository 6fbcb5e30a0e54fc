import CSQLite
import Foundation

/// The source of truth: a SQLite database (WAL, synchronous=FULL, secure_delete) in the
/// index's directory. Every in-memory structure is a projection of it that can be rebuilt on
/// open.
///
/// Rows hold a lookup key and a sealed payload (see ``RecordCodec``): with the plain codec the
/// key is the identifier itself; with a protected index both are opaque.
/// Schema versions are `PRAGMA user_version`; ``Store/schemaVersion`` is the newest this code
/// knows. Older stores are migrated forward in one transaction; a newer one is refused.
/// Version 2 added the ``StoreGeneration`` (settings row `generation`), bumped by every
/// committed transaction — a Sift that does not know it must not write the store, since it
/// would leave a snapshot looking current — and made `items` a rowid table with a unique index
/// on `key`: its ~1.4 KB records fit in the table's pages, where the `WITHOUT ROWID` table of
/// version 1 (an index b-tree, whose local payload limit is ~1 KB) spilled every record into an
/// overflow page of its own — 4 KB a record, written twice (WAL, checkpoint) on every commit.
/// Version 3 added checksums to the records (``RecordChecksum``): nothing is rewritten, but a
/// Sift that does not know them would take every new record for a damaged one. Version 4 lets
/// a record hold its vector as fp16 (item record version 3), which a Sift that does not know it
/// would likewise take for damage; nothing is rewritten.
final class Store {
    static let schemaVersion: Int64 = 4
    static let generationSetting = "generation"
    static let fileName = "index.sqlite"
    static let keyCheck = Array("sift key check".utf8)

    let directory: URL?
    let database: SQLiteDatabase
    let codec: any RecordCodec
    /// ``domainKey(_:)``'s last domain and key.
    private var lastDomainKey: (domain: String, key: [UInt8])?
    /// Whether upserted items' vectors are written as fp16 (for an index whose rows are fp16:
    /// they read back as the same rows, in half the bytes); records of either kind are read.
    var halfVectors = false
    var path: String { database.path }
    /// What the open tightened to owner-only, or found too wide when read-only
    /// (``StorePermissions``), for the index to log.
    private(set) var permissionNotes: [String] = []

    /// Opens the store in `directory` (created if missing), or an in-memory store for nil.
    /// With `readOnly`, nothing is created and every write fails (SQLITE_READONLY). With
    /// `salvaging` (check and repair only), the settings are not verified and nothing is
    /// migrated, so that the records of a store whose settings are damaged can still be read.
    init(directory: URL?, codec: any RecordCodec = PlainCodec(), readOnly: Bool = false, salvaging: Bool = false) throws(StoreError) {
        self.directory = directory
        self.codec = codec
        var path = ":memory:"
        if let directory {
            path = directory.appendingPathComponent(Store.fileName).path
            if readOnly {
                guard FileManager.default.fileExists(atPath: path) else {
                    throw StoreError(code: -1, message: "no index here to open read-only (the file does not exist)", path: path)
                }
            }
            permissionNotes = try StorePermissions.prepare(directory, databaseFile: Store.fileName, readOnly: readOnly)
        } else if readOnly {
            throw StoreError(code: -1, message: "an in-memory index cannot be opened read-only", path: path)
        }
        // A read-only file system cannot hold the WAL index (-shm) that even readers need;
        // nothing can change the file there, so it is opened as immutable.
        let immutable = readOnly && directory.map(Self.isOnReadOnlyFileSystem) == true
        do {
            database = try SQLiteDatabase(path: path, readOnly: readOnly, immutable: immutable)
        } catch {
            throw Self.diagnose(error, directory: directory)
        }
        do {
            if !readOnly { try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA secure_delete=ON;") }
            if salvaging {
                try checkSalvageable()
            } else {
                try migrate(readOnly: readOnly)
                try checkScheme()
            }
        } catch let error as StoreError {
            throw Self.diagnose(error, directory: directory)
        } catch {
            throw StoreError(code: -1, message: "\(error)", path: path)
        }
    }

    private func migrate(readOnly: Bool) throws {
        var version: Int64 = 0
        try database.query("PRAGMA user_version") { version = $0.int(0) }
        if version > Store.schemaVersion {
            throw StoreError(
                code: -1,
                message:
                    "the store has schema version \(version), newer than this Sift understands (\(Store.schemaVersion)); upgrade Sift to open it",
                path: path)
        }
        if version == Store.schemaVersion { return }
        // Version 2 only added the generation, version 3 record checksums, version 4 fp16
        // vectors: a read-only open reads a version 1 store as it is (with no generation, so no
        // snapshot is trusted), and a version 2 or 3 store as it is.
        if readOnly && (1...3).contains(version) { return }
        if readOnly {
            throw StoreError(
                code: -1,
                message:
                    "the store has schema version \(version) and needs migrating to \(Store.schemaVersion), which a read-only open cannot do",
                path: path)
        }
        try database.transaction {
            if version < 1 {
                try database.execute(
                    """
                    CREATE TABLE settings(name TEXT PRIMARY KEY, value TEXT NOT NULL);
                    CREATE TABLE meta(key BLOB PRIMARY KEY, value BLOB NOT NULL);
                    CREATE TABLE items(key BLOB PRIMARY KEY, domain_key BLOB NOT NULL, payload BLOB NOT NULL) WITHOUT ROWID;
                    CREATE INDEX items_domain ON items(domain_key);
                    CREATE TABLE donations(seq INTEGER PRIMARY KEY AUTOINCREMENT, item_key BLOB NOT NULL, payload BLOB NOT NULL);
                    CREATE INDEX donations_item ON donations(item_key);
                    """)
                try database.query("INSERT INTO settings(name, value) VALUES('codec', ?)", [.text(codec.scheme)])
                try database.query(
                    "INSERT INTO settings(name, value) VALUES('key_check', ?)",
                    [.text(Self.hex(try codec.seal(Self.keyCheck, context: Array("settings".utf8))))])
            }
            if version < 2 {
                try database.execute(
                    """
                    CREATE TABLE items_v2(id INTEGER PRIMARY KEY, key BLOB NOT NULL UNIQUE, domain_key BLOB NOT NULL, payload BLOB NOT NULL);
                    INSERT INTO items_v2(key, domain_key, payload) SELECT key, domain_key, payload FROM items ORDER BY key;
                    DROP TABLE items;
                    ALTER TABLE items_v2 RENAME TO items;
                    CREATE INDEX items_domain ON items(domain_key);
                    """)
                try database.query(
                    "INSERT OR REPLACE INTO settings(name, value) VALUES(?, ?)",
                    [.text(Self.generationSetting), .text(StoreGeneration.random(counter: 0).description)])
            }
            try database.execute("PRAGMA user_version = \(Store.schemaVersion)")
        }
    }

    static func isOnReadOnlyFileSystem(_ directory: URL) -> Bool {
        var info = statvfs()
        return statvfs(directory.path, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Adds the cause SQLite leaves out when it cannot open or write the file ("unable to open
    /// database file"): a read-only file system or a missing permission.
    static func diagnose(_ error: StoreError, directory: URL?) -> StoreError {
        guard let directory, [SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM].contains(error.code & 0xFF) else { return error }
        let file = directory.appendingPathComponent(fileName).path
        let cause: String
        if isOnReadOnlyFileSystem(directory) {
            cause =
                "the index directory \(directory.path) is on a read-only file system, and Sift writes its journal (WAL) beside the index even to read it; remount it read-write or open the index read-only"
        } else if access(directory.path, W_OK) != 0 {
            cause =
                "no permission to write in the index directory \(directory.path) (\(String(cString: strerror(errno)))), where Sift keeps its journal (WAL)"
        } else if FileManager.default.fileExists(atPath: file), access(file, R_OK | W_OK) != 0 {
            cause = "no permission to read and write the index file (\(String(cString: strerror(errno))))"
        } else {
            return error
        }
        return StoreError(code: error.code, message: "\(cause) [SQLite: \(error.message)]", statement: error.statement, path: error.path)
    }

    /// Refuses a store sealed with another scheme or another key.
    private func checkScheme() throws {
        var scheme = ""
        var check = ""
        try database.query("SELECT name, value FROM settings") { row in
            if row.text(0) == "codec" { scheme = row.text(1) }
            if row.text(0) == "key_check" { check = row.text(1) }
        }
        guard scheme == codec.scheme else {
            let hint =
                scheme == "plain"
                ? "it is not protected: open it without a key"
                : "it is protected (\(scheme)): open it with its key (--key-file or SIFT_KEY_FILE)"
            throw StoreError(
                code: -1, message: "the index was created with protection '\(scheme)', not '\(codec.scheme)'; \(hint)", path: path)
        }
        guard let sealed = Self.unhex(check), (try? codec.open(sealed, context: Array("settings".utf8))) == Self.keyCheck else {
            throw StoreError(code: -1, message: "wrong key for this protected index (or its key check was tampered with)", path: path)
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func unhex(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        var out = [UInt8]()
        var i = 0
        while i < utf8.count {
            guard let h = nibble(utf8[i]), let l = nibble(utf8[i + 1]) else { return nil }
            out.append(h << 4 | l)
            i += 2
        }
        return out
    }

    /// A record that could not be opened or decoded: damaged, tampered with, or sealed with
    /// another key.
    private func damaged(_ what: String, _ error: any Error) -> StoreError {
        StoreError(code: -1, message: "\(what) cannot be read (\(error)); the store is damaged or was tampered with", path: path)
    }

    // MARK: Reading

    func forEachItem(_ body: (StoredItem) throws -> Void) throws {
        var rows: [([UInt8], [UInt8])] = []
        // Table order: the order of the last upserts (version 2), or of keys (version 1).
        try database.query("SELECT key, payload FROM items") { row in rows.append((row.blob(0), row.blob(1))) }
        for (key, payload) in rows {
            let stored: StoredItem
            do { stored = try StoredItem(decoding: try codec.open(payload, context: key)) } catch { throw damaged("an item record", error) }
            guard codec.lookupKey(stored.item.id.rawValue) == key else {
                throw damaged("an item record", RecordReader.Malformed(description: "record does not belong to its row"))
            }
            try body(stored)
        }
    }

    func donations() throws -> [Donation] {
        var rows: [([UInt8], [UInt8])] = []
        try database.query("SELECT item_key, payload FROM donations ORDER BY seq") { row in rows.append((row.blob(0), row.blob(1))) }
        return try rows.map { key, payload in
            do { return try Donation(decoding: try codec.open(payload, context: key)) } catch { throw damaged("a donation record", error) }
        }
    }

    func meta(_ name: String) throws -> String? {
        let key = codec.lookupKey("meta:" + name)
        var value: [UInt8]?
        try database.query("SELECT value FROM meta WHERE key = ?", [.blob(key)]) { value = $0.blob(0) }
        guard let value else { return nil }
        do {
            let bytes = try RecordChecksum.metaText(try codec.open(value, context: key))
            guard let s = String(validating: bytes, as: UTF8.self) else { throw RecordReader.Malformed(description: "invalid UTF-8") }
            return s
        } catch { throw damaged("the \(name) entry", error) }
    }

    /// The generation of the last committed transaction; nil for a version 1 store opened
    /// read-only (which has none).
    func generation() throws -> StoreGeneration? {
        var text: String?
        try database.query("SELECT value FROM settings WHERE name = ?", [.text(Self.generationSetting)]) { text = $0.text(0) }
        guard let text else { return nil }
        guard let generation = StoreGeneration(text) else {
            throw StoreError(
                code: -1, message: "the store's generation setting is malformed (\"\(text)\"); the store is damaged or was tampered with",
                path: path)
        }
        return generation
    }

    /// Runs `body` in one read transaction, so that everything it reads is one committed state.
    func reading<T>(_ body: () throws -> T) throws -> T {
        try database.readTransaction(body)
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

    /// Applies `mutations` and the meta entries in one transaction, all or nothing, and bumps
    /// the generation in the same transaction. Returns the generation the transaction started
    /// from and the one it committed: a caller whose last known generation is not `previous`
    /// learns that another connection wrote the store in between.
    @discardableResult
    func apply(_ mutations: [StoreMutation], meta: [String: String] = [:]) throws -> (previous: StoreGeneration, current: StoreGeneration) {
        let applied = try apply(meta: meta) { write in
            for mutation in mutations { try write(mutation) }
        }
        return (applied.previous, applied.current)
    }

    /// ``apply(_:meta:)`` with the mutations written by `writes` as it makes them, through the
    /// function it is given: one at a time, in the order they are to be applied, from any
    /// thread (never two at once). A throw from `writes` rolls everything back; what it
    /// returns comes back as `result`.
    func apply<T>(meta: [String: String] = [:], _ writes: ((StoreMutation) throws -> Void) throws -> T) throws -> (
        previous: StoreGeneration, current: StoreGeneration, result: T
    ) {
        try database.transaction { try transactionBody(meta: meta, writes) }
    }

    /// ``apply(meta:_:)`` that, when `runsBeside` says so of `result`, runs `beside` with it
    /// while the `COMMIT` runs on another thread (``SQLiteDatabase/transaction(runsBeside:beside:_:)``),
    /// once `writes` has succeeded — also when the `COMMIT` then fails, which the caller must
    /// undo; otherwise it commits on the calling thread.
    func apply<T>(
        meta: [String: String] = [:], runsBeside: (T) -> Bool, beside: (T) -> Void,
        _ writes: ((StoreMutation) throws -> Void) throws -> T
    ) throws -> (previous: StoreGeneration, current: StoreGeneration, result: T) {
        try database.transaction(runsBeside: { runsBeside($0.result) }, beside: { beside($0.result) }) {
            try transactionBody(meta: meta, writes)
        }
    }

    /// What ``apply(meta:_:)`` does inside its transaction.
    private func transactionBody<T>(meta: [String: String], _ writes: ((StoreMutation) throws -> Void) throws -> T) throws -> (
        previous: StoreGeneration, current: StoreGeneration, result: T
    ) {
        guard let previous = try generation() else {
            throw StoreError(code: -1, message: "the store has no generation setting; it is damaged or was tampered with", path: path)
        }
        let result = try writes { try apply($0) }
        for (name, value) in meta.sorted(by: { $0.key < $1.key }) {
            let key = codec.lookupKey("meta:" + name)
            try database.query(
                "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)",
                [.blob(key), .blob(try codec.seal(RecordChecksum.framedMeta(Array(value.utf8)), context: key))])
        }
        return (previous, try writeNextGeneration(after: previous), result)
    }

    /// Writes a new generation after `previous` (a fresh count when there is none, as after a
    /// repair of unreadable settings), inside the caller's transaction: whatever snapshot there
    /// is becomes stale. Every commit and every repair bumps it here.
    func writeNextGeneration(after previous: StoreGeneration?) throws -> StoreGeneration {
        let next = StoreGeneration.random(counter: (previous?.counter ?? 0) &+ 1)
        try database.query(
            "INSERT OR REPLACE INTO settings(name, value) VALUES(?, ?)", [.text(Self.generationSetting), .text(next.description)])
        return next
    }

    /// The lookup key of `domain` (`"domain:"` and its name): the last one made is kept, since a
    /// batch's items mostly share their domain (with a protected store's codec, a key is an HMAC).
    private func domainKey(_ domain: String) -> [UInt8] {
        if let last = lastDomainKey, last.domain == domain { return last.key }
        let key = codec.lookupKey("domain:" + domain)
        lastDomainKey = (domain, key)
        return key
    }

    private func apply(_ mutation: StoreMutation) throws {
        switch mutation {
        case .upsert(let stored):
            let key = codec.lookupKey(stored.item.id.rawValue)
            try database.query(
                "INSERT OR REPLACE INTO items(key, domain_key, payload) VALUES(?, ?, ?)",
                [
                    .blob(key), .blob(domainKey(stored.item.domain)),
                    .blob(try codec.seal(stored.encoded(halfVector: halfVectors), context: key)),
                ])
        case .delete(let ids):
            for id in ids {
                let key = codec.lookupKey(id.rawValue)
                try database.query("DELETE FROM items WHERE key = ?", [.blob(key)])
                try database.query("DELETE FROM donations WHERE item_key = ?", [.blob(key)])
            }
        case .deleteDomains(let domains):
            for domain in domains {
                let key = codec.lookupKey("domain:" + domain)
                try database.query("DELETE FROM donations WHERE item_key IN (SELECT key FROM items WHERE domain_key = ?)", [.blob(key)])
                try database.query("DELETE FROM items WHERE domain_key = ?", [.blob(key)])
            }
        case .deleteAll:
            try database.execute("DELETE FROM items; DELETE FROM donations;")
        case .donate(let donations):
            for d in donations {
                let key = codec.lookupKey(d.itemID.rawValue)
                // Only for an item stored at this point of the transaction: a donation made in a
                // batch after its item was deleted there must not outlive it.
                try database.query(
                    "INSERT INTO donations(item_key, payload) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM items WHERE key = ?)",
                    [.blob(key), .blob(try codec.seal(d.encoded(), context: key)), .blob(key)])
            }
        }
    }
}
