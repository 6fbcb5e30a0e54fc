import Foundation
import Testing

@testable import Sift

/// Builds snippets the way a search does, from a keyword index holding the items.
struct SnippetFixture {
    var keyword = KeywordIndex()
    var embedder: (any Embedder)?

    init(_ items: [SearchableItem], embedder: (any Embedder)? = nil) {
        for (row, item) in items.enumerated() { keyword.insert(item, at: Int32(row)) }
        self.embedder = embedder
    }

    /// The snippet of `item` for `query` (its last word a prefix when `typing`).
    func snippet(_ item: SearchableItem, _ query: String, typing: Bool = false, length: Int = 160) -> Snippet? {
        var builder = SnippetBuilder(
            terms: keyword.queryTerms(query, prefixLastTerm: typing), queryText: query, analyzer: keyword.analyzer,
            stemMemo: keyword.stemMemo, embedder: embedder)
        builder.window.length = length
        let snippet = builder.snippet(for: item)
        if let snippet { expectValid(snippet) }
        return snippet
    }
}

/// The snippet of a content alone for `query`.
func snippet(content: String, title: String = "", _ query: String, typing: Bool = false) -> Snippet? {
    let item = SearchableItem(id: "x", title: title, content: content)
    return SnippetFixture([item]).snippet(item, query, typing: typing)
}

/// The highlighted words of `snippet`, in order.
func marked(_ snippet: Snippet?) -> [String] {
    guard let snippet else { return [] }
    let bytes = Array(snippet.text.utf8)
    return snippet.highlights.map { String(decoding: bytes[$0], as: UTF8.self) }
}

/// Every highlight lies inside the text, on Unicode scalar boundaries, ascending and apart,
/// and the `String.Index` ranges agree.
func expectValid(_ snippet: Snippet, sourceLocation: SourceLocation = #_sourceLocation) {
    let bytes = Array(snippet.text.utf8)
    var previous = -1
    for r in snippet.highlights {
        #expect(
            r.lowerBound >= 0 && r.lowerBound < r.upperBound && r.upperBound <= bytes.count, "\(r) in \(bytes.count)",
            sourceLocation: sourceLocation)
        guard r.lowerBound >= 0, r.upperBound <= bytes.count, r.lowerBound < r.upperBound else { continue }
        #expect(r.lowerBound > previous, "overlapping \(snippet.highlights)", sourceLocation: sourceLocation)
        #expect(bytes[r.lowerBound] & 0xC0 != 0x80, "starts inside a scalar", sourceLocation: sourceLocation)
        #expect(r.upperBound == bytes.count || bytes[r.upperBound] & 0xC0 != 0x80, "ends inside a scalar", sourceLocation: sourceLocation)
        previous = r.upperBound
    }
    let ranges = snippet.highlightRanges()
    #expect(ranges.count == snippet.highlights.count, sourceLocation: sourceLocation)
    for (r, i) in zip(snippet.highlights, ranges) {
        #expect(String(snippet.text[i]) == String(decoding: bytes[r], as: UTF8.self), sourceLocation: sourceLocation)
    }
}

/// A fake model in which the words of one group point the same way ("kitten" means "cat"),
/// every other word its own way.
struct SynonymEmbedder: Embedder {
    let base = WordDirectionEmbedder(dimension: 64)
    let groups: [String: String]
    var dimension: Int { base.dimension }
    var fingerprint: String { "test-synonyms" }

    func embed(_ text: String, into output: UnsafeMutableBufferPointer<Float>) {
        let words = Analyzer().terms(text).map { groups[$0] ?? $0 }
        base.embed(words.joined(separator: " "), into: output)
    }
}
