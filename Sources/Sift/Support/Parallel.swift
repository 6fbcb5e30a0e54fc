import CSiftKernels
import Foundation

/// The split of work over the cores, on Sift's ``WorkerPool``.
///
/// The pool hands the iterations out as threads free up, the calling thread included, and
/// returns when all are done; a core busy elsewhere delays at most the iteration it holds. A
/// call that finds the pool busy (nested in another's iteration, or from another thread at the
/// same time) runs on `DispatchQueue.concurrentPerform` instead. The bodies
/// given here are not `@Sendable`: each caller promises that its iterations touch disjoint
/// memory (each writes only its own rows, results or worker), and this file is where that
/// promise is taken on trust (`nonisolated(unsafe)`), so the call sites need no unsafe captures.
/// How a loop is cut is the caller's decision and never depends on timing, so a result that is
/// a pure function of each iteration is the same, bit for bit, as that of a serial loop.
enum Parallel {
    /// Below this many elements ``map(count:makeWorker:finishWorker:_:)`` runs on the calling
    /// thread alone.
    static let minimumCount = 32

    /// The cores this process may use, read once: on Linux `activeProcessorCount` reads the
    /// cgroup's CPU quota files at every call, which cost a hybrid query 4% of its CPU when it
    /// was asked three times a query.
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// `body(i)` for every `i` in `0..<iterations`, concurrently when there are two or more
    /// (one iteration runs on the calling thread; none runs nothing).
    static func forEach(iterations: Int, _ body: (Int) -> Void) {
        guard iterations > 1 else {
            if iterations == 1 { body(0) }
            return
        }
        if WorkerPool.shared.run(iterations: iterations, body) { return }
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

    /// `transform(&worker, i)` for every i in `0..<count`, in order. The range is cut into
    /// chunks, 16 a core; each chunk gets its own worker state from `makeWorker` (made and, after
    /// the loop, handed to `finishWorker` on the calling thread, in chunk order) and runs on
    /// one thread. With a `transform` that depends only on `i` (and on worker state that
    /// cannot change its result, such as a cache), the result is that of a serial loop.
    static func map<Worker, T>(
        count: Int, makeWorker: () -> Worker, finishWorker: (Worker) -> Void,
        _ transform: (inout Worker, Int) -> T
    ) -> [T] {
        map(count: count, makeWorker: makeWorker, finishWorker: finishWorker, transform, consumingInOrder: { _, _ in })
    }

    /// ``map(count:makeWorker:finishWorker:_:)`` that also hands each chunk's results to
    /// `consume`, in chunk order, while later chunks are still being made: a serial step that
    /// needs the results in order (a store's inserts) runs beside the transform instead of after
    /// it. `consume` gets chunk after chunk (`range`, and the results of `range`), never two at
    /// a time, each after its chunk is done, on whichever thread finished that chunk or a later
    /// one (or on the calling thread); it has consumed every chunk when this returns.
    static func map<Worker, T>(
        count: Int, makeWorker: () -> Worker, finishWorker: (Worker) -> Void,
        _ transform: (inout Worker, Int) -> T, consumingInOrder consume: (Range<Int>, UnsafeBufferPointer<T>) -> Void
    ) -> [T] {
        guard count > 0 else { return [] }
        // Fine chunks: the consumer cannot start before the first chunk is done, and the last
        // chunk's consumption and a thread left waiting for the other's last chunk are not
        // overlapped (at 100k items in upserts of 1,000: 4 chunks a core 3.05-3.38 s,
        // 16 a core 2.76-2.90 s to prepare and insert, `sift-bench`).
        let chunks = count < minimumCount || cores < 2 ? 1 : min(cores * 16, count / (minimumCount / 2))
        func range(_ c: Int) -> Range<Int> { (count * c / chunks)..<(count * (c + 1) / chunks) }
        // Shared words: the consumer's lock, the next chunk to consume, then a done flag a chunk.
        let words = UnsafeMutablePointer<Int64>.allocate(capacity: chunks + 2)
        words.initialize(repeating: 0, count: chunks + 2)
        defer { words.deallocate() }
        let (lock, next, done) = (words, words + 1, words + 2)
        var workers = (0..<chunks).map { _ in makeWorker() }
        let result = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let results = UnsafeBufferPointer(buffer)
            /// Consumes the done chunks that come next, unless another thread is consuming
            /// (which looks again after letting go, so no done chunk waits for the end).
            func consumeReady() {
                while sift_atomic_compare_exchange(lock, 0, 1) != 0 {
                    var c = Int(sift_atomic_load(next))
                    while c < chunks && sift_atomic_load(done + c) == 1 {
                        let r = range(c)
                        consume(r, UnsafeBufferPointer(rebasing: results[r]))
                        c += 1
                        sift_atomic_store(next, Int64(c))
                    }
                    sift_atomic_store(lock, 0)
                    // A chunk finished after the last look, and its thread found the lock held.
                    guard c < chunks && sift_atomic_load(done + c) == 1 else { return }
                }
            }
            workers.withUnsafeMutableBufferPointer { workers in
                // Each chunk writes only its own results and its own worker; `consume` runs
                // under the lock, after the release of its chunk's done flag.
                let out = buffer.baseAddress!
                let workers = workers.baseAddress!
                forEach(iterations: chunks) { c in
                    for i in range(c) {
                        (out + i).initialize(to: transform(&workers[c], i))
                    }
                    sift_atomic_store(done + c, 1)
                    consumeReady()
                }
            }
            consumeReady()
            precondition(sift_atomic_load(next) == Int64(chunks), "a chunk was left unconsumed")
            initialized = count
        }
        for w in workers { finishWorker(w) }
        return result
    }
}
