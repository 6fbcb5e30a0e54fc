/// Damage detection for the store's records (schema 3). A plain store's payloads are the record
/// bytes themselves, so without a checksum a flipped byte in a title would decode to another
/// title and nothing could tell; a protected store's AES-GCM tag already detects it, and the
/// checksum inside the sealed bytes costs it only 8 bytes a record.
///
/// - Item and donation records of version 2 end with the ``SnapshotChecksum`` (FNV-1a 64 in
///   four lanes: detects damage, not tampering) of every byte before it, version byte included.
///   Version 1 records (written before schema 3) carry none and are read as they are.
/// - Meta values are framed: `0xFF` (never the first byte of UTF-8 text, so a value written
///   before schema 3 is told apart), the UTF-8 text, then the checksum of the two.
enum RecordChecksum {
    /// Bytes of the checksum at the end of a record.
    static let size = 8
    /// The first record version that carries a checksum.
    static let firstChecksummedVersion: UInt8 = 2
    /// The first byte of a framed meta value.
    static let metaMarker: UInt8 = 0xFF

    static func of(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { SnapshotChecksum.of($0) }
    }

    /// `body` followed by the checksum of its bytes.
    static func appended(to body: [UInt8]) -> [UInt8] {
        var out = body
        out.reserveCapacity(body.count + size)
        withUnsafeBytes(of: of(body[...]).littleEndian) { out.append(contentsOf: $0) }
        return out
    }

    /// Whether the checksum at the end of `record` matches the bytes before it.
    static func matches(_ record: [UInt8]) -> Bool {
        guard record.count >= size else { return false }
        let end = record.count - size
        let stored = record[end...].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return stored == of(record[..<end])
    }

    /// The bytes a record decoder reads: for a record of a checksummed version, the record
    /// without its checksum once it matches (else it throws); an older record as it is.
    static func body(of record: [UInt8], kind: String) throws -> [UInt8] {
        guard let version = record.first, version >= firstChecksummedVersion else { return record }
        guard record.count >= 1 + size else { throw RecordReader.Malformed(description: "\(kind) record too short for its checksum") }
        guard matches(record) else { throw RecordReader.Malformed(description: "\(kind) record checksum mismatch") }
        return Array(record[..<(record.count - size)])
    }

    /// Whether `record` (an opened payload) carries a checksum, i.e. was verified when decoded.
    static func isChecksummed(_ record: [UInt8]) -> Bool {
        (record.first ?? 0) >= firstChecksummedVersion
    }

    /// `record` with its trailing checksum recomputed: for tests and fuzzers that mutate a
    /// record and want the decoder behind the checksum to see it. Older records are returned
    /// as they are.
    static func resealed(_ record: [UInt8]) -> [UInt8] {
        guard isChecksummed(record), record.count >= 1 + size else { return record }
        return appended(to: Array(record[..<(record.count - size)]))
    }

    // MARK: Meta values

    /// The framed form of a meta value's UTF-8 text.
    static func framedMeta(_ text: [UInt8]) -> [UInt8] {
        appended(to: [metaMarker] + text)
    }

    /// The UTF-8 text of an opened meta value: verified when framed, as it is when written
    /// before schema 3.
    static func metaText(_ value: [UInt8]) throws -> [UInt8] {
        guard value.first == metaMarker else { return value }
        guard value.count >= 1 + size, matches(value) else { throw RecordReader.Malformed(description: "meta value checksum mismatch") }
        return Array(value[1..<(value.count - size)])
    }
}
