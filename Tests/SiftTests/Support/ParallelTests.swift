import CSiftKernels
import Foundation
import Testing

@testable import Sift

/// Counts visits per index from several threads at once.
private final class VisitCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int]
    private var ranges: [Range<Int>] = []
    init(_ count: Int) { counts = Array(repeating: 0, count: count) }
    func visit(_ i: Int) { lock.withLock { counts[i] += 1 } }
    func visit(_ range: Range<Int>) {
        lock.withLock {
            ranges.append(range)
            for i in range { counts[i] += 1 }
        }
    }
    var visits: [Int] { lock.withLock { counts } }
    var chunkRanges: [Range<Int>] { lock.withLock { ranges.sorted { $0.lowerBound < $1.lowerBound } } }
}

@Suite("Parallel: the split of work over the cores")
struct ParallelTests {
    @Test("forEach visits every iteration exactly once", arguments: [0, 1, 2, 3, 17, 1000])
    func forEachVisitsOnce(iterations: Int) {
        let counter = VisitCounter(iterations)
        Parallel.forEach(iterations: iterations) { counter.visit($0) }
        #expect(counter.visits == Array(repeating: 1, count: iterations))
    }

    @Test(
        "forEachChunk(chunkSize:) cuts consecutive chunks of that size, the last one shorter",
        arguments: [(0, 4), (1, 4), (4, 4), (10, 4), (12, 4), (1000, 7), (5, 100)])
    func fixedChunks(count: Int, chunkSize: Int) {
        let counter = VisitCounter(count)
        Parallel.forEachChunk(count: count, chunkSize: chunkSize) { counter.visit($0) }
        #expect(counter.visits == Array(repeating: 1, count: count))
        let expected = stride(from: 0, to: count, by: chunkSize).map { $0..<min(count, $0 + chunkSize) }
        #expect(counter.chunkRanges == expected)
    }

    @Test(
        "forEachChunk(chunks:) cuts near-equal consecutive chunks, chunk c at count·c/chunks",
        arguments: [(0, 1), (10, 1), (10, 3), (100, 8), (3, 8), (1001, 16)])
    func evenChunks(count: Int, chunks: Int) {
        let counter = VisitCounter(count)
        let seen = VisitCounter(chunks)
        Parallel.forEachChunk(count: count, chunks: chunks) { c, range in
            #expect(range == (count * c / chunks)..<(count * (c + 1) / chunks))
            seen.visit(c)
            for i in range { counter.visit(i) }
        }
        #expect(counter.visits == Array(repeating: 1, count: count))
        #expect(seen.visits == Array(repeating: 1, count: chunks))
    }

    static func value(_ i: Int) -> Double { Double(i) * 0.1 + 1 / Double(i + 1) }

    @Test("map gives the serial loop's result, and every worker is finished once, in order")
    func mapMatchesSerial() {
        for count in [0, 1, 31, 32, 33, 1000, 10_007] {
            var finished: [Int] = []
            var made = 0
            let result = Parallel.map(
                count: count,
                makeWorker: { () -> Int in
                    made += 1
                    return made - 1
                },
                finishWorker: { finished.append($0) }
            ) { (_: inout Int, i: Int) -> Double in Self.value(i) }
            let serial: [Double] = (0..<count).map(Self.value)
            #expect(result == serial)
            #expect(finished == Array(0..<made))
        }
    }

    @Test("map consuming in order hands every chunk over once, in order, one at a time, each after it is made")
    func mapConsumingInOrder() {
        for count in [0, 1, 31, 33, 1000, 10_007] {
            for round in 0..<20 {
                var consumed: [Range<Int>] = []
                var values: [Double] = []
                let inside = UnsafeMutablePointer<Int64>.allocate(capacity: 1)
                inside.initialize(to: 0)
                defer { inside.deallocate() }
                let result = Parallel.map(
                    count: count, makeWorker: { 0 }, finishWorker: { _ in },
                    { (_: inout Int, i: Int) -> Double in
                        // Uneven work, so that chunks finish out of order.
                        if (i + round) % 97 == 0 { for _ in 0..<(i % 5) * 2_000 { sift_spin_pause() } }
                        return Self.value(i)
                    },
                    consumingInOrder: { range, chunk in
                        // Never two at once.
                        #expect(sift_atomic_fetch_add(inside, 1) == 0)
                        consumed.append(range)
                        values.append(contentsOf: chunk)
                        #expect(sift_atomic_fetch_add(inside, -1) == 1)
                    })
                let serial: [Double] = (0..<count).map(Self.value)
                #expect(result == serial)
                #expect(values == serial, "count \(count), round \(round)")
                #expect(consumed.first?.lowerBound ?? 0 == 0 && consumed.last?.upperBound ?? 0 == count)
                #expect(zip(consumed, consumed.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound && !$0.isEmpty })
            }
        }
    }

    @Test("The worker pool runs every iteration of job after job exactly once, also after its workers went to sleep")
    func poolJobsInARow() {
        for round in 0..<300 {
            let count = 1 + round % 37
            let counter = VisitCounter(count)
            if round % 100 == 99 { Thread.sleep(forTimeInterval: 0.005) }  // past the spin: the workers sleep
            Parallel.forEach(iterations: count) { counter.visit($0) }
            #expect(counter.visits == Array(repeating: 1, count: count), "round \(round)")
        }
    }

    @Test("A split inside a split, or from two threads at once, still visits every iteration once")
    func poolNestedAndConcurrent() async {
        let outer = VisitCounter(8 * 50)
        Parallel.forEach(iterations: 8) { o in
            // The pool is busy with the outer loop: the inner one runs without it.
            Parallel.forEach(iterations: 50) { outer.visit(o * 50 + $0) }
        }
        #expect(outer.visits == Array(repeating: 1, count: 400))
        let counters = (0..<4).map { _ in VisitCounter(2_000) }
        await withTaskGroup(of: Void.self) { group in
            for c in counters {
                group.addTask {
                    for _ in 0..<5 { Parallel.forEachChunk(count: 400, chunks: 16) { _, range in for i in range { c.visit(i) } } }
                    for i in 400..<2_000 { c.visit(i) }
                }
            }
        }
        for c in counters { #expect(c.visits == Array(repeating: 5, count: 400) + Array(repeating: 1, count: 1_600)) }
    }
}
