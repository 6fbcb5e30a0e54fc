import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Owner-only permissions for everything an index keeps on disk, whatever the process's umask:
/// directories 0700, files 0600.
///
/// - Directories Sift creates (the index directory, and the store root and any other missing
///   parent on the way) are made 0700; an existing parent Sift did not create is never changed
///   (it may be a home directory or /tmp).
/// - The database file is created 0600 by Sift before SQLite opens it, because SQLite creates a
///   new database 0644 less the umask; SQLite then gives its WAL, shared-memory and rollback
///   journal files the database file's own permissions (and its temporary files 0600, unlinked
///   at once). Snapshots are written 0600 (``SnapshotWriter``).
/// - A writable open tightens an index directory, and every file and directory in it, that
///   others can reach: the group and other bits are cleared, nothing is ever added
///   (0755 → 0700, 0644 → 0600, 0555 → 0500). Symbolic links inside are left alone.
///   A read-only open changes nothing and only reports what is too wide.
enum StorePermissions {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600
    /// The bits that let someone other than the owner in.
    static let othersMask: mode_t = 0o077

    /// Creates `directory` and its missing parents 0700, then, for a writable open, tightens
    /// what is in it and creates `databaseFile` 0600 if it does not exist.
    /// - Returns: one note for each thing that was (or, read-only, would be) tightened, e.g.
    ///   `index directory 0755 → 0700`, `index.sqlite 0644 → 0600`: no user text.
    static func prepare(_ directory: URL, databaseFile: String, readOnly: Bool) throws(StoreError) -> [String] {
        if !readOnly {
            do {
                try createDirectories(directory)
            } catch {
                throw StoreError(code: -1, message: "cannot create the index directory: \(error)", path: directory.path)
            }
        }
        var notes = tighten(directory, readOnly: readOnly)
        if !readOnly { createOwnerOnly(directory.appendingPathComponent(databaseFile).path) }
        if readOnly && !notes.isEmpty { notes = notes.map { $0 + " (not changed: opened read-only)" } }
        return notes
    }

    /// `mkdir -p` with 0700 for every directory it creates (set with chmod, past the umask).
    static func createDirectories(_ directory: URL) throws(PermissionError) {
        var missing: [String] = []
        var url = directory.standardizedFileURL
        while !exists(url.path) {
            missing.append(url.path)
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { break }
            url = parent
        }
        for path in missing.reversed() {
            if mkdir(path, directoryMode) != 0 && errno != EEXIST { throw PermissionError(path: path, errno: errno) }
            if chmod(path, directoryMode) != 0 { throw PermissionError(path: path, errno: errno) }
        }
        var info = stat()
        guard stat(directory.path, &info) == 0 else { throw PermissionError(path: directory.path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw PermissionError(path: directory.path, errno: ENOTDIR) }
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Creates `path` empty with 0600 unless it exists (an empty file is an empty SQLite
    /// database). Failures are left to SQLite's own open, which reports them with their cause.
    static func createOwnerOnly(_ path: String) {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard fd >= 0 else { return }
        _ = fchmod(fd, fileMode)
        close(fd)
    }

    /// Clears the group and other bits of `directory` and of every file and directory directly
    /// in it (read-only: only reports them). The index directory itself is followed if it is a
    /// link; links inside are skipped.
    static func tighten(_ directory: URL, readOnly: Bool) -> [String] {
        var notes: [String] = []
        if let note = tighten(path: directory.path, name: "index directory", follow: true, readOnly: readOnly) { notes.append(note) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names.sorted() {
            let path = directory.appendingPathComponent(name).path
            if let note = tighten(path: path, name: displayName(name), follow: false, readOnly: readOnly) { notes.append(note) }
        }
        return notes
    }

    /// How a note names a file of the index directory: Sift's own files by name, anything else
    /// as "another file" (a name someone else chose may be user text, which logs never carry).
    static func displayName(_ name: String) -> String {
        let database = Store.fileName
        let snapshot = IndexSnapshot.fileName
        if [database, database + "-wal", database + "-shm", database + "-journal", snapshot].contains(name) { return name }
        if name.hasPrefix(snapshot + ".tmp-") { return "a snapshot's temporary file" }
        if name.hasPrefix(".repair-") { return "a repair's directory" }
        return "another file"
    }

    private static func tighten(path: String, name: String, follow: Bool, readOnly: Bool) -> String? {
        var info = stat()
        guard (follow ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFDIR else { return nil }
        let mode = info.st_mode & 0o7777
        guard mode & othersMask != 0 else { return nil }
        let tightened = mode & ~othersMask
        let change = "\(name) \(octal(mode)) → \(octal(tightened))"
        if readOnly { return change }
        guard chmod(path, tightened) == 0 else {
            return "\(name) is \(octal(mode)) and cannot be tightened (\(String(cString: strerror(errno))))"
        }
        return change
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// What is not owner-only in `directory` (the directory, the files and directories in it):
    /// `name mode` for each, for ``SearchIndex/check(configuration:)``.
    static func wider(in directory: URL) -> [String] {
        tighten(directory, readOnly: true)
    }
}

/// A directory Sift could not create.
struct PermissionError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32
    var description: String { "\(String(cString: strerror(errno))) (\(path))" }
}
