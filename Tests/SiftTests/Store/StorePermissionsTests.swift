import Foundation
import Testing

@testable import Sift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The permission bits of `path` (lstat: a link is not followed).
private func mode(_ path: String) -> mode_t {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0o7777 }
    return info.st_mode & 0o7777
}

/// Every directory and regular file at or under `url`, with its permission bits.
private func modes(under url: URL) -> [String: mode_t] {
    var result = [url.path: mode(url.path)]
    let enumerator = FileManager.default.enumerator(atPath: url.path)
    while let name = enumerator?.nextObject() as? String {
        let path = url.appendingPathComponent(name).path
        result[name] = mode(path)
    }
    return result
}

/// Runs `body` with the process's umask set to `mask` (the umask is per process: the suite is
/// serialized, and no other test depends on the umask, since Sift sets every mode itself).
private func withUmask<T>(_ mask: mode_t, _ body: () async throws -> T) async rethrows -> T {
    let previous = umask(mask)
    defer { umask(previous) }
    return try await body()
}

@Suite("Owner-only permissions on disk, whatever the umask", .serialized)
struct StorePermissionsTests {
    @Test(
        "An index made under umask 000 or 022 is 0700 with every file 0600, the store root and snapshot included",
        arguments: [mode_t(0o000), mode_t(0o022)])
    func createdOwnerOnly(mask: mode_t) async throws {
        let temporary = try TemporaryDirectory("sift-perm")
        let root = temporary.url.appendingPathComponent("store/nested", isDirectory: true)
        let directory = root.appendingPathComponent("notes", isDirectory: true)
        try await withUmask(mask) {
            let index = try SearchIndex(configuration: .init(directory: directory, embedder: FakeEmbedder()))
            _ = try await index.upsert([noteItem("n1", "Dentist appointment", content: "Tuesday at nine")])
            _ = try await index.donate(intent: "Open", itemIDs: ["n1"])
            #expect(await index.saveSnapshot())
            // The WAL and shared-memory files exist while the index is open: check them now.
            let open = modes(under: directory)
            #expect(open.keys.contains("\(Store.fileName)-wal"))
            for (name, bits) in open {
                let isDirectory = name == directory.path
                #expect(bits == (isDirectory ? 0o700 : 0o600), "\(name) is \(String(bits, radix: 8)) under umask \(String(mask, radix: 8))")
            }
        }
        // Directories Sift created on the way are owner-only; the parent it did not create is untouched.
        #expect(mode(temporary.url.appendingPathComponent("store").path) == 0o700)
        #expect(mode(root.path) == 0o700)
        for (name, bits) in modes(under: directory) {
            #expect(bits & StorePermissions.othersMask == 0, "\(name) is \(String(bits, radix: 8))")
        }
        #expect(mode(directory.appendingPathComponent(Store.fileName).path) == 0o600)
        #expect(mode(directory.appendingPathComponent(IndexSnapshot.fileName).path) == 0o600)
    }

    @Test("An existing index with wider permissions is tightened on open, and the note is logged without any user text")
    func widerTightened() async throws {
        let temporary = try TemporaryDirectory("sift-perm")
        let directory = temporary.url.appendingPathComponent("journal", isDirectory: true)
        do {
            let index = try SearchIndex(configuration: .init(directory: directory))
            _ = try await index.upsert([noteItem("j1", "Private thoughts")])
        }
        chmod(directory.path, 0o755)
        chmod(directory.appendingPathComponent(Store.fileName).path, 0o644)
        let stray = directory.appendingPathComponent("secret diary title.txt")
        _ = FileManager.default.createFile(atPath: stray.path, contents: Data("x".utf8))
        chmod(stray.path, 0o664)

        // A read-only open changes nothing and says what is too wide.
        let readOnlyLogger = MemoryLogger()
        _ = try SearchIndex(configuration: .init(directory: directory, logger: readOnlyLogger, readOnly: true))
        #expect(mode(directory.path) == 0o755)
        let readOnlyNote = try #require(readOnlyLogger.records.first { $0.operation == "permissions" })
        #expect(readOnlyNote.outcome.contains("index directory 0755 → 0700"))
        #expect(readOnlyNote.outcome.contains("not changed: opened read-only"))

        let logger = MemoryLogger()
        _ = try SearchIndex(configuration: .init(directory: directory, logger: logger))
        #expect(mode(directory.path) == 0o700)
        #expect(mode(directory.appendingPathComponent(Store.fileName).path) == 0o600)
        #expect(mode(stray.path) == 0o600)
        let note = try #require(logger.records.first { $0.operation == "permissions" })
        #expect(note.outcome.contains("index directory 0755 → 0700"))
        #expect(note.outcome.contains("\(Store.fileName) 0644 → 0600"))
        #expect(note.outcome.contains("another file 0664 → 0600"))
        #expect(!note.outcome.contains("secret") && !note.outcome.contains("Private"))

        // Nothing is ever added: an owner-read-only file stays so.
        chmod(stray.path, 0o444)
        _ = try SearchIndex(configuration: .init(directory: directory))
        #expect(mode(stray.path) == 0o400)
    }

    @Test("sift index under umask 000 and 022 makes an owner-only store, and check reports the permissions part")
    func cliOwnerOnly() throws {
        for mask in ["000", "022"] {
            let sift = try SiftProcess()
            let file = sift.scratch.path("items.jsonl")
            try Data(#"{"id":"a1","title":"Grocery list","content":"eggs and milk"}"#.utf8).write(to: file)
            let binary = try #require(SiftProcess.binary)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", "umask \(mask) && exec \"$0\" index --store \"$1\" --index private \"$2\"", binary.path, sift.store, file.path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let directory = URL(fileURLWithPath: sift.store).appendingPathComponent("private")
            #expect(mode(sift.store) == 0o700, "umask \(mask)")
            for (name, bits) in modes(under: directory) {
                #expect(bits & StorePermissions.othersMask == 0, "\(name) is \(String(bits, radix: 8)) under umask \(mask)")
            }
            let check = try sift.run(["check", "--store", sift.store, "--index", "private", "--json"])
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            let parts = try #require(try check.json()["parts"] as? [[String: Any]])
            #expect(parts.first { $0["name"] as? String == "permissions" }?["whole"] as? Bool == true)

            chmod(directory.path, 0o755)
            let wide = try sift.run(["check", "--store", sift.store, "--index", "private", "--verbose"])
            #expect(wide.status == 0, "a writable check tightens first: \(wide.stdout)")
            #expect(wide.stderr.contains("tightened to owner-only: index directory 0755 → 0700"), "\(wide.stderr)")
            #expect(mode(directory.path) == 0o700)
        }
    }
}
