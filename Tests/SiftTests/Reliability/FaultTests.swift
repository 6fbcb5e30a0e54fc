import Foundation
import Testing

@testable import Sift

extension SearchIndex {
    /// Test seam: caps the database at its current size plus `extraPages` pages
    /// (`PRAGMA max_page_count`), so the next growth fails with SQLITE_FULL as on a full disk.
    func capStoreSizeForTesting(extraPages: Int) throws {
        var pages: Int64 = 0
        try store.database.query("PRAGMA page_count") { pages = $0.int(0) }
        try store.database.execute("PRAGMA max_page_count = \(pages + Int64(extraPages))")
    }

    /// Lifts the cap of ``capStoreSizeForTesting(extraPages:)``.
    func uncapStoreSizeForTesting() throws {
        try store.database.execute("PRAGMA max_page_count = 1073741823")
    }

    /// Test seam: the `COMMIT` of every index write (`commitNow`: upserts, deletes, donations)
    /// fails (SQLITE_IOERR, as a journal write on a failing disk would) while `failing` is true,
    /// whether it runs beside a projection or on the calling thread.
    func failCommitsForTesting(_ failing: Bool) {
        let path = store.path
        if failing {
            store.database.commitFault = { @Sendable () throws -> Void in
                throw StoreError(code: 10, message: "injected: disk I/O error", path: path)
            }
        } else {
            store.database.commitFault = nil
        }
    }

    /// Every result of `text` in each mode, ids and scores, to compare two indexes' answers.
    func answersForTesting(_ text: String) throws -> [String] {
        try [SearchMode.keyword, .semantic, .hybrid].flatMap { mode in
            try search(SearchQuery(text, limit: 50, mode: mode)).results.map { "\(mode) \($0.id) \($0.score)" }
        }
    }
}

/// Items with a word each ("fault" + n spelled in letters) and enough text to fill pages.
private func faultItems(_ range: Range<Int>, padding: Int = 40) -> [SearchableItem] {
    range.map { n in
        noteItem(
            "fault-\(n)", "\(Reliability.word(n, salt: 41)) report",
            content: (0..<padding).map { Reliability.word($0 + n, salt: 42) }.joined(separator: " "))
    }
}

/// What `error` says, or "no error".
private func describe(_ error: (any Error)?) -> String {
    error.map { "\($0)" } ?? "no error"
}

/// Runs `body` and returns what it threw, or nil.
private func thrown(_ body: () async throws -> Void) async -> (any Error)? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}

extension Reliability {
    /// Faults from the environment: a full disk, a read-only store, missing permissions, a store
    /// from a newer Sift. Each must give an error naming the path and the cause, lose nothing
    /// committed, and leave the index answering searches.
    @Suite("Faults: full disk, read-only store, permissions, newer schema")
    struct FaultTests {
        /// Everything the index answers, to compare before and after a failure.
        private func snapshot(_ index: SearchIndex) async throws -> [String] {
            var lines = await index.allItems().map { "\($0.id)|\($0.title)" }
            lines.append("client=\(try await index.lastClientState() ?? "none")")
            return lines
        }

        @Test("A write that finds the disk full fails naming the store and the cause; nothing committed is lost and searches go on")
        func diskFull() async throws {
            let fixture = try IndexFixture(.disk, embedder: FakeEmbedder())
            let index = try fixture.open()
            try await index.beginBatch()
            try await index.upsert(faultItems(0..<50))
            try await index.endBatch(clientState: "batch-1")
            let before = try await snapshot(index)

            try await index.capStoreSizeForTesting(extraPages: 2)
            let error = await thrown {
                try await index.beginBatch()
                try await index.upsert(faultItems(50..<400))
                try await index.endBatch(clientState: "batch-2")
            }
            let storeError = try #require(error as? StoreError, "\(describe(error))")
            #expect(storeError.code & 0xFF == 13)  // SQLITE_FULL
            #expect(storeError.path == fixture.storeFile.path)
            #expect(
                "\(storeError)".hasPrefix(fixture.storeFile.path) && "\(storeError)".contains("database or disk is full"), "\(storeError)")

            // Reading goes on, with everything committed before, and nothing of the failed batch.
            #expect(try await snapshot(index) == before)
            #expect(try await index.keywordIDs(Reliability.word(7, salt: 41)) == ["fault-7"])
            #expect(try await index.keywordIDs(Reliability.word(77, salt: 41)).isEmpty)
            try await index.checkInvariants()
            // Smaller writes also fail cleanly, and each leaves the index as it was.
            for n in 400..<405 {
                #expect(await thrown { try await index.upsert(faultItems(n..<(n + 1), padding: 1500)) } is StoreError)
            }
            #expect(try await index.keywordIDs(Reliability.word(401, salt: 41)).isEmpty)
            try await index.checkInvariants()

            // Once there is room again, writing works, and a reopened index holds exactly what
            // was acknowledged.
            try await index.uncapStoreSizeForTesting()
            try await index.upsert(faultItems(50..<60))
            let acknowledged = try await snapshot(index)
            let reopened = try fixture.open()
            #expect(try await snapshot(reopened) == acknowledged)
            #expect(try await reopened.integrityCheck() == "ok")
            try await reopened.checkInvariants()
        }

        @Test("An upsert whose store writes fail while later items are still being embedded commits nothing and projects nothing")
        func diskFullDuringPipelinedUpsert() async throws {
            let fixture = try IndexFixture(.disk, embedder: FakeEmbedder())
            let index = try fixture.open()
            try await index.upsert(faultItems(0..<50))
            let before = try await snapshot(index)
            try await index.capStoreSizeForTesting(extraPages: 2)
            // Hundreds of items in one call: written chunk by chunk beside the preparation of the
            // rest, until the store is full.
            let error = await thrown { try await index.upsert(faultItems(50..<600, padding: 400)) }
            let storeError = try #require(error as? StoreError, "\(describe(error))")
            #expect(storeError.code & 0xFF == 13)  // SQLITE_FULL
            #expect(try await snapshot(index) == before)
            #expect(try await index.keywordIDs(Reliability.word(77, salt: 41)).isEmpty)
            try await index.checkInvariants()
            try await index.uncapStoreSizeForTesting()
            try await index.upsert(faultItems(50..<600))
            let acknowledged = try await snapshot(index)
            #expect(try await index.keywordIDs(Reliability.word(77, salt: 41)) == ["fault-77"])
            #expect(try await snapshot(fixture.open()) == acknowledged)
        }

        @Test(
            "A COMMIT that fails after new items were projected beside it takes them out again; replacing items projects after the COMMIT")
        func commitFailsBesideProjection() async throws {
            let fixture = try IndexFixture(.disk, embedder: FakeEmbedder())
            let index = try fixture.open()
            try await index.upsert(faultItems(0..<50))
            let before = try await snapshot(index)
            let queries = ["report", Reliability.word(3, salt: 41), Reliability.word(77, salt: 41), Reliability.word(5, salt: 42)]
            var answers: [String] = []
            for q in queries { answers += try await index.answersForTesting(q) }
            await index.failCommitsForTesting(true)
            // New ids only, more than one projection thread takes, one in a new domain: projected
            // while the COMMIT runs.
            let trip = SearchableItem(id: "trip-1", domain: "trip", title: "Lisbon in spring", displayName: "Trips")
            let error = await thrown { try await index.upsert(faultItems(50..<300) + [trip]) }
            #expect((error as? StoreError)?.code == 10, "\(describe(error))")
            #expect(try await snapshot(index) == before)
            #expect(await index.state.domainNames["trip"] == nil, "the new domain is forgotten too")
            var after: [String] = []
            for q in queries { after += try await index.answersForTesting(q) }
            #expect(after == answers, "the same answers, scores included, as before the failed upsert")
            try await index.checkInvariants()
            // Replacements and deletes commit on the calling thread and are projected after the
            // COMMIT: nothing to undo.
            let replaced = await thrown { try await index.upsert(faultItems(40..<60)) }
            #expect(replaced is StoreError)
            #expect(try await snapshot(index) == before)
            let deleted = await thrown { _ = try await index.delete(ids: ["fault-3"]) }
            #expect((deleted as? StoreError)?.code == 10, "\(describe(deleted))")
            #expect(try await snapshot(index) == before)
            try await index.checkInvariants()

            await index.failCommitsForTesting(false)
            try await index.upsert(faultItems(50..<300))
            #expect(try await index.keywordIDs(Reliability.word(77, salt: 41)) == ["fault-77"])
            try await index.checkInvariants()
            let reopened = try fixture.open()
            #expect(try await snapshot(reopened) == snapshot(index))
            for q in queries { #expect(try await reopened.answersForTesting(q) == index.answersForTesting(q), "\(q)") }
        }

        @Test("A store opened read-only answers searches, refuses every write with the path and the cause, and loses nothing")
        func readOnlyStore() async throws {
            let fixture = try IndexFixture(.disk, embedder: FakeEmbedder())
            do {
                let index = try fixture.open()
                try await index.upsert(faultItems(0..<20))
                try await index.donate(intent: "open", itemIDs: ["fault-3"])
            }
            let files = try fixture.storeFingerprint()
            let directory = try #require(fixture.directory)
            let index = try SearchIndex(configuration: .init(directory: directory, embedder: FakeEmbedder(), readOnly: true))
            let before = try await snapshot(index)
            #expect(before.count == 21)
            #expect(try await index.keywordIDs(Reliability.word(3, salt: 41)) == ["fault-3"])

            let writes: [(String, @Sendable () async throws -> Void)] = [
                ("upsert", { try await index.upsert(faultItems(20..<21)) }),
                ("delete", { try await index.delete(ids: ["fault-1"]) }),
                ("delete domains", { try await index.delete(domains: ["note"]) }),
                ("delete all", { try await index.deleteAll() }),
                ("donate", { try await index.donate(intent: "open", itemIDs: ["fault-2"]) }),
                (
                    "batch",
                    {
                        try await index.beginBatch()
                        try await index.upsert(faultItems(30..<31))
                        try await index.endBatch(clientState: "x")
                    }
                ),
            ]
            for (name, write) in writes {
                let error = await thrown(write)
                let storeError = try #require(error as? StoreError, "\(name): \(describe(error))")
                #expect(storeError.code & 0xFF == 8, "\(name): \(storeError)")  // SQLITE_READONLY
                #expect(
                    "\(storeError)".hasPrefix(fixture.storeFile.path) && "\(storeError)".contains("readonly database"),
                    "\(name): \(storeError)")
                #expect(try await snapshot(index) == before, "\(name) changed the index")
            }
            try await index.checkInvariants()
            #expect(try fixture.storeFingerprint()[Store.fileName] == files[Store.fileName])

            // Nothing to open read-only: said so, and nothing is created.
            let missing = fixture.temporary.path("missing")
            let error = await thrown { _ = try SearchIndex(configuration: .init(directory: missing, readOnly: true)) }
            #expect(describe(error).contains("no index here to open read-only"))
            #expect(!FileManager.default.fileExists(atPath: missing.path))
        }

        @Test("A directory that cannot be created or written gives an error naming it and the reason")
        func missingPermissions() async throws {
            let temporary = try TemporaryDirectory("sift-faults")
            // A path under a regular file can never be created, whoever runs the test.
            let file = temporary.path("plain-file")
            try Data("not a directory".utf8).write(to: file)
            let under = file.appendingPathComponent("index")
            let error = await thrown { _ = try SearchIndex(configuration: .init(directory: under)) }
            let storeError = try #require(error as? StoreError)
            #expect(storeError.path == under.path)
            #expect(storeError.message.hasPrefix("cannot create the index directory:"), "\(storeError)")

            // Permissions only bind a user that is not root.
            guard !Reliability.isRoot else { return }
            let locked = temporary.path("locked")
            do {
                let index = try SearchIndex(configuration: .init(directory: locked))
                try await index.upsert(faultItems(0..<5))
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o444], ofItemAtPath: locked.appendingPathComponent(Store.fileName).path)
            defer {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path)
                try? FileManager.default.setAttributes(
                    [.posixPermissions: 0o644], ofItemAtPath: locked.appendingPathComponent(Store.fileName).path)
            }
            let lockedError = await thrown { _ = try SearchIndex(configuration: .init(directory: locked)) }
            #expect(describe(lockedError).contains("no permission to write in the index directory \(locked.path)"))
            let unwritable = temporary.path("fresh")
            try FileManager.default.createDirectory(
                at: unwritable, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o555])
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: unwritable.path) }
            let freshError = await thrown { _ = try SearchIndex(configuration: .init(directory: unwritable)) }
            #expect(describe(freshError).contains("no permission to write in the index directory"))
        }

        @Test("A store from a newer Sift is refused with its path and both schema versions, and left untouched")
        func newerSchema() async throws {
            let fixture = try IndexFixture(.disk)
            do {
                let index = try fixture.open()
                try await index.upsert(faultItems(0..<3))
            }
            do {
                let db = try SQLiteDatabase(path: fixture.storeFile.path)
                try db.execute("PRAGMA user_version = 99")
            }
            let files = try fixture.storeFingerprint()
            let error = await thrown { _ = try fixture.open() }
            let storeError = try #require(error as? StoreError)
            #expect(storeError.path == fixture.storeFile.path)
            #expect(
                storeError.message
                    == "the store has schema version 99, newer than this Sift understands (\(Store.schemaVersion)); upgrade Sift to open it"
            )
            #expect(try fixture.storeFingerprint() == files)
            let db = try SQLiteDatabase(path: fixture.storeFile.path)
            var version: Int64 = 0
            var count: Int64 = 0
            try db.query("PRAGMA user_version") { version = $0.int(0) }
            try db.query("SELECT count(*) FROM items") { count = $0.int(0) }
            #expect(version == 99 && count == 3)
        }

        @Test("A file that is not a database, or is cut short, is refused naming the file")
        func notADatabase() async throws {
            let fixture = try IndexFixture(.disk)
            do {
                let index = try fixture.open()
                try await index.upsert(faultItems(0..<200))
            }
            let original = try Data(contentsOf: fixture.storeFile)
            try Data(repeating: 0x5A, count: 8192).write(to: fixture.storeFile)
            let garbage = await thrown { _ = try fixture.open() }
            #expect(
                describe(garbage).hasPrefix(fixture.storeFile.path) && describe(garbage).contains("not a database"), "\(describe(garbage))")

            // Cut in half: SQLite either refuses it or reports the damage.
            try original.prefix(original.count / 2).write(to: fixture.storeFile)
            let truncated = await thrown {
                let index = try fixture.open()
                let check = try await index.integrityCheck()
                if check != "ok" { throw StoreError(code: 11, message: check, path: fixture.storeFile.path) }
            }
            #expect(truncated != nil)
            #expect(describe(truncated).contains(fixture.storeFile.path))
        }

        // MARK: Real file systems (make test-faults)

        /// A small tmpfs mounted by `make test-faults` (`SIFT_FAULT_TMPFS`); skipped elsewhere.
        static let tmpfs = ProcessInfo.processInfo.environment["SIFT_FAULT_TMPFS"].map { URL(fileURLWithPath: $0) }
        /// A tmpfs this test may remount read-only (`SIFT_FAULT_RO_MOUNT`, root only).
        static let remountable = ProcessInfo.processInfo.environment["SIFT_FAULT_RO_MOUNT"].map { URL(fileURLWithPath: $0) }

        @Test(
            "On a really full file system, batches fail cleanly and every acknowledged batch survives",
            .enabled(if: tmpfs != nil, "needs SIFT_FAULT_TMPFS (make test-faults)"))
        func fullFileSystem() async throws {
            let root = try #require(Self.tmpfs).appendingPathComponent("full-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: root) }
            // Ballast, freed later as a user would free space.
            let ballast = root.appendingPathComponent("ballast")
            try Data(repeating: 1, count: 256 << 10).write(to: ballast)
            let directory = root.appendingPathComponent("index")
            let index = try SearchIndex(configuration: .init(directory: directory, embedder: FakeEmbedder()))
            var acknowledged = 0
            var failure: (any Error)?
            for batch in 0..<10_000 {
                do {
                    try await index.beginBatch()
                    try await index.upsert(faultItems((batch * 20)..<((batch + 1) * 20)))
                    try await index.endBatch(clientState: "batch-\(batch)")
                    acknowledged = batch + 1
                } catch {
                    await index.cancelBatch()
                    failure = error
                    break
                }
            }
            let storeError = try #require(failure as? StoreError, "\(describe(failure))")
            print("full file system: \(acknowledged) batches acknowledged, then: \(storeError)")
            #expect(acknowledged > 0)
            #expect(
                storeError.code & 0xFF == 13 && "\(storeError)".contains(directory.path) && "\(storeError)".contains("full"),
                "\(storeError)")
            #expect(await index.allItems().count == acknowledged * 20)
            #expect(try await index.lastClientState() == "batch-\(acknowledged - 1)")
            #expect(try await index.keywordIDs(Reliability.word(5, salt: 41)) == ["fault-5"])

            try FileManager.default.removeItem(at: ballast)
            try await index.upsert(faultItems(100_000..<100_001))
            let reopened = try SearchIndex(configuration: .init(directory: directory, embedder: FakeEmbedder()))
            #expect(await reopened.allItems().count == acknowledged * 20 + 1)
            #expect(try await reopened.lastClientState() == "batch-\(acknowledged - 1)")
            #expect(try await reopened.integrityCheck() == "ok")
            try await reopened.checkInvariants()
        }

        @Test(
            "On a read-only file system, opening says so; opened read-only, the index answers",
            .enabled(if: remountable != nil && Reliability.isRoot, "needs SIFT_FAULT_RO_MOUNT as root (make test-faults)"))
        func readOnlyFileSystem() async throws {
            let mount = try #require(Self.remountable)
            let directory = mount.appendingPathComponent("ro-\(UUID().uuidString)")
            do {
                let index = try SearchIndex(configuration: .init(directory: directory, embedder: FakeEmbedder()))
                try await index.upsert(faultItems(0..<30))
            }
            try remount(mount, readOnly: true)
            defer { try? remount(mount, readOnly: false) }
            let error = await thrown { _ = try SearchIndex(configuration: .init(directory: directory, embedder: FakeEmbedder())) }
            #expect(describe(error).contains("is on a read-only file system"), "\(describe(error))")
            #expect(describe(error).contains(directory.path))
            let index = try SearchIndex(configuration: .init(directory: directory, embedder: FakeEmbedder(), readOnly: true))
            #expect(await index.allItems().count == 30)
            #expect(try await index.keywordIDs(Reliability.word(9, salt: 41)) == ["fault-9"])
            let write = await thrown { try await index.upsert(faultItems(30..<31)) }
            #expect(write is StoreError)
        }

        private func remount(_ mount: URL, readOnly: Bool) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/mount")
            process.arguments = ["-o", readOnly ? "remount,ro" : "remount,rw", mount.path]
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 { throw ChildProcessError("mount -o remount \(mount.path) failed") }
        }
    }
}
