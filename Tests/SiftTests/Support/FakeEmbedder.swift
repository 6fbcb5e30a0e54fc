import Sift

/// A deterministic stand-in for the real model: each analysed word adds 1 to the component its
/// FNV-1a hash picks, and the sum is L2-normalised. Texts that share words get a positive
/// cosine; texts with none get the zero vector. Needs no model file.
struct FakeEmbedder: Embedder {
    let dimension: Int
    var fingerprint: String { "fake-embedder-\(dimension)" }
    private let analyzer = Analyzer()

    init(dimension: Int = 16) { self.dimension = dimension }

    func embed(_ text: String, into output: UnsafeMutableBufferPointer<Float>) {
        for i in 0..<dimension { output[i] = 0 }
        for word in analyzer.terms(text) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in word.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            output[Int(hash % UInt64(dimension))] += 1
        }
        var norm: Float = 0
        for i in 0..<dimension { norm += output[i] * output[i] }
        guard norm > 0 else { return }
        let scale = 1 / norm.squareRoot()
        for i in 0..<dimension { output[i] *= scale }
    }
}
