import CSQLite
import Foundation

/// One SQLite connection. Not thread-safe on its own: its owner (the index actor) serialises use.
final class SQLiteDatabase {
    let path: String
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens `path`; `immutable` (read-only only) tells SQLite that nothing can change the file,
    /// so it reads a WAL database without its -shm file (on a read-only file system).
    init(path: String, readOnly: Bool = false, immutable: Bool = false) throws(StoreError) {
        self.path = path
        var db: OpaquePointer?
        var flags =
            readOnly
            ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        var name = path
        if immutable && readOnly {
            flags |= SQLITE_OPEN_URI
            var escaped: [UInt8] = []
            for c in path.utf8 {
                if c == UInt8(ascii: "%") || c == UInt8(ascii: "?") || c == UInt8(ascii: "#") {
                    escaped += Array(String(format: "%%%02X", c).utf8)
                } else {
                    escaped.append(c)
                }
            }
            name = "file:\(String(decoding: escaped, as: UTF8.self))?immutable=1"
        }
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        if rc != SQLITE_OK {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            sqlite3_close_v2(db)
            throw StoreError(code: rc, message: message, path: path)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    private func error(_ rc: Int32, _ sql: String?) -> StoreError {
        StoreError(code: rc, message: String(cString: sqlite3_errmsg(handle)), statement: sql, path: path)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "error"
            sqlite3_free(message)
            throw StoreError(code: rc, message: text, statement: sql, path: path)
        }
    }

    /// A cached prepared statement, reset and with bindings cleared.
    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        if let statement = statements[sql] {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            return statement
        }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc, sql) }
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` with `values` bound to its parameters, calling `row` for each result row.
    func query(_ sql: String, _ values: [SQLValue] = [], row: (SQLRow) throws -> Void = { _ in }) throws {
        let statement = try prepared(sql)
        // The blobs are bound where they lie (SQLITE_STATIC), not copied: the statement runs
        // inside their `withUnsafeBytes`, and its bindings are cleared before they end.
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(values, from: 0, to: statement, sql: sql) {
            while true {
                let rc = sqlite3_step(statement)
                if rc == SQLITE_DONE { return }
                if rc != SQLITE_ROW { throw error(rc, sql) }
                try row(SQLRow(statement: statement))
            }
        }
    }

    /// Binds `values[index...]` to parameters `index + 1…` of `statement` and runs `body` while
    /// the bytes of every blob bound stay where they were bound.
    private func bind(
        _ values: [SQLValue], from index: Int, to statement: OpaquePointer, sql: String, _ body: () throws -> Void
    ) throws {
        guard index < values.count else { return try body() }
        let position = Int32(index + 1)
        let rc: Int32
        switch values[index] {
        case .null: rc = sqlite3_bind_null(statement, position)
        case .integer(let v): rc = sqlite3_bind_int64(statement, position, v)
        case .real(let v): rc = sqlite3_bind_double(statement, position, v)
        case .text(let v): rc = sqlite3_bind_text(statement, position, v, -1, sift_sqlite_transient())
        case .blob(let v):
            return try v.withUnsafeBytes { bytes in
                // A NULL pointer would bind SQL NULL, not an empty blob.
                let rc = sqlite3_bind_blob(
                    statement, position, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), nil)
                if rc != SQLITE_OK { throw error(rc, sql) }
                try bind(values, from: index + 1, to: statement, sql: sql, body)
            }
        }
        if rc != SQLITE_OK { throw error(rc, sql) }
        try bind(values, from: index + 1, to: statement, sql: sql, body)
    }

    /// Runs `body` inside one transaction: committed if it returns, rolled back if it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// ``transaction(_:)`` that, when `runsBeside` says so of what `body` returned, runs
    /// `beside` with it on the calling thread while the `COMMIT` runs on another thread (its
    /// journal write and fsync are mostly waiting on the disk), and returns once both are done;
    /// otherwise it commits on the calling thread, as ``transaction(_:)`` does, without the hop.
    /// `beside` must not touch this connection. When the `COMMIT` fails, `beside` has run all
    /// the same: the caller undoes what it did.
    func transaction<T>(runsBeside: (T) -> Bool, beside: (T) -> Void, _ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            guard runsBeside(result) else {
                try commit()
                return result
            }
            // The connection is used by one thread at a time: the other thread's, until the
            // group is left; this one's again after the wait.
            nonisolated(unsafe) let connection = self
            nonisolated(unsafe) var failure: (any Error)?
            let committed = DispatchGroup()
            committed.enter()
            Self.committer.async {
                do {
                    try connection.commit()
                } catch {
                    failure = error
                }
                committed.leave()
            }
            beside(result)
            committed.wait()
            if let failure { throw failure }
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The `COMMIT` of ``transaction(runsBeside:beside:_:)``, on whichever thread runs it, with
    /// its test seam.
    private func commit() throws {
        try commitFault?()
        try execute("COMMIT")
    }

    /// Where ``transaction(runsBeside:beside:_:)`` runs its `COMMIT`s beside other work: a
    /// queue of Sift's own (concurrent: indexes commit apart), so that a `COMMIT` gets a thread
    /// even while the shared pools' are all busy or blocked.
    private static let committer = DispatchQueue(label: "sift.commit", qos: .userInitiated, attributes: .concurrent)

    /// Test seam: thrown from just before the `COMMIT` of ``transaction(runsBeside:beside:_:)``
    /// (beside other work or not), as a failed `COMMIT` would (a full disk, an I/O error while
    /// writing the journal).
    nonisolated(unsafe) var commitFault: (@Sendable () throws -> Void)?

    /// Runs `body` inside one read transaction (`BEGIN DEFERRED`): every read sees the same
    /// committed state, even while another connection writes.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var changes: Int { Int(sqlite3_changes(handle)) }
}

/// A value bound to or read from SQLite.
enum SQLValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    static func optional(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    static func optional(_ value: Double?) -> SQLValue { value.map { .real($0) } ?? .null }
    static func optional(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
}

/// A view of the current result row of a statement; valid only inside the row callback.
struct SQLRow {
    let statement: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
