#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a snapshot file: little-endian fields through a 1 MiB buffer, checksummed as they
/// go, the checksum appended by ``finish()``. The first failed system call is kept and thrown
/// by ``finish()``, so the encoders need no `try` on every field.
final class SnapshotWriter {
    private static let capacity = 1 << 20
    private let fd: Int32
    private let path: String
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: SnapshotWriter.capacity, alignment: 64)
    private var used = 0
    private var checksum = SnapshotChecksum()
    /// Whether what is written now goes into the checksum (``unchecksummed(_:)``).
    private var checksumming = true
    private var failure: String?
    /// Bytes written so far, checksum excluded.
    private(set) var count = 0

    /// Creates (or truncates) `path`, readable by its owner only, as the store is.
    init(path: String) throws(SnapshotRejection) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd < 0 {
            let reason = String(cString: strerror(errno))
            buffer.deallocate()
            throw SnapshotRejection("cannot create the snapshot file (\(reason))")
        }
        // 0600 whatever the umask (which can only have taken bits away).
        _ = fchmod(fd, StorePermissions.fileMode)
    }

    deinit {
        if fd >= 0 { close(fd) }
        buffer.deallocate()
    }

    private func writeAll(_ p: UnsafeRawPointer, _ n: Int) {
        guard failure == nil else { return }
        var done = 0
        while done < n {
            let w = write(fd, p + done, n - done)
            if w < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
                return
            }
            done += w
        }
    }

    private func flush() {
        if checksumming { checksum.combine(blocks: UnsafeRawBufferPointer(start: buffer, count: used)) }
        writeAll(buffer, used)
        used = 0
    }

    /// Writes what `body` writes outside the file's checksum — the vector rows, which have a
    /// checksum each (``IndexSnapshot``). It must start and end at a file offset that is a
    /// multiple of 32, so the checksummed bytes on either side stay whole 32-byte blocks.
    func unchecksummed(_ body: () -> Void) {
        precondition(count % 32 == 0 && checksumming)
        flush()
        checksumming = false
        body()
        precondition(count % 32 == 0)
        flush()
        checksumming = true
    }

    /// Lets `body` fill `n` bytes (at most 1 MiB) of the buffer in place.
    @inline(__always)
    func withSpace(_ n: Int, _ body: (UnsafeMutableRawPointer) -> Void) {
        precondition(n <= Self.capacity)
        if used + n > Self.capacity {
            // Keep flushes at whole 32-byte blocks: top up to the block, then flush.
            let fill = Self.capacity - used
            withUnsafeTemporaryAllocation(byteCount: n, alignment: 8) { scratch in
                body(scratch.baseAddress!)
                (buffer + used).copyMemory(from: scratch.baseAddress!, byteCount: fill)
                used = Self.capacity
                flush()
                buffer.copyMemory(from: scratch.baseAddress! + fill, byteCount: n - fill)
                used = n - fill
            }
        } else {
            body(buffer + used)
            used += n
        }
        count += n
    }

    func bytes(_ p: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < p.count {
            let n = min(Self.capacity - used, p.count - offset)
            (buffer + used).copyMemory(from: p.baseAddress! + offset, byteCount: n)
            used += n
            offset += n
            count += n
            if used == Self.capacity { flush() }
        }
    }

    func u8(_ v: UInt8) { withSpace(1) { $0.storeBytes(of: v, as: UInt8.self) } }
    func u16(_ v: UInt16) { withSpace(2) { $0.storeBytes(of: v.littleEndian, toByteOffset: 0, as: UInt16.self) } }
    func u32(_ v: UInt32) { withSpace(4) { $0.storeBytes(of: v.littleEndian, toByteOffset: 0, as: UInt32.self) } }
    func u64(_ v: UInt64) { withSpace(8) { $0.storeBytes(of: v.littleEndian, toByteOffset: 0, as: UInt64.self) } }
    func count(_ n: Int) { u32(UInt32(n)) }
    func f32(_ v: Float) { u32(v.bitPattern) }
    func f64(_ v: Double) { u64(v.bitPattern) }
    func bool(_ v: Bool) { u8(v ? 1 : 0) }
    func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            count(utf8.count)
            bytes(UnsafeRawBufferPointer(utf8))
        }
    }
    func optionalString(_ s: String?) {
        bool(s != nil)
        if let s { string(s) }
    }
    func optionalDate(_ d: Double?) {
        bool(d != nil)
        if let d { f64(d) }
    }

    /// Writes what is buffered and the checksum, and closes the file.
    /// - Returns: the file's size in bytes.
    func finish() throws(SnapshotRejection) -> Int {
        let whole = used / 32 * 32
        checksum.combine(blocks: UnsafeRawBufferPointer(start: buffer, count: whole))
        let sum = checksum.finish(tail: UnsafeRawBufferPointer(start: buffer + whole, count: used - whole))
        writeAll(buffer, used)
        var le = sum.littleEndian
        withUnsafeBytes(of: &le) { writeAll($0.baseAddress!, 8) }
        used = 0
        if let failure { throw SnapshotRejection("cannot write the snapshot (\(failure))") }
        return count + 8
    }
}

/// A read-only mapping of a snapshot file.
/// Parts the index goes on using after the open are mapped again on their own (``keep(_:)``), so
/// that the rest of the file is unmapped when this goes.
final class MappedSnapshot {
    let base: UnsafeRawPointer
    let count: Int
    private let fd: Int32

    /// Not `MAP_POPULATE`: faulting every page in up front was a serial ~10 ms at 100k items,
    /// where the decode's own reads fault them in across the cores; and an item's text is read
    /// only when the item is.
    private static let flags = MAP_PRIVATE

    /// Maps `path`, or says why not (missing, unreadable, empty).
    init(path: String) throws(SnapshotRejection) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            throw SnapshotRejection(
                errno == ENOENT ? IndexSnapshot.missing : "the snapshot cannot be opened (\(String(cString: strerror(errno))))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw SnapshotRejection("the snapshot is not a regular file")
        }
        let size = Int(info.st_size)
        guard size > 0 else {
            close(fd)
            throw SnapshotRejection("the snapshot is empty (truncated)")
        }
        guard let p = mmap(nil, size, PROT_READ, Self.flags, fd, 0), p != MAP_FAILED else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw SnapshotRejection("the snapshot cannot be mapped (\(why))")
        }
        base = UnsafeRawPointer(p)
        count = size
        self.fd = fd
    }

    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The pages of the file that hold `range`, mapped on their own (read-only, private) for as
    /// long as the region lives: the same bytes as this mapping's, from the same open file.
    func keep(_ range: Range<Int>) throws(SnapshotRejection) -> MappedRegion {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        let lower = range.lowerBound / Self.pageSize * Self.pageSize
        let length = max(range.upperBound - lower, 1)
        guard let p = mmap(nil, length, PROT_READ, Self.flags, fd, off_t(lower)), p != MAP_FAILED else {
            throw SnapshotRejection("the snapshot cannot be mapped (\(String(cString: strerror(errno))))")
        }
        // The region's own descriptor, for reads that bypass the mapping (nil if none is left:
        // reads then go through the mapping).
        let file = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        return MappedRegion(base: UnsafeRawPointer(p), count: length, fileOffset: lower, file: file >= 0 ? file : nil)
    }

    /// ``SnapshotChecksum`` of the file's first `length` bytes but those of `excluded` (whose
    /// bounds are multiples of 32: the vector rows, checked row by row instead), read with
    /// `pread` a megabyte at a time into one buffer rather than through the mapping: the
    /// checksum reads every page once, and faulting each into the mapping cost more than
    /// copying it (at 1M items the file's 1.5 GB took ~700 ms through the mapping). nil when a
    /// read fails.
    func checksum(ofFirst length: Int, excluding excluded: Range<Int>? = nil) -> UInt64? {
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 64)
        defer { buffer.deallocate() }
        var state = SnapshotChecksum()
        let parts = excluded.map { [0..<$0.lowerBound, $0.upperBound..<length] } ?? [0..<length]
        for (i, part) in parts.enumerated() {
            var done = part.lowerBound
            while done < part.upperBound {
                let want = min(chunk, part.upperBound - done)
                guard read(want, at: done, into: buffer) else { return nil }
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<want])
                if i == parts.count - 1 && done + want == part.upperBound { return state.finish(tail: bytes) }
                // Whole 32-byte blocks: every part before the last ends on a multiple of 32.
                state.combine(blocks: bytes)
                done += want
            }
        }
        return state.finish(tail: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Reads `count` bytes at `offset` into `buffer`; false when a read fails or the file ends.
    private func read(_ count: Int, at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var got = 0
        while got < count {
            let n = pread(fd, buffer.baseAddress! + got, count - got, off_t(offset + got))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            got += n
        }
        return true
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), count)
        close(fd)
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}

/// Reads what ``SnapshotWriter`` wrote; every read is bounds-checked, so a damaged file is a
/// ``SnapshotRejection``, never a crash.
struct SnapshotReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    @inline(__always)
    mutating func take(_ n: Int) throws(SnapshotRejection) -> UnsafeRawBufferPointer {
        guard n >= 0, n <= bytes.count - offset else {
            throw SnapshotRejection("the snapshot is truncated (a field at byte \(offset) runs past its end)")
        }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + n)])
    }

    @inline(__always)
    private mutating func load<T: FixedWidthInteger>(_: T.Type) throws(SnapshotRejection) -> T {
        let p = try take(MemoryLayout<T>.size)
        return T(littleEndian: p.loadUnaligned(as: T.self))
    }

    mutating func u8() throws(SnapshotRejection) -> UInt8 { try load(UInt8.self) }
    mutating func u16() throws(SnapshotRejection) -> UInt16 { try load(UInt16.self) }
    mutating func u32() throws(SnapshotRejection) -> UInt32 { try load(UInt32.self) }
    mutating func u64() throws(SnapshotRejection) -> UInt64 { try load(UInt64.self) }
    mutating func f32() throws(SnapshotRejection) -> Float { Float(bitPattern: try u32()) }
    mutating func f64() throws(SnapshotRejection) -> Double { Double(bitPattern: try u64()) }
    mutating func bool() throws(SnapshotRejection) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let v: throw SnapshotRejection("the snapshot is malformed (flag \(v) at byte \(offset - 1))")
        }
    }
    /// A count of things each at least `minimumSize` bytes long: refused when the rest of the
    /// file could not hold them, so a damaged count never makes a huge allocation.
    mutating func count(minimumSize: Int = 1) throws(SnapshotRejection) -> Int {
        let n = Int(try u32())
        guard n <= remaining / max(minimumSize, 1) else {
            throw SnapshotRejection("the snapshot is malformed (count \(n) at byte \(offset - 4) exceeds what is left)")
        }
        return n
    }
    mutating func string() throws(SnapshotRejection) -> String {
        let n = Int(try u32())
        let raw = try take(n)
        return String(decoding: UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: n), as: UTF8.self)
    }
    mutating func optionalString() throws(SnapshotRejection) -> String? { try bool() ? try string() : nil }
    mutating func optionalDouble() throws(SnapshotRejection) -> Double? { try bool() ? try f64() : nil }
}
