import Foundation

/// Which halves of the index rank a query.
public enum SearchMode: String, Sendable, CaseIterable {
    /// BM25F alone.
    case keyword
    /// Cosine similarity of embeddings alone.
    case semantic
    /// Both, fused (the default).
    case hybrid
}
