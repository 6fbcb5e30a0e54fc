import CSiftKernels
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The shipped embedding model: hashed word unigrams, word bigrams and character n-grams
/// (`NGramFeaturizer`) → rows of one bucket table → weighted sum → L2 normalisation.
///
/// The table is distilled from a sentence-transformer (see `Models/MODEL.md`), so related words
/// and sentences get close vectors, and unseen or misspelled words still get vectors from their
/// character n-grams. A word the model never saw also gets a direction of its own (its
/// signature, when the model file sets one, as the bundled model does), so that two texts holding
/// the same rare name are close. Immutable and `Sendable`; one instance serves every thread.
public struct HashedNGramEmbedder: Embedder {
    /// The feature extractor (hashing, n-gram range, feature-kind weights, stop words).
    package let featurizer: NGramFeaturizer
    /// Number of components of every vector.
    public let dimension: Int
    /// Model name from the file, e.g. "sift-ngram-256".
    public let name: String
    /// The file checksum (FNV-1a 64 over 64-bit words; see `Models/MODEL.md`).
    public let checksum: UInt64
    /// Whether the rows are int8 with per-row scales (otherwise fp32).
    public var isQuantized: Bool { table.quantization == .int8RowScaled }
    let table: EmbeddingTable
    /// This model's memo of word vectors shared by every thread, and its key in each thread's
    /// own (`WordMemo.h`): a new one for every model made, shared by its copies.
    let sharedMemo: SharedWordMemo

    /// `name@checksum`; changes whenever the model's bytes change.
    public var fingerprint: String {
        let hex = String(checksum, radix: 16)
        return "\(name)@\(String(repeating: "0", count: max(0, 16 - hex.count)))\(hex)"
    }

    /// Memory-maps and validates a model file (magic, version, sizes, checksum).
    /// - Throws: ``ModelError`` naming the file and what is wrong.
    /// - Complexity: O(file size) for the checksum (about 10 ms for 32 MiB); rows are paged in lazily.
    public init(contentsOf url: URL) throws(ModelError) {
        let path = url.path
        let file = try MappedFile(path: path)
        let header = try ModelFileFormat.parse(UnsafeRawBufferPointer(start: file.base, count: file.count), path: path)
        self.featurizer = header.featurizer
        self.dimension = header.dimension
        self.name = header.name
        self.checksum = header.checksum
        self.sharedMemo = SharedWordMemo(dimension: header.dimension)
        self.table = EmbeddingTable(
            file: file, dimension: header.dimension, bucketCount: header.featurizer.bucketCount,
            quantization: header.quantization, layout: header.layout)
    }

    /// A model from full-precision weights in memory (row-major `bucketCount × dimension`),
    /// quantised to int8 with per-row scales when `quantized` is true. Used by training and tests.
    package init(
        featurizer: NGramFeaturizer, dimension: Int, weights: [Float], quantized: Bool,
        name: String = "sift-ngram"
    ) {
        let table = weights.withUnsafeBufferPointer {
            EmbeddingTable(
                weights: $0, dimension: dimension, bucketCount: featurizer.bucketCount,
                quantization: quantized ? .int8RowScaled : .float32)
        }
        self.init(table: table, featurizer: featurizer, dimension: dimension, name: name)
    }

    /// The same table with another unknown-word signature length
    /// (``NGramFeaturizer/unknownWordSignature``; 0 none): another model, with its own checksum
    /// and memo. Used by `sift-train` to write a trained table with its signature.
    package func with(unknownWordSignature: Float) -> HashedNGramEmbedder {
        HashedNGramEmbedder(
            table: table, featurizer: featurizer.with(unknownWordSignature: unknownWordSignature), dimension: dimension,
            name: name)
    }

    /// A model of `table` in memory, its checksum that of the file it would be.
    private init(table: EmbeddingTable, featurizer: NGramFeaturizer, dimension: Int, name: String) {
        self.featurizer = featurizer
        self.dimension = dimension
        self.name = name
        self.table = table
        self.sharedMemo = SharedWordMemo(dimension: dimension)
        self.checksum = table.withRowBytes { rows in
            ModelFileFormat.serialize(
                featurizer: featurizer, dimension: dimension, quantization: table.quantization,
                name: name, rows: rows)
        }.withUnsafeBytes { ModelFileFormat.checksum($0) }
    }

    /// The bytes of this model as a `.siftmodel` file.
    public func fileContents() -> [UInt8] {
        table.withRowBytes { rows in
            ModelFileFormat.serialize(
                featurizer: featurizer, dimension: dimension, quantization: table.quantization,
                name: name, rows: rows)
        }
    }

    /// Writes this model to `url` atomically: to a temporary file beside it, renamed over it
    /// once complete. (Not `Data.write(options: .atomic)`, which on Linux leaves an empty
    /// `TemporaryDirectory.*` in /tmp for every write.)
    public func write(to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(
                ".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0 ... .max))")
        try Data(fileContents()).write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: "cannot rename the written model into \(url.path): \(reason)",
                ])
        }
    }

    /// Row `bucket` of the table, dequantised.
    public func row(_ bucket: Int) -> [Float] { table.row(bucket) }

    /// Writes the L2-normalised vector of `text` into `output`; the zero vector when `text` has no
    /// features (empty, only punctuation or stop words).
    /// - Complexity: O(features × dimension); about 300 features for a 30-word text. No allocation
    ///   for ASCII text.
    public func embed(_ text: String, into output: UnsafeMutableBufferPointer<Float>) {
        precondition(output.count == dimension, "output must have \(dimension) components")
        accumulate(text, into: output)
        normalizeOrZero(output)
    }

    /// Writes the L2-normalised weighted sum of the parts' feature rows: the same vector as
    /// one text in which each part occurs `weight` times, without bigrams across the seams.
    public func embed(weighted parts: [(text: String, weight: Float)], into output: UnsafeMutableBufferPointer<Float>) {
        precondition(output.count == dimension, "output must have \(dimension) components")
        output.update(repeating: 0)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: dimension) { part in
            for (text, weight) in parts where weight != 0 {
                accumulate(text, into: part)
                for j in 0..<dimension { output[j] += weight * part[j] }
            }
        }
        normalizeOrZero(output)
    }

    /// Writes the unnormalised weighted sum of the rows of `text`'s features into `output`.
    /// - Complexity: O(features × dimension).
    public func accumulate(_ text: String, into output: UnsafeMutableBufferPointer<Float>) {
        precondition(output.count == dimension, "output must have \(dimension) components")
        sumRows(of: text, termWeight: { _ in 1 }, into: output)
    }

    /// Writes into `output` the sum of the rows of `text`'s features, weighted as
    /// ``NGramFeaturizer/forEachFeature(in:termWeight:_:)`` weighs them, summed word by word:
    /// each term's own rows (its unigram and character n-grams, at their weights for a term of
    /// weight 1) are summed into the term's vector, rounded to fp16, which is added times the
    /// term's weight; then the rows of the bigrams are added, in order. A term's vector depends on
    /// the term alone, so the calling thread's memo (`WordMemo.h`) keeps it, and the term's next
    /// occurrence adds it instead of summing its dozen rows of the table again: kept or summed
    /// anew, the same bits.
    @inline(__always)
    private func sumRows(
        of text: String, termWeight: (UnsafeBufferPointer<UInt8>) -> Float, into output: UnsafeMutableBufferPointer<Float>
    ) {
        output.update(repeating: 0)
        let acc = output.baseAddress!
        let d = dimension
        let shared = sharedMemo.pointer
        let model = sharedMemo.model
        // The bigrams' rows are gathered, then added in batches, so that the table can fetch
        // rows ahead (see EmbeddingTable.accumulate).
        withUnsafeTemporaryAllocation(of: EmbeddingTable.Term.self, capacity: 2 * Self.batch) { terms in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: d) { sum in
                withUnsafeTemporaryAllocation(of: UInt16.self, capacity: d) { rounded in
                    let own = UnsafeMutableBufferPointer(rebasing: terms[0..<Self.batch])
                    let bigrams = UnsafeMutableBufferPointer(rebasing: terms[Self.batch...])
                    var pending = 0  // bigram rows gathered
                    var previousWeight: Float = 1
                    featurizer.forEachHashedTerm(in: text) { term, unigram, bigram in
                        let w = termWeight(term)
                        let vector =
                            sift_word_memo_find(shared, model, d, unigram, term.baseAddress, term.count)
                            ?? termVector(
                                term, unigram, shared: shared, model: model, own: own, sum: sum.baseAddress!,
                                rounded: rounded.baseAddress!)
                        sift_add_scaled_f16(acc, vector, w, d)
                        if let b = featurizer.bigramFeature(bigram, weight: w, previousWeight: previousWeight) {
                            bigrams[pending] = EmbeddingTable.Term(bucket: Int32(truncatingIfNeeded: b.bucket), weight: b.weight)
                            pending += 1
                            if pending == Self.batch {
                                table.accumulate(UnsafeBufferPointer(bigrams), into: acc)
                                pending = 0
                            }
                        }
                        previousWeight = w
                    }
                    if pending > 0 { table.accumulate(UnsafeBufferPointer(rebasing: bigrams[0..<pending]), into: acc) }
                }
            }
        }
    }

    /// Rows added to a sum in one call of the table's kernel.
    private static let batch = 256

    /// The sum of `term`'s own rows (its unigram, unless the vocabulary filter leaves it out, and
    /// its character n-grams), plus its signature if it is an unknown word
    /// (``NGramFeaturizer/unknownWordSignature``), rounded to fp16: kept in the model's shared memo or the thread's
    /// own, or in `rounded` when neither can keep it. `own` and `sum` are scratch space.
    @inline(__always)
    private func termVector(
        _ term: UnsafeBufferPointer<UInt8>, _ unigram: UInt64, shared: OpaquePointer?, model: UInt64,
        own: UnsafeMutableBufferPointer<EmbeddingTable.Term>, sum: UnsafeMutablePointer<Float>,
        rounded: UnsafeMutablePointer<UInt16>
    ) -> UnsafeMutablePointer<UInt16> {
        sum.update(repeating: 0, count: dimension)
        var n = 0
        featurizer.forEachTermFeature(of: term, unigramHash: unigram) { bucket, weight, _ in
            own[n] = EmbeddingTable.Term(bucket: Int32(truncatingIfNeeded: bucket), weight: weight)
            n += 1
            if n == own.count {
                table.accumulate(UnsafeBufferPointer(own), into: sum)
                n = 0
            }
        }
        if n > 0 { table.accumulate(UnsafeBufferPointer(rebasing: own[0..<n]), into: sum) }
        featurizer.addSignature(ofUnigramHash: unigram, to: sum, dimension: dimension)
        let vector = sift_word_memo_insert(shared, model, dimension, unigram, term.baseAddress, term.count) ?? rounded
        sift_f32_to_f16(sum, vector, dimension)
        sift_word_memo_inserted(shared)
        return vector
    }
}

extension HashedNGramEmbedder: TermWeightedEmbedder {
    /// `text`'s unit vector with each term's features weighted by `termWeight(term)` (the term as
    /// the model sees it: lower-cased, diacritics folded, UTF-8) and each bigram by the geometric
    /// mean of its two terms' weights; with every weight 1, exactly ``embed(_:into:)``.
    package func embed(
        _ text: String, termWeight: (UnsafeBufferPointer<UInt8>) -> Float, into output: UnsafeMutableBufferPointer<Float>
    ) {
        precondition(output.count == dimension, "output must have \(dimension) components")
        sumRows(of: text, termWeight: termWeight, into: output)
        normalizeOrZero(output)
    }
}

extension HashedNGramEmbedder: WordVocabulary {
    /// Whether the model's vocabulary filter holds `word`'s unigram feature; false for a model
    /// without a filter (then every word counts as unknown to it).
    public func recognizes(word: String) -> Bool {
        var w = word
        return w.withUTF8 { recognizes(utf8: $0) }
    }

    /// The same for a word's UTF-8 bytes.
    package func recognizes(utf8 word: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let filter = featurizer.vocabulary else { return false }
        return filter.contains(NGramFeaturizer.unigramHash(word))
    }
}

/// The model file's components are the teacher's principal components, in decreasing variance
/// (`Models/MODEL.md`: the targets are the PCA-256 projection, partially whitened: the k-th
/// varies as √λ_k, still decreasing).
extension HashedNGramEmbedder: VarianceOrderedComponents {}
