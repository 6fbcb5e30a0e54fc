import Foundation
import Sift

extension RetrievalEvaluation {
    /// Result of the as-you-type check.
    package struct AsYouTypeReport: Sendable {
        package var documents: Int
        package var found: Int
        package var share: Double { documents > 0 ? Double(found) / Double(documents) : 0 }
    }

    /// For `documents` documents chosen with `seed` among those whose title has at least three
    /// words, queries the first two title words plus the first four letters of the third (as a
    /// user types) and counts how often the document comes back in the top 3.
    package func asYouType(_ dataset: BEIRDataset, documents: Int, seed: UInt64) async throws -> AsYouTypeReport {
        let index = try SearchIndex(configuration: indexConfiguration)
        try await index.upsert(
            dataset.documents.map { SearchableItem(id: ItemID($0.id), domain: "document", title: $0.title, content: $0.text) })
        var eligible = dataset.documents.filter { $0.title.split(whereSeparator: \.isWhitespace).count >= 3 }
        var rng = SplitMix64(seed: seed)
        eligible.shuffle(using: &rng)
        var found = 0
        let chosen = eligible.prefix(documents)
        for doc in chosen {
            let words = doc.title.split(whereSeparator: \.isWhitespace).prefix(3).map(String.init)
            let query = words[0] + " " + words[1] + " " + String(words[2].prefix(4))
            let results = try await index.search(
                SearchQuery(
                    query, limit: 3, mode: mode, understandsPhrases: false, prefixLastTerm: true, snippets: false)
            ).results
            if results.contains(where: { $0.id.rawValue == doc.id }) { found += 1 }
        }
        return AsYouTypeReport(documents: chosen.count, found: found)
    }
}
