import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Monotonic nanoseconds.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// CPU time of the calling thread in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`): what one core
/// spent, whatever else the shared machine runs.
func threadCPUNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// Milliseconds since `start` (from ``monotonicNanoseconds()``).
@inline(__always)
func millisecondsSince(_ start: UInt64) -> Double {
    Double(monotonicNanoseconds() &- start) / 1e6
}

/// Latency samples in milliseconds and their percentiles (nearest rank).
struct LatencySummary {
    var samples: [Double]

    init(_ samples: [Double]) { self.samples = samples.sorted() }

    func percentile(_ p: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(samples.count)).rounded(.up))
        return samples[min(max(rank, 1), samples.count) - 1]
    }

    var p50: Double { percentile(50) }
    var p95: Double { percentile(95) }
    var p99: Double { percentile(99) }
    var minimum: Double { samples.first ?? .nan }
    var mean: Double { samples.isEmpty ? .nan : samples.reduce(0, +) / Double(samples.count) }
}

/// Progress on stderr, with the seconds since the run began.
enum Progress {
    /// Set by `main` when the run starts.
    nonisolated(unsafe) static var started: UInt64 = 0

    static func log(_ message: String) {
        let start = started
        let seconds = start == 0 ? 0 : Double(monotonicNanoseconds() &- start) / 1e9
        FileHandle.standardError.write(Data((String(format: "[%7.1fs] ", seconds) + message + "\n").utf8))
    }
}

/// Facts about this process and machine.
enum Machine {
    /// Resident set size of this process in bytes (`VmRSS` of /proc/self/status), or nil where
    /// there is no /proc.
    static func residentBytes() -> Int? {
        statusBytes(["VmRSS"])?["VmRSS"]
    }

    /// The resident set split by what backs it (`RssAnon` and `RssFile` of /proc/self/status):
    /// anonymous pages (the heap, arrays: the process's own, dirty memory) and pages of mapped
    /// files (the snapshot's items, vectors and keyword records, the binary: clean, read back
    /// from the file when the system reclaims them). nil where there is no /proc.
    static func residentSplit() -> (anonymous: Int, file: Int)? {
        guard let fields = statusBytes(["RssAnon", "RssFile"]), let anonymous = fields["RssAnon"], let file = fields["RssFile"] else {
            return nil
        }
        return (anonymous, file)
    }

    /// The `names` fields of /proc/self/status (each "Name:  n kB"), in bytes; nil where there is
    /// no /proc.
    private static func statusBytes(_ names: Set<String>) -> [String: Int]? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        var found: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, fields[0].last == ":", let kib = Int(fields[1]) else { continue }
            let name = String(fields[0].dropLast())
            if names.contains(name) { found[name] = kib * 1024 }
        }
        return found
    }

    /// Asks the C allocator to give free heap pages back to the system (glibc's `malloc_trim(0)`,
    /// looked up at run time; nothing elsewhere), so that resident memory counts live data
    /// rather than what opening freed and the allocator kept. Returns whether it ran.
    @discardableResult
    static func trimHeap() -> Bool {
        #if os(Linux)
            typealias Trim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(nil, "malloc_trim") else { return false }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
            return true
        #else
            return false
        #endif
    }

    /// `model name` of the first processor in /proc/cpuinfo.
    static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    static var processors: Int { ProcessInfo.processInfo.activeProcessorCount }
    static var memoryBytes: UInt64 { ProcessInfo.processInfo.physicalMemory }

    static func kernel() -> String {
        var u = utsname()
        uname(&u)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
        }
        return "\(field(u.sysname)) \(field(u.release)) \(field(u.machine))"
    }

    /// Total bytes of the regular files under `path` (a file or a directory).
    static func diskBytes(_ path: String) -> Int {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { return 0 }
        if !isDirectory.boolValue {
            return ((try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        }
        var total = 0
        for name in (try? fm.subpathsOfDirectory(atPath: path)) ?? [] {
            let full = (path as NSString).appendingPathComponent(name)
            if let attributes = try? fm.attributesOfItem(atPath: full), attributes[.type] as? FileAttributeType == .typeRegular {
                total += (attributes[.size] as? NSNumber)?.intValue ?? 0
            }
        }
        return total
    }

    /// The path of the running executable.
    static func executablePath() -> String {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// The source revision this binary was built from (`git describe` of the checkout around
    /// this file, "+dirty" with uncommitted changes), or "unknown" outside a checkout.
    static func sourceRevision() -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", root, "describe", "--always", "--dirty=+dirty"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown" }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !text.isEmpty ? text : "unknown"
    }
}
