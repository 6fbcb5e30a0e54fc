import CSiftKernels
import Foundation

/// The threads under ``Parallel``: one fewer than the cores, each spinning a moment for the
/// next job before it sleeps, the calling thread working beside them.
///
/// Why not `DispatchQueue.concurrentPerform` alone: a query splits its work a few times in
/// about a millisecond (the vector scan beside the keyword walk, then the exact re-scoring),
/// and on a virtual machine whose idle core halts, waking a sleeping worker took longer than
/// the work it was woken for. With a busy loop on the other core as a stand-in for a worker
/// that had not gone to sleep, hybrid p50 at 100k went 1.25–1.38 → 1.14–1.25 ms (paired,
/// `sift-bench --profile-queries`); with this pool, 0.93–1.03 → 0.84–0.96 ms. A worker here
/// spins for ``spinNanoseconds`` after each job (as OpenMP runtimes and OpenBLAS keep their
/// threads awake a while), yielding its core to any other thread that is ready to run, then
/// sleeps on a condition until the next.
///
/// One job at a time: a call that finds the pool busy (a nested call, or another thread's
/// query) gets `false`, and ``Parallel`` runs it on `concurrentPerform` instead, with the same
/// results.
final class WorkerPool: @unchecked Sendable {
    /// The pool of this process: ``Parallel/cores`` − 1 workers, started at first use.
    static let shared = WorkerPool(workers: Parallel.cores - 1)

    /// How long a worker waits awake for the next job: the gap between a query's parallel
    /// steps, and between queries typed or sent in a burst.
    static let spinNanoseconds: UInt64 = 500_000

    /// A value of ``next`` that no claim reaches: the job is closed.
    private static let closed = Int64.max / 2

    let workers: Int
    /// Shared words (sequentially consistent, `sift_atomic_*`): the job's generation, its
    /// next unclaimed iteration, how many are finished, how many there are, whether a caller
    /// holds the pool, how many workers sleep.
    private let words: UnsafeMutablePointer<Int64>
    private var generation: UnsafeMutablePointer<Int64> { words }
    private var next: UnsafeMutablePointer<Int64> { words + 1 }
    private var finished: UnsafeMutablePointer<Int64> { words + 2 }
    private var iterations: UnsafeMutablePointer<Int64> { words + 3 }
    private var busy: UnsafeMutablePointer<Int64> { words + 4 }
    private var sleepers: UnsafeMutablePointer<Int64> { words + 5 }
    /// The job's body: written only while no iteration can be claimed (``next`` closed), read
    /// only by a thread that has claimed one.
    nonisolated(unsafe) private var body: ((Int) -> Void)?
    private let wake = NSCondition()

    private init(workers: Int) {
        self.workers = max(0, workers)
        words = .allocate(capacity: 8)
        words.initialize(repeating: 0, count: 8)
        sift_atomic_store(words + 1, Self.closed)
        for w in 0..<self.workers {
            let thread = Thread { [self] in work() }
            thread.name = "sift-worker-\(w)"
            thread.start()
        }
    }

    /// `body(i)` for every `i` in `0..<count`, on the calling thread and the workers; returns
    /// once all are done. `false` (and nothing run) when there are no workers or the pool is
    /// busy with another job.
    func run(iterations count: Int, _ body: (Int) -> Void) -> Bool {
        guard workers > 0, count > 0, sift_atomic_compare_exchange(busy, 0, 1) != 0 else { return false }
        withoutActuallyEscaping(body) { body in
            self.body = body
            sift_atomic_store(finished, 0)
            sift_atomic_store(iterations, Int64(count))
            sift_atomic_store(next, 0)
            sift_atomic_fetch_add(generation, 1)
            if sift_atomic_load(sleepers) > 0 {
                wake.lock()
                wake.broadcast()
                wake.unlock()
            }
            drain()
            while sift_atomic_load(finished) < Int64(count) { Self.pause() }
            // Every iteration was claimed and has returned: no thread holds `body` now.
            sift_atomic_store(next, Self.closed)
            self.body = nil
        }
        sift_atomic_store(busy, 0)
        return true
    }

    /// Claims and runs iterations of the current job until none is left.
    private func drain() {
        while true {
            let i = sift_atomic_fetch_add(next, 1)
            guard i < sift_atomic_load(iterations) else { return }
            perform(Int(i))
            sift_atomic_fetch_add(finished, 1)
        }
    }

    /// One iteration; the reference to `body` ends with this call, before it counts as finished.
    @inline(never)
    private func perform(_ i: Int) {
        body!(i)
    }

    /// A moment's wait in a spin: the CPU's pause hint, then the core to any other thread
    /// that is ready to run on it (the spin keeps a core only while nothing else wants it).
    static func pause() {
        for _ in 0..<8 { sift_spin_pause() }
        sched_yield()
    }

    /// A worker: spins for a new generation, sleeps when none comes, works on each.
    private func work() {
        // Generation 0 is the pool's start: a job posted before this thread ran is still new.
        var seen: Int64 = 0
        while true {
            let start = DispatchTime.now().uptimeNanoseconds
            var current = sift_atomic_load(generation)
            while current == seen && DispatchTime.now().uptimeNanoseconds &- start < Self.spinNanoseconds {
                Self.pause()
                current = sift_atomic_load(generation)
            }
            if current == seen {
                wake.lock()
                sift_atomic_fetch_add(sleepers, 1)
                while sift_atomic_load(generation) == seen { wake.wait() }
                sift_atomic_fetch_add(sleepers, -1)
                wake.unlock()
                current = sift_atomic_load(generation)
            }
            seen = current
            drain()
        }
    }
}
