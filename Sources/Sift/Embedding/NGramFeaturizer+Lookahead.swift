extension NGramFeaturizer {
    /// How many terms, and bytes of them, ``forEachHashedTerm(in:_:)`` holds back.
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
    @inline(__always)
    package func forEachFeature(
        in text: String, termWeight: (UnsafeBufferPointer<UInt8>) -> Float, _ body: (Int, Float, Kind) -> Void
    ) {
        var previousWeight: Float = 1
        forEachHashedTerm(in: text) { term, unigram, bigram in
            give(term, unigram, bigram, &previousWeight, termWeight, body)
        }
    }

    /// Calls `body(term, unigramHash, bigramHash)` for each term of `text` in order
    /// (``forEachTerm(in:_:)``), with the hash of its unigram (``unigramHash(_:)``) and of the
    /// bigram it closes (nil for the first term, or without bigrams), whether or not the
    /// vocabulary filter holds them.
    ///
    /// Terms are taken up to ``heldTerms`` ahead of the one given: taking a term hashes its
    /// unigram and the bigram it closes and asks for the vocabulary filter's words for both
    /// (``FeatureFilter/prefetch(_:)``), so that the look-ups, made when the term's turn comes,
    /// find them in cache. Only the timing differs from taking the terms one by one.
    @inline(__always)
    package func forEachHashedTerm(
        in text: String, _ body: (UnsafeBufferPointer<UInt8>, UInt64, UInt64?) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.heldBytes) { bytes in
            withUnsafeTemporaryAllocation(of: HeldTerm.self, capacity: Self.heldTerms) { held in
                // The window's state is passed `inout` (not captured by nested functions), so
                // that its accesses are checked statically.
                var window = Window()
                forEachTerm(in: text) { term in
                    if window.count == Self.heldTerms || window.usedBytes + term.count > Self.heldBytes {
                        giveHeld(&window, bytes, held, body)
                    }
                    let unigram = Self.unigramHash(term)
                    let bigram = usesBigrams ? window.prefix.map { Self.bigramHash(prefix: $0, second: term) } : nil
                    if usesBigrams { window.prefix = bigramPrefix(term) }
                    if hasVocabulary {
                        filter.prefetch(unigram)
                        if let bigram { filter.prefetch(bigram) }
                    }
                    if term.count > Self.heldBytes {
                        // Too long to hold (nothing is held now).
                        body(term, unigram, bigram)
                        return
                    }
                    let start = window.usedBytes
                    _ = UnsafeMutableBufferPointer(rebasing: bytes[start..<(start + term.count)]).update(fromContentsOf: term)
                    held[window.count] = HeldTerm(start: start, count: term.count, unigram: unigram, bigram: bigram)
                    window.count += 1
                    window.usedBytes += term.count
                }
                giveHeld(&window, bytes, held, body)
            }
        }
    }

    /// What ``forEachHashedTerm(in:_:)`` holds between terms.
    private struct Window {
        /// Terms held, and bytes of them.
        var count = 0
        var usedBytes = 0
        /// The bigram prefix of the last term taken.
        var prefix: UInt64? = nil
    }

    /// Gives every held term, in order, and empties the window.
    @inline(__always)
    private func giveHeld(
        _ window: inout Window, _ bytes: UnsafeMutableBufferPointer<UInt8>, _ held: UnsafeMutableBufferPointer<HeldTerm>,
        _ body: (UnsafeBufferPointer<UInt8>, UInt64, UInt64?) -> Void
    ) {
        for i in 0..<window.count {
            let t = held[i]
            body(UnsafeBufferPointer(rebasing: bytes[t.start..<(t.start + t.count)]), t.unigram, t.bigram)
        }
        window.count = 0
        window.usedBytes = 0
    }

    /// Gives one term's features (its unigram and n-grams, then the bigram it closes), weighted by
    /// `termWeight(term)`; `previousWeight` is the last given term's weight, and becomes this one's.
    @inline(__always)
    private func give(
        _ term: UnsafeBufferPointer<UInt8>, _ unigram: UInt64, _ bigram: UInt64?, _ previousWeight: inout Float,
        _ termWeight: (UnsafeBufferPointer<UInt8>) -> Float, _ body: (Int, Float, Kind) -> Void
    ) {
        let w = termWeight(term)
        forEachTermFeature(of: term, unigramHash: unigram) { bucket, weight, kind in
            body(bucket, w == 1 ? weight : weight * w, kind)
        }
        if let b = bigramFeature(bigram, weight: w, previousWeight: previousWeight) { body(b.bucket, b.weight, .bigram) }
        previousWeight = w
    }

    /// The bucket and weight of the bigram whose hash is `bigram`, closed by a term of weight
    /// `weight` after one of `previousWeight` (the geometric mean of the two, times
    /// ``bigramWeight``); nil without a bigram or when the vocabulary filter leaves it out.
    @inline(__always)
    func bigramFeature(_ bigram: UInt64?, weight w: Float, previousWeight: Float) -> (bucket: Int, weight: Float)? {
        guard let bigram, !hasVocabulary || filter.contains(bigram) else { return nil }
        let pair = previousWeight == 1 && w == 1 ? 1 : (previousWeight * w).squareRoot()
        return (bucket(ofHash: bigram), bigramWeight * pair)
    }
}
