/// The snapshot's checksum: FNV-1a 64 run in four interleaved lanes over the file's 64-bit
/// little-endian words (lane k takes words k, k + 4, k + 8 …; a last partial word is padded
/// with zeros), the lanes and the byte length then folded together by FNV-1a 64.
///
/// Four independent multiply chains keep up with memory (one chain, as in the model file's
/// checksum, is bound by the multiplier's latency: ~6 GB/s). Each step is a bijection of the
/// lane, so any one changed word changes the result; it detects damage (a torn or truncated
/// write, bit rot), not tampering — whoever can write the snapshot can write the store.
struct SnapshotChecksum {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3
    private var l0 = offsetBasis, l1 = offsetBasis ^ 1, l2 = offsetBasis ^ 2, l3 = offsetBasis ^ 3
    private var length = 0

    /// Hashes `bytes`, whose count must be a multiple of 32 (every call but the last).
    mutating func combine(blocks bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count % 32 == 0)
        guard let base = bytes.baseAddress else { return }
        var a = l0
        var b = l1
        var c = l2
        var d = l3
        var o = 0
        let n = bytes.count
        while o < n {
            a = (a ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt64.self))) &* Self.prime
            b = (b ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self))) &* Self.prime
            c = (c ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self))) &* Self.prime
            d = (d ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: o + 24, as: UInt64.self))) &* Self.prime
            o += 32
        }
        l0 = a
        l1 = b
        l2 = c
        l3 = d
        length += n
    }

    /// The checksum of everything combined, then `tail` (fewer than 32 bytes, or any count when
    /// nothing else is hashed).
    func finish(tail: UnsafeRawBufferPointer) -> UInt64 {
        var copy = self
        let whole = tail.count / 32 * 32
        if whole > 0 { copy.combine(blocks: UnsafeRawBufferPointer(rebasing: tail[0..<whole])) }
        // The lanes in order, without an array (a row's checksum is taken per row read).
        var lanes = (copy.l0, copy.l1, copy.l2, copy.l3)
        withUnsafeMutableBytes(of: &lanes) { raw in
            let lane = raw.bindMemory(to: UInt64.self)
            var o = whole
            var k = 0
            while o < tail.count {
                var word: UInt64 = 0
                for i in 0..<min(8, tail.count - o) { word |= UInt64(tail[o + i]) << UInt64(8 * i) }
                lane[k] = (lane[k] ^ word) &* Self.prime
                o += 8
                k += 1
            }
        }
        var h = (Self.offsetBasis ^ lanes.0) &* Self.prime
        h = (h ^ lanes.1) &* Self.prime
        h = (h ^ lanes.2) &* Self.prime
        h = (h ^ lanes.3) &* Self.prime
        return (h ^ UInt64(copy.length + tail.count - whole)) &* Self.prime
    }

    /// The 32-bit checksum of one vector row's bytes (``of(_:)``, its halves folded together),
    /// which a snapshot keeps per row so that each row is verified as it is read.
    static func row(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let h = of(bytes)
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }

    /// The checksum of `bytes`.
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state = SnapshotChecksum()
        let whole = bytes.count / 32 * 32
        if whole > 0 { state.combine(blocks: UnsafeRawBufferPointer(rebasing: bytes[0..<whole])) }
        return state.finish(tail: UnsafeRawBufferPointer(rebasing: bytes[whole...]))
    }
}
