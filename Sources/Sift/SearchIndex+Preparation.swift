import Foundation

/// An item ready to be committed and projected: what the store keeps (the item and its vector)
/// and the keyword index's analysis of it.
struct PreparedItem: Sendable {
    var stored: StoredItem
    var analysis: AnalyzedDocument
}

extension IndexState {
    /// Analyses `items` for the keyword index and embeds those for which `needsVector` says so,
    /// spread over the cores in chunks, each chunk with its own analyser and scratch space.
    /// Every item is handled on its own by pure functions, so the result is the same, bit for
    /// bit, as one item after another (`Tests/SiftTests/Index/PreparationTests.swift`).
    /// The stems the analysers learn are added to the keyword index's memo.
    /// - Complexity: O(Σ text + e · features · dimension) for e embedded items, divided by the
    ///   number of cores.
    mutating func prepare(
        _ items: [StoredItem], embedder: (any Embedder)?, titleWeight: Float, needsVector: @escaping @Sendable (StoredItem) -> Bool
    ) -> [PreparedItem] {
        var analysers: [TermAnalyzer] = []
        let prepared = Parallel.map(
            count: items.count,
            makeWorker: { keyword.makeTermAnalyzer() },
            finishWorker: { analysers.append($0) }
        ) { (analyser: inout TermAnalyzer, i: Int) -> PreparedItem in
            var stored = items[i]
            if let embedder, needsVector(stored) {
                stored.vector = embedder.embed(item: stored.item, titleWeight: titleWeight)
            }
            return PreparedItem(stored: stored, analysis: analyser.analyze(stored.item))
        }
        for i in analysers.indices { keyword.learnStems(analysers[i].takeLearnedStems()) }
        return prepared
    }

    /// Projects a prepared item.
    mutating func project(_ prepared: PreparedItem) {
        project(prepared.stored, analysis: prepared.analysis)
    }
}

/// Data-parallel loops over the cores (`DispatchQueue.concurrentPerform`).
enum Parallel {
    /// Below this many elements a loop runs on the calling thread alone.
    static let minimumCount = 32

    /// `transform(&worker, i)` for every i in `0..<count`, in order. The range is cut into a few
    /// chunks per core; each chunk gets its own worker state from `makeWorker` (made and, after
    /// the loop, handed to `finishWorker` on the calling thread, in chunk order) and runs on
    /// one thread. With a `transform` that depends only on `i` (and on worker state that
    /// cannot change its result, such as a cache), the result is that of a serial loop.
    static func map<Worker, T>(
        count: Int, makeWorker: () -> Worker, finishWorker: (Worker) -> Void,
        _ transform: @escaping @Sendable (inout Worker, Int) -> T
    ) -> [T] {
        guard count > 0 else { return [] }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let chunks = count < minimumCount || cores < 2 ? 1 : min(cores * 4, count / (minimumCount / 2))
        var workers = (0..<chunks).map { _ in makeWorker() }
        let result = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            workers.withUnsafeMutableBufferPointer { workers in
                // Each chunk writes only its own results and its own worker.
                nonisolated(unsafe) let results = buffer.baseAddress!
                nonisolated(unsafe) let workers = workers.baseAddress!
                let run: @Sendable (Int) -> Void = { c in
                    for i in (count * c / chunks)..<(count * (c + 1) / chunks) {
                        (results + i).initialize(to: transform(&workers[c], i))
                    }
                }
                if chunks == 1 { run(0) } else { DispatchQueue.concurrentPerform(iterations: chunks, execute: run) }
            }
            initialized = count
        }
        for w in workers { finishWorker(w) }
        return result
    }
}
