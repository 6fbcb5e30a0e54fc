extension NGramFeaturizer {
    /// How many terms, and bytes of them, ``forEachFeature(in:termWeight:_:)`` holds back.
    static let heldTerms = 16
    static let heldBytes = 512

    /// A term taken from the text whose features are not given yet: where its bytes are held,
    /// and the hashes whose filter words were asked for when it was taken.
    private struct HeldTerm {
        var start: Int
        var count: Int
        var unigram: UInt64
        /// The hash of the bigram this term closes, if there is one.
        var bigram: UInt64?
    }

    /// The features of ``forEachFeature(in:_:)`` in the same order, each term's (its unigram
    /// and character n-grams) multiplied by `termWeight(term)` and each bigram by the geometric
    /// mean of its two terms' weights. With every weight 1 the weights are the same bits.
    ///
    /// Terms are taken up to ``heldTerms`` ahead of the one whose features are given: taking a
    /// term hashes its unigram and the bigram it closes and asks for the vocabulary filter's
    /// words for both (``FeatureFilter/prefetch(_:)``), so that the look-ups, made when the term's
    /// turn comes, find them in cache. Only the timing differs from taking the terms one by one:
    /// the same features, weights and order, and `termWeight` is called in the terms' order.
    @inline(__always)
    package func forEachFeature(
        in text: String, termWeight: (UnsafeBufferPointer<UInt8>) -> Float, _ body: (Int, Float, Kind) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.heldBytes) { bytes in
            withUnsafeTemporaryAllocation(of: HeldTerm.self, capacity: Self.heldTerms) { held in
                var count = 0
                var usedBytes = 0
                var prefix: UInt64? = nil  // the bigram prefix of the last term taken
                var previousWeight: Float = 1  // the weight of the last term given
                func give(_ term: UnsafeBufferPointer<UInt8>, _ unigram: UInt64, _ bigram: UInt64?) {
                    let w = termWeight(term)
                    forEachTermFeature(of: term, unigramHash: unigram) { bucket, weight, kind in
                        body(bucket, w == 1 ? weight : weight * w, kind)
                    }
                    if let bigram, vocabulary?.contains(bigram) ?? true {
                        let pair = previousWeight == 1 && w == 1 ? 1 : (previousWeight * w).squareRoot()
                        body(bucket(ofHash: bigram), bigramWeight * pair, .bigram)
                    }
                    previousWeight = w
                }
                func giveHeld() {
                    for i in 0..<count {
                        let t = held[i]
                        give(UnsafeBufferPointer(rebasing: bytes[t.start..<(t.start + t.count)]), t.unigram, t.bigram)
                    }
                    count = 0
                    usedBytes = 0
                }
                forEachTerm(in: text) { term in
                    if count == Self.heldTerms || usedBytes + term.count > Self.heldBytes { giveHeld() }
                    let unigram = Self.unigramHash(term)
                    let bigram = usesBigrams ? prefix.map { Self.bigramHash(prefix: $0, second: term) } : nil
                    if usesBigrams { prefix = bigramPrefix(term) }
                    if let vocabulary {
                        vocabulary.prefetch(unigram)
                        if let bigram { vocabulary.prefetch(bigram) }
                    }
                    if term.count > Self.heldBytes {
                        give(term, unigram, bigram)  // too long to hold (nothing is held now)
                        return
                    }
                    _ = UnsafeMutableBufferPointer(rebasing: bytes[usedBytes..<(usedBytes + term.count)])
                        .update(fromContentsOf: term)
                    held[count] = HeldTerm(start: usedBytes, count: term.count, unigram: unigram, bigram: bigram)
                    count += 1
                    usedBytes += term.count
                }
                giveHeld()
            }
        }
    }
}
