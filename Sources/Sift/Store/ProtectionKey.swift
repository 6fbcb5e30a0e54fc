import COpenSSL
import Foundation

/// The 32-byte secret of a protected index (see ``AESGCMCodec``).
///
/// Its `description` never shows the bytes, so a key that reaches a log or an error message by
/// accident stays secret.
public struct ProtectionKey: Sendable, CustomStringConvertible {
    /// Number of bytes in a key (AES-256).
    public static let byteCount = 32

    /// The secret bytes, exactly ``byteCount`` of them.
    public let bytes: [UInt8]

    /// A key from its raw bytes.
    /// - Throws: ``ProtectionKeyError`` when `bytes` is not exactly 32 bytes long.
    /// - Complexity: O(1).
    public init(bytes: [UInt8]) throws(ProtectionKeyError) {
        guard bytes.count == Self.byteCount else {
            throw ProtectionKeyError(path: nil, reason: .wrongLength(bytes.count))
        }
        self.bytes = bytes
    }

    /// Reads a key file: exactly 32 raw bytes, or 64 hexadecimal characters (either case),
    /// optionally surrounded by white space such as a final newline.
    /// - Throws: ``ProtectionKeyError`` naming the file and what is wrong: missing, unreadable,
    ///   not a regular file, or of the wrong length or alphabet.
    /// - Complexity: O(1): a key file is at most a few dozen bytes (larger files are refused
    ///   without being read whole).
    public init(contentsOf url: URL) throws(ProtectionKeyError) {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ProtectionKeyError(path: path, reason: .missing)
        }
        if isDirectory.boolValue { throw ProtectionKeyError(path: path, reason: .unreadable("it is a directory")) }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // A key file is tiny; reading one byte more than the largest valid form is enough
            // to tell that a file is too long.
            data = try handle.read(upToCount: 4096) ?? Data()
        } catch {
            throw ProtectionKeyError(path: path, reason: .unreadable((error as NSError).localizedDescription))
        }
        let raw = [UInt8](data)
        if raw.count == Self.byteCount {
            bytes = raw
            return
        }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let trimmed = raw.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        guard trimmed.count == 2 * Self.byteCount else {
            throw ProtectionKeyError(path: path, reason: .wrongLength(raw.count))
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
            default: throw ProtectionKeyError(path: path, reason: .notHexadecimal)
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
    /// - Throws: ``ProtectionKeyError`` if the generator fails (it has no entropy).
    /// - Complexity: O(1).
    public static func random() throws(ProtectionKeyError) -> ProtectionKey {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        guard RAND_bytes(&bytes, Int32(byteCount)) == 1 else {
            throw ProtectionKeyError(path: nil, reason: .noRandomness)
        }
        return try ProtectionKey(bytes: bytes)
    }

    /// The key as 64 lower-case hexadecimal characters, the form a key file may hold.
    public var hexadecimal: String { Store.hex(bytes) }

    /// Never the bytes: `ProtectionKey(32 bytes, redacted)`.
    public var description: String { "ProtectionKey(32 bytes, redacted)" }
}

/// A key that could not be loaded, with the file and the reason.
public struct ProtectionKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
        /// The file does not exist.
        case missing
        /// The file exists but cannot be read (the system's reason).
        case unreadable(String)
        /// The key (or file) has this many bytes, not 32 raw or 64 hexadecimal.
        case wrongLength(Int)
        /// 64 characters, but not all hexadecimal digits.
        case notHexadecimal
        /// The system's random generator failed.
        case noRandomness
    }

    /// The key file, when the key came from one.
    public var path: String?
    package var reason: Reason

    public var description: String {
        let prefix = path.map { "\($0): " } ?? ""
        switch reason {
        case .missing:
            return "\(prefix)the key file does not exist"
        case .unreadable(let why):
            return "\(prefix)cannot read the key file (\(why))"
        case .wrongLength(let n):
            return path == nil
                ? "a protection key is 32 bytes, got \(n)"
                : "\(prefix)a key file holds 32 raw bytes or 64 hexadecimal characters; this one has \(n) bytes"
        case .notHexadecimal:
            return "\(prefix)the key file has 64 characters, but not all are hexadecimal digits (0-9, a-f)"
        case .noRandomness:
            return "the system's random generator failed; no key was made"
        }
    }
}
