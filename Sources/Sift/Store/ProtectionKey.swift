import COpenSSL
import Foundation

/// The 32-byte secret of a protected index (see `AESGCMCodec`).
///
/// Its `description` never shows the bytes, so a key that reaches a log or an error message by
/// accident stays secret.
public struct ProtectionKey: Sendable, CustomStringConvertible {
    /// Number of bytes in a key (AES-256).
    public static let byteCount = 32

    /// The secret bytes, exactly ``byteCount`` of them.
    public let bytes: [UInt8]

    /// A key from its raw bytes.
    /// - Throws: ``ProtectionError`` when `bytes` is not exactly 32 bytes long.
    /// - Complexity: O(1).
    public init(bytes: [UInt8]) throws(ProtectionError) {
        guard bytes.count == Self.byteCount else {
            throw ProtectionError.wrongKeyLength(path: nil, bytes.count)
        }
        self.bytes = bytes
    }

    /// Reads a key file: exactly 32 raw bytes, or 64 hexadecimal characters (either case),
    /// optionally surrounded by white space such as a final newline.
    /// - Throws: ``ProtectionError`` naming the file and what is wrong: missing, unreadable,
    ///   not a regular file, or of the wrong length or alphabet.
    /// - Complexity: O(1): a key file is at most a few dozen bytes (larger files are refused
    ///   without being read whole).
    public init(contentsOf url: URL) throws(ProtectionError) {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ProtectionError.keyFileMissing(path)
        }
        if isDirectory.boolValue { throw ProtectionError.keyFileUnreadable(path, "it is a directory") }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // A key file is tiny; reading one byte more than the largest valid form is enough
            // to tell that a file is too long.
            data = try handle.read(upToCount: 4096) ?? Data()
        } catch {
            throw ProtectionError.keyFileUnreadable(path, (error as NSError).localizedDescription)
        }
        let raw = [UInt8](data)
        if raw.count == Self.byteCount {
            bytes = raw
            return
        }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let trimmed = raw.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        guard trimmed.count == 2 * Self.byteCount else {
            throw ProtectionError.wrongKeyLength(path: path, raw.count)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(Self.byteCount)
        var high: UInt8?
        for c in trimmed {
            let nibble: UInt8
            switch c {
            case 0x30...0x39: nibble = c - 0x30
            case 0x41...0x46: nibble = c - 0x41 + 10
            case 0x61...0x66: nibble = c - 0x61 + 10
            default: throw ProtectionError.keyNotHexadecimal(path)
            }
            if let h = high {
                decoded.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        bytes = decoded
    }

    /// A fresh key from OpenSSL's cryptographically secure generator (`RAND_bytes`).
    /// - Throws: ``ProtectionError`` if the generator fails (it has no entropy).
    /// - Complexity: O(1).
    public static func random() throws(ProtectionError) -> ProtectionKey {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        guard RAND_bytes(&bytes, Int32(byteCount)) == 1 else {
            throw ProtectionError.noRandomness
        }
        return try ProtectionKey(bytes: bytes)
    }

    /// The key as 64 lower-case hexadecimal characters, the form a key file may hold.
    public var hexadecimal: String { Store.hex(bytes) }

    /// Never the bytes: `ProtectionKey(32 bytes, redacted)`.
    public var description: String { "ProtectionKey(32 bytes, redacted)" }
}
