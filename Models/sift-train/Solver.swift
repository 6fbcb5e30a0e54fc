import Dispatch
import Foundation

/// Ridge least squares  min Σ_i ||a_i-weighted student(text_i) − sqrt(c_i)·y_i||² + λ||E||²
/// over the bucket table E, by CGLS (conjugate gradients on the normal equations), one
/// independent problem per output dimension. Dimensions are solved in chunks, one chunk per
/// task of `DispatchQueue.concurrentPerform`; each chunk runs sequentially in a fixed order, so
/// the result does not depend on scheduling.
struct CGLSSolver {
    var lambda: Float
    var iterations: Int
    /// Iterations after which a copy of the table is kept (for choosing the iteration count).
    var checkpoints: [Int]
    var chunkWidth: Int

    struct Outcome {
        /// B × D, row-major, at the end of the run.
        var table: [Float]
        /// Iteration → table, for each checkpoint.
        var snapshots: [(iteration: Int, table: [Float])]
        /// Per iteration: data term ||r||², ridge term λ||x||², relative residual.
        var history: [(data: Double, ridge: Double, relative: Double)]
    }

    func solve(_ set: TrainingSet, targets: [Float], dimension d: Int, buckets: Int) -> Outcome {
        let chunks = stride(from: 0, to: d, by: chunkWidth).map { ($0, min($0 + chunkWidth, d)) }
        let table = UnsafeMutableBufferPointer<Float>.allocate(capacity: buckets * d)
        table.initialize(repeating: 0)
        let keep = checkpoints.filter { $0 < iterations }
        let snaps = keep.map { _ in
            let b = UnsafeMutableBufferPointer<Float>.allocate(capacity: buckets * d)
            b.initialize(repeating: 0)
            return b
        }
        let histories = UnsafeMutableBufferPointer<(Double, Double, Double)>.allocate(capacity: chunks.count * iterations)
        histories.initialize(repeating: (0, 0, 0))
        let bNorms = UnsafeMutableBufferPointer<Double>.allocate(capacity: chunks.count)
        let box = UnsafeSendable((table, snaps, histories, bNorms))
        let solver = self
        DispatchQueue.concurrentPerform(iterations: chunks.count) { c in
            let (table, snaps, histories, bNorms) = box.value
            let (lo, hi) = chunks[c]
            solver.solveChunk(
                set, targets: targets, d: d, lo: lo, hi: hi, buckets: buckets,
                table: table, snaps: snaps, keep: keep,
                history: UnsafeMutableBufferPointer(rebasing: histories[(c * iterations)..<((c + 1) * iterations)]),
                bNorm: &bNorms[c])
        }
        let bTotal = bNorms.reduce(0, +)
        var history: [(Double, Double, Double)] = []
        for it in 0..<iterations {
            var data = 0.0
            var ridge = 0.0
            for c in chunks.indices {
                data += histories[c * iterations + it].0
                ridge += histories[c * iterations + it].1
            }
            history.append((data, ridge, data / bTotal))
        }
        let outcome = Outcome(
            table: Array(table),
            snapshots: zip(keep, snaps).map { ($0, Array($1)) },
            history: history.map { (data: $0.0, ridge: $0.1, relative: $0.2) })
        table.deallocate()
        snaps.forEach { $0.deallocate() }
        histories.deallocate()
        bNorms.deallocate()
        return outcome
    }

    // swiftlint:disable:next function_body_length
    private func solveChunk(
        _ set: TrainingSet, targets: [Float], d: Int, lo: Int, hi: Int, buckets: Int,
        table: UnsafeMutableBufferPointer<Float>, snaps: [UnsafeMutableBufferPointer<Float>],
        keep: [Int], history: UnsafeMutableBufferPointer<(Double, Double, Double)>,
        bNorm: inout Double
    ) {
        let w = hi - lo
        let nEx = set.exampleCount
        let nTerms = set.termCount
        let x = Matrix(rows: buckets, width: w)
        let p = Matrix(rows: buckets, width: w)
        let s = Matrix(rows: buckets, width: w)
        let r = Matrix(rows: nEx, width: w)
        let q = Matrix(rows: nEx, width: w)
        let v = Matrix(rows: nTerms, width: w)
        defer { [x, p, s, r, q, v].forEach { $0.free() } }

        // r = b = sqrt(c_i) · y_i[lo..<hi]
        targets.withUnsafeBufferPointer { y in
            for i in 0..<nEx {
                let src = y.baseAddress! + Int(set.exampleTarget[i]) * d + lo
                let dst = r.row(i)
                let k = set.exampleTargetScale[i]
                for j in 0..<w { dst[j] = k * src[j] }
            }
        }
        bNorm = r.columnNorms().reduce(0, +)
        transposeProduct(set, r, into: s, gv: v)  // s = Aᵀ r (x = 0)
        p.copy(from: s)
        var gamma = s.columnNorms()
        var snapIndex = 0
        for it in 0..<iterations {
            product(set, p, into: q, v: v)  // q = A p
            let qn = q.columnNorms()
            let pn = p.columnNorms()
            var alpha = [Float](repeating: 0, count: w)
            for j in 0..<w {
                let delta = qn[j] + Double(lambda) * pn[j]
                alpha[j] = delta > 0 ? Float(gamma[j] / delta) : 0
            }
            x.addScaledColumns(alpha, p)
            r.addScaledColumns(alpha.map { -$0 }, q)
            transposeProduct(set, r, into: s, gv: v)
            s.addScaled(-lambda, x)  // s = Aᵀ r − λ x
            let gammaNew = s.columnNorms()
            var beta = [Float](repeating: 0, count: w)
            for j in 0..<w { beta[j] = gamma[j] > 0 ? Float(gammaNew[j] / gamma[j]) : 0 }
            p.scaleColumnsAndAdd(beta, s)  // p = s + β p
            gamma = gammaNew
            history[it] = (r.columnNorms().reduce(0, +), Double(lambda) * x.columnNorms().reduce(0, +), 0)
            if snapIndex < keep.count && keep[snapIndex] == it + 1 {
                x.store(into: snaps[snapIndex], d: d, lo: lo)
                snapIndex += 1
            }
        }
        x.store(into: table, d: d, lo: lo)
    }

    /// q = A p.
    private func product(_ set: TrainingSet, _ p: Matrix, into q: Matrix, v: Matrix) {
        let w = p.width
        set.termFeatureOffsets.withUnsafeBufferPointer { off in
            set.termFeatureBuckets.withUnsafeBufferPointer { fb in
                set.termFeatureWeights.withUnsafeBufferPointer { fw in
                    for t in 0..<set.termCount {
                        let dst = v.row(t)
                        for j in 0..<w { dst[j] = 0 }
                        for f in Int(off[t])..<Int(off[t + 1]) { axpy(fw[f], p.row(Int(fb[f])), dst, w) }
                    }
                }
            }
        }
        let bw = set.bigramWeight
        set.exampleTermOffsets.withUnsafeBufferPointer { to in
            set.exampleTerms.withUnsafeBufferPointer { terms in
                set.exampleBigramOffsets.withUnsafeBufferPointer { bo in
                    set.exampleBigrams.withUnsafeBufferPointer { bigrams in
                        for i in 0..<set.exampleCount {
                            let dst = q.row(i)
                            for j in 0..<w { dst[j] = 0 }
                            for k in Int(to[i])..<Int(to[i + 1]) { axpy(1, v.row(Int(terms[k])), dst, w) }
                            for k in Int(bo[i])..<Int(bo[i + 1]) { axpy(bw, p.row(Int(bigrams[k])), dst, w) }
                            let a = set.exampleScale[i]
                            for j in 0..<w { dst[j] *= a }
                        }
                    }
                }
            }
        }
    }

    /// s = Aᵀ r.
    private func transposeProduct(_ set: TrainingSet, _ r: Matrix, into s: Matrix, gv: Matrix) {
        let w = r.width
        gv.zero()
        s.zero()
        let bw = set.bigramWeight
        set.exampleTermOffsets.withUnsafeBufferPointer { to in
            set.exampleTerms.withUnsafeBufferPointer { terms in
                set.exampleBigramOffsets.withUnsafeBufferPointer { bo in
                    set.exampleBigrams.withUnsafeBufferPointer { bigrams in
                        for i in 0..<set.exampleCount {
                            let a = set.exampleScale[i]
                            let src = r.row(i)
                            for k in Int(to[i])..<Int(to[i + 1]) { axpy(a, src, gv.row(Int(terms[k])), w) }
                            if bw != 0 {
                                for k in Int(bo[i])..<Int(bo[i + 1]) { axpy(a * bw, src, s.row(Int(bigrams[k])), w) }
                            }
                        }
                    }
                }
            }
        }
        set.termFeatureOffsets.withUnsafeBufferPointer { off in
            set.termFeatureBuckets.withUnsafeBufferPointer { fb in
                set.termFeatureWeights.withUnsafeBufferPointer { fw in
                    for t in 0..<set.termCount {
                        let src = gv.row(t)
                        for f in Int(off[t])..<Int(off[t + 1]) { axpy(fw[f], src, s.row(Int(fb[f])), w) }
                    }
                }
            }
        }
    }
}

@inline(__always)
func axpy(_ a: Float, _ x: UnsafeMutablePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ n: Int) {
    for j in 0..<n { y[j] += a * x[j] }
}

/// A rows × width float matrix in owned memory (freed explicitly).
struct Matrix: @unchecked Sendable {
    let base: UnsafeMutablePointer<Float>
    let rows: Int
    let width: Int
    init(rows: Int, width: Int) {
        self.rows = rows
        self.width = width
        base = .allocate(capacity: max(1, rows * width))
        base.initialize(repeating: 0, count: rows * width)
    }
    func free() { base.deallocate() }
    @inline(__always) func row(_ i: Int) -> UnsafeMutablePointer<Float> { base + i * width }
    func zero() { base.update(repeating: 0, count: rows * width) }
    func copy(from o: Matrix) { base.update(from: o.base, count: rows * width) }
    func columnNorms() -> [Double] {
        var acc = [Double](repeating: 0, count: width)
        var part = [Float](repeating: 0, count: width)
        for i in 0..<rows {
            let r = row(i)
            for j in 0..<width { part[j] += r[j] * r[j] }
            if i % 1024 == 1023 {
                for j in 0..<width {
                    acc[j] += Double(part[j])
                    part[j] = 0
                }
            }
        }
        for j in 0..<width { acc[j] += Double(part[j]) }
        return acc
    }
    /// self[:, j] += a[j] · o[:, j]
    func addScaledColumns(_ a: [Float], _ o: Matrix) {
        a.withUnsafeBufferPointer { a in
            for i in 0..<rows {
                let d = row(i)
                let s = o.row(i)
                for j in 0..<width { d[j] += a[j] * s[j] }
            }
        }
    }
    func addScaled(_ a: Float, _ o: Matrix) {
        for k in 0..<(rows * width) { base[k] += a * o.base[k] }
    }
    /// self[:, j] = o[:, j] + b[j] · self[:, j]
    func scaleColumnsAndAdd(_ b: [Float], _ o: Matrix) {
        b.withUnsafeBufferPointer { b in
            for i in 0..<rows {
                let d = row(i)
                let s = o.row(i)
                for j in 0..<width { d[j] = s[j] + b[j] * d[j] }
            }
        }
    }
    func store(into table: UnsafeMutableBufferPointer<Float>, d: Int, lo: Int) {
        for i in 0..<rows {
            let dst = table.baseAddress! + i * d + lo
            dst.update(from: row(i), count: width)
        }
    }
}

/// Hands raw buffers to concurrent tasks that write disjoint parts of them.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
