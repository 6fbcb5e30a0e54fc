extension SearchIndex {
    /// `results` with their ``SearchResult/snippet``s: built after ranking, for the returned
    /// results only, from the query's terms (the analysis that matched them) and the searched
    /// text (spelling corrected, for the closest sentence). Scores and order are untouched.
    func withSnippets(_ results: [SearchResult], terms: [KeywordIndex.QueryTerm], searchedText: String) -> [SearchResult] {
        guard !results.isEmpty else { return results }
        var builder = SnippetBuilder(
            terms: terms, queryText: searchedText, analyzer: state.keyword.analyzer, stemMemo: state.keyword.stemMemo,
            embedder: vectors == nil ? nil : configuration.embedder)
        var results = results
        for i in results.indices {
            guard let row = table.row(of: results[i].id), Int(row) < state.items.count, let item = state.items[Int(row)] else { continue }
            results[i].snippet = builder.snippet(for: item)
        }
        return results
    }
}
