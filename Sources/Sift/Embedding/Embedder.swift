/// Turns text into a unit-length vector whose cosine with another text's vector measures how
/// close their meanings are. The seam between the index and the model: tests use fakes.
public protocol Embedder: Sendable {
    /// Number of components of every vector.
    var dimension: Int { get }
    /// Identity of the model (name and checksum). The store records it; when it changes, every
    /// stored vector is recomputed.
    var fingerprint: String { get }
    /// Writes the L2-normalised vector of `text` into `output` (exactly `dimension` floats).
    /// A text with no features gets the zero vector.
    func embed(_ text: String, into output: UnsafeMutableBufferPointer<Float>)
}

extension Embedder {
    /// The L2-normalised vector of `text`.
    public func embed(_ text: String) -> [Float] {
        [Float](unsafeUninitializedCapacity: dimension) { buffer, count in
            embed(text, into: buffer)
            count = dimension
        }
    }
}
