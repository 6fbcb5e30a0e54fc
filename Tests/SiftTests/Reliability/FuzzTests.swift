import Foundation
import Testing

@testable import Sift

/// A seeded generator and mutator of hostile inputs, in the manner of libFuzzer's mutators:
/// bit flips, random and "interesting" bytes, deleted, duplicated and spliced ranges, and
/// dictionary tokens that reach the parsers' corner cases.
struct Mutator {
    var rng: SeededGenerator

    static let interestingBytes: [UInt8] = [
        0x00, 0x01, 0x0A, 0x0D, 0x1F, 0x20, 0x22, 0x27, 0x2C, 0x2D, 0x3A, 0x5B, 0x5C, 0x5D, 0x7B, 0x7D, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xE0,
        0xED, 0xF0, 0xF4, 0xF5, 0xFE, 0xFF,
    ]

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    /// `input` changed by one to `maximumSteps` random mutations, no longer than `limit` bytes.
    mutating func mutate(_ input: [UInt8], dictionary: [[UInt8]] = [], maximumSteps: Int = 4, limit: Int = 1 << 20) -> [UInt8] {
        var bytes = input
        for _ in 0..<rng.int(1..<(maximumSteps + 1)) {
            switch rng.int(0..<9) {
            case 0 where !bytes.isEmpty:
                bytes[rng.int(0..<bytes.count)] ^= UInt8(1) << UInt8(rng.int(0..<8))
            case 1 where !bytes.isEmpty:
                bytes[rng.int(0..<bytes.count)] = UInt8(truncatingIfNeeded: rng.next())
            case 2:
                bytes.insert(rng.pick(Self.interestingBytes), at: rng.int(0..<(bytes.count + 1)))
            case 3 where !bytes.isEmpty:
                let start = rng.int(0..<bytes.count)
                bytes.removeSubrange(start..<min(bytes.count, start + rng.int(1..<16)))
            case 4 where !bytes.isEmpty:
                let start = rng.int(0..<bytes.count)
                let piece = Array(bytes[start..<min(bytes.count, start + rng.int(1..<64))])
                bytes.insert(contentsOf: piece, at: rng.int(0..<(bytes.count + 1)))
            case 5 where !dictionary.isEmpty:
                bytes.insert(contentsOf: rng.pick(dictionary), at: rng.int(0..<(bytes.count + 1)))
            case 6 where !dictionary.isEmpty && !bytes.isEmpty:
                let start = rng.int(0..<bytes.count)
                let token = rng.pick(dictionary)
                bytes.replaceSubrange(start..<min(bytes.count, start + token.count), with: token)
            case 7 where !bytes.isEmpty:
                bytes.removeLast(rng.int(0..<(bytes.count + 1)))
            case 8 where bytes.count >= 4:
                // A little-endian integer field set to an extreme.
                let at = rng.int(0..<(bytes.count - 3))
                let value: UInt32 = rng.pick([0, 1, 0x7F, 0x80, 0xFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF])
                withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(at..<(at + 4), with: $0) }
            default:
                break
            }
        }
        return bytes.count > limit ? Array(bytes.prefix(limit)) : bytes
    }

    /// A string of random Unicode scalars: letters of several scripts, digits, punctuation,
    /// emoji, combining marks, controls and NUL.
    mutating func garbage(_ count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            let range: ClosedRange<UInt32> = rng.pick([
                0x00...0x1F, 0x20...0x7E, 0x7F...0x9F, 0xA0...0x24F, 0x300...0x36F, 0x400...0x4FF, 0x600...0x6FF, 0x3040...0x30FF,
                0x4E00...0x4E80, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0xFE00...0xFE0F, 0xE0000...0xE007F, 0xFFF0...0xFFFD,
            ])
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &rng)) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}

extension Reliability {
    /// Fuzzing: every parser and loader gets a seeded stream of generated and mutated inputs.
    /// None may crash or hang, and every rejection must say what is wrong.
    ///
    /// `SIFT_FUZZ_ITERATIONS` sets the count per target (a short run by default; `make fuzz`
    /// runs 100,000 per target, more than 400,000 inputs in all).
    @Suite("Fuzzing the JSONL reader, query parser, search, model and store loaders")
    struct FuzzTests {
        static let iterations = Reliability.count("SIFT_FUZZ_ITERATIONS", default: 3_000)

        // MARK: JSONL reader

        static let jsonDictionary: [[UInt8]] = [
            "\"id\":", "\"title\":", "\"content\":", "\"keywords\":", "\"date\":", "\"expires\":", "\"rankingHint\":",
            "\"private\":", "\"hidden\":", "\"url\":", "\"displayName\":", "\"domain\":", "null", "true", "false",
            "1e999", "-1e999", "123456789012345678901234567890", "-0", "0.5e-400", "NaN", "\\u0000", "\\ud800", "\\udfff\\ud800",
            "\\\"", "\\\\", "[]", "{}", "[[[[", "]]]]", "2026-11-30", "2026-02-30T25:61:61Z", "9999-12-31T23:59:59.999999999+14:00",
            "\u{FEFF}", "\u{0}", "\n", "\r\n", "😤", "é", "\u{301}",
        ].map { Array($0.utf8) }

        /// A line that is mostly right, from the item schema with random values and types.
        static func jsonLine(_ rng: inout SeededGenerator, _ mutator: inout Mutator) -> [UInt8] {
            func value() -> String {
                switch rng.int(0..<12) {
                case 0:
                    return
                        "\"\(mutator.garbage(rng.int(0..<20)).replacingOccurrences(of: "\\", with: "").replacingOccurrences(of: "\"", with: ""))\""
                case 1: return "\(rng.int(-1000..<1000))"
                case 2: return rng.pick(["1e999", "-1e-999", "123456789012345678901234567890123", "0.1", "100", "100.4", "-0"])
                case 3: return rng.pick(["true", "false", "null"])
                case 4: return "[\"a\", 1, null]"
                case 5: return "{\"nested\": {\"deeper\": [1, 2, {}]}}"
                case 6: return "\"2026-11-\(rng.int(0..<40))\""
                case 7: return "\"" + String(repeating: "word ", count: rng.pick([10, 1000, 10_000])) + "\""
                case 8:
                    return String(repeating: "[", count: rng.pick([100, 1000, 10_000]))
                        + String(repeating: "]", count: rng.pick([0, 100, 1000, 10_000]))
                case 9: return "\"\\ud83d\\ude24 \\u00e9 \\u0000\""
                default: return "\"\(rng.pick(["café", "русский", "Work — stressful! 😤", "a b c", ""]))\""
                }
            }
            let keys = [
                "id", "domain", "title", "content", "keywords", "date", "expires", "url", "rankingHint", "displayName", "private", "hidden",
                "extra",
            ]
            var fields: [String] = []
            if rng.chance(0.8) { fields.append("\"id\": " + (rng.chance(0.7) ? "\"item-\(rng.int(0..<100))\"" : value())) }
            for _ in 0..<rng.int(0..<8) { fields.append("\"\(rng.pick(keys))\": \(value())") }
            fields.shuffle(using: &rng)
            return Array(("{" + fields.joined(separator: ", ") + "}").utf8)
        }

        @Test("The JSONL reader survives generated and mutated lines and names every rejection")
        func jsonlReader() throws {
            var rng = SeededGenerator(seed: 101)
            var mutator = Mutator(seed: 102)
            let reader = JSONLItemReader(source: "fuzz.jsonl")
            var accepted = 0
            var rejected = 0
            for i in 0..<Self.iterations {
                var line = Self.jsonLine(&rng, &mutator)
                if rng.chance(0.6) { line = mutator.mutate(line, dictionary: Self.jsonDictionary) }
                switch reader.parse(Data(line), line: i + 1) {
                case .success(let item):
                    accepted += 1
                    #expect(!item.id.rawValue.isEmpty)
                    #expect(item.rankingHint.map { (0...100).contains($0) } ?? true)
                case .failure(let error):
                    rejected += 1
                    #expect(error.line == i + 1 && error.source == "fuzz.jsonl")
                    #expect(!error.reason.isEmpty && error.description.hasPrefix("fuzz.jsonl:\(i + 1): "))
                }
                // Now and then a whole file: lines joined with stray separators and bytes.
                if i % 50 == 0 {
                    var file: [UInt8] = []
                    for _ in 0..<rng.int(1..<20) {
                        file += mutator.mutate(Self.jsonLine(&rng, &mutator), dictionary: Self.jsonDictionary, maximumSteps: 2)
                        file += rng.pick([[0x0A], [0x0D, 0x0A], [0x0A, 0x0A], [0x00, 0x0A]])
                    }
                    var last = 0
                    reader.read(Data(file)) { number, result in
                        #expect(number > last)
                        last = number
                        if case .failure(let error) = result { #expect(!error.reason.isEmpty) }
                    }
                }
            }
            print("fuzz jsonl: \(Self.iterations) lines, \(accepted) accepted, \(rejected) rejected with a reason")
            #expect(accepted > 0 && rejected > 0)
        }

        // MARK: Query parser and search

        static let datePhrases = [
            "today", "yesterday", "this week", "last week", "last week's", "this month", "last month", "this year", "last year",
            "last 7 days", "past 9999 days", "previous 12 years", "last twelve months", "since Monday", "since March", "in March",
            "in March 2025", "on 2026-11-30", "before 2026-01-01", "after Nov 30th, 2026", "between March and May",
            "from 2026-11-01 to 2026-11-03", "from 9999-12-31 until 0001-01-01", "February 29", "30 February", "0000-00-00",
            "9999-99-99", "last Sunday", "during the last 3 weeks", "in the past year", "expenses", "recipe's", "journal days",
            "'s", "’s", "the", "and", "&", "since", "between", "from", "last", "past 0 days", "last 99999 days",
        ]

        static let nows: [Date] = [
            Date(timeIntervalSince1970: 1_796_212_800), Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -62_135_596_800),
            Date(timeIntervalSince1970: 253_402_300_799), Date.distantPast, Date.distantFuture,
            Date(timeIntervalSince1970: 1_709_164_800),  // 2024-02-29
        ]

        /// A hostile query: date phrases spliced with garbage, emoji only, punctuation only, NUL
        /// bytes, invalid UTF-8 repaired by decoding, or 10,000 words.
        static func query(_ rng: inout SeededGenerator, _ mutator: inout Mutator) -> String {
            // One query in a hundred is 10,000 words long.
            if rng.chance(0.01) {
                return (0..<10_000).map { _ in
                    rng.pick(["word", "last", "week", "since", "in", "march", "2026-11-30", "expenses", "the", "😤"])
                }.joined(separator: " ")
            }
            switch rng.int(0..<9) {
            case 0: return ""
            case 1: return String((0..<rng.int(1..<50)).map { _ in rng.pick(Array("!?.,;:'\"()[]{}-—–…/\\|@#$%^&*_+=<>~`’‘“”«»")) })
            case 2: return (0..<rng.int(1..<30)).map { _ in rng.pick(["😤", "👩‍👩‍👧", "🏳️‍🌈", "🇫🇷", "❤️", "🔥", "\u{FE0F}", "\u{200D}"]) }.joined()
            case 3: return "last\u{0}week\u{0}\u{0}expenses" + String(repeating: "\u{0}", count: rng.int(0..<5))
            case 4:
                return String(
                    decoding: mutator.mutate(Array(rng.pick(datePhrases).utf8), dictionary: [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80]]),
                    as: UTF8.self)
            default:
                var parts: [String] = []
                for _ in 0..<rng.int(1..<8) {
                    parts.append(rng.chance(0.5) ? rng.pick(datePhrases) : mutator.garbage(rng.int(0..<12)))
                }
                return parts.joined(separator: rng.pick([" ", "", "  ", "\t", "\u{0}", "\n", " and "]))
            }
        }

        @Test("The query parser takes any text at any date without failing")
        func queryParser() {
            var rng = SeededGenerator(seed: 201)
            var mutator = Mutator(seed: 202)
            let parser = QueryParser(domains: [
                DomainName(identifier: "expense", displayName: "Expenses"),
                DomainName(identifier: "streakDay", displayName: "Journal days"), DomainName(identifier: "recipe"),
            ])
            var withDates = 0
            for _ in 0..<Self.iterations {
                let text = Self.query(&rng, &mutator)
                let parsed = parser.parse(text, now: rng.pick(Self.nows))
                if let range = parsed.dateRange {
                    withDates += 1
                    #expect(!(range.start?.timeIntervalSince1970.isNaN ?? false) && !(range.end?.timeIntervalSince1970.isNaN ?? false))
                }
                #expect(parsed.text.unicodeScalars.count <= text.unicodeScalars.count)
                #expect(parsed.domains == parsed.domains.sorted())
            }
            #expect(withDates > 0)
        }

        @Test("Search answers any query, limit, mode and filter on a small index")
        func search() async throws {
            var rng = SeededGenerator(seed: 301)
            var mutator = Mutator(seed: 302)
            let clock = TestClock()
            let index = try SearchIndex(configuration: .init(directory: nil, embedder: FakeEmbedder(), clock: clock.function))
            var items: [SearchableItem] = []
            for n in 0..<60 {
                var item = noteItem(
                    "i\(n)", "\(rng.pick(["weekly", "expenses", "march", "sunday", "coffee"])) \(mutator.garbage(3))",
                    content: mutator.garbage(20), domain: rng.pick(["expense", "recipe", "streakDay"]))
                item.date = rng.pick(Array(Self.nows.prefix(4))).addingTimeInterval(Double(rng.int(-100_000_000..<100_000_000)))
                if rng.chance(0.1) { item.expires = clock.now.addingTimeInterval(Double(rng.int(-1000..<1000))) }
                item.displayName = rng.chance(0.3) ? "Expenses" : nil
                items.append(item)
            }
            try await index.upsert(items)
            let known = Set(items.map(\.id))
            let count = max(200, Self.iterations / 10)
            for _ in 0..<count {
                var query = SearchQuery(
                    Self.query(&rng, &mutator), limit: rng.pick([-5, 0, 1, 10, 2000]), mode: rng.pick(SearchMode.allCases))
                query.domains = rng.chance(0.2) ? [rng.pick(["expense", "recipe", "nothing", ""])] : []
                query.since = rng.chance(0.2) ? rng.pick(Self.nows) : nil
                query.until = rng.chance(0.2) ? rng.pick(Self.nows) : nil
                query.now = rng.chance(0.3) ? rng.pick(Self.nows) : nil
                query.explain = rng.chance(0.3)
                query.prefixLastTerm = rng.chance(0.5)
                query.understandsPhrases = rng.chance(0.8)
                query.snippets = rng.chance(0.5)
                let (results, _) = try await index.search(query)
                #expect(results.count <= max(0, min(query.limit, 1000)))
                #expect(results.allSatisfy { known.contains($0.id) && !$0.score.isNaN })
                #expect(Set(results.map(\.id)).count == results.count)
                for snippet in results.compactMap(\.snippet) { expectValid(snippet) }
            }
            try await index.checkInvariants()
        }

        // MARK: Model loader

        @Test("The model loader rejects every damaged model file with a message naming it, or loads a usable model")
        func modelLoader() throws {
            let temporary = try TemporaryDirectory("sift-fuzz-model")
            var rng = SeededGenerator(seed: 401)
            var mutator = Mutator(seed: 402)
            var weightsRNG = SeededGenerator(seed: 403)
            var filter = FeatureFilter(log2Bits: 10, probes: 2)
            for w in ["stress", "work"] { filter.insert(NGramFeaturizer.hash(kind: .word, bytes: Array(w.utf8))) }
            // Plain, full precision, and with a vocabulary filter and unknown-word signatures.
            let featurizers = [
                NGramFeaturizer(bucketBits: 5, stopWords: ["the", "a"]), NGramFeaturizer(bucketBits: 5, stopWords: ["the", "a"]),
                NGramFeaturizer(bucketBits: 5, stopWords: ["the", "a"], vocabulary: filter, unknownWordSignature: 4),
            ]
            let models = zip(featurizers, [true, false, true]).map { featurizer, quantized in
                HashedNGramEmbedder(
                    featurizer: featurizer, dimension: 8,
                    weights: (0..<(32 * 8)).map { _ in Float(weightsRNG.int(-100..<100)) / 100 }, quantized: quantized, name: "fuzz")
            }
            let originals = models.map { $0.fileContents() }
            let file = temporary.path("fuzz.siftmodel")
            let count = max(200, Self.iterations / 10)
            var loaded = 0
            var rejected = 0
            for _ in 0..<count {
                var bytes = rng.pick(originals)
                // Mutate the header mostly, where the fields are; then, half the time, repair the
                // checksum so the mutation reaches the checks behind it.
                if rng.chance(0.7) {
                    let header = Array(bytes.prefix(ModelFileFormat.headerLength))
                    var mutated = mutator.mutate(header, maximumSteps: 3)
                    // Same length, so every section stays where the header says it is.
                    if mutated.count < header.count { mutated += [UInt8](repeating: 0, count: header.count - mutated.count) }
                    bytes.replaceSubrange(0..<header.count, with: mutated.prefix(header.count))
                } else {
                    bytes = mutator.mutate(bytes, maximumSteps: 3)
                }
                if rng.chance(0.5), bytes.count >= ModelFileFormat.checksumOffset + 8, bytes.count % 8 == 0 {
                    let sum = bytes.withUnsafeBytes { ModelFileFormat.checksum($0) }
                    withUnsafeBytes(of: sum.littleEndian) {
                        bytes.replaceSubrange(ModelFileFormat.checksumOffset..<(ModelFileFormat.checksumOffset + 8), with: $0)
                    }
                }
                try Data(bytes).write(to: file)
                do {
                    let model = try HashedNGramEmbedder(contentsOf: file)
                    loaded += 1
                    for text in ["stress at work", "café 😤", ""] {
                        #expect(model.embed(text).count == model.dimension)
                    }
                } catch {
                    rejected += 1
                    #expect(error.description.contains(file.path) && error.description.count > file.path.count + 10, "\(error)")
                }
            }
            print("fuzz model loader: \(count) files, \(loaded) loaded, \(rejected) rejected with a message")
            #expect(rejected > 0)
        }

        // MARK: Store loader

        @Test("Item and donation records decode or are rejected with a reason, whatever their bytes")
        func recordDecoding() {
            var rng = SeededGenerator(seed: 501)
            var mutator = Mutator(seed: 502)
            var seeds: [[UInt8]] = []
            for n in 0..<20 {
                var item = noteItem(
                    "r\(n)", mutator.garbage(5), content: mutator.garbage(30), keywords: [mutator.garbage(4), "tea"],
                    date: rng.chance(0.5) ? Date(timeIntervalSince1970: 1e9) : nil)
                item.url = rng.chance(0.5) ? "https://x.app/\(n)" : nil
                item.rankingHint = rng.chance(0.5) ? rng.int(0..<101) : nil
                item.displayName = rng.chance(0.5) ? "Notes" : nil
                seeds.append(
                    StoredItem(item: item, vector: rng.chance(0.5) ? (0..<8).map { Float($0) / 3 } : nil).encoded(
                        halfVector: rng.chance(0.5)))
            }
            let donationSeeds = (0..<5).map {
                Donation(
                    intent: "open\($0)", itemID: ItemID("r\($0)"), surface: $0 % 2 == 0 ? "search" : nil,
                    date: Date(timeIntervalSince1970: 1e9)
                ).encoded()
            }
            var decoded = 0
            var rejected = 0
            for _ in 0..<Self.iterations {
                // Half the mutants get their checksum recomputed, so the decoder behind it is fuzzed too.
                let mutant = mutator.mutate(rng.pick(seeds), maximumSteps: 3)
                let bytes = rng.chance(0.5) ? RecordChecksum.resealed(mutant) : mutant
                do {
                    _ = try StoredItem(decoding: bytes)
                    decoded += 1
                } catch {
                    rejected += 1
                    #expect(!"\(error)".isEmpty)
                }
                do {
                    let donation = mutator.mutate(rng.pick(donationSeeds), maximumSteps: 2)
                    _ = try Donation(decoding: rng.chance(0.5) ? RecordChecksum.resealed(donation) : donation)
                } catch {
                    #expect(!"\(error)".isEmpty)
                }
            }
            #expect(decoded > 0 && rejected > 0)
        }

        @Test("An index whose stored payloads were corrupted opens cleanly or names the damaged record")
        func storeLoader() async throws {
            var rng = SeededGenerator(seed: 601)
            var mutator = Mutator(seed: 602)
            let temporary = try TemporaryDirectory("sift-fuzz-store")
            let pristine = temporary.path("pristine")
            do {
                let index = try SearchIndex(configuration: .init(directory: pristine, embedder: FakeEmbedder()))
                try await index.upsert(
                    (0..<8).map { noteItem("s\($0)", "tea number \($0)", content: "green tea with lemon", keywords: ["tea"]) })
                try await index.donate(intent: "open", itemIDs: ["s1", "s2"])
            }
            let original = try Data(contentsOf: pristine.appendingPathComponent(Store.fileName))
            let count = max(30, Self.iterations / 100)
            var opened = 0
            var refused = 0
            for trial in 0..<count {
                let directory = temporary.path("trial-\(trial)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let file = directory.appendingPathComponent(Store.fileName)
                try original.write(to: file)
                do {
                    let db = try SQLiteDatabase(path: file.path)
                    let table = rng.chance(0.75) ? "items" : "donations"
                    let keyColumn = table == "items" ? "key" : "seq"
                    var rows: [(SQLValue, [UInt8])] = []
                    try db.query("SELECT \(keyColumn), payload FROM \(table)") { row in
                        rows.append((table == "items" ? .blob(row.blob(0)) : .integer(row.int(0)), row.blob(1)))
                    }
                    let (key, payload) = rng.pick(rows)
                    try db.query(
                        "UPDATE \(table) SET payload = ? WHERE \(keyColumn) = ?", [.blob(mutator.mutate(payload, maximumSteps: 3)), key])
                }
                do {
                    let index = try SearchIndex(configuration: .init(directory: directory, embedder: FakeEmbedder()))
                    opened += 1
                    _ = try await index.search("tea")
                    try await index.checkInvariants()
                } catch let error as StoreError {
                    refused += 1
                    #expect(
                        error.path == file.path && error.message.contains("cannot be read") && error.message.contains("damaged"), "\(error)"
                    )
                }
                try? FileManager.default.removeItem(at: directory)
            }
            print("fuzz store loader: \(count) corrupted stores, \(opened) opened, \(refused) refused naming the record")
            #expect(refused > 0)
        }
    }
}
