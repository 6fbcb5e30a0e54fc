#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A read-only memory mapping of a whole file, unmapped when the last reference goes.
/// The only place of the embedder that touches C pointers from the system.
final class MappedFile: @unchecked Sendable {
    // Immutable after init; the mapping is read-only, so sharing it across threads is safe.
    let base: UnsafeRawPointer
    let count: Int
    private let mapped: Bool

    /// Maps `path`; a failure is a ``ModelError`` naming the path and the system's reason.
    init(path: String) throws(ModelError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            throw ModelError(path: path, reason: .unreadable(String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) != 0 {
            throw ModelError(path: path, reason: .unreadable(String(cString: strerror(errno))))
        }
        if (info.st_mode & S_IFMT) != S_IFREG {
            throw ModelError(path: path, reason: .unreadable("not a regular file"))
        }
        let size = Int(info.st_size)
        if size == 0 {
            // mmap of length 0 fails; an empty file is simply truncated.
            base = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 64))
            count = 0
            mapped = false
            return
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw ModelError(path: path, reason: .unreadable(String(cString: strerror(errno))))
        }
        base = UnsafeRawPointer(p)
        count = size
        mapped = true
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }
}
