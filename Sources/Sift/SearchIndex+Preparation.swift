import Foundation

/// An item ready to be committed and projected: what the store keeps (the item and its vector)
/// and the keyword index's analysis of it.
/// A class, not a struct: an upsert hands each one from the preparation to the store, into its
/// list of pending changes and on to the projection, and a reference is one count to copy where
/// the struct's dozen strings and arrays were a dozen each time.
final class PreparedItem: Sendable {
    let stored: StoredItem
    let analysis: AnalyzedDocument
    /// The vector as the index's rows and copies keep it, made with the rest of the preparation
    /// (on every core) so that projecting it is a copy; nil without a vector the index takes.
    let coded: VectorIndex.CodedRow?

    init(stored: StoredItem, analysis: AnalyzedDocument, coded: VectorIndex.CodedRow? = nil) {
        self.stored = stored
        self.analysis = analysis
        self.coded = coded
    }
}

extension IndexState {
    /// Analyses `items` for the keyword index and embeds those for which `needsVector` says so,
    /// spread over the cores in chunks, each chunk with its own analyser and scratch space.
    /// Every item is handled on its own by pure functions, so the result is the same, bit for
    /// bit, as one item after another (`Tests/SiftTests/Index/PreparationTests.swift`).
    /// The stems the analysers learn are added to the keyword index's memo. With `consume`, the
    /// prepared items are also handed to it chunk by chunk, in order, while later chunks are
    /// still being prepared (``Parallel/map(count:makeWorker:finishWorker:_:consumingInOrder:)``):
    /// an upsert writes them to the store there, beside the embedding of the rest.
    /// - Complexity: O(Σ text + e · features · dimension) for e embedded items, divided by the
    ///   number of cores.
    mutating func prepare(
        _ items: [StoredItem], embedder: (any Embedder)?, titleWeight: Float, needsVector: @escaping @Sendable (StoredItem) -> Bool,
        consumingInOrder consume: (Range<Int>, UnsafeBufferPointer<PreparedItem>) -> Void = { _, _ in }
    ) -> [PreparedItem] {
        keyword.resolveStemMemo()
        let coder = vectors?.coder
        var analysers: [TermAnalyzer] = []
        let prepared = Parallel.map(
            count: items.count,
            makeWorker: { keyword.makeTermAnalyzer() },
            finishWorker: { analysers.append($0) },
            { (analyser: inout TermAnalyzer, i: Int) -> PreparedItem in
                var stored = items[i]
                if let embedder, needsVector(stored) {
                    stored.vector = embedder.embed(item: stored.item, titleWeight: titleWeight)
                }
                let coded = stored.vector.flatMap { v in coder.flatMap { v.count == $0.dimension ? $0.code(v) : nil } }
                return PreparedItem(stored: stored, analysis: analyser.analyze(stored.item), coded: coded)
            }, consumingInOrder: consume)
        for i in analysers.indices { keyword.learnStems(analysers[i].takeLearnedStems()) }
        return prepared
    }
}
