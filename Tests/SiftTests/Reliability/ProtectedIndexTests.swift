import Foundation
import Testing

@testable import Sift

/// A corpus of made-up words, so every token is long and unmistakable in a file's bytes.
private struct SecretCorpus {
    var items: [SearchableItem] = []
    var donations: [(intent: String, id: ItemID)] = []
    var clientState = ""

    init(count: Int, seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let domains = (0..<5).map { Reliability.word($0, salt: 1) }
        let vocabulary = (0..<600).map { Reliability.word($0, salt: 2) }
        for n in 0..<count {
            var item = SearchableItem(id: ItemID("\(Reliability.word(n, salt: 3))-\(Reliability.word(n, salt: 4))"))
            item.domain = domains[n % domains.count]
            item.title = (0..<rng.int(2..<5)).map { _ in rng.pick(vocabulary).capitalized }.joined(separator: " ")
            item.content = (0..<rng.int(8..<30)).map { _ in rng.pick(vocabulary) }.joined(separator: " ") + "."
            item.keywords = (0..<rng.int(1..<4)).map { _ in rng.pick(vocabulary) }
            item.displayName = domains[n % domains.count].capitalized
            item.url = "https://\(Reliability.word(n, salt: 5)).app/\(Reliability.word(n, salt: 6))"
            item.date = Date(timeIntervalSince1970: 1_790_000_000 + Double(n) * 3600)
            items.append(item)
        }
        for n in stride(from: 0, to: count, by: 7) {
            donations.append((Reliability.word(n % 3, salt: 7), items[n].id))
        }
        clientState = "\(Reliability.word(1, salt: 8))#\(Reliability.word(count, salt: 8))"
    }

    /// Every token of at least four characters that the corpus puts anywhere.
    var tokens: Set<String> {
        var all = Set<String>()
        for item in items {
            for text in [item.id.rawValue, item.domain, item.title, item.content, item.displayName ?? "", item.url ?? ""] + item.keywords {
                all.formUnion(Reliability.tokens(text))
            }
        }
        for d in donations { all.formUnion(Reliability.tokens(d.intent)) }
        all.formUnion(Reliability.tokens(clientState))
        return all
    }
}

extension Reliability {
    @Suite("Protected indexes: sealed at rest with AES-256-GCM")
    struct ProtectedIndexTests {
        static let schemaWords = ["settings", "items", "payload", "domain", "donations", "codec", "check"]

        func protectedConfiguration(_ directory: URL, key: ProtectionKey, embedder: (any Embedder)? = FakeEmbedder())
            -> SearchIndex.Configuration
        {
            .init(directory: directory, embedder: embedder, codec: AESGCMCodec(key: key))
        }

        /// Indexes the corpus (one batch with client state, then donations), returning while the
        /// index is still open so the write-ahead log can be inspected too.
        private func fill(_ index: SearchIndex, _ corpus: SecretCorpus) async throws {
            try await index.beginBatch()
            try await index.upsert(corpus.items)
            try await index.endBatch(clientState: corpus.clientState)
            for d in corpus.donations { try await index.donate(intent: d.intent, itemIDs: [d.id]) }
        }

        private func storeFiles(_ directory: URL) throws -> [(name: String, bytes: Data)] {
            try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .map { ($0.lastPathComponent, try Data(contentsOf: $0)) }
        }

        @Test("After indexing 1,000 items, no token of their text is in any byte of the store, open or closed")
        func nothingInTheClear() async throws {
            let corpus = SecretCorpus(count: 1000, seed: 61)
            let tokens = corpus.tokens
            #expect(tokens.count > 1500)
            #expect(tokens.allSatisfy { $0.count >= 7 || $0 == "https" })
            let temporary = try TemporaryDirectory("sift-protected")
            let key = try ProtectionKey.random()
            let directory = temporary.path("secret")
            do {
                let index = try SearchIndex(configuration: protectedConfiguration(directory, key: key))
                try await fill(index, corpus)
                let open = try storeFiles(directory)
                #expect(open.map(\.name).contains("index.sqlite-wal"))
                for file in open {
                    let leaked = Reliability.occurrences(of: tokens, in: file.bytes)
                    #expect(
                        leaked.isEmpty, "\(file.name) (open) holds \(leaked.count) tokens in the clear, e.g. \(leaked.sorted().prefix(5))")
                }
            }
            let closed = try storeFiles(directory)
            #expect(closed.reduce(0) { $0 + $1.bytes.count } > 500_000)
            for file in closed {
                let leaked = Reliability.occurrences(of: tokens, in: file.bytes)
                #expect(
                    leaked.isEmpty, "\(file.name) (closed) holds \(leaked.count) tokens in the clear, e.g. \(leaked.sorted().prefix(5))")
            }

            // The control: the same corpus in a plain index shows every token, so the scan works.
            let plainDirectory = temporary.path("plain")
            do {
                let index = try SearchIndex(configuration: .init(directory: plainDirectory, embedder: FakeEmbedder()))
                try await fill(index, corpus)
            }
            var seen = Set<String>()
            for file in try storeFiles(plainDirectory) { seen.formUnion(Reliability.occurrences(of: tokens, in: file.bytes)) }
            #expect(seen == tokens, "the plain control shows \(seen.count) of \(tokens.count) tokens")
            print(
                "protected index: \(tokens.count) distinct tokens, none in \(closed.reduce(0) { $0 + $1.bytes.count }) bytes of \(closed.map(\.name).sorted()); all \(seen.count) in the plain control"
            )
        }

        @Test("A protected index reopens with its key and answers exactly as before")
        func reopensWithItsKey() async throws {
            let corpus = SecretCorpus(count: 200, seed: 62)
            let temporary = try TemporaryDirectory("sift-protected")
            let key = try ProtectionKey.random()
            let directory = temporary.path("secret")
            let before: [[ItemID]]
            let queries = corpus.items.prefix(20).map { $0.title }
            do {
                let index = try SearchIndex(configuration: protectedConfiguration(directory, key: key))
                try await fill(index, corpus)
                var answers: [[ItemID]] = []
                for q in queries { answers.append(try await index.search(q, limit: 5).map(\.id)) }
                before = answers
            }
            let index = try SearchIndex(configuration: protectedConfiguration(directory, key: key))
            #expect(await index.allItems() == corpus.items.sorted { $0.id < $1.id })
            #expect(try await index.lastClientState() == corpus.clientState)
            #expect(try await index.statistics().donations == corpus.donations.count)
            for (q, expected) in zip(queries, before) {
                let ids = try await index.search(q, limit: 5).map(\.id)
                #expect(ids == expected)
            }
            for item in corpus.items.prefix(20) {
                #expect(try await index.search(item.title, limit: 3).map(\.id).contains(item.id))
            }
            try await index.checkInvariants()
            #expect(try await index.integrityCheck() == "ok")
            // The key also reads a key file, in both spellings.
            let hexFile = temporary.path("key.hex")
            try Data((key.hexadecimal.uppercased() + "\n").utf8).write(to: hexFile)
            let rawFile = temporary.path("key.bin")
            try Data(key.bytes).write(to: rawFile)
            for file in [hexFile, rawFile] {
                let loaded = try ProtectionKey(contentsOf: file)
                #expect(loaded.bytes == key.bytes)
            }
            #expect("\(key)".contains("redacted") && !"\(key)".contains(key.hexadecimal))
        }

        @Test("A wrong key, no key, or a key for a plain index is refused with a message that says which")
        func wrongOrMissingKey() async throws {
            let temporary = try TemporaryDirectory("sift-protected")
            let directory = temporary.path("secret")
            let key = try ProtectionKey.random()
            do {
                let index = try SearchIndex(configuration: protectedConfiguration(directory, key: key))
                try await index.upsert([noteItem("a", "confidential")])
            }
            let path = directory.appendingPathComponent(Store.fileName).path
            func openError(_ configuration: SearchIndex.Configuration) -> String {
                do {
                    _ = try SearchIndex(configuration: configuration)
                    return "opened"
                } catch {
                    return "\(error)"
                }
            }
            let wrong = openError(protectedConfiguration(directory, key: try ProtectionKey.random()))
            #expect(wrong.hasPrefix(path) && wrong.contains("wrong key"), "\(wrong)")
            let none = openError(.init(directory: directory))
            #expect(none.hasPrefix(path) && none.contains("protected (aes-256-gcm-v1)") && none.contains("--key-file"), "\(none)")

            let plainDirectory = temporary.path("plain")
            _ = try SearchIndex(configuration: .init(directory: plainDirectory))
            let keyed = openError(protectedConfiguration(plainDirectory, key: key))
            #expect(keyed.contains("not protected: open it without a key"), "\(keyed)")
            // Nothing was lost by the refused opens.
            let index = try SearchIndex(configuration: protectedConfiguration(directory, key: key))
            #expect(await index.item("a")?.title == "confidential")
        }

        @Test("A payload altered in SQL, moved to another row, or a byte flipped in the file is reported as a damaged record")
        func tampering() async throws {
            let corpus = SecretCorpus(count: 50, seed: 63)
            let temporary = try TemporaryDirectory("sift-protected")
            let key = try ProtectionKey.random()
            func freshStore(_ name: String) async throws -> URL {
                let directory = temporary.path(name)
                let index = try SearchIndex(configuration: protectedConfiguration(directory, key: key))
                try await fill(index, corpus)
                return directory
            }
            func openError(_ directory: URL) -> String {
                do {
                    _ = try SearchIndex(configuration: protectedConfiguration(directory, key: key))
                    return "opened"
                } catch {
                    return "\(error)"
                }
            }

            // One bit of one payload, changed through SQL.
            let altered = try await freshStore("altered")
            do {
                let db = try SQLiteDatabase(path: altered.appendingPathComponent(Store.fileName).path)
                var row: ([UInt8], [UInt8]) = ([], [])
                try db.query("SELECT key, payload FROM items LIMIT 1 OFFSET 17") { row = ($0.blob(0), $0.blob(1)) }
                row.1[row.1.count / 2] ^= 0x04
                try db.query("UPDATE items SET payload = ? WHERE key = ?", [.blob(row.1), .blob(row.0)])
            }
            let alteredError = openError(altered)
            #expect(
                alteredError.contains("an item record cannot be read") && alteredError.contains("authentication failed")
                    && alteredError.contains("tampered"), "\(alteredError)")

            // Two rows' payloads swapped: each is authentic, but not for its row.
            let swapped = try await freshStore("swapped")
            do {
                let db = try SQLiteDatabase(path: swapped.appendingPathComponent(Store.fileName).path)
                var rows: [([UInt8], [UInt8])] = []
                try db.query("SELECT key, payload FROM items LIMIT 2") { rows.append(($0.blob(0), $0.blob(1))) }
                try db.query("UPDATE items SET payload = ? WHERE key = ?", [.blob(rows[1].1), .blob(rows[0].0)])
                try db.query("UPDATE items SET payload = ? WHERE key = ?", [.blob(rows[0].1), .blob(rows[1].0)])
            }
            #expect(openError(swapped).contains("authentication failed"))

            // One byte of the file itself, in the middle of a donation's ciphertext.
            let flipped = try await freshStore("flipped")
            let file = flipped.appendingPathComponent(Store.fileName)
            var target: [UInt8] = []
            do {
                let db = try SQLiteDatabase(path: file.path)
                try db.query("SELECT payload FROM donations ORDER BY seq LIMIT 1") { target = $0.blob(0) }
            }
            var bytes = [UInt8](try Data(contentsOf: file))
            let at = try #require(Data(bytes).range(of: Data(target))?.lowerBound)
            bytes[at + target.count / 2] ^= 0x80
            try Data(bytes).write(to: file)
            let flippedError = openError(flipped)
            #expect(flippedError.contains("a donation record cannot be read") && flippedError.contains("tampered"), "\(flippedError)")

            // The key check itself, tampered with.
            let checked = try await freshStore("checked")
            do {
                let db = try SQLiteDatabase(path: checked.appendingPathComponent(Store.fileName).path)
                // Two hex digits replaced by others (whatever they were: '00' would leave a
                // check that holds 00 there unchanged, one time in 256).
                try db.execute(
                    "UPDATE settings SET value = substr(value, 1, 40) || CASE WHEN substr(value, 41, 2) = '00' THEN 'ff' ELSE '00' END || substr(value, 43) WHERE name = 'key_check'"
                )
            }
            #expect(openError(checked).contains("wrong key for this protected index (or its key check was tampered with)"))
        }

        @Test("AES-256-GCM and HMAC-SHA256 agree with the published test vectors")
        func knownAnswers() throws {
            // NIST GCM specification, test cases 13 and 14 (256-bit zero key, zero IV).
            let zero = [UInt8](repeating: 0, count: 32)
            let codec = AESGCMCodec(encryptionKey: zero, lookupSubkey: zero)
            let nonce = [UInt8](repeating: 0, count: 12)
            #expect(
                Store.hex(try codec.seal([], context: [], nonce: nonce)) == "000000000000000000000000" + "530f8afbc74536b9a963b4f1c4cb738b")
            let sealed = try codec.seal([UInt8](repeating: 0, count: 16), context: [], nonce: nonce)
            #expect(
                Store.hex(sealed) == "000000000000000000000000" + "cea7403d4d606b6e074ec5d3baf39d18" + "d0d1c8a799996bf0265b98b5d48ab919")
            #expect(try codec.open(sealed, context: []) == [UInt8](repeating: 0, count: 16))
            // RFC 4231, test case 2.
            let mac = AESGCMCodec.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
            #expect(Store.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        }

        @Test("Sealing is randomised, bound to its context, and rejects every truncation")
        func sealProperties() throws {
            let codec = AESGCMCodec(key: try ProtectionKey.random())
            let plaintext = Array("the quick brown fox".utf8)
            let a = try codec.seal(plaintext, context: [1, 2, 3])
            let b = try codec.seal(plaintext, context: [1, 2, 3])
            #expect(a != b && a.count == plaintext.count + 28)
            #expect(try codec.open(a, context: [1, 2, 3]) == plaintext)
            #expect(throws: ProtectionError.authenticationFailed) { try codec.open(a, context: [1, 2, 4]) }
            for length in 0..<a.count {
                #expect(throws: (any Error).self) { try codec.open(Array(a.prefix(length)), context: [1, 2, 3]) }
            }
            #expect(codec.lookupKey("id-1") == codec.lookupKey("id-1"))
            #expect(codec.lookupKey("id-1") != codec.lookupKey("id-2"))
            #expect(codec.lookupKey("id-1") != AESGCMCodec(key: try ProtectionKey.random()).lookupKey("id-1"))
            #expect(codec.lookupKey("").count == 32)
        }

        @Test("A key file that is missing, unreadable, or of the wrong length or alphabet gets a message naming it")
        func keyFileErrors() throws {
            let temporary = try TemporaryDirectory("sift-keys")
            func message(_ url: URL) -> String {
                do {
                    _ = try ProtectionKey(contentsOf: url)
                    return "loaded"
                } catch {
                    return error.description
                }
            }
            let missing = temporary.path("missing.key")
            #expect(message(missing) == "\(missing.path): the key file does not exist")
            #expect(message(temporary.url).contains("cannot read the key file (it is a directory)"))
            let short = temporary.path("short.key")
            try Data(repeating: 7, count: 31).write(to: short)
            #expect(message(short) == "\(short.path): a key file holds 32 raw bytes or 64 hexadecimal characters; this one has 31 bytes")
            let newline = temporary.path("newline.key")
            try Data(repeating: 7, count: 33).write(to: newline)
            #expect(message(newline).contains("this one has 33 bytes"))
            let notHex = temporary.path("nothex.key")
            try Data(String(repeating: "g", count: 64).utf8).write(to: notHex)
            #expect(message(notHex).contains("not all are hexadecimal digits"))
            let big = temporary.path("big.key")
            try Data(repeating: 0x41, count: 100_000).write(to: big)
            #expect(message(big).contains("32 raw bytes or 64 hexadecimal characters"))
            #expect(throws: ProtectionError.wrongKeyLength(path: nil, 16)) { try ProtectionKey(bytes: [UInt8](repeating: 0, count: 16)) }
        }

        @Test("The CLI takes the key from --key-file or SIFT_KEY_FILE and refuses a protected index without it")
        func commandLine() throws {
            let temporary = try TemporaryDirectory("sift-protected-cli")
            let keyFile = temporary.path("index.key")
            try Data((try ProtectionKey.random().hexadecimal + "\n").utf8).write(to: keyFile)
            let otherKey = temporary.path("other.key")
            try Data(try ProtectionKey.random().bytes).write(to: otherKey)
            let secret = Reliability.word(1, salt: 99)
            let input = temporary.path("items.jsonl")
            try Data("{\"id\":\"n1\",\"title\":\"\(secret) notes\",\"content\":\"\(Reliability.word(2, salt: 99))\"}\n".utf8).write(
                to: input)
            let store = ["--store", temporary.path("store").path, "--index", "vault", "--model", temporary.path("no-model").path]

            let indexed = try Reliability.runSift(["index"] + store + ["--key-file", keyFile.path, input.path])
            #expect(indexed.status == 0, "\(indexed.stderr)")
            let found = try Reliability.runSift(["search"] + store + ["--json", secret], environment: ["SIFT_KEY_FILE": keyFile.path])
            #expect(found.status == 0 && found.stdout.contains("\"n1\""), "\(found.stderr)")

            let noKey = try Reliability.runSift(["search"] + store + [secret])
            #expect(
                noKey.status == 1
                    && noKey.stderr.contains("it is protected (aes-256-gcm-v1): open it with its key (--key-file or SIFT_KEY_FILE)"),
                "\(noKey.stderr)")
            let wrongKey = try Reliability.runSift(["search"] + store + ["--key-file", otherKey.path, secret])
            #expect(wrongKey.status == 1 && wrongKey.stderr.contains("wrong key for this protected index"), "\(wrongKey.stderr)")
            let missing = try Reliability.runSift(["search"] + store + ["--key-file", temporary.path("nope.key").path, secret])
            #expect(missing.status == 1 && missing.stderr.contains("nope.key: the key file does not exist"), "\(missing.stderr)")

            var leaked = Set<String>()
            for file in try temporary.allFileContents() where file.name.hasPrefix("index.sqlite") {
                leaked.formUnion(Reliability.occurrences(of: [secret], in: file.bytes))
            }
            #expect(leaked.isEmpty)
        }
    }
}
