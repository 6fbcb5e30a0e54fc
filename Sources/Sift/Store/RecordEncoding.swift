import Foundation

/// A compact, versioned binary encoding of items and donations for the store's payloads:
/// little-endian integers, length-prefixed UTF-8 strings, raw little-endian floats.
struct RecordWriter {
    private(set) var bytes: [UInt8] = []

    init(version: UInt8, capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
        bytes.append(version)
    }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func string(_ s: String) {
        u32(UInt32(s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }
    mutating func optionalString(_ s: String?) {
        if let s {
            u8(1)
            string(s)
        } else {
            u8(0)
        }
    }
    mutating func optionalDate(_ d: Date?) {
        if let d {
            u8(1)
            f64(d.timeIntervalSince1970)
        } else {
            u8(0)
        }
    }
    mutating func floats(_ v: [Float]) {
        u32(UInt32(v.count))
        #if _endian(little)
            v.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
            for x in v { withUnsafeBytes(of: x.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        #endif
    }
    /// `v` as IEEE binary16 bit patterns (rounded to nearest even), little-endian.
    mutating func halves(_ v: [Float]) {
        u32(UInt32(v.count))
        guard !v.isEmpty else { return }
        // Converted in scratch space on the stack, then appended: no array a record.
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: v.count) { h in
            v.withUnsafeBufferPointer { LinearAlgebra.toHalf($0.baseAddress!, into: h.baseAddress!, count: v.count) }
            #if _endian(little)
                bytes.append(contentsOf: UnsafeRawBufferPointer(h))
            #else
                for x in h { withUnsafeBytes(of: x.littleEndian) { bytes.append(contentsOf: $0) } }
            #endif
        }
    }

    /// The bytes written, followed by their ``RecordChecksum``: appended in place, where
    /// `RecordChecksum.appended(to: bytes)` copies the record (the writer still holds it).
    mutating func finishedWithChecksum() -> [UInt8] {
        let sum = RecordChecksum.of(bytes[...])
        withUnsafeBytes(of: sum.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }
}

/// Reads what ``RecordWriter`` wrote; every read is bounds-checked.
struct RecordReader {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    private let bytes: [UInt8]
    private var offset = 0
    let version: UInt8

    init(_ bytes: [UInt8]) throws {
        guard let first = bytes.first else { throw Malformed(description: "empty record") }
        self.bytes = bytes
        self.version = first
        offset = 1
    }

    private mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n >= 0, offset + n <= bytes.count else { throw Malformed(description: "record truncated at byte \(offset)") }
        defer { offset += n }
        return bytes[offset..<(offset + n)]
    }

    mutating func u8() throws -> UInt8 { try take(1).first! }
    mutating func u32() throws -> UInt32 {
        try take(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }
    mutating func f64() throws -> Double {
        Double(bitPattern: try take(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
    mutating func string() throws -> String {
        let n = Int(try u32())
        guard let s = String(validating: try take(n), as: UTF8.self) else { throw Malformed(description: "invalid UTF-8 in record") }
        return s
    }
    mutating func optionalString() throws -> String? { try u8() == 1 ? try string() : nil }
    mutating func optionalDate() throws -> Date? { try u8() == 1 ? Date(timeIntervalSince1970: try f64()) : nil }
    mutating func floats() throws -> [Float] {
        let n = Int(try u32())
        let raw = try take(n * 4)
        return raw.withUnsafeBytes { p in
            (0..<n).map { Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }
    /// What ``RecordWriter/halves(_:)`` wrote, widened to `Float` (exactly).
    mutating func halves() throws -> [Float] {
        let n = Int(try u32())
        let raw = try take(n * 2)
        let h = raw.withUnsafeBytes { p in (0..<n).map { UInt16(littleEndian: p.loadUnaligned(fromByteOffset: $0 * 2, as: UInt16.self)) } }
        return [Float](unsafeUninitializedCapacity: n) { buffer, count in
            h.withUnsafeBufferPointer { if n > 0 { LinearAlgebra.fromHalf($0.baseAddress!, into: buffer.baseAddress!, count: n) } }
            count = n
        }
    }
    var isAtEnd: Bool { offset == bytes.count }
}

extension StoredItem {
    /// 2: ends with a checksum (``RecordChecksum``); 1 is still read.
    static let encodingVersion: UInt8 = 2
    /// 3: as 2, and the vector may be stored as fp16 (its tag 2); written only for such a
    /// record (store schema 4, which a Sift that does not know it refuses to open).
    static let halfVectorEncodingVersion: UInt8 = 3

    /// The record; with `halfVector`, the vector as fp16 (half the bytes: what an index whose
    /// rows are fp16 keeps of it anyway).
    func encoded(halfVector: Bool = false) -> [UInt8] {
        let text =
            item.id.rawValue.utf8.count + item.domain.utf8.count + item.title.utf8.count + item.content.utf8.count
            + item.keywords.reduce(0) { $0 + $1.utf8.count + 4 } + (item.url?.utf8.count ?? 0) + (item.displayName?.utf8.count ?? 0)
        let half = halfVector && vector != nil
        var w = RecordWriter(
            version: half ? Self.halfVectorEncodingVersion : Self.encodingVersion,
            capacity: 64 + RecordChecksum.size + text + (half ? 2 : 4) * (vector?.count ?? 0))
        w.string(item.id.rawValue)
        w.string(item.domain)
        w.string(item.title)
        w.string(item.content)
        w.u32(UInt32(item.keywords.count))
        for k in item.keywords { w.string(k) }
        w.optionalDate(item.date)
        w.optionalDate(item.expires)
        w.optionalString(item.url)
        if let hint = item.rankingHint {
            w.u8(1)
            w.u32(UInt32(bitPattern: Int32(clamping: hint)))
        } else {
            w.u8(0)
        }
        w.optionalString(item.displayName)
        if let vector, half {
            w.u8(2)
            w.halves(vector)
        } else if let vector {
            w.u8(1)
            w.floats(vector)
        } else {
            w.u8(0)
        }
        return w.finishedWithChecksum()
    }

    init(decoding bytes: [UInt8]) throws {
        var r = try RecordReader(try RecordChecksum.body(of: bytes, kind: "item"))
        guard r.version == 1 || r.version == Self.encodingVersion || r.version == Self.halfVectorEncodingVersion else {
            throw RecordReader.Malformed(description: "unknown item record version \(r.version)")
        }
        var item = SearchableItem(id: ItemID(try r.string()))
        item.domain = try r.string()
        item.title = try r.string()
        item.content = try r.string()
        let count = Int(try r.u32())
        guard count <= 1 << 20 else { throw RecordReader.Malformed(description: "implausible keyword count \(count)") }
        item.keywords = try (0..<count).map { _ in try r.string() }
        item.date = try r.optionalDate()
        item.expires = try r.optionalDate()
        item.url = try r.optionalString()
        item.rankingHint = try r.u8() == 1 ? Int(Int32(bitPattern: try r.u32())) : nil
        item.displayName = try r.optionalString()
        let vector: [Float]?
        switch try r.u8() {
        case 0: vector = nil
        case 1: vector = try r.floats()
        case 2 where r.version == Self.halfVectorEncodingVersion: vector = try r.halves()
        case let tag: throw RecordReader.Malformed(description: "unknown vector tag \(tag) in an item record of version \(r.version)")
        }
        guard r.isAtEnd else { throw RecordReader.Malformed(description: "trailing bytes in item record") }
        self.init(item: item, vector: vector)
    }
}

extension Donation {
    /// 2: ends with a checksum (``RecordChecksum``); 1 is still read.
    static let encodingVersion: UInt8 = 2

    func encoded() -> [UInt8] {
        var w = RecordWriter(version: Self.encodingVersion)
        w.string(itemID.rawValue)
        w.string(intent)
        w.optionalString(surface)
        w.f64(date.timeIntervalSince1970)
        return w.finishedWithChecksum()
    }

    init(decoding bytes: [UInt8]) throws {
        var r = try RecordReader(try RecordChecksum.body(of: bytes, kind: "donation"))
        guard r.version == 1 || r.version == Self.encodingVersion else {
            throw RecordReader.Malformed(description: "unknown donation record version \(r.version)")
        }
        let id = ItemID(try r.string())
        let intent = try r.string()
        let surface = try r.optionalString()
        let date = Date(timeIntervalSince1970: try r.f64())
        guard r.isAtEnd else { throw RecordReader.Malformed(description: "trailing bytes in donation record") }
        self.init(intent: intent, itemID: id, surface: surface, date: date)
    }
}
