import Foundation

/// What a quantized copy of the vectors codes: each row's leading `components`, at `bits` bits a
/// code (8 or 4).
package struct QuantizedCoding: Sendable, Equatable {
    package var components: Int
    package var bits: Int

    package init(components: Int, bits: Int) {
        self.components = components
        self.bits = bits
    }

    /// Bytes of codes a row: `components` for int8 codes, half as many for 4-bit ones.
    package var bytesPerRow: Int { bits == 8 ? components : components / 2 }
}

/// A quantized copy of the vector matrix for a faster, approximate scan: each row is scaled by
/// its largest magnitude to ±127 (int8 codes, ``bits`` 8) or to ±7 (4-bit codes, ``bits`` 4, two
/// a byte, as `sift_code_u4` packs them). A quarter (int8) or an eighth (4-bit) of the fp32 bytes
/// stream through the scan; the best candidates are then re-scored exactly against the rows.
///
/// The copy may code only the first ``components`` of each row: for a model whose components
/// are ordered by decreasing variance (the bundled model's are principal components), the dot
/// product over the leading half already ranks the best rows near the top, so a scan of half
/// the bytes nominates them, given more nominees to re-score (``nominees(for:)``).
package struct QuantizedRows: Sendable {
    package let dimension: Int
    /// How many leading components of each row are coded (``dimension`` for all).
    package let components: Int
    /// Bits a code: 8 (int8) or 4 (two codes a byte).
    package let bits: Int
    /// ``bytesPerRow`` bytes of codes a row, row-major (4-bit codes' bytes as their bit patterns).
    internal(set) var codes = RowBuffer<Int8>()
    /// A row's scale: its largest coded magnitude over 127 (0 for a free row).
    internal(set) var scales = RowBuffer<Float>()

    /// - Parameters:
    ///   - components: code only the first `components` of each row (a multiple of 32 below
    ///     `dimension`); nil codes all of them.
    ///   - bits: 8 (int8 codes) or 4 (4-bit codes, for an even number of components).
    package init(dimension: Int, components: Int? = nil, bits: Int = 8) {
        let c = components ?? dimension
        precondition(
            c > 0 && c <= dimension && (c == dimension || c % 32 == 0),
            "the quantized copy codes all components or a multiple of 32 of them")
        precondition(bits == 8 || (bits == 4 && c % 2 == 0), "codes of 8 bits, or of 4 bits for an even number of components")
        self.dimension = dimension
        self.components = c
        self.bits = bits
    }

    /// A copy as a snapshot recorded it: `scales.count` rows of ``bytesPerRow`` bytes of codes each.
    init(dimension: Int, components: Int, bits: Int, codes: RowBuffer<Int8>, scales: RowBuffer<Float>) {
        self.init(dimension: dimension, components: components, bits: bits)
        precondition(codes.count == scales.count * bytesPerRow)
        self.codes = codes
        self.scales = scales
    }

    /// How many rows the scan nominates for exact re-scoring when `wanted` are needed: twice
    /// as many (at least 40) when every component is coded; for a prefix of them, which ranks
    /// less closely, ten times as many (at least 400) beside a hybrid query's keyword matches,
    /// and forty times as many (at least 1,600) when the nominees `alone` make the ranking
    /// (semantic mode). Chosen on the bench corpus's model vectors at 100k rows: with the first
    /// 128 of 256 components of the bundled (partially whitened) model, semantic mode's top 10
    /// agree with the exact path's at 0.973 from 1,000 nominees, 0.984 from 2,000 and 0.996
    /// from 4,000, hybrid mode's at 0.998 from 1,000 (`sift-bench`, `Benchmarks/RESULTS.md`,
    /// "Partial whitening"; `--profile-nominators` shows the nomination alone).
    package func nominees(for wanted: Int, alone: Bool = false) -> Int {
        if components == dimension { return max(wanted * 2, 40) }
        return alone ? max(wanted * 40, 1_600) : max(wanted * 10, 400)
    }

    /// What the copy codes.
    package var coding: QuantizedCoding { QuantizedCoding(components: components, bits: bits) }

    /// Bytes of codes a row (``QuantizedCoding/bytesPerRow``).
    package var bytesPerRow: Int { coding.bytesPerRow }

    /// Rows in the buffer, free ones included.
    package var capacity: Int { scales.count }

    /// Quantises `vector` into `row`. - Complexity: O(components), amortised.
    package mutating func set(row: Int32, vector: [Float]) {
        precondition(vector.count >= components)
        set(row: row, coded: vector.withUnsafeBufferPointer { coding.code($0.baseAddress!) })
    }

    /// Codes the first `components` of `vector` into `codes`, scaled by their largest magnitude to
    /// ±127 (`bits` 8) or ±7 (`bits` 4, two codes a byte); returns the scale (0 for a zero vector,
    /// whose code bytes are all 0, and for one that is not finite — rows a damaged snapshot
    /// decodes before its checksum rejects them).
    @inline(__always)
    static func code(_ vector: UnsafePointer<Float>, components: Int, bits: Int, into codes: UnsafeMutablePointer<Int8>) -> Float {
        bits == 8
            ? LinearAlgebra.codeInt8(vector, count: components, into: codes)
            : LinearAlgebra.codeNibbles(vector, count: components, into: UnsafeMutableRawPointer(codes).assumingMemoryBound(to: UInt8.self))
    }

    /// The copy of `rows` rows at once (a restored index), the same bits as setting them one by
    /// one: `vector(r, buffer)` writes row `r`'s components into a buffer of ``dimension``
    /// floats (zeros for a free row); it is called from several threads, each row once.
    /// - Complexity: O(rows · dimension), over the cores.
    package mutating func restore(rows: Int, vector: (Int, UnsafeMutablePointer<Float>) -> Void) {
        let (components, bits, width) = (self.components, self.bits, bytesPerRow)
        let dimension = self.dimension
        codes = RowBuffer([Int8](repeating: 0, count: rows * width))
        scales = RowBuffer([Float](repeating: 0, count: rows))
        codes.withUnsafeMutableBufferPointer { c in
            scales.withUnsafeMutableBufferPointer { s in
                let chunks = rows < 4096 ? 1 : Parallel.cores * 4
                // Each chunk writes its own rows' codes and scales.
                Parallel.forEachChunk(count: rows, chunks: chunks) { _, range in
                    var v = [Float](repeating: 0, count: dimension)
                    v.withUnsafeMutableBufferPointer { v in
                        for r in range {
                            vector(r, v.baseAddress!)
                            s[r] = Self.code(v.baseAddress!, components: components, bits: bits, into: c.baseAddress! + r * width)
                        }
                    }
                }
            }
        }
    }

    /// Zeroes `row`. - Complexity: O(components).
    package mutating func remove(row: Int32) {
        let r = Int(row)
        guard r < scales.count else { return }
        scales.withUnsafeMutableBufferPointer { $0[r] = 0 }
        let width = bytesPerRow
        codes.withUnsafeMutableBufferPointer { c in
            for j in 0..<width { c[r * width + j] = 0 }
        }
    }

    package mutating func removeAll() {
        codes.removeAll()
        scales.removeAll()
    }

    /// Approximate dot products of `query` with every row (over the coded components), into
    /// `scores[0..<capacity]`.
    /// - Complexity: O(capacity · components) over int8 or 4-bit codes.
    package func approximateScores(for query: [Float], into scores: inout [Float]) {
        scan(query, into: &scores) { rows, coded, chunk in VectorIndex.forEachChunk(rows: rows, bytesPerRow: coded, chunk) }
    }

    /// ``approximateScores(for:into:)`` with `beside` running as one more task on the same
    /// cores: the scan is cut into parts of ``besideChunkBytes`` that the threads take as they
    /// free up, so whichever thread runs `beside` scans less. A hybrid query's keyword walk
    /// runs here, beside its vector scan. Serial (`beside` first) when scans stay on one thread.
    /// - Complexity: O(capacity · components) over int8 or 4-bit codes. and `beside`.
    package func approximateScores(for query: [Float], into scores: inout [Float], beside: () -> Void) {
        guard VectorIndex.splitsScans, Parallel.cores > 1 else {
            beside()
            approximateScores(for: query, into: &scores)
            return
        }
        scan(query, into: &scores) { rows, coded, chunk in
            let perChunk = max(1, Self.besideChunkBytes / max(coded, 1))
            let chunks = (rows + perChunk - 1) / perChunk
            // Task 0 is `beside`; task c + 1 scans chunk c. Each writes only its own.
            Parallel.forEach(iterations: chunks + 1) { task in
                if task == 0 {
                    beside()
                } else {
                    let start = (task - 1) * perChunk
                    chunk(start..<min(rows, start + perChunk))
                }
            }
        }
    }

    /// The bytes of codes in one part of a scan beside other work: small enough that the thread
    /// that ran the other work finds parts left to take.
    static let besideChunkBytes = 1 << 20

    /// The int8 query and the scan of every row, its chunks run by `schedule(rows, bytesPerRow,
    /// chunk)`, which calls `chunk` on disjoint ranges covering `0..<rows`, each once.
    private func scan(
        _ query: [Float], into scores: inout [Float],
        schedule: (_ rows: Int, _ bytesPerRow: Int, _ chunk: @Sendable (Range<Int>) -> Void) -> Void
    ) {
        precondition(query.count == dimension)
        if scores.count < capacity { scores += repeatElement(0, count: capacity - scores.count) }
        let coded = components
        let peak = query[0..<coded].reduce(Float(0)) { max($0, abs($1)) }
        guard peak > 0 else {
            for r in 0..<capacity { scores[r] = 0 }
            schedule(0, bytesPerRow) { _ in }
            return
        }
        let qScale = peak / 127
        var q8 = [Int8](repeating: 0, count: coded)
        for j in 0..<coded { q8[j] = Int8(clamping: Int((query[j] / qScale).rounded())) }
        let rows = capacity
        let (width, bits) = (bytesPerRow, self.bits)
        codes.withUnsafeBufferPointer { c in
            q8.withUnsafeBufferPointer { q in
                scales.withUnsafeBufferPointer { s in
                    scores.withUnsafeMutableBufferPointer { out in
                        let c = SharedPointer(c.baseAddress!)
                        let q = SharedPointer(q.baseAddress!)
                        let s = SharedPointer(s.baseAddress!)
                        let out = SharedPointer(out.baseAddress!)
                        // Exact int32 sums of code · query products, then scaled.
                        schedule(rows, width) { range in
                            if bits == 8 {
                                LinearAlgebra.int8RowDots(
                                    codes: c.pointer + range.lowerBound * width, scales: s.pointer + range.lowerBound,
                                    rows: range.count, columns: coded, query: q.pointer, queryScale: qScale,
                                    into: out.pointer + range.lowerBound)
                            } else {
                                LinearAlgebra.nibbleRowDots(
                                    codes: UnsafeRawPointer(c.pointer + range.lowerBound * width).assumingMemoryBound(to: UInt8.self),
                                    scales: s.pointer + range.lowerBound, rows: range.count, columns: coded, query: q.pointer,
                                    queryScale: qScale, into: out.pointer + range.lowerBound)
                            }
                        }
                    }
                }
            }
        }
    }
}
