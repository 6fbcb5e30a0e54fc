import COpenSSL

/// The codec of a protected index: every payload sealed with AES-256-GCM, every lookup key an
/// HMAC-SHA256, both through OpenSSL's libcrypto.
///
/// - Payload: `nonce (12 bytes, fresh from RAND_bytes) ‖ ciphertext ‖ tag (16 bytes)`, with the
///   row's lookup key as additional authenticated data, so a record that is altered, truncated
///   or moved to another row fails to open. Random 96-bit nonces keep the nonce-reuse risk
///   negligible below 2³² seals per key (NIST SP 800-38D §8.3).
/// - Lookup key: HMAC-SHA256 of the name (an item id, `domain:…`, `meta:…`), so SQL still
///   finds a row by equality while ids and domains are opaque at rest. Equal names give equal
///   keys: what leaks is which rows share a domain and how many rows there are.
/// - Subkeys: the 32-byte ``ProtectionKey`` is used as HKDF's pseudo-random key and expanded
///   (RFC 5869 §2.3, one block: `HMAC(key, info ‖ 0x01)`) into a separate encryption key and
///   lookup key, so neither use can weaken the other. The key is uniformly random, which is
///   why the extract step is skipped (§3.3).
///
/// Thread-safe: each call uses its own OpenSSL context.
package struct AESGCMCodec: RecordCodec {
    /// The scheme recorded in a protected store.
    package static let schemeName = "aes-256-gcm-v1"
    static let nonceLength = 12
    static let tagLength = 16

    private let encryptionKey: [UInt8]
    private let lookupSubkey: [UInt8]

    /// A codec sealing with subkeys derived from `key`.
    /// - Complexity: O(1): two HMAC-SHA256 computations.
    package init(key: ProtectionKey) {
        encryptionKey = Self.hmacSHA256(key: key.bytes, message: Array("sift \(Self.schemeName) encryption".utf8) + [1])
        lookupSubkey = Self.hmacSHA256(key: key.bytes, message: Array("sift \(Self.schemeName) lookup".utf8) + [1])
    }

    /// A codec with the subkeys given as they are, for known-answer tests.
    init(encryptionKey: [UInt8], lookupSubkey: [UInt8]) {
        precondition(encryptionKey.count == 32 && lookupSubkey.count == 32, "subkeys are 32 bytes")
        self.encryptionKey = encryptionKey
        self.lookupSubkey = lookupSubkey
    }

    /// ``schemeName``: recorded in the store, so it is never opened with another codec.
    package var scheme: String { Self.schemeName }

    /// HMAC-SHA256 of the UTF-8 of `name` under the lookup subkey: 32 bytes.
    /// - Complexity: O(length of `name`).
    package func lookupKey(_ name: String) -> [UInt8] {
        Self.hmacSHA256(key: lookupSubkey, message: Array(name.utf8))
    }

    /// Encrypts and authenticates `plaintext` bound to `context`; the result is 28 bytes longer.
    /// - Throws: ``ProtectionError`` if OpenSSL fails or the record exceeds 2 GiB.
    /// - Complexity: O(plaintext length).
    package func seal(_ plaintext: [UInt8], context: [UInt8]) throws -> [UInt8] {
        var nonce = [UInt8](repeating: 0, count: Self.nonceLength)
        guard RAND_bytes(&nonce, Int32(Self.nonceLength)) == 1 else { throw ProtectionError.openSSL("RAND_bytes", Self.lastError()) }
        return try seal(plaintext, context: context, nonce: nonce)
    }

    /// Seals with the given nonce: only for known-answer tests, since a nonce must never repeat.
    func seal(_ plaintext: [UInt8], context: [UInt8], nonce: [UInt8]) throws -> [UInt8] {
        precondition(nonce.count == Self.nonceLength, "a GCM nonce here is 12 bytes")
        guard plaintext.count < Int(Int32.max) - 64, context.count < Int(Int32.max) else {
            throw ProtectionError.tooLarge(plaintext.count)
        }
        guard let ctx = EVP_CIPHER_CTX_new() else { throw ProtectionError.openSSL("EVP_CIPHER_CTX_new", Self.lastError()) }
        defer { EVP_CIPHER_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: Self.nonceLength + plaintext.count + Self.tagLength)
        for i in 0..<Self.nonceLength { out[i] = nonce[i] }
        var length: Int32 = 0
        guard EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), nil, encryptionKey, nonce) == 1 else {
            throw ProtectionError.openSSL("EVP_EncryptInit_ex", Self.lastError())
        }
        if !context.isEmpty {
            guard EVP_EncryptUpdate(ctx, nil, &length, context, Int32(context.count)) == 1 else {
                throw ProtectionError.openSSL("EVP_EncryptUpdate (context)", Self.lastError())
            }
        }
        let ok = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            let body = buffer.baseAddress! + Self.nonceLength
            var written: Int32 = 0
            if !plaintext.isEmpty {
                guard EVP_EncryptUpdate(ctx, body, &written, plaintext, Int32(plaintext.count)) == 1 else { return false }
            }
            var tail: Int32 = 0
            guard EVP_EncryptFinal_ex(ctx, body + Int(written), &tail) == 1, Int(written + tail) == plaintext.count else { return false }
            return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, Int32(Self.tagLength), body + plaintext.count) == 1
        }
        guard ok else { throw ProtectionError.openSSL("AES-256-GCM encryption", Self.lastError()) }
        return out
    }

    /// Verifies and decrypts what ``seal(_:context:)`` produced for the same `context`.
    /// - Throws: ``ProtectionError/authenticationFailed`` when the record was altered, moved to
    ///   another row or sealed with another key; ``ProtectionError/truncated(_:)`` when it is
    ///   shorter than a nonce and a tag.
    /// - Complexity: O(sealed length).
    package func open(_ sealed: [UInt8], context: [UInt8]) throws -> [UInt8] {
        guard sealed.count >= Self.nonceLength + Self.tagLength else { throw ProtectionError.truncated(sealed.count) }
        guard sealed.count < Int(Int32.max), context.count < Int(Int32.max) else { throw ProtectionError.tooLarge(sealed.count) }
        let bodyLength = sealed.count - Self.nonceLength - Self.tagLength
        guard let ctx = EVP_CIPHER_CTX_new() else { throw ProtectionError.openSSL("EVP_CIPHER_CTX_new", Self.lastError()) }
        defer { EVP_CIPHER_CTX_free(ctx) }
        // One spare byte, so the output pointer is valid even for an empty record.
        var plaintext = [UInt8](repeating: 0, count: bodyLength + 1)
        var tag = Array(sealed[(sealed.count - Self.tagLength)...])
        let nonce = Array(sealed[0..<Self.nonceLength])
        var length: Int32 = 0
        guard EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), nil, encryptionKey, nonce) == 1 else {
            throw ProtectionError.openSSL("EVP_DecryptInit_ex", Self.lastError())
        }
        if !context.isEmpty {
            guard EVP_DecryptUpdate(ctx, nil, &length, context, Int32(context.count)) == 1 else {
                throw ProtectionError.openSSL("EVP_DecryptUpdate (context)", Self.lastError())
            }
        }
        let authentic = sealed.withUnsafeBufferPointer { input -> Bool in
            plaintext.withUnsafeMutableBufferPointer { output -> Bool in
                var written: Int32 = 0
                if bodyLength > 0 {
                    guard
                        EVP_DecryptUpdate(ctx, output.baseAddress!, &written, input.baseAddress! + Self.nonceLength, Int32(bodyLength)) == 1
                    else { return false }
                }
                guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, Int32(Self.tagLength), &tag) == 1 else { return false }
                var tail: Int32 = 0
                return EVP_DecryptFinal_ex(ctx, output.baseAddress! + Int(written), &tail) == 1 && Int(written + tail) == bodyLength
            }
        }
        guard authentic else {
            ERR_clear_error()
            // Nothing of an unauthenticated record leaves this function.
            for i in plaintext.indices { plaintext[i] = 0 }
            throw ProtectionError.authenticationFailed
        }
        plaintext.removeLast()
        return plaintext
    }

    /// HMAC-SHA256 of `message` under `key`.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var outLength: UInt32 = 0
        // OpenSSL wants a non-null pointer even for an empty message.
        let count = message.count
        let padded = message.isEmpty ? [0] : message
        let result = key.withUnsafeBufferPointer { k in
            padded.withUnsafeBufferPointer { m in
                HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, count, &out, &outLength)
            }
        }
        // Only fails when memory runs out; a lookup key cannot be made up.
        precondition(result != nil && outLength == 32, "HMAC-SHA256 failed in OpenSSL: \(lastError())")
        return out
    }

    /// The most recent OpenSSL error, as text, and clears the queue.
    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no OpenSSL error recorded" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Why a protected record could not be sealed or opened, or a ``ProtectionKey`` could not be
/// loaded or made (naming the key file when there is one).
public enum ProtectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The key file does not exist.
    case keyFileMissing(String)
    /// The key file exists but cannot be read (the system's reason).
    case keyFileUnreadable(String, String)
    /// The key (or the key file, when `path` is given) has this many bytes, not 32 raw or 64
    /// hexadecimal.
    case wrongKeyLength(path: String?, Int)
    /// The key file has 64 characters, but not all hexadecimal digits.
    case keyNotHexadecimal(String)
    /// The system's random generator failed.
    case noRandomness
    /// The tag did not verify: the record was altered, moved or sealed with another key.
    case authenticationFailed
    /// The sealed record has this many bytes, fewer than a nonce and a tag (28).
    case truncated(Int)
    /// A record of this many bytes is beyond what one OpenSSL call takes (2 GiB).
    case tooLarge(Int)
    /// OpenSSL reported a failure in this call.
    case openSSL(String, String)

    public var description: String {
        switch self {
        case .keyFileMissing(let path):
            "\(path): the key file does not exist"
        case .keyFileUnreadable(let path, let why):
            "\(path): cannot read the key file (\(why))"
        case .wrongKeyLength(let path, let n):
            path.map { "\($0): a key file holds 32 raw bytes or 64 hexadecimal characters; this one has \(n) bytes" }
                ?? "a protection key is 32 bytes, got \(n)"
        case .keyNotHexadecimal(let path):
            "\(path): the key file has 64 characters, but not all are hexadecimal digits (0-9, a-f)"
        case .noRandomness:
            "the system's random generator failed; no key was made"
        case .authenticationFailed:
            "authentication failed: the record was altered, moved to another row, or sealed with another key"
        case .truncated(let n):
            "sealed record is \(n) bytes, shorter than its nonce and tag (28 bytes)"
        case .tooLarge(let n):
            "record of \(n) bytes is too large to seal"
        case .openSSL(let call, let why):
            "OpenSSL \(call) failed: \(why)"
        }
    }
}
