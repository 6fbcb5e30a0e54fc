/// The on-disk layout of a hashed n-gram model (`.siftmodel`), version 1. Spec: `Models/MODEL.md`.
///
/// All integers and floats little-endian. A 128-byte header, then sections each starting at a
/// multiple of 64 bytes: the stop words (UTF-8, one per line), the vocabulary filter (optional,
/// 2^log2Bits bits as little-endian 64-bit words), then the rows: `buckets` rows of
/// `dimension` f32, or, for int8, `buckets` rows of (f32 scale, `dimension` × int8) — the scale
/// sits next to its row so that one cache miss fetches both. The file length is padded to a
/// multiple of 8 with zeros. The checksum is FNV-1a 64 over the file's 64-bit little-endian
/// words except the checksum's own, then one more multiplication by the FNV prime
/// (``checksum(_:)``).
enum ModelFileFormat {
    static let magic: [UInt8] = Array("SIFTNGRM".utf8)
    static let version: UInt32 = 1
    static let headerLength = 128
    static let hashFNV1a64Fibonacci: UInt32 = 1
    static let checksumOffset = 56
    /// f32 ``NGramFeaturizer/unknownWordSignature`` (0 in files written before it was defined).
    static let signatureOffset = 104
    static let nameLength = 32

    enum Quantization: UInt8, Sendable {
        case float32 = 0
        case int8RowScaled = 1
        /// Bytes of one row of `dimension` weights (with its scale for int8).
        func rowStride(dimension: Int) -> Int { self == .float32 ? 4 * dimension : 4 + dimension }
    }

    struct Layout: Equatable {
        var stopWordsOffset: Int
        var stopWordsLength: Int
        var filterOffset: Int
        var filterLength: Int
        var rowsOffset: Int
        var rowsLength: Int
        var fileLength: Int
    }

    static func align(_ x: Int, _ a: Int) -> Int { (x + a - 1) / a * a }

    static func layout(
        dimension: Int, buckets: Int, quantization: Quantization, stopWordsLength: Int,
        filterLog2Bits: Int
    ) -> Layout {
        let stopOffset = headerLength
        let filterOffset = align(stopOffset + stopWordsLength, 64)
        let filterLength = filterLog2Bits == 0 ? 0 : (1 << filterLog2Bits) / 8
        let rowsOffset = align(filterOffset + filterLength, 64)
        let rowsLength = buckets * quantization.rowStride(dimension: dimension)
        return Layout(
            stopWordsOffset: stopOffset, stopWordsLength: stopWordsLength,
            filterOffset: filterOffset, filterLength: filterLength,
            rowsOffset: rowsOffset, rowsLength: rowsLength,
            fileLength: align(rowsOffset + rowsLength, 8))
    }

    /// FNV-1a 64 over the 64-bit little-endian words of `bytes` (length a multiple of 8) except
    /// the word at ``checksumOffset``, then one more multiplication by the prime: the zero
    /// word's step, taken last (not in its place, which would give another value; files since
    /// version 1 were written so, and `Models/MODEL.md` says so).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        let words = bytes.count / 8
        let skip = checksumOffset / 8
        for i in 0..<words where i != skip {
            let w = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
            h = (h ^ w) &* 0x0000_0100_0000_01b3
        }
        if words > skip { h = h &* 0x0000_0100_0000_01b3 }  // the checksum word's step, last
        return h
    }

    /// The decoded header; produced only by ``parse(_:path:)``, which validates everything.
    struct Header {
        var dimension: Int
        var featurizer: NGramFeaturizer
        var quantization: Quantization
        var name: String
        var checksum: UInt64
        var layout: Layout
    }

    static func parse(_ bytes: UnsafeRawBufferPointer, path: String) throws(ModelError) -> Header {
        func fail(_ reason: ModelError.Reason) -> ModelError { ModelError(path: path, reason: reason) }
        func u32(_ o: Int) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
        func u64(_ o: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
        func f32(_ o: Int) -> Float { Float(bitPattern: u32(o)) }

        let size = bytes.count
        let prefix = min(size, magic.count)
        if !zip(bytes.prefix(prefix), magic).allSatisfy({ $0 == $1 }) { throw fail(.badMagic) }
        if size < headerLength { throw fail(.truncated(expected: headerLength, actual: size)) }
        let version = u32(8)
        if version != Self.version { throw fail(.unsupportedVersion(found: version, supported: Self.version)) }
        if Int(u32(12)) != headerLength {
            throw fail(.inconsistent("header length \(u32(12)), expected \(headerLength)"))
        }
        let dimension = Int(u32(16))
        let bucketBits = Int(u32(20))
        let hash = u32(24)
        let minN = Int(bytes[28])
        let maxN = Int(bytes[29])
        let flags = bytes[30]
        guard (1...8192).contains(dimension) else { throw fail(.inconsistent("dimension \(dimension) is not in 1...8192")) }
        guard (1...28).contains(bucketBits) else { throw fail(.inconsistent("bucket bits \(bucketBits) is not in 1...28")) }
        guard hash == hashFNV1a64Fibonacci else { throw fail(.inconsistent("unknown hash function id \(hash)")) }
        guard maxN == 0 || (2 <= minN && minN <= maxN && maxN <= 16) else {
            throw fail(.inconsistent("character n-gram range \(minN)...\(maxN) is invalid"))
        }
        guard flags & ~3 == 0 else { throw fail(.inconsistent("unknown feature flags \(flags)")) }
        guard let quantization = Quantization(rawValue: bytes[31]) else {
            throw fail(.inconsistent("unknown quantisation \(bytes[31])"))
        }
        let weights = (f32(32), f32(36), f32(40))
        guard weights.0.isFinite, weights.1.isFinite, weights.2.isFinite else {
            throw fail(.inconsistent("feature-kind weights are not finite"))
        }
        let stopLength = Int(u32(44))
        let fileLength = u64(48)
        let filterBits = Int(u32(96))
        let filterProbes = Int(u32(100))
        guard (filterBits == 0 && filterProbes == 0) || ((6...32).contains(filterBits) && (1...16).contains(filterProbes)) else {
            throw fail(.inconsistent("vocabulary filter of 2^\(filterBits) bits and \(filterProbes) probes is invalid"))
        }
        let signature = f32(signatureOffset)
        if let problem = signatureProblem(signature, hasFilter: filterBits > 0) { throw fail(.inconsistent(problem)) }
        guard stopLength <= size else {
            throw fail(.inconsistent("stop-word section of \(stopLength) bytes is longer than the file"))
        }
        let layout = Self.layout(
            dimension: dimension, buckets: 1 << bucketBits, quantization: quantization,
            stopWordsLength: stopLength, filterLog2Bits: filterBits)
        if UInt64(layout.fileLength) != fileLength {
            throw fail(
                .inconsistent(
                    "header says \(fileLength) bytes, but \(1 << bucketBits) buckets × \(dimension) dimensions, \(stopLength) bytes of stop words and the vocabulary filter make \(layout.fileLength)"
                ))
        }
        if size < layout.fileLength { throw fail(.truncated(expected: layout.fileLength, actual: size)) }
        if size > layout.fileLength {
            throw fail(.inconsistent("\(size - layout.fileLength) unexpected bytes after the end (expected \(layout.fileLength) bytes)"))
        }
        let stored = u64(checksumOffset)
        let computed = checksum(bytes)
        if stored != computed { throw fail(.checksumMismatch(stored: stored, computed: computed)) }

        let (name, stopWords, vocabulary) = try readSections(
            bytes, path: path, layout: layout, stopLength: stopLength, quantization: quantization,
            dimension: dimension, bucketBits: bucketBits, filterBits: filterBits, filterProbes: filterProbes)
        let featurizer = NGramFeaturizer(
            bucketBits: bucketBits, minN: maxN == 0 ? 0 : minN, maxN: maxN, usesBigrams: flags & 1 != 0,
            wordWeight: weights.0, charWeight: weights.1, bigramWeight: weights.2,
            stopWords: stopWords, vocabulary: vocabulary, nGramsOnlyForUnknownWords: flags & 2 != 0,
            unknownWordSignature: signature)
        return Header(
            dimension: dimension, featurizer: featurizer, quantization: quantization, name: name,
            checksum: stored, layout: layout)
    }

    /// What is wrong with an unknown-word signature length read from a header, or nil: it must be
    /// 0, or in (0, 64] with a vocabulary filter (without one every word would be unknown).
    private static func signatureProblem(_ signature: Float, hasFilter: Bool) -> String? {
        if signature == 0 { return nil }
        guard signature > 0 && signature <= 64 else { return "unknown-word signature \(signature) is not in 0...64" }
        return hasFilter ? nil : "unknown-word signature \(signature) without a vocabulary filter"
    }

    /// The sections after the header, once the checksum has verified: the model's name and stop
    /// words (each UTF-8), every row scale of an int8 table (finite, non-negative), and the
    /// vocabulary filter when there is one.
    private static func readSections(
        _ bytes: UnsafeRawBufferPointer, path: String, layout: Layout, stopLength: Int, quantization: Quantization,
        dimension: Int, bucketBits: Int, filterBits: Int, filterProbes: Int
    ) throws(ModelError) -> (name: String, stopWords: [String], vocabulary: FeatureFilter?) {
        func fail(_ reason: ModelError.Reason) -> ModelError { ModelError(path: path, reason: reason) }
        func u32(_ o: Int) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
        func u64(_ o: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
        func f32(_ o: Int) -> Float { Float(bitPattern: u32(o)) }

        let nameBytes = bytes[64..<(64 + nameLength)].prefix { $0 != 0 }
        guard let name = String(validating: Array(nameBytes), as: UTF8.self) else {
            throw fail(.inconsistent("model name is not UTF-8"))
        }
        let stopBytes = Array(bytes[layout.stopWordsOffset..<(layout.stopWordsOffset + stopLength)])
        guard let stopText = String(validating: stopBytes, as: UTF8.self) else {
            throw fail(.inconsistent("stop-word section is not UTF-8"))
        }
        let stopWords = stopText.split(separator: "\n").map(String.init)
        if quantization == .int8RowScaled {
            let stride = quantization.rowStride(dimension: dimension)
            for i in 0..<(1 << bucketBits) {
                let s = f32(layout.rowsOffset + stride * i)
                if !(s.isFinite && s >= 0) { throw fail(.inconsistent("row \(i) has scale \(s)")) }
            }
        }
        var vocabulary: FeatureFilter? = nil
        if filterBits > 0 {
            let words = (0..<(layout.filterLength / 8)).map { u64(layout.filterOffset + 8 * $0) }
            vocabulary = FeatureFilter(log2Bits: filterBits, probes: filterProbes, words: words)
        }
        return (name, stopWords, vocabulary)
    }

    /// The bytes of a model file. `rows` holds the rows section exactly as stored (see the type's
    /// comment).
    static func serialize(
        featurizer: NGramFeaturizer, dimension: Int, quantization: Quantization, name: String,
        rows: UnsafeRawBufferPointer
    ) -> [UInt8] {
        let stop = Array(featurizer.stopWords.joined(separator: "\n").utf8)
        let buckets = featurizer.bucketCount
        let layout = Self.layout(
            dimension: dimension, buckets: buckets, quantization: quantization,
            stopWordsLength: stop.count, filterLog2Bits: featurizer.vocabulary?.log2Bits ?? 0)
        precondition(rows.count == layout.rowsLength)
        var out = [UInt8](repeating: 0, count: layout.fileLength)
        func put32(_ v: UInt32, _ o: Int) { withUnsafeBytes(of: v.littleEndian) { out.replaceSubrange(o..<(o + 4), with: $0) } }
        func put64(_ v: UInt64, _ o: Int) { withUnsafeBytes(of: v.littleEndian) { out.replaceSubrange(o..<(o + 8), with: $0) } }
        out.replaceSubrange(0..<8, with: magic)
        put32(version, 8)
        put32(UInt32(headerLength), 12)
        put32(UInt32(dimension), 16)
        put32(UInt32(featurizer.bucketBits), 20)
        put32(hashFNV1a64Fibonacci, 24)
        out[28] = UInt8(featurizer.maxN == 0 ? 0 : featurizer.minN)
        out[29] = UInt8(featurizer.maxN)
        out[30] = (featurizer.usesBigrams ? 1 : 0) | (featurizer.nGramsOnlyForUnknownWords ? 2 : 0)
        out[31] = quantization.rawValue
        put32(featurizer.wordWeight.bitPattern, 32)
        put32(featurizer.charWeight.bitPattern, 36)
        put32(featurizer.bigramWeight.bitPattern, 40)
        put32(UInt32(stop.count), 44)
        put64(UInt64(layout.fileLength), 48)
        let nameBytes = Array(name.utf8.prefix(nameLength))
        out.replaceSubrange(64..<(64 + nameBytes.count), with: nameBytes)
        out.replaceSubrange(layout.stopWordsOffset..<(layout.stopWordsOffset + stop.count), with: stop)
        if let filter = featurizer.vocabulary {
            put32(UInt32(filter.log2Bits), 96)
            put32(UInt32(filter.probes), 100)
            for (i, w) in filter.words.enumerated() { put64(w, layout.filterOffset + 8 * i) }
        }
        put32(featurizer.unknownWordSignature.bitPattern, signatureOffset)
        out.withUnsafeMutableBytes { dst in
            dst.baseAddress!.advanced(by: layout.rowsOffset).copyMemory(from: rows.baseAddress!, byteCount: rows.count)
        }
        let sum = out.withUnsafeBytes { checksum($0) }
        put64(sum, checksumOffset)
        return out
    }
}
