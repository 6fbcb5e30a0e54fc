import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a repair did to the store file.
struct StoreRepairOutcome {
    /// The records dropped because they cannot be read (readable ones are never touched).
    var dropped: [UnreadableRecord] = []
    /// Readable donations of dropped items, which went with them.
    var droppedDonationsOfDroppedItems = 0
    /// Whether the file was rebuilt from what could be read (SQLite found it unsound), rather
    /// than the unreadable rows deleted in place.
    var rebuiltFile = false
}

extension Store {
    /// Takes this connection's exclusive lock on the database, so that a repair runs alone;
    /// fails when another connection (another process, or another index in this one) has the
    /// store open.
    func lockExclusively() throws(StoreError) {
        do {
            try database.execute("PRAGMA busy_timeout = 250; PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;")
        } catch {
            throw StoreError(
                code: error.code,
                message:
                    "the index is open elsewhere (another process, or another SearchIndex); close it and repair again [SQLite: \(error.message)]",
                path: path)
        }
    }

    /// Drops what `survey` found unreadable, in place, in one transaction, with a new
    /// generation: for a file SQLite finds sound.
    func dropInPlace(_ survey: StoreSurvey) throws -> StoreRepairOutcome {
        let outcome = StoreRepairOutcome(dropped: survey.unreadable, droppedDonationsOfDroppedItems: survey.donationsOfUnreadableItems)
        guard !survey.unreadable.isEmpty || !survey.settingProblems.isEmpty else { return outcome }
        try database.transaction {
            for record in survey.unreadable {
                let table: String
                switch record.kind {
                case .item:
                    table = "items"
                    if let key = Self.unhex(record.rowKey), !key.isEmpty {
                        try database.query("DELETE FROM donations WHERE item_key = ?", [.blob(key)])
                    }
                case .donation: table = "donations"
                case .meta: table = "meta"
                case .setting: table = "settings"
                }
                try database.query("DELETE FROM \(table) WHERE rowid = ?", [.integer(record.row)])
            }
            _ = try writeNextGeneration(after: survey.generation)
        }
        return outcome
    }

    /// Copies every readable record of `survey`, byte for byte and under its own row number, into
    /// a fresh store in `directory` (which must not hold one): for a file SQLite finds unsound.
    static func rebuild(_ survey: StoreSurvey, codec: any RecordCodec, in directory: URL) throws {
        let fresh = try Store(directory: directory, codec: codec)
        try fresh.database.transaction {
            for m in survey.meta {
                try fresh.database.query("INSERT INTO meta(key, value) VALUES(?, ?)", [.blob(m.key), .blob(m.value)])
            }
            for item in survey.items {
                try fresh.database.query(
                    "INSERT INTO items(id, key, domain_key, payload) VALUES(?, ?, ?, ?)",
                    [.integer(item.rowid), .blob(item.key), .blob(item.domainKey), .blob(item.payload)])
            }
            for d in survey.donations {
                try fresh.database.query(
                    "INSERT INTO donations(seq, item_key, payload) VALUES(?, ?, ?)", [.integer(d.rowid), .blob(d.key), .blob(d.payload)])
            }
            _ = try fresh.writeNextGeneration(after: survey.generation)
        }
        try fresh.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        guard try fresh.integrityCheck() == "ok" else {
            throw StoreError(code: -1, message: "the rebuilt store does not pass SQLite's integrity check", path: fresh.path)
        }
    }

    /// Replaces the database file of `directory` by the one in `replacement` (a directory
    /// ``rebuild(_:codec:in:)`` filled): the old file's WAL and shared-memory files are removed
    /// first (the repair checkpointed them, and a WAL left beside the new file would be
    /// replayed into it), then the new file is renamed over the old one and the directory
    /// synced. No connection may be open on either.
    static func replaceFile(in directory: URL, with replacement: URL) throws(StoreError) {
        let target = directory.appendingPathComponent(fileName).path
        for suffix in ["-wal", "-shm", "-journal"] { unlink(target + suffix) }
        let source = replacement.appendingPathComponent(fileName).path
        guard rename(source, target) == 0 else {
            throw StoreError(
                code: -1, message: "cannot move the rebuilt store into place (\(String(cString: strerror(errno))))", path: target)
        }
        let fd = open(directory.path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
        try? FileManager.default.removeItem(at: replacement)
    }

    /// The directory a repair rebuilds the store in, inside the index directory (so the rename
    /// stays on one file system), removed again afterwards.
    static func repairDirectory(in directory: URL) -> URL {
        directory.appendingPathComponent(".repair-\(getpid())", isDirectory: true)
    }

    /// Removes what interrupted repairs left (their process is gone).
    static func removeAbandonedRepairs(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(".repair-") {
            if let pid = pid_t(name.dropFirst(".repair-".count)), pid > 0, pid != getpid(), kill(pid, 0) == 0 || errno == EPERM { continue }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}
