// libFuzzer entry points for Sift's parsers and loaders, built by Tests/Fuzz/run.sh against the
// library compiled with coverage, AddressSanitizer and testability (so internal decoders are
// reachable): one binary per target, chosen with -D FUZZ_JSONL, FUZZ_QUERY, FUZZ_RECORD,
// FUZZ_MODEL or FUZZ_SNIPPET. Every input must return normally; libFuzzer and AddressSanitizer report anything
// else (a crash, a leak, a hang past -timeout).
import Foundation

@testable import Sift

#if FUZZ_JSONL
    /// One JSONL line, then the same bytes as a whole file.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzJSONL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        let bytes = Data(bytes: data, count: size)
        let reader = JSONLItemReader(source: "fuzz.jsonl")
        if case .failure(let error) = reader.parse(bytes, line: 1), error.reason.isEmpty { fatalError("rejection without a reason") }
        reader.read(bytes) { _, result in
            if case .failure(let error) = result, error.reason.isEmpty { fatalError("rejection without a reason") }
        }
        return 0
    }
#elseif FUZZ_QUERY
    private let parser = QueryParser(domains: [
        DomainName(identifier: "expense", displayName: "Expenses"), DomainName(identifier: "streakDay", displayName: "Journal days"),
    ])

    /// The bytes as a query (invalid UTF-8 repaired), at a "now" taken from the first 8 bytes.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        var seconds: Double = 1_796_212_800
        if size >= 8 {
            var raw: UInt64 = 0
            memcpy(&raw, data, 8)
            seconds = Double(Int64(bitPattern: raw) % 400_000_000_000)
        }
        let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
        _ = parser.parse(text, now: Date(timeIntervalSince1970: seconds))
        return 0
    }
#elseif FUZZ_RECORD
    /// Valid records to start from; the fuzzer's bytes say how to damage them (see ``damage``).
    private let itemRecord: [UInt8] = {
        var item = SearchableItem(
            id: "fuzz-1", domain: "expense", title: "Coffee café 😤", content: "oat milk latte", keywords: ["coffee", "oat"])
        item.date = Date(timeIntervalSince1970: 1_796_212_800)
        item.url = "https://example.app/1"
        item.rankingHint = 40
        item.displayName = "Expenses"
        return StoredItem(item: item, vector: [0.5, -0.25, 1, 0]).encoded()
    }()
    private let donationRecord = Donation(intent: "open", itemID: "fuzz-1", surface: "search", date: Date(timeIntervalSince1970: 1e9))
        .encoded()

    /// The fuzzer's bytes as a record on their own, then as damage done to a valid record.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzRecord(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        _ = try? StoredItem(decoding: input)
        _ = try? Donation(decoding: input)
        _ = try? StoredItem(decoding: damage(itemRecord, by: input))
        _ = try? Donation(decoding: damage(donationRecord, by: input))
        // The same damage behind a recomputed checksum reaches the decoder itself.
        _ = try? StoredItem(decoding: RecordChecksum.resealed(damage(itemRecord, by: input)))
        _ = try? Donation(decoding: RecordChecksum.resealed(damage(donationRecord, by: input)))
        return 0
    }
#elseif FUZZ_MODEL
    /// A valid model file to start from (32 buckets × 8 dimensions, int8, a vocabulary filter of
    /// two words and unknown-word signatures).
    private let modelFile: [UInt8] = {
        var state: UInt64 = 7
        let weights = (0..<(32 * 8)).map { _ -> Float in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state) >> 40) / Float(1 << 23)
        }
        var filter = FeatureFilter(log2Bits: 10, probes: 2)
        for w in ["stress", "work"] { filter.insert(NGramFeaturizer.hash(kind: .word, bytes: Array(w.utf8))) }
        return HashedNGramEmbedder(
            featurizer: NGramFeaturizer(bucketBits: 5, stopWords: ["the", "a"], vocabulary: filter, unknownWordSignature: 4),
            dimension: 8, weights: weights, quantized: true, name: "fuzz"
        ).fileContents()
    }()
    private let modelPath = NSTemporaryDirectory() + "/sift-fuzz-model-\(getpid()).siftmodel"

    /// A valid model file damaged as the fuzzer's bytes say, its checksum repaired when the first
    /// byte is odd so the checks behind the checksum are reached too.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzModel(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        var bytes = damage(modelFile, by: input)
        if let first = input.first, first & 1 == 1, bytes.count >= ModelFileFormat.checksumOffset + 8 {
            let sum = bytes.withUnsafeBytes { ModelFileFormat.checksum($0) }
            withUnsafeBytes(of: sum.littleEndian) {
                bytes.replaceSubrange(ModelFileFormat.checksumOffset..<(ModelFileFormat.checksumOffset + 8), with: $0)
            }
        }
        // A plain write: no temporary file, rename or sync, which would dominate the run time.
        guard let file = fopen(modelPath, "wb") else { fatalError("cannot write \(modelPath)") }
        if !bytes.isEmpty { fwrite(bytes, 1, bytes.count, file) }
        fclose(file)
        do {
            let model = try HashedNGramEmbedder(contentsOf: URL(fileURLWithPath: modelPath))
            _ = model.embed("stress at work café")
        } catch {
            if "\(error)".isEmpty { fatalError("rejection without a message") }
        }
        return 0
    }
#elseif FUZZ_SNIPPET
    /// The bytes as a query and an item's content (split at the first newline; invalid UTF-8
    /// repaired), the first byte choosing the passage length and whether the last word is typed.
    /// Every highlight must lie inside the snippet's text, on scalar boundaries, in order.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzSnippet(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        let flags = input.first ?? 0
        let rest = input.dropFirst()
        let cut = rest.firstIndex(of: 0x0A) ?? rest.endIndex
        let query = String(decoding: rest[rest.startIndex..<cut], as: UTF8.self)
        let content = String(decoding: rest[cut...].dropFirst(), as: UTF8.self)
        let item = SearchableItem(id: "f", title: query.count % 2 == 0 ? "" : String(content.prefix(40)), content: content)
        var keyword = KeywordIndex()
        keyword.insert(item, at: 0)
        var builder = SnippetBuilder(
            terms: keyword.queryTerms(query, prefixLastTerm: flags & 1 == 1), queryText: query, analyzer: keyword.analyzer,
            stemMemo: keyword.stemMemo, embedder: nil)
        builder.window.length = [1, 20, 160, 400][Int(flags >> 1) % 4]
        guard let snippet = builder.snippet(for: item) else { return 0 }
        let bytes = Array(snippet.text.utf8)
        var previous = -1
        for r in snippet.highlights {
            guard r.lowerBound > previous, r.lowerBound < r.upperBound, r.upperBound <= bytes.count else {
                fatalError("highlight \(r) of \(bytes.count) bytes")
            }
            guard bytes[r.lowerBound] & 0xC0 != 0x80, r.upperBound == bytes.count || bytes[r.upperBound] & 0xC0 != 0x80 else {
                fatalError("highlight \(r) inside a scalar")
            }
            previous = r.upperBound
        }
        if snippet.highlightRanges().count != snippet.highlights.count { fatalError("String.Index ranges disagree") }
        return 0
    }
#endif

#if FUZZ_RECORD || FUZZ_MODEL
    /// `valid` changed as `input` says. Byte 0 picks the kind: XOR the rest in from an offset
    /// (byte 1), truncate to a length (bytes 1–2), append the rest, or overwrite from an offset.
    func damage(_ valid: [UInt8], by input: [UInt8]) -> [UInt8] {
        guard input.count >= 2, !valid.isEmpty else { return valid }
        var bytes = valid
        let rest = input.dropFirst(2)
        let offset = Int(input[1]) % valid.count
        switch (input[0] >> 1) % 4 {
        case 0:
            for (i, b) in rest.enumerated() where offset + i < bytes.count { bytes[offset + i] ^= b }
        case 1:
            let length = (Int(input[1]) << 8 | Int(input.count > 2 ? input[2] : 0)) % (valid.count + 1)
            bytes = Array(bytes.prefix(length))
        case 2:
            bytes += rest
        default:
            for (i, b) in rest.enumerated() where offset + i < bytes.count { bytes[offset + i] = b }
        }
        return bytes
    }
#endif
