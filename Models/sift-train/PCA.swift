import CBLAS
import CLAPACKE
import Foundation

/// Principal components of the teacher space (LAPACKE_ssyevd on the covariance from cblas_ssyrk).
struct PCA {
    var inputDimension: Int
    var outputDimension: Int
    var mean: [Float]  // zeros when not centred
    var components: [Float]  // inputDimension × outputDimension, row-major (column k = component k)
    var eigenvalues: [Float]  // all, descending
    var explained: Double  // share of the total variance kept

    /// - Parameters: rows: n × d row-major. `center`: subtract the mean (covariance) or not
    ///   (second-moment matrix, which keeps the common direction).
    init(rows: [Float], count n: Int, dimension d: Int, keep k: Int, center: Bool) throws {
        var mean = [Float](repeating: 0, count: d)
        if center {
            var acc = [Double](repeating: 0, count: d)
            for i in 0..<n { for j in 0..<d { acc[j] += Double(rows[i * d + j]) } }
            for j in 0..<d { mean[j] = Float(acc[j] / Double(n)) }
        }
        var c = [Float](repeating: 0, count: d * d)
        rows.withUnsafeBufferPointer { x in
            cblas_ssyrk(
                CblasRowMajor, CblasUpper, CblasTrans, Int32(d), Int32(n),
                1 / Float(n), x.baseAddress, Int32(d), 0, &c, Int32(d))
        }
        for i in 0..<d { for j in i..<d { c[i * d + j] -= mean[i] * mean[j] } }
        var w = [Float](repeating: 0, count: d)
        let info = LAPACKE_ssyevd(
            LAPACK_ROW_MAJOR, Int8(UInt8(ascii: "V")), Int8(UInt8(ascii: "U")),
            Int32(d), &c, Int32(d), &w)
        guard info == 0 else { throw TrainError("LAPACKE_ssyevd failed: info \(info)") }
        // Ascending → take the last k columns, largest first; fix each sign (largest |x| positive).
        var comps = [Float](repeating: 0, count: d * k)
        for o in 0..<k {
            let col = d - 1 - o
            var big: Float = 0
            for i in 0..<d where abs(c[i * d + col]) > abs(big) { big = c[i * d + col] }
            let sign: Float = big < 0 ? -1 : 1
            for i in 0..<d { comps[i * k + o] = sign * c[i * d + col] }
        }
        let total = w.reduce(0.0) { $0 + Double(max($1, 0)) }
        let kept = w.suffix(k).reduce(0.0) { $0 + Double(max($1, 0)) }
        self.inputDimension = d
        self.outputDimension = k
        self.mean = mean
        self.components = comps
        self.eigenvalues = w.reversed()
        self.explained = total > 0 ? kept / total : 0
    }

    /// Partial whitening: the factor `(λ_k / λ_1)^(−power/2)` of each kept component k, 1 for the
    /// first; power 0 leaves the components as they are, 1 gives each the first's variance. A
    /// student fitted to targets scaled so (each output dimension is its own least-squares
    /// problem) is the unscaled student with its table's columns scaled so.
    func whiteningScales(power: Float) -> [Float] {
        let top = max(eigenvalues[0], .leastNormalMagnitude)
        return eigenvalues.prefix(outputDimension).map { pow(max($0, .leastNormalMagnitude) / top, -power / 2) }
    }

    /// (rows − mean) × components: n × outputDimension.
    func project(_ rows: [Float], count n: Int) -> [Float] {
        let d = inputDimension
        let k = outputDimension
        var centred = rows
        if mean.contains(where: { $0 != 0 }) {
            for i in 0..<n { for j in 0..<d { centred[i * d + j] -= mean[j] } }
        }
        var out = [Float](repeating: 0, count: n * k)
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(n), Int32(k), Int32(d),
            1, centred, Int32(d), components, Int32(k), 0, &out, Int32(k))
        return out
    }
}
