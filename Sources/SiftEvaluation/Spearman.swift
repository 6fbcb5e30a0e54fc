/// Rank correlation, as used by the STS and word-similarity benchmarks.
package enum Spearman {
    /// Ranks of `values` from 1 (smallest), ties sharing the average of their ranks.
    /// - Complexity: O(n log n).
    package static func averageRanks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] || (values[$0] == values[$1] && $0 < $1) }
        var ranks = [Double](repeating: 0, count: values.count)
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count && values[order[j + 1]] == values[order[i]] { j += 1 }
            let average = Double(i + j) / 2 + 1
            for k in i...j { ranks[order[k]] = average }
            i = j + 1
        }
        return ranks
    }

    /// Spearman's ρ of two equally long samples: Pearson's correlation of their average ranks.
    /// NaN when there are fewer than two pairs or one side is constant.
    /// - Complexity: O(n log n).
    package static func correlation(_ x: [Double], _ y: [Double]) -> Double {
        precondition(x.count == y.count, "samples must have the same length")
        guard x.count >= 2 else { return .nan }
        return pearson(averageRanks(x), averageRanks(y))
    }

    /// Pearson's correlation coefficient; NaN when either side is constant.
    package static func pearson(_ x: [Double], _ y: [Double]) -> Double {
        let n = Double(x.count)
        let mx = x.reduce(0, +) / n
        let my = y.reduce(0, +) / n
        var sxy = 0.0
        var sxx = 0.0
        var syy = 0.0
        for i in x.indices {
            let dx = x[i] - mx
            let dy = y[i] - my
            sxy += dx * dy
            sxx += dx * dx
            syy += dy * dy
        }
        guard sxx > 0, syy > 0 else { return .nan }
        return sxy / (sxx * syy).squareRoot()
    }
}
