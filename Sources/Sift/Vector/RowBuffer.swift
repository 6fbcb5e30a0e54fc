import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The components of a ``VectorIndex``'s rows, row-major (and the keyword index's postings and
/// rows' term ids): an array the index owns, or — after an open from a snapshot — the snapshot
/// file's own pages, mapped read-only and used where they lie instead of being copied. The first
/// change copies mapped components into an array (once), so a mapped buffer behaves as a value
/// like the array it stands for.
struct RowBuffer<Element: BitwiseCopyable & Sendable>: Sendable {
    private var owned: [Element] = []
    /// The region, the byte offset of the first component in it, and the component count.
    private var mapped: (region: MappedRegion, offset: Int, count: Int)?

    init() {}

    init(_ elements: [Element]) { owned = elements }

    /// `count` components lying `offset` bytes into `region`, which keeps them mapped; nil when
    /// they are not aligned for `Element` or do not fit in the region.
    init?(region: MappedRegion, offset: Int, count: Int) {
        guard offset >= 0, count >= 0, offset % MemoryLayout<Element>.alignment == 0,
            count <= (region.count - offset) / MemoryLayout<Element>.stride
        else { return nil }
        mapped = (region, offset, count)
    }

    var count: Int { mapped?.count ?? owned.count }

    /// Whether the components are the snapshot's pages rather than an array.
    var isMapped: Bool { mapped != nil }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        if let m = mapped {
            // The region's pages are read-only and never change: binding them is only a view.
            let start = (m.region.base + m.offset).bindMemory(to: Element.self, capacity: m.count)
            return try body(UnsafeBufferPointer(start: start, count: m.count))
        }
        return try owned.withUnsafeBufferPointer(body)
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer { try body(UnsafeRawBufferPointer($0)) }
    }

    /// - Complexity: O(count) the first time after a mapped open (the copy), O(1) after.
    mutating func withUnsafeMutableBufferPointer<R>(_ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R) rethrows -> R {
        own()
        return try owned.withUnsafeMutableBufferPointer(body)
    }

    mutating func append(contentsOf elements: some Collection<Element>) {
        own()
        owned.append(contentsOf: elements)
    }

    mutating func removeAll() {
        mapped = nil
        owned.removeAll()
    }

    /// The components as an array (a copy when mapped).
    var array: [Element] { withUnsafeBufferPointer { Array($0) } }

    /// Copies components `range` to `target`: when they are a snapshot's mapped pages, read from
    /// the file (`pread`) rather than through the mapping, so that reading a few rows leaves
    /// none of the file's pages in the process's resident set (they stay in the system's page
    /// cache); from memory otherwise.
    func copy(_ range: Range<Int>, into target: UnsafeMutablePointer<Element>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        let stride = MemoryLayout<Element>.stride
        if let m = mapped,
            m.region.read(at: m.offset + range.lowerBound * stride, count: range.count * stride, into: UnsafeMutableRawPointer(target))
        {
            return
        }
        withUnsafeBufferPointer { target.update(from: $0.baseAddress! + range.lowerBound, count: range.count) }
    }

    /// Lets a mapped buffer's pages go from the process's resident set after a pass that read
    /// them all (coding a copy of them); nothing for a buffer of its own.
    func releaseMappedPages() {
        guard let m = mapped else { return }
        PageAdvice.release(m.region.base + m.offset, bytes: m.count * MemoryLayout<Element>.stride)
    }

    /// Lets the whole pages of components `range` of a mapped buffer go from the process's
    /// resident set, however few: a part copied out (a posting list that changed) is not read
    /// here again by this buffer's owner, and a copy that still reads it faults it in again.
    func releaseMappedPages(_ range: Range<Int>) {
        guard let m = mapped, !range.isEmpty else { return }
        let stride = MemoryLayout<Element>.stride
        PageAdvice.release(m.region.base + m.offset + range.lowerBound * stride, bytes: range.count * stride, minimum: 0)
    }

    /// Copies mapped components into an array the buffer owns, with an eighth more room so that
    /// the appends that follow a first change (new rows) do not copy them again; then lets the
    /// mapped pages go from the process (where the system allows), which the buffer no longer
    /// reads (a copy of it that still does reads them again from the file).
    /// - Complexity: O(count), once. On Linux the array's pages are made resident in one call
    ///   before the copy (`MADV_POPULATE_WRITE`): a first change at 1M rows copies 512 MB of
    ///   fp16 rows, and a 512 MB copy into fresh memory took 2.1 s faulted in page by page on
    ///   the 2-core bench machine, 0.2 s populated first.
    private mutating func own() {
        guard let m = mapped else { return }
        let bytes = m.count * MemoryLayout<Element>.stride
        let source = m.region.base + m.offset
        let capacity = m.count + Swift.max(m.count / 8, 64)
        owned = [Element](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            if m.count > 0 {
                let target = UnsafeMutableRawPointer(buffer.baseAddress!)
                PageAdvice.populate(target, bytes: bytes)
                target.copyMemory(from: source, byteCount: bytes)
            }
            initialized = m.count
        }
        mapped = nil
        PageAdvice.release(source, bytes: bytes)
    }
}

/// Hints to the system about pages (Linux; nothing elsewhere), for large buffers only.
enum PageAdvice {
    /// Below this, a buffer is left to the allocator as it is.
    static let minimumBytes = 4 << 20

    /// Makes the whole pages of `[start, start + bytes)`, not yet touched, resident and writable
    /// in one call (Linux 5.14 and later; an older kernel refuses, and the copy faults them in
    /// one by one as before).
    static func populate(_ start: UnsafeMutableRawPointer, bytes: Int) {
        #if os(Linux)
            advise(UnsafeRawPointer(start), bytes: bytes, Int32(MADV_POPULATE_WRITE))
        #endif
    }

    /// Lets the whole pages of `[start, start + bytes)` of a read-only file mapping go from the
    /// process's resident set; a later read faults them in again from the file, unchanged.
    static func release(_ start: UnsafeRawPointer, bytes: Int, minimum: Int = minimumBytes) {
        #if os(Linux)
            advise(start, bytes: bytes, Int32(MADV_DONTNEED), minimum: minimum)
        #endif
    }

    #if os(Linux)
        private static func advise(_ start: UnsafeRawPointer, bytes: Int, _ advice: Int32, minimum: Int = minimumBytes) {
            guard bytes >= minimum else { return }
            let page = MappedSnapshot.pageSize
            let lower = (Int(bitPattern: start) + page - 1) / page * page
            let upper = (Int(bitPattern: start) + bytes) / page * page
            guard upper > lower, let p = UnsafeMutableRawPointer(bitPattern: lower) else { return }
            // Advice only: a refusal changes nothing but speed or resident memory.
            _ = madvise(p, upper - lower, advice)
        }
    #endif
}

/// Pages of a snapshot file kept mapped (read-only, private) after the open that read the file,
/// for as long as something uses them; unmapped when the last user lets go. A later snapshot is
/// written to a new file and renamed over the old one, so these pages never change under it.
final class MappedRegion: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int
    /// The file offset of `base` (a multiple of the page size).
    let fileOffset: Int

    /// Takes over the mapping of `count` bytes at `base` (from `mmap`), file offset `fileOffset`:
    /// a read-only mapping of a file, never of anonymous memory — a ``RowBuffer`` that copied its
    /// components lets their pages go (`MADV_DONTNEED`), and a later read must find the file's
    /// bytes there again.
    /// - Parameter file: a descriptor of the same open file, which the region then owns (closed
    ///   with it), for reads that do not go through the mapping (``read(at:count:into:)``).
    init(base: UnsafeRawPointer, count: Int, fileOffset: Int, file: Int32? = nil) {
        self.base = base
        self.count = count
        self.fileOffset = fileOffset
        self.file = file
    }

    /// A descriptor of the mapped file, when the region keeps one.
    private let file: Int32?

    /// The byte offset in the region of `offset` in the file (which the region must hold).
    func offset(ofFileOffset offset: Int) -> Int { offset - fileOffset }

    /// Reads `count` bytes at byte `offset` of the region from the file with `pread` into
    /// `target`: the same bytes as the mapping's (the file is never written in place), without
    /// mapping its pages into the process. false when the region keeps no descriptor or a read
    /// fails (the caller then reads the mapping).
    func read(at offset: Int, count: Int, into target: UnsafeMutableRawPointer) -> Bool {
        guard let file, offset >= 0, count >= 0, offset + count <= self.count else { return false }
        var done = 0
        while done < count {
            let got = pread(file, target + done, count - done, off_t(fileOffset + offset + done))
            if got > 0 {
                done += got
            } else if got < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), count)
        if let file { close(file) }
    }
}
