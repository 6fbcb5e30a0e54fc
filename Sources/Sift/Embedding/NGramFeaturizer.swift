/// The features of a text for ``HashedNGramEmbedder``, shared by inference and by `sift-train`,
/// so that the model is trained on exactly the features it later sees.
///
/// A text is split into terms by the ``Analyzer`` rules (lower-cased, diacritics folded, split on
/// anything that is not a letter or digit) and the model's stop words are dropped. Each term gives
///   - one **word unigram** (kind byte 1, the term's UTF-8), weight ``wordWeight``;
///   - its **character n-grams** of `minN...maxN` Unicode scalars of `"<" + term + ">"` (kind byte
///     2), each weighted ``charWeight`` / (number of n-grams of that term), so a term's n-grams
///     together weigh `charWeight` whatever its length;
/// and each pair of consecutive terms gives one **word bigram** (kind byte 3, `first + " " +
/// second`), weight ``bigramWeight``. With a ``vocabulary`` filter, a unigram or bigram the model
/// was not trained on is left out (its row would only be another feature's), and a term outside
/// the filter can also get a pseudo-random direction of its own (``unknownWordSignature``).
///
/// Hashing: FNV-1a 64 over the kind byte followed by the feature's UTF-8 bytes, then Fibonacci
/// hashing (multiply by 0x9E3779B97F4A7C15, keep the top `bucketBits` bits) to a bucket.
/// Deterministic across runs and platforms (no `hashValue`).
package struct NGramFeaturizer: Sendable, Equatable {
    /// Kinds of feature; the raw value is the byte hashed before the feature's text.
    package enum Kind: UInt8, Sendable {
        case word = 1
        case charNGram = 2
        case bigram = 3
    }

    /// log2 of the number of buckets (rows of the table).
    package let bucketBits: Int
    /// Shortest and longest character n-gram, in Unicode scalars (boundary marks included);
    /// `maxN == 0` disables character n-grams.
    package let minN: Int
    package let maxN: Int
    /// Whether consecutive terms give bigram features.
    package let usesBigrams: Bool
    /// Weight of a term's unigram row.
    package let wordWeight: Float
    /// Total weight of a term's character n-gram rows (spread evenly over them).
    package let charWeight: Float
    /// Weight of a bigram row.
    package let bigramWeight: Float
    /// Normalised words dropped before features are taken.
    package let stopWords: [String]
    /// The unigrams and bigrams the model was trained on, or nil to use every one.
    package var vocabulary: FeatureFilter? { hasVocabulary ? filter : nil }
    /// The vocabulary filter as the hot paths read it: not optional, so that reading it copies
    /// nothing (an optional bound with `if let` was a copy, retained and released at every
    /// term, on every embedding thread). An empty filter, never read, when there is none.
    let filter: FeatureFilter
    let hasVocabulary: Bool
    /// Character n-grams only for a word the vocabulary filter does not hold (a typo, a word
    /// never seen in training): a known word is its unigram row alone, which is cheaper to
    /// embed. Needs a vocabulary filter; without one every word is unknown.
    package let nGramsOnlyForUnknownWords: Bool
    /// How long the *signature* of a term outside the vocabulary filter is, as a multiple of the
    /// length of the sum of its own rows (its character n-grams); 0 = no signature. The signature
    /// is a direction of the term's own (±1/√D in each component, signs from SplitMix64 seeded by
    /// the term's unigram hash), so an unknown word — a gene, product or person name the model
    /// never saw — matches itself in a cosine the way a keyword does, while its n-grams still
    /// carry what they can of its meaning. Needs a vocabulary filter (without one, every word
    /// would be unknown). `Models/MODEL.md`.
    package let unknownWordSignature: Float
    let stopWordTable: StopWordTable

    package init(
        bucketBits: Int, minN: Int = 3, maxN: Int = 5, usesBigrams: Bool = true,
        wordWeight: Float = 1, charWeight: Float = 1, bigramWeight: Float = 1,
        stopWords: [String] = StopWords.english.sorted(), vocabulary: FeatureFilter? = nil,
        nGramsOnlyForUnknownWords: Bool = false, unknownWordSignature: Float = 0
    ) {
        precondition((1...30).contains(bucketBits), "bucketBits must be in 1...30")
        precondition(maxN == 0 || (2 <= minN && minN <= maxN && maxN <= 16), "bad n-gram range")
        self.bucketBits = bucketBits
        self.minN = minN
        self.maxN = maxN
        self.usesBigrams = usesBigrams
        self.wordWeight = wordWeight
        self.charWeight = charWeight
        self.bigramWeight = bigramWeight
        self.stopWords = stopWords
        self.filter = vocabulary ?? FeatureFilter(log2Bits: 6, probes: 1)
        self.hasVocabulary = vocabulary != nil
        self.nGramsOnlyForUnknownWords = nGramsOnlyForUnknownWords
        precondition(
            unknownWordSignature == 0 || (vocabulary != nil && unknownWordSignature > 0 && unknownWordSignature <= 64),
            "an unknown-word signature must be in (0, 64] and needs a vocabulary filter")
        self.unknownWordSignature = unknownWordSignature
        self.stopWordTable = StopWordTable(stopWords)
    }

    /// The same featurizer with another vocabulary filter.
    package func with(vocabulary: FeatureFilter?) -> NGramFeaturizer {
        copy(vocabulary: vocabulary, unknownWordSignature: vocabulary == nil ? 0 : unknownWordSignature)
    }

    /// The same featurizer with another unknown-word signature length (0: none).
    package func with(unknownWordSignature: Float) -> NGramFeaturizer {
        copy(vocabulary: vocabulary, unknownWordSignature: unknownWordSignature)
    }

    /// The same featurizer with another stop-word list and vocabulary filter (`sift-train`'s
    /// `--extend-words`).
    package func with(stopWords: [String], vocabulary: FeatureFilter) -> NGramFeaturizer {
        copy(vocabulary: vocabulary, unknownWordSignature: unknownWordSignature, stopWords: stopWords)
    }

    private func copy(vocabulary: FeatureFilter?, unknownWordSignature: Float, stopWords: [String]? = nil) -> NGramFeaturizer {
        NGramFeaturizer(
            bucketBits: bucketBits, minN: minN, maxN: maxN, usesBigrams: usesBigrams,
            wordWeight: wordWeight, charWeight: charWeight, bigramWeight: bigramWeight,
            stopWords: stopWords ?? self.stopWords, vocabulary: vocabulary, nGramsOnlyForUnknownWords: nGramsOnlyForUnknownWords,
            unknownWordSignature: unknownWordSignature)
    }

    package static func == (a: NGramFeaturizer, b: NGramFeaturizer) -> Bool {
        a.bucketBits == b.bucketBits && a.minN == b.minN && a.maxN == b.maxN
            && a.usesBigrams == b.usesBigrams && a.wordWeight == b.wordWeight
            && a.charWeight == b.charWeight && a.bigramWeight == b.bigramWeight
            && a.stopWords == b.stopWords && a.vocabulary == b.vocabulary
            && a.nGramsOnlyForUnknownWords == b.nGramsOnlyForUnknownWords
            && a.unknownWordSignature == b.unknownWordSignature
    }

    // MARK: - Unknown-word signatures

    /// Adds the signature of the term whose unigram hash is `unigramHash` to `sum` (the sum of the
    /// term's own rows, `dimension` floats) when the term is outside the vocabulary filter and the
    /// model has signatures (``unknownWordSignature``); otherwise leaves `sum` alone. The signature
    /// is `s × ‖sum‖ / √D × (±1, …)`, the signs the bits of SplitMix64 seeded by `unigramHash`.
    @inline(__always)
    package func addSignature(ofUnigramHash unigramHash: UInt64, to sum: UnsafeMutablePointer<Float>, dimension: Int) {
        guard unknownWordSignature > 0, !filter.contains(unigramHash) else { return }
        var squares: Float = 0
        for j in 0..<dimension { squares += sum[j] * sum[j] }
        let k = unknownWordSignature * squares.squareRoot() / Float(dimension).squareRoot()
        guard k > 0 else { return }
        var state = unigramHash
        var bits: UInt64 = 0
        for j in 0..<dimension {
            if j & 63 == 0 { bits = Self.splitMix64(&state) }
            sum[j] += bits & 1 == 0 ? k : -k
            bits >>= 1
        }
    }

    /// SplitMix64 (Steele, Lea & Flood 2014): the next 64 bits of the stream whose state is `state`.
    @inline(__always)
    static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Number of buckets, `1 << bucketBits`.
    package var bucketCount: Int { 1 << bucketBits }

    // MARK: - Hashing

    @usableFromInline static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325
    @usableFromInline static let fnvPrime: UInt64 = 0x0000_0100_0000_01b3

    @inline(__always)
    static func fnv(_ h: UInt64, _ byte: UInt8) -> UInt64 {
        (h ^ UInt64(byte)) &* fnvPrime
    }

    /// The FNV-1a 64 state after the kind byte.
    @inline(__always)
    static func seed(_ kind: Kind) -> UInt64 { fnv(fnvOffset, kind.rawValue) }

    /// The bucket of a finished FNV-1a 64 hash (Fibonacci hashing, top `bucketBits` bits).
    @inline(__always)
    package func bucket(ofHash h: UInt64) -> Int {
        Int(truncatingIfNeeded: (h &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bucketBits))
    }

    /// FNV-1a 64 of a kind byte followed by `bytes` (for tests and tools).
    package static func hash(kind: Kind, bytes: some Sequence<UInt8>) -> UInt64 {
        var h = seed(kind)
        for b in bytes { h = fnv(h, b) }
        return h
    }

    // MARK: - Terms

    /// Calls `body` with the UTF-8 of each term of `text` (normalised, stop words dropped), in
    /// order. The buffer is only valid during the call.
    /// - Complexity: O(n) in the UTF-8 length of `text`; allocation-free for ASCII text.
    @inline(__always)
    package func forEachTerm(in text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        // ASCII fast path: the Analyzer's own, byte by byte.
        let handledASCII = Analyzer.forEachASCIIWord(text) { term, _ in
            if !stopWordTable.contains(term) { body(term) }
        }
        if handledASCII { return }
        Analyzer(stopWords: []).forEachWord(text) { word, _ in
            var word = word
            word.withUTF8 { term in
                if !stopWordTable.contains(term) { body(term) }
            }
        }
    }

    // MARK: - Features

    /// Calls `body(bucket, weight)` for the unigram (unless the vocabulary filter leaves it out)
    /// and the character n-grams of one term.
    /// - Complexity: O(length × (maxN − minN + 1)).
    @inline(__always)
    package func forEachWordFeature(
        of term: UnsafeBufferPointer<UInt8>, _ body: (Int, Float) -> Void
    ) {
        forEachTermFeature(of: term) { bucket, weight, _ in body(bucket, weight) }
    }

    /// ``forEachWordFeature(of:_:)`` with each feature's kind.
    @inline(__always)
    func forEachTermFeature(of term: UnsafeBufferPointer<UInt8>, _ body: (Int, Float, Kind) -> Void) {
        forEachTermFeature(of: term, unigramHash: Self.unigramHash(term), body)
    }

    /// ``forEachTermFeature(of:_:)`` with the term's unigram hash already taken.
    @inline(__always)
    func forEachTermFeature(
        of term: UnsafeBufferPointer<UInt8>, unigramHash h: UInt64, _ body: (Int, Float, Kind) -> Void
    ) {
        let known = !hasVocabulary || filter.contains(h)
        if known { body(bucket(ofHash: h), wordWeight, .word) }
        if !(known && nGramsOnlyForUnknownWords && hasVocabulary) {
            forEachCharNGram(of: term) { bucket, weight in body(bucket, weight, .charNGram) }
        }
    }

    /// Calls `body(bucket, weight)` for the character n-grams of one term.
    @inline(__always)
    package func forEachCharNGram(of term: UnsafeBufferPointer<UInt8>, _ body: (Int, Float) -> Void) {
        if maxN == 0 || charWeight == 0 { return }
        var scalars = 0
        for b in term where b & 0xC0 != 0x80 { scalars += 1 }
        let marked = scalars + 2
        var total = 0
        for k in minN...maxN where marked >= k { total += marked - k + 1 }
        if total == 0 { return }
        let w = charWeight / Float(total)
        let n = term.count
        var startByte = 0  // byte offset of scalar (s - 1) of the term, for s >= 1
        for s in 0...(marked - minN) {
            var g = Self.seed(.charNGram)
            var k = 0  // scalars hashed so far
            var pos = s  // position in the marked word: 0 is "<", scalars + 1 is ">"
            var p = startByte
            if s == 0 {
                g = Self.fnv(g, 0x3C)  // "<"
                k = 1
                pos = 1
            }
            while k < maxN {
                if pos == scalars + 1 {
                    g = Self.fnv(g, 0x3E)  // ">"
                    k += 1
                    if k >= minN { body(bucket(ofHash: g), w) }
                    break
                }
                g = Self.fnv(g, term[p])
                p += 1
                while p < n && term[p] & 0xC0 == 0x80 {
                    g = Self.fnv(g, term[p])
                    p += 1
                }
                k += 1
                pos += 1
                if k >= minN { body(bucket(ofHash: g), w) }
            }
            if s >= 1 {
                startByte += 1
                while startByte < n && term[startByte] & 0xC0 == 0x80 { startByte += 1 }
            }
        }
    }

    /// The FNV-1a state of the bigram prefix `first + " "`; finish it with ``bigramBucket(prefix:second:)``.
    @inline(__always)
    package func bigramPrefix(_ first: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h = Self.seed(.bigram)
        for b in first { h = Self.fnv(h, b) }
        return Self.fnv(h, 0x20)
    }

    /// The FNV-1a 64 hash of a term's unigram feature.
    @inline(__always)
    package static func unigramHash(_ term: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h = seed(.word)
        for b in term { h = fnv(h, b) }
        return h
    }

    /// The FNV-1a 64 hash of the bigram whose prefix state is `prefix` (``bigramPrefix(_:)``).
    @inline(__always)
    package static func bigramHash(prefix: UInt64, second: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h = prefix
        for b in second { h = fnv(h, b) }
        return h
    }

    /// The bucket of the bigram whose prefix state is `prefix` and whose second term is `second`,
    /// or nil when the vocabulary filter leaves it out.
    @inline(__always)
    package func bigramBucket(prefix: UInt64, second: UnsafeBufferPointer<UInt8>) -> Int? {
        let h = Self.bigramHash(prefix: prefix, second: second)
        if hasVocabulary, !filter.contains(h) { return nil }
        return bucket(ofHash: h)
    }

    /// Calls `body(bucket, weight, kind)` for every feature of `text`, in order: for each term its
    /// unigram, its character n-grams, then the bigram it closes (if any).
    /// - Complexity: O(n × (maxN − minN + 1)) in the UTF-8 length of `text`.
    @inline(__always)
    package func forEachFeature(in text: String, _ body: (Int, Float, Kind) -> Void) {
        forEachFeature(in: text, termWeight: { _ in 1 }, body)
    }

    /// Every feature of `text` as (bucket, weight, kind) triples; convenient for tests and tools.
    package func features(of text: String) -> [(bucket: Int, weight: Float, kind: Kind)] {
        var result: [(bucket: Int, weight: Float, kind: Kind)] = []
        forEachFeature(in: text) { result.append(($0, $1, $2)) }
        return result
    }

    /// The terms of `text` as strings (normalised, stop words dropped).
    package func terms(of text: String) -> [String] {
        var result: [String] = []
        forEachTerm(in: text) { result.append(String(decoding: $0, as: UTF8.self)) }
        return result
    }
}

/// An open-addressing set of byte strings, looked up without allocating — and without
/// retaining anything: the words lie in one flat byte array (a word an array of its own could
/// be retained and released at every look-up that reached it, an atomic count that the threads
/// embedding at once all write).
struct StopWordTable: Sendable {
    private let slots: [Int32]  // index of a word, or -1
    private let bytes: [UInt8]  // every word's bytes, one after another
    private let starts: [Int32]  // where word i begins in `bytes`; starts[count] = bytes.count
    private let mask: Int
    private let maxLength: Int

    init(_ list: [String]) {
        var words: [[UInt8]] = []
        for w in list.map({ Array($0.utf8) }) where !words.contains(w) { words.append(w) }
        self.maxLength = words.map(\.count).max() ?? 0
        var size = 16
        while size < words.count * 4 { size <<= 1 }
        var slots = [Int32](repeating: -1, count: size)
        for (i, w) in words.enumerated() {
            var s = Self.slot(of: w, mask: size - 1)
            while slots[s] >= 0 { s = (s + 1) & (size - 1) }
            slots[s] = Int32(i)
        }
        self.bytes = words.flatMap { $0 }
        var starts: [Int32] = [0]
        for w in words { starts.append(starts.last! + Int32(w.count)) }
        self.starts = starts
        self.slots = slots
        self.mask = size - 1
    }

    @inline(__always)
    private static func slot(of bytes: some Collection<UInt8>, mask: Int) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: h >> 32) & mask
    }

    @inline(__always)
    func contains(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        if word.count > maxLength { return false }
        var s = Self.slot(of: word, mask: mask)
        while true {
            let i = Int(slots[s])
            if i < 0 { return false }
            let start = Int(starts[i])
            if Int(starts[i + 1]) - start == word.count {
                var k = 0
                while k < word.count && bytes[start + k] == word[k] { k += 1 }
                if k == word.count { return true }
            }
            s = (s + 1) & mask
        }
    }
}
