import Foundation

/// The split of work over the cores: the one place Sift calls `DispatchQueue.concurrentPerform`.
///
/// GCD hands the iterations out as threads free up, the calling thread included, and returns
/// when all are done; a core busy elsewhere delays at most the iteration it holds. The bodies
/// given here are not `@Sendable`: each caller promises that its iterations touch disjoint
/// memory (each writes only its own rows, results or worker), and this file is where that
/// promise is taken on trust (`nonisolated(unsafe)`), so the call sites need no unsafe captures.
/// How a loop is cut is the caller's decision and never depends on timing, so a result that is
/// a pure function of each iteration is the same, bit for bit, as that of a serial loop.
enum Parallel {
    /// Below this many elements ``map(count:makeWorker:finishWorker:_:)`` runs on the calling
    /// thread alone.
    static let minimumCount = 32

    /// The cores this process may use.
    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// `body(i)` for every `i` in `0..<iterations`, concurrently when there are two or more
    /// (one iteration runs on the calling thread; none runs nothing).
    static func forEach(iterations: Int, _ body: (Int) -> Void) {
        guard iterations > 1 else {
            if iterations == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            // Each iteration touches only its own part of what `body` captures (see above).
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: iterations) { body($0) }
        }
    }

    /// `body` on consecutive chunks of `0..<count`, each `chunkSize` long but the last (which
    /// is shorter when `chunkSize` does not divide `count`), concurrently when there are two or
    /// more. Chunk `c` is `c · chunkSize ..< min(count, (c + 1) · chunkSize)`.
    static func forEachChunk(count: Int, chunkSize: Int, _ body: (Range<Int>) -> Void) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        let chunks = (count + chunkSize - 1) / chunkSize
        forEach(iterations: chunks) { c in
            body((c * chunkSize)..<min(count, (c + 1) * chunkSize))
        }
    }

    /// `body` on `chunks` consecutive, near-equal chunks of `0..<count`: chunk `c` is
    /// `count · c / chunks ..< count · (c + 1) / chunks` (an empty one when `count < chunks`).
    static func forEachChunk(count: Int, chunks: Int, _ body: (_ chunk: Int, _ range: Range<Int>) -> Void) {
        forEach(iterations: chunks) { c in
            body(c, (count * c / chunks)..<(count * (c + 1) / chunks))
        }
    }

    /// `transform(&worker, i)` for every i in `0..<count`, in order. The range is cut into a few
    /// chunks per core; each chunk gets its own worker state from `makeWorker` (made and, after
    /// the loop, handed to `finishWorker` on the calling thread, in chunk order) and runs on
    /// one thread. With a `transform` that depends only on `i` (and on worker state that
    /// cannot change its result, such as a cache), the result is that of a serial loop.
    static func map<Worker, T>(
        count: Int, makeWorker: () -> Worker, finishWorker: (Worker) -> Void,
        _ transform: (inout Worker, Int) -> T
    ) -> [T] {
        guard count > 0 else { return [] }
        return mapChunks(count: count, makeWorker: makeWorker, finishWorker: finishWorker, transform, alongside: nil)
    }

    /// ``map(count:makeWorker:finishWorker:_:)``, with `alongside` run at the same time on a
    /// thread of its own (so that the cores stay with the map): it reads the results in order
    /// through `element(i)`, which waits until the chunk holding `i` is done. For work that
    /// must follow the results one by one on one thread and mostly waits (writing them to a
    /// file, say): it overlaps the map instead of following it. `alongside` sees exactly the
    /// results the map returns, so its outcome is that of a loop after the map.
    static func map<Worker, T, R>(
        count: Int, makeWorker: () -> Worker, finishWorker: (Worker) -> Void,
        _ transform: (inout Worker, Int) -> T,
        alongside: (_ element: (Int) -> T) -> R
    ) -> (results: [T], alongside: R) {
        guard count > 0 else { return ([], alongside { _ in preconditionFailure("no elements") }) }
        var outcome: R?
        let results = withoutActuallyEscaping(alongside) { alongside in
            mapChunks(count: count, makeWorker: makeWorker, finishWorker: finishWorker, transform) { element in
                outcome = alongside(element)
            }
        }
        return (results, outcome!)
    }

    private static func mapChunks<Worker, T>(
        count: Int, makeWorker: () -> Worker, finishWorker: (Worker) -> Void,
        _ transform: (inout Worker, Int) -> T,
        alongside: ((_ element: (Int) -> T) -> Void)?
    ) -> [T] {
        let cores = Self.cores
        let chunks = count < minimumCount || cores < 2 ? 1 : min(cores * 4, count / (minimumCount / 2))
        var workers = (0..<chunks).map { _ in makeWorker() }
        let progress = ChunkProgress(count: count, chunks: chunks)
        let result = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            workers.withUnsafeMutableBufferPointer { workers in
                // Each chunk writes only its own results and its own worker; `alongside` reads
                // a result only once its chunk is marked done (under the progress lock).
                let results = buffer.baseAddress!
                let workers = workers.baseAddress!
                let helper = alongside.map { alongside in
                    ChunkProgress.start {
                        alongside { i in
                            progress.wait(for: i)
                            return results[i]
                        }
                    }
                }
                forEachChunk(count: count, chunks: chunks) { c, range in
                    for i in range {
                        (results + i).initialize(to: transform(&workers[c], i))
                    }
                    progress.finish(chunk: c)
                }
                helper?.wait()
            }
            initialized = count
        }
        for w in workers { finishWorker(w) }
        return result
    }
}

/// Which chunks of a ``Parallel`` map are done, for the thread that reads the results alongside.
private final class ChunkProgress: @unchecked Sendable {
    // `done` is read and written only under `condition`'s lock.
    private let condition = NSCondition()
    private var done: [Bool]
    private let count: Int

    init(count: Int, chunks: Int) {
        self.count = count
        done = [Bool](repeating: false, count: chunks)
    }

    /// The first element of chunk `c` in ``Parallel/forEachChunk(count:chunks:_:)``'s cut.
    private func start(of c: Int) -> Int { count * c / done.count }

    func finish(chunk: Int) {
        condition.lock()
        done[chunk] = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the chunk holding element `i` is done.
    func wait(for i: Int) {
        precondition(i >= 0 && i < count, "element index out of range")
        var c = min(done.count - 1, i * done.count / count)
        while c + 1 < done.count && start(of: c + 1) <= i { c += 1 }
        while start(of: c) > i { c -= 1 }
        condition.lock()
        while !done[c] { condition.wait() }
        condition.unlock()
    }

    /// Runs `body` on a thread of its own; the semaphore returned is signalled when it has
    /// returned and been released (so that nothing it captured outlives the wait).
    static func start(_ body: @escaping () -> Void) -> DispatchSemaphore {
        let job = Job(body)
        Thread { job.run() }.start()
        return job.finished
    }

    private final class Job: @unchecked Sendable {
        // The caller waits on `finished` before anything `body` captures is used again, and
        // meanwhile shares with it only what is read under a ChunkProgress lock.
        private var body: (() -> Void)?
        let finished = DispatchSemaphore(value: 0)

        init(_ body: @escaping () -> Void) { self.body = body }

        func run() {
            body?()
            body = nil
            finished.signal()
        }
    }
}
