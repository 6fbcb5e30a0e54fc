/// Writes a passage of a text as a ``Snippet``: on one line (each run of white space and
/// control characters becomes one space, none at either end), "…" where the text was cut, and
/// the highlights moved to the offsets they have in the passage.
struct SnippetRenderer {
    /// The UTF-8 of the whole text.
    let bytes: [UInt8]

    static let ellipsis = Array("…".utf8)

    /// The passage `range` of the text (a range on scalar boundaries), with `highlights`
    /// (ascending byte ranges inside `range`, on scalar boundaries, never over a space).
    func render(_ range: Range<Int>, highlights: [Range<Int>], ellipses: (leading: Bool, trailing: Bool)) -> Snippet {
        var out: [UInt8] = []
        out.reserveCapacity(range.count + 8)
        if ellipses.leading { out += Self.ellipsis }
        let floor = out.count
        var moved: [Range<Int>] = []
        moved.reserveCapacity(highlights.count)
        var next = 0  // the next highlight to open or close
        var openedAt = -1
        var pendingSpace = false
        bytes.withUnsafeBufferPointer { p in
            var i = range.lowerBound
            while i < range.upperBound {
                let lead = p[i]
                let width = lead < 0x80 ? 1 : min(Self.scalarWidth(lead), range.upperBound - i)
                if openedAt >= 0 && highlights[next].upperBound == i {
                    moved.append(openedAt..<out.count)
                    openedAt = -1
                    next += 1
                }
                if lead < 0x80 ? (lead <= 0x20 || lead == 0x7F) : Self.isSpaceOrControl(p, at: i, width: width) {
                    pendingSpace = true
                } else {
                    if pendingSpace && out.count > floor { out.append(0x20) }
                    pendingSpace = false
                    if openedAt < 0 && next < highlights.count && highlights[next].lowerBound == i { openedAt = out.count }
                    for k in i..<(i + width) { out.append(p[k]) }
                }
                i += width
            }
        }
        if openedAt >= 0 { moved.append(openedAt..<out.count) }
        if ellipses.trailing { out += Self.ellipsis }
        return Snippet(text: String(decoding: out, as: UTF8.self), highlights: moved)
    }

    /// The length of the UTF-8 sequence that begins with `lead` (1 for a stray continuation byte).
    static func scalarWidth(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }

    /// The scalar value and length of the UTF-8 sequence at `i` of `bytes` (a valid string's).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let lead = bytes[i]
        let width = max(1, min(scalarWidth(lead), bytes.count - i))
        var value = UInt32(lead) & (lead >= 0xF0 ? 0x07 : lead >= 0xE0 ? 0x0F : lead >= 0xC0 ? 0x1F : 0x7F)
        var k = 1
        while k < width {
            value = value << 6 | UInt32(bytes[i + k] & 0x3F)
            k += 1
        }
        return (value, width)
    }

    /// Whether the non-ASCII scalar of `width` bytes at `i` is white space or a control character.
    static func isSpaceOrControl(_ p: UnsafeBufferPointer<UInt8>, at i: Int, width: Int) -> Bool {
        let lead = p[i]
        var value = UInt32(lead) & (lead >= 0xF0 ? 0x07 : lead >= 0xE0 ? 0x0F : 0x1F)
        for k in (i + 1)..<(i + max(1, width)) { value = value << 6 | UInt32(p[k] & 0x3F) }
        guard let s = Unicode.Scalar(value) else { return false }
        return s.properties.isWhitespace || s.properties.generalCategory == .control
            || s.properties.generalCategory == .lineSeparator || s.properties.generalCategory == .paragraphSeparator
    }
}
