import Foundation

/// How a ``VectorIndex`` keeps its rows in memory.
package enum VectorPrecision: String, Sendable, CaseIterable {
    /// 4 bytes a component: the vectors as the embedder made them.
    case float32
    /// 2 bytes a component (IEEE binary16, rounded to nearest): half the memory and half the
    /// bytes a scan reads; a unit vector's components keep 11 significant bits, so cosines move
    /// by about 10⁻⁴. Measured against `.float32` (Benchmarks/RESULTS.md): SciFact test and
    /// train and Cranfield nDCG@10 identical in keyword and hybrid mode, and in semantic mode
    /// except SciFact test (0.5017 → 0.5028); 7 of SciFact's 300 hybrid top-10 lists change.
    /// The default of ``SearchIndex/Configuration``.
    case float16

    var bytesPerComponent: Int { self == .float32 ? 4 : 2 }
}
