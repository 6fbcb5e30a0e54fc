import Foundation
import Testing

@testable import Sift

/// A JSONL file of `count` items, line n holding item `crash-n` whose title carries a word
/// that no other item has, so a search for it finds exactly that item.
private struct CrashCorpus {
    let count: Int
    let file: URL
    /// Each line's title and content joined, the text its vector is made from.
    var embeddingTexts: [String] = []

    static func distinctiveWord(_ n: Int) -> String { "q" + Reliability.word(n, salt: 31) }

    init(count: Int, in directory: TemporaryDirectory) throws {
        self.count = count
        file = directory.path("items.jsonl")
        var rng = SeededGenerator(seed: 2026)
        let vocabulary = (0..<300).map { Reliability.word($0, salt: 32) }
        let domains = ["journal", "recipe", "expense", "trigger"]
        var text = ""
        text.reserveCapacity(count * 220)
        for n in 1...count {
            let content = (0..<rng.int(6..<20)).map { _ in rng.pick(vocabulary) }.joined(separator: " ")
            let title = "\(Self.distinctiveWord(n)) \(rng.pick(vocabulary))"
            embeddingTexts.append(title + " " + content)
            text +=
                "{\"id\":\"crash-\(n)\",\"domain\":\"\(domains[n % 4])\",\"title\":\"\(title)\",\"content\":\"\(content)\",\"date\":\"2026-11-\(10 + n % 19)\"}\n"
        }
        try Data(text.utf8).write(to: file)
    }
}

/// What one trial saw: where the child was killed and what survived.
private struct TrialOutcome: CustomStringConvertible {
    var trial: Int
    var killedAfterBatches: Int
    var delayMicroseconds: Int
    var killed: Bool
    var committedLine: Int
    var description: String {
        "trial \(trial): \(killed ? "killed" : "finished") after \(killedAfterBatches) batch logs + \(delayMicroseconds) µs; committed through line \(committedLine)"
    }
}

extension Reliability {
    /// Crash safety: `sift index` is killed with SIGKILL at random moments (fixed seed) while it
    /// commits batches; every reopened store must be sound and hold exactly the committed batches.
    @Suite("Crash safety: sift index killed with SIGKILL", .serialized)
    struct CrashTests {
        /// Trials, items and batch size: 10 × 3,000 items in batches of 100 in `swift test`;
        /// `make test-crash` sets 50 × 20,000 in batches of 500 through the environment.
        static let trials = Reliability.count("SIFT_CRASH_TRIALS", default: 10)
        static let items = Reliability.count("SIFT_CRASH_ITEMS", default: 3_000)
        static let batchSize = Reliability.count("SIFT_CRASH_BATCH_SIZE", default: 100)

        @Test("After every kill the store is sound and holds exactly the batches committed before it")
        func killedAtRandomMoments() async throws {
            let temporary = try TemporaryDirectory("sift-crash")
            let corpus = try CrashCorpus(count: Self.items, in: temporary)
            let model = Reliability.tinyModel()
            let modelFile = temporary.path("tiny.siftmodel")
            try model.write(to: modelFile)
            let executable = try Reliability.siftExecutable()
            let batches = (Self.items + Self.batchSize - 1) / Self.batchSize
            var rng = SeededGenerator(seed: 0x5EED_C4A5)
            var outcomes: [TrialOutcome] = []

            for trial in 0..<Self.trials {
                let store = temporary.path("store-\(trial)")
                // Kill after a random number of committed batches (0: while still starting and
                // reading the file), then after a random part of the time one batch takes, so
                // kills land anywhere in the cycle — analysis, the transaction, its fsync.
                let afterBatches = rng.int(0..<(batches + 1))
                let fraction = Double(rng.int(0..<1000)) / 1000
                let child = try ChildProcess(
                    executable: executable,
                    arguments: [
                        "index", "--store", store.path, "--index", "crash", "--batch-size", "\(Self.batchSize)",
                        "--model", modelFile.path, "--verbose", corpus.file.path,
                    ],
                    environment: Reliability.childEnvironment())
                var seen = 0
                var lastBatch = ContinuousClock.now
                var batchTime = Duration.milliseconds(150)
                while seen < afterBatches, let line = child.nextErrorLine() {
                    guard line.hasPrefix("sift: batch ") else { continue }
                    let now = ContinuousClock.now
                    if seen > 0 { batchTime = now - lastBatch }
                    lastBatch = now
                    seen += 1
                }
                let delay = Int(
                    fraction * 1.2 * Double(batchTime.components.seconds * 1_000_000 + batchTime.components.attoseconds / 1_000_000_000_000)
                )
                usleep(UInt32(clamping: delay))
                if child.process.isRunning { child.kill() } else { child.wait() }
                let killed = child.process.terminationReason == .uncaughtSignal
                if !killed {
                    #expect(child.process.terminationStatus == 0, "trial \(trial): sift index failed on its own")
                }

                let committed = try await verify(
                    store: store.appendingPathComponent("crash"), corpus: corpus, model: model, rng: &rng, trial: trial)
                outcomes.append(
                    TrialOutcome(
                        trial: trial, killedAfterBatches: afterBatches, delayMicroseconds: delay, killed: killed, committedLine: committed))
                try? FileManager.default.removeItem(at: store)
            }
            let kills = outcomes.filter(\.killed)
            let partial = kills.filter { $0.committedLine > 0 && $0.committedLine < Self.items }
            let inNextBatch = kills.filter { $0.committedLine == min(Self.items, $0.killedAfterBatches * Self.batchSize) }
            print(
                "crash safety: \(outcomes.count) trials, \(kills.count) killed mid-run, \(partial.count) with some but not all batches committed, \(inNextBatch.count) killed before the next batch committed, \(kills.count - inNextBatch.count) after it"
            )
            for outcome in outcomes { print("  \(outcome)") }
            // The seed is fixed, but how far the child gets is not: require only that the kills
            // were real and that some of them landed between the first and the last batch.
            #expect(kills.count >= Self.trials / 2)
            #expect(partial.count >= 1)
        }

        /// Reopens the store and checks it against the corpus; returns the last committed line.
        private func verify(store: URL, corpus: CrashCorpus, model: HashedNGramEmbedder, rng: inout SeededGenerator, trial: Int)
            async throws -> Int
        {
            guard FileManager.default.fileExists(atPath: store.appendingPathComponent(Store.fileName).path) else {
                return 0  // killed before the store was created
            }
            let probes = (0..<6).map { _ in rng.int(1..<(corpus.count + 1)) }
            return try await Self.check(store: store, corpus: corpus, model: model, probes: probes, trial: trial)
        }

        private static func check(store: URL, corpus: CrashCorpus, model: HashedNGramEmbedder, probes: [Int], trial: Int) async throws
            -> Int
        {
            let index = try SearchIndex(configuration: .init(directory: store, embedder: model, titleEmbeddingWeight: 1))
            #expect(try await index.integrityCheck() == "ok", "trial \(trial)")
            try await index.checkInvariants()
            let state = try await index.lastClientState()
            var line = 0
            if let state {
                let parts = state.split(separator: "#")
                #expect(parts.count == 2 && parts[0] == corpus.file.path, "trial \(trial): client state \(state)")
                line = try #require(Int(parts.last ?? ""), "trial \(trial): client state \(state)")
                #expect(line % batchSize == 0 || line == corpus.count, "trial \(trial): \(line) is not the end of a batch")
            }
            // Exactly the items of lines 1…line: no more, no fewer.
            let ids = await index.allItems().map(\.id.rawValue)
            #expect(ids.count == line, "trial \(trial): \(ids.count) items for client state line \(line)")
            #expect(Set(ids) == Set((0..<line).map { "crash-\($0 + 1)" }), "trial \(trial)")
            // Spot checks, by the word only that item has, through the keyword and semantic halves.
            for n in probes {
                let word = CrashCorpus.distinctiveWord(n)
                let found = try await index.search(
                    SearchQuery(word, limit: 3, mode: .keyword, understandsPhrases: false, prefixLastTerm: false)
                ).results.map(\.id.rawValue)
                if n <= line {
                    #expect(found == ["crash-\(n)"], "trial \(trial): committed item \(n) not found by its word")
                    // Its own text has cosine 1 with its vector: first in the semantic half.
                    let semantic = try await index.search(
                        SearchQuery(
                            corpus.embeddingTexts[n - 1], limit: 1, mode: .semantic, understandsPhrases: false, prefixLastTerm: false)
                    ).results.map(\.id.rawValue)
                    #expect(semantic == ["crash-\(n)"], "trial \(trial): committed item \(n) missing from the semantic half")
                } else {
                    #expect(found.isEmpty, "trial \(trial): uncommitted item \(n) is searchable")
                }
            }
            return line
        }
    }
}
