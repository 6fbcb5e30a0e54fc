/// Percent-escaping of identifier parts (RFC 3986): every byte of the UTF-8 except the
/// unreserved characters `A–Z a–z 0–9 - . _ ~` becomes `%XX` (upper-case hex). So an escaped
/// part never contains "/", "?", "#" or "%" of its own, which is what makes a composed
/// identifier or URL split back unambiguously.
enum EntityEscaping {
    static func isUnreserved(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
            || b == 0x2D || b == 0x2E || b == 0x5F || b == 0x7E
    }

    /// - Complexity: O(n) in the UTF-8 length.
    static func escape(_ text: String) -> String {
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            if isUnreserved(b) {
                out.append(b)
            } else {
                out.append(0x25)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text `escaped` stands for, or nil when an escape is malformed or the bytes are not
    /// UTF-8. Accepts lower-case hex and unnecessary escapes (see ``isCanonical(_:)``).
    /// - Complexity: O(n) in the length.
    static func unescape<S: StringProtocol>(_ escaped: S) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(escaped.utf8.count)
        var iterator = escaped.utf8.makeIterator()
        while let b = iterator.next() {
            if b == 0x25 {
                guard let h = iterator.next().flatMap(hexValue), let l = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(h << 4 | l)
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether `escaped` is exactly what ``escape(_:)`` writes for the text it stands for.
    static func isCanonical<S: StringProtocol>(_ escaped: S) -> Bool {
        guard let text = unescape(escaped) else { return false }
        return escape(text).utf8.elementsEqual(escaped.utf8)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}
