import Foundation

/// Each term's part in a document's keyword score, for `--explain`.
extension KeywordIndex {
    /// One term's part in a document's score, for `--explain`.
    package struct TermExplanation: Sendable, Equatable {
        package var term: String
        package var idf: Float
        /// How many times the query says the term, and the weight that gives its idf.
        package var queryFrequency = 1
        package var queryWeight: Float = 1
        /// Raw term frequency per field (title, keywords, content).
        package var frequencies: [Int]
        /// Weighted, length-normalised frequency per field.
        package var fieldParts: [Float]
        package var score: Float
    }

    /// Every term's contribution to the score of `row`.
    package func explain(_ query: [QueryTerm], row: Int32) -> [TermExplanation] {
        let averages = averageLengths
        let k1 = parameters.k1
        var result: [TermExplanation] = []
        for qt in query {
            var best: TermExplanation?
            for t in qt.terms {
                guard let id = termIDs[t], let posting = postings.withList(Int(id), { $0.first { $0.row == row } }) else { continue }
                let p = frequencies(posting, term: id)
                let df = postings.count(of: Int(id))
                let idf = self.idf(documentFrequency: df)
                let len = fieldLengths[Int(row)]
                let w = parameters.weights
                let b = parameters.b
                let parts: [Float] = [
                    p.0 > 0 ? w[0] * Float(p.0) / Self.lengthNorm(len.0, b: b[0], average: averages.0) : 0,
                    p.1 > 0 ? w[1] * Float(p.1) / Self.lengthNorm(len.1, b: b[1], average: averages.1) : 0,
                    p.2 > 0 ? w[2] * Float(p.2) / Self.lengthNorm(len.2, b: b[2], average: averages.2) : 0,
                ]
                let tf = pseudoFrequency(p, row: row, averages: averages)
                var e = TermExplanation(
                    term: t, idf: idf, frequencies: [Int(p.0), Int(p.1), Int(p.2)],
                    fieldParts: parts, score: qt.weight * idf * tf * (k1 + 1) / (k1 + tf))
                e.queryFrequency = qt.count
                e.queryWeight = qt.weight
                if qt.isPrefix {
                    if best == nil || e.score > best!.score { best = e }
                } else {
                    result.append(e)
                }
            }
            if let best { result.append(best) }
        }
        return result
    }
}
