import CSiftKernels
import Foundation
import Testing

@testable import Sift

@Suite("Word vectors kept by each thread's memo")
struct WordMemoTests {
    static let texts = [
        "matcha tea with oat milk, matcha again and tea",
        "Quarterly expenses: spending on travel, travel insurance and spending limits",
        "a word far longer than the memo keeps: pneumonoultramicroscopicsilicovolcanoconiosis, twice: pneumonoultramicroscopicsilicovolcanoconiosis",
        "Crème brûlée, café au lait — naïve façade; crème again",
        "recieve the pakage tomorow, recieve it",
        "the of and",
        "",
    ]

    /// `text`'s unnormalised sum on a thread of its own whose memo holds at most `limit` words.
    func onFreshThread(_ model: HashedNGramEmbedder, _ text: String, limit: UInt32) -> [UInt32] {
        nonisolated(unsafe) var result: [UInt32] = []
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            sift_word_memo_set_limit(limit)
            result = sum(model, text)
            done.signal()
        }
        thread.start()
        done.wait()
        return result
    }

    func sum(_ model: HashedNGramEmbedder, _ text: String) -> [UInt32] {
        var out = [Float](repeating: 0, count: model.dimension)
        out.withUnsafeMutableBufferPointer { model.accumulate(text, into: $0) }
        return out.map(\.bitPattern)
    }

    @Test("A term's vector found in the memo gives the same bits as one summed anew, whatever the memo held")
    func sameBitsKeptOrNot() {
        let model = randomModel(seed: 11)
        for text in Self.texts {
            let cold = onFreshThread(model, text, limit: 1)
            let small = onFreshThread(model, text, limit: 2)
            _ = sum(model, text)
            let warm = sum(model, text)  // every word of the text held now
            #expect(warm == cold, "\(text)")
            #expect(small == cold, "\(text)")
        }
        // The memo fills up and starts again: still the same vectors.
        let many = (0..<300).map { "word\($0) tea" }.joined(separator: " ")
        #expect(onFreshThread(model, many, limit: 16) == onFreshThread(model, many, limit: 4096))
    }

    @Test("The sum is each term's rows summed and rounded to fp16, added times the term's weight, then the bigrams' rows")
    func wordByWordSums() {
        let model = randomModel(seed: 12)
        let f = model.featurizer
        let text = "Matcha tea, matcha latte and iced tea"
        let weights: [String: Float] = ["matcha": 2, "tea": 0.5]
        func weight(_ term: UnsafeBufferPointer<UInt8>) -> Float { weights[String(decoding: term, as: UTF8.self)] ?? 1 }
        let d = model.dimension
        var expected = [Float](repeating: 0, count: d)
        var bigrams: [sift_term] = []
        var previous: Float = 1
        f.forEachHashedTerm(in: text) { term, unigram, bigram in
            var own: [sift_term] = []
            f.forEachTermFeature(of: term, unigramHash: unigram) { bucket, w, _ in own.append(sift_term(bucket: Int32(bucket), weight: w)) }
            var v = [Float](repeating: 0, count: d)
            v.withUnsafeMutableBufferPointer { v in
                own.withUnsafeBufferPointer { model.table.accumulate($0, into: v.baseAddress!) }
            }
            // Kept as fp16.
            var half = [UInt16](repeating: 0, count: d)
            sift_f32_to_f16(v, &half, d)
            sift_f16_to_f32(half, &v, d)
            let w = weight(term)
            for j in 0..<d { expected[j] += w == 1 ? v[j] : w * v[j] }
            if let bigram, f.vocabulary?.contains(bigram) ?? true {
                let pair = previous == 1 && w == 1 ? 1 : (previous * w).squareRoot()
                bigrams.append(sift_term(bucket: Int32(f.bucket(ofHash: bigram)), weight: f.bigramWeight * pair))
            }
            previous = w
        }
        expected.withUnsafeMutableBufferPointer { e in
            bigrams.withUnsafeBufferPointer { model.table.accumulate($0, into: e.baseAddress!) }
        }
        for _ in 0..<2 {  // cold, then from the memo
            var unnormalised = [Float](repeating: 0, count: d)
            let norm = expected.reduce(0) { $0 + $1 * $1 }.squareRoot()
            unnormalised.withUnsafeMutableBufferPointer { model.embed(text, termWeight: weight, into: $0) }
            let scaled = expected.map { $0 / norm }
            for j in 0..<d { #expect(abs(unnormalised[j] - scaled[j]) <= 1e-6, "component \(j)") }
        }
        // The same sum as adding every feature's row at its weight, up to the order of the sums.
        var plain = [Float](repeating: 0, count: d)
        for (bucket, w, _) in f.features(of: "Matcha tea, matcha latte and iced tea") {
            let row = model.row(bucket)
            for j in 0..<d { plain[j] += w * row[j] }
        }
        let byWord = sum(model, "Matcha tea, matcha latte and iced tea").map(Float.init(bitPattern:))
        let scale = plain.map(abs).max()!
        for j in 0..<d { #expect(abs(plain[j] - byWord[j]) <= 2e-3 * scale, "component \(j)") }
    }

    @Test("Two models on one thread never take each other's word vectors")
    func modelsDoNotShare() {
        let a = randomModel(seed: 13)
        let b = randomModel(seed: 14)
        let c = randomModel(seed: 15, dimension: 32)
        let text = Self.texts[1]
        let (coldA, coldB, coldC) = (onFreshThread(a, text, limit: 1), onFreshThread(b, text, limit: 1), onFreshThread(c, text, limit: 1))
        for _ in 0..<3 {
            #expect(sum(a, text) == coldA)
            #expect(sum(b, text) == coldB)
            #expect(sum(c, text) == coldC)
        }
        #expect(coldA != coldB)
    }

    @Test("A repeated term is found in the memo, and threads embedding at once agree")
    func foundAndThreadSafe() {
        let model = randomModel(seed: 16)
        var hits: UInt64 = 0
        var misses: UInt64 = 0
        _ = sum(model, "kombucha")
        sift_word_memo_counts(&hits, &misses)
        let before = hits
        _ = sum(model, "kombucha kombucha kombucha")
        sift_word_memo_counts(&hits, &misses)
        #expect(hits - before == 3)

        let expected = Self.texts.map { onFreshThread(model, $0, limit: 1) }
        let results = UnsafeMutableBufferPointer<[UInt32]>.allocate(capacity: 64)
        results.initialize(repeating: [])
        defer { results.deallocate() }
        nonisolated(unsafe) let out = results
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            out[i] = sum(model, Self.texts[i % Self.texts.count])
        }
        for i in 0..<64 { #expect(results[i] == expected[i % Self.texts.count]) }
    }

    @Test("Threads sharing a model's memo get the bits a thread alone gets, while it fills and once it is full")
    func sharedMemoAgrees() {
        let model = randomModel(seed: 17)
        #expect(model.sharedMemo.count == 0)
        // 40,000 distinct words: more than the shared memo holds (32,768), the rest go to the
        // threads' own memos.
        let texts = (0..<400).map { t in (0..<100).map { "w\(t * 100 + $0)x" }.joined(separator: " ") + " tea" }
        let expected = texts.map { onFreshThread(model, $0, limit: 1) }
        let results = UnsafeMutableBufferPointer<[UInt32]>.allocate(capacity: 2 * texts.count)
        results.initialize(repeating: [])
        defer { results.deallocate() }
        nonisolated(unsafe) let out = results
        // Every text twice, on threads embedding at once: found in the shared memo, or summed
        // while another thread may be adding the same word.
        DispatchQueue.concurrentPerform(iterations: 2 * texts.count) { i in
            out[i] = sum(model, texts[i % texts.count])
        }
        for i in 0..<(2 * texts.count) { #expect(results[i] == expected[i % texts.count], "text \(i % texts.count)") }
        #expect(model.sharedMemo.count == 32_768)
        // A copy of the model shares the memo; another model has its own.
        let copy = model
        #expect(copy.sharedMemo === model.sharedMemo)
        #expect(randomModel(seed: 17).sharedMemo !== model.sharedMemo)
    }
}

@Suite("Adding an fp16 vector (C, AVX-512 or AVX2 chosen at run time)")
struct AddScaledF16Tests {
    @Test("Every path gives the same bits as widening, multiplying and adding in Swift", arguments: [256, 13, 8, 24, 40])
    func pathsAgree(dimension d: Int) {
        var rng = SplitMix64(seed: 4_096 &+ UInt64(d))
        let v = (0..<d).map { _ in Float(Int(rng.next() % 20_001) - 10_000) / 997 }
        var half = [UInt16](repeating: 0, count: d)
        sift_f32_to_f16(v, &half, d)
        var widened = [Float](repeating: 0, count: d)
        sift_f16_to_f32(half, &widened, d)
        for w: Float in [1, 0.5, -3.25, 0] {
            let start = (0..<d).map { _ in Float(Int(rng.next() % 2001) - 1000) / 333 }
            let expected = (0..<d).map { j in w == 1 ? start[j] + widened[j] : start[j] + w * widened[j] }
            for level: Int32 in [0, 2, 3] {
                var acc = start
                sift_add_scaled_f16_at_most(level, &acc, half, w, d)
                #expect(acc.map(\.bitPattern) == expected.map(\.bitPattern), "level \(level), weight \(w)")
            }
        }
    }
}
