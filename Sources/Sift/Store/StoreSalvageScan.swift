import Foundation

/// The rows of one table that SQLite can still hand back, read even where its b-tree is damaged.
///
/// A sound table is read in one pass in rowid order. When that pass stops on an error
/// (SQLITE_CORRUPT, a page that cannot be read), the scan goes on past the damage: it tries the
/// following rowids one by one, resumes the ordered pass at the first that reads, and finally
/// tries every rowid the table's indexes name (an index is a b-tree of its own, usually
/// untouched by damage to the table's pages). A row named by an index that cannot be read is
/// listed with its lookup key, so that whoever owns it can be told.
struct TableSalvage {
    struct Row {
        var rowid: Int64
        var columns: [[UInt8]]
    }

    /// A row an index names that the table cannot hand back.
    struct Lost {
        var rowid: Int64
        /// The row's lookup key, as the key index has it (nil when no index holds one).
        var key: [UInt8]?
        var reason: String
    }

    var table: String
    /// Every row read, in rowid order, each once.
    var rows: [Row] = []
    var lost: [Lost] = []
    /// What stopped a pass, in words: empty when the table was read whole in one pass.
    var failures: [String] = []

    /// Rowids tried one by one past a damaged stretch before jumping to the next rowid an index
    /// names (rowids are dense, but a damaged rowid may be huge).
    static let gapBudget: Int64 = 4096
}

extension Store {
    /// Reads `columns` of every row of `table` it can (see ``TableSalvage``). `keyIndex`, when
    /// given, names the column of a unique index whose values identify the rows (`key`).
    func salvage(table: String, columns: [String], keyColumn: String?) -> TableSalvage {
        var result = TableSalvage(table: table)
        var seen = Set<Int64>()
        let list = columns.joined(separator: ", ")
        func read(_ row: SQLRow) {
            let rowid = row.int(0)
            guard seen.insert(rowid).inserted else { return }
            result.rows.append(TableSalvage.Row(rowid: rowid, columns: (0..<columns.count).map { row.blob(Int32($0 + 1)) }))
        }
        var cursor: Int64 = 0
        var stopped: String?
        do {
            try database.query("SELECT rowid, \(list) FROM \(table) ORDER BY rowid") { row in
                read(row)
                cursor = max(cursor, row.int(0))
            }
        } catch {
            stopped = Self.reason(error)
        }
        guard let firstFailure = stopped else { return result }
        result.failures.append("reading \(table) stopped after row \(cursor): \(firstFailure)")
        let named = indexedRowids(table: table, keyColumn: keyColumn)
        let upper = max(named.keys.max() ?? 0, maxRowid(table) ?? 0)
        var probe = cursor
        while probe < upper {
            let gapEnd = min(upper, probe + TableSalvage.gapBudget)
            var resumed = false
            var failed: (first: Int64, last: Int64, reason: String)?
            while probe < gapEnd && !resumed {
                probe += 1
                switch pointRead(table: table, list: list, rowid: probe, into: read) {
                case .row: resumed = true
                case .none: break
                case .failed(let why): failed = (failed?.first ?? probe, probe, why)
                }
            }
            if let failed { result.failures.append("rows \(failed.first)…\(failed.last) of \(table) cannot be read: \(failed.reason)") }
            if resumed {
                // Resume the ordered pass after the row that read.
                do {
                    try database.query("SELECT rowid, \(list) FROM \(table) WHERE rowid > ? ORDER BY rowid", [.integer(probe)]) { row in
                        read(row)
                        probe = max(probe, row.int(0))
                    }
                    break
                } catch {
                    result.failures.append("reading \(table) stopped after row \(probe): \(Self.reason(error))")
                }
            } else if let next = named.keys.filter({ $0 > probe }).min() {
                probe = next - 1
            } else {
                break
            }
        }
        for (rowid, key) in named.sorted(by: { $0.key < $1.key }) where !seen.contains(rowid) {
            switch pointRead(table: table, list: list, rowid: rowid, into: read) {
            case .row: break
            case .none: result.lost.append(.init(rowid: rowid, key: key, reason: "an index names the row, the table does not hold it"))
            case .failed(let why): result.lost.append(.init(rowid: rowid, key: key, reason: why))
            }
        }
        result.rows.sort { $0.rowid < $1.rowid }
        return result
    }

    private enum PointRead {
        case row
        case none
        case failed(String)
    }

    private func pointRead(table: String, list: String, rowid: Int64, into read: (SQLRow) -> Void) -> PointRead {
        var found = false
        do {
            try database.query("SELECT rowid, \(list) FROM \(table) WHERE rowid = ?", [.integer(rowid)]) { row in
                found = true
                read(row)
            }
            return found ? .row : .none
        } catch {
            return .failed(Self.reason(error))
        }
    }

    /// The rowids the indexes of `table` name, with the key column's value from the index that
    /// covers it (each index read as far as it goes).
    private func indexedRowids(table: String, keyColumn: String?) -> [Int64: [UInt8]?] {
        var indexes: [(name: String, columns: [String])] = []
        var names: [String] = []
        try? database.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?", [.text(table)]) {
            names.append($0.text(0))
        }
        for name in names {
            var columns: [String] = []
            try? database.query("SELECT name FROM pragma_index_info(?)", [.text(name)]) { columns.append($0.text(0)) }
            indexes.append((name, columns))
        }
        var named: [Int64: [UInt8]?] = [:]
        for index in indexes {
            let quoted = "\"" + index.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let covers = keyColumn.map { index.columns == [$0] } ?? false
            let sql = "SELECT rowid\(covers ? ", \(keyColumn!)" : "") FROM \(table) INDEXED BY \(quoted)"
            try? database.query(sql) { row in
                let key: [UInt8]? = covers ? row.blob(1) : nil
                if let key { named[row.int(0)] = key } else if named[row.int(0)] == nil { named[row.int(0)] = .some(nil) }
            }
        }
        return named
    }

    private func maxRowid(_ table: String) -> Int64? {
        var value: Int64?
        try? database.query("SELECT max(rowid) FROM \(table)") { value = $0.isNull(0) ? nil : $0.int(0) }
        return value
    }

    /// SQLite's message for a failed read, without the path (the report names the store once).
    static func reason(_ error: any Error) -> String {
        if let e = error as? StoreError { return e.code >= 0 ? "\(e.message) (SQLite code \(e.code))" : e.message }
        return "\(error)"
    }
}
