/// FNV-1a 64 (Fowler, Noll, Vo) of a byte string: the word hash of the stem memo, the title-word
/// hashes and the snapshot check's term digests.
enum FNV1a {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x100_0000_01b3

    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h = offsetBasis
        for b in bytes { h = (h ^ UInt64(b)) &* prime }
        return h
    }

    /// ``hash(_:)`` of `text`'s UTF-8.
    static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { hash($0) }
    }
}
