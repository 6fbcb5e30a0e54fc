import Foundation
import Testing

@testable import Sift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shared pieces of the reliability suites: sizes from the environment, a vocabulary of
/// made-up words, the `sift` executable as a child process, and a tiny model file.
enum Reliability {
    /// A whole number from the environment variable `name`, or `fallback` when it is unset or
    /// not a positive number. `make test-crash`, `make fuzz` … raise the counts this way.
    static func count(_ name: String, default fallback: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment[name], let value = Int(text), value > 0 else { return fallback }
        return value
    }

    static var isRoot: Bool { getuid() == 0 }

    // MARK: Words

    private static let onsets = [
        "b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "gl", "kr", "pl", "st", "tr", "zh",
    ]
    private static let vowels = ["a", "e", "i", "o", "u", "ai", "ou"]

    /// A pronounceable made-up word of three or four syllables (7 letters or more), a
    /// different one for each `n`: words that occur in no schema, no SQL and no English text,
    /// so finding one in a file means the file holds the item's text.
    static func word(_ n: Int, salt: Int = 0) -> String {
        var rng = SeededGenerator(
            seed: UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9 &+ UInt64(truncatingIfNeeded: salt) &* 0x85EB_CA6B &+ 17)
        var word = ""
        repeat {
            word = ""
            for _ in 0..<(3 + rng.int(0..<2)) { word += rng.pick(onsets) + rng.pick(vowels) }
        } while word.count < 7
        // The letters of `n` in base 21 make the word unique.
        var m = n
        repeat {
            word += onsets[m % onsets.count]
            m /= onsets.count
        } while m > 0
        return word
    }

    /// The analyzer's terms of `text` with at least `minimumLength` characters.
    static func tokens(_ text: String, minimumLength: Int = 4) -> Set<String> {
        Set(Analyzer().terms(text).filter { $0.count >= minimumLength })
    }

    // MARK: Scanning files for text

    /// The tokens of `tokens` that occur, case-insensitively, anywhere in `bytes`.
    ///
    /// Every occurrence of a token (letters and digits) lies inside a maximal run of ASCII
    /// letters and digits, so the scan lists those runs and looks their substrings up.
    static func occurrences(of tokens: Set<String>, in bytes: Data) -> Set<String> {
        guard let shortest = tokens.map(\.utf8.count).min(), let longest = tokens.map(\.utf8.count).max() else { return [] }
        let wanted = Set(tokens.map { Array($0.utf8) })
        var found = Set<String>()
        bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var run: [UInt8] = []
            func flush() {
                defer { run.removeAll(keepingCapacity: true) }
                guard run.count >= shortest else { return }
                for start in 0...(run.count - shortest) {
                    for length in shortest...min(longest, run.count - start) {
                        let slice = Array(run[start..<(start + length)])
                        if wanted.contains(slice) { found.insert(String(decoding: slice, as: UTF8.self)) }
                    }
                }
            }
            for byte in raw {
                switch byte {
                case 0x61...0x7A, 0x30...0x39: run.append(byte)
                case 0x41...0x5A: run.append(byte + 32)
                default: flush()
                }
            }
            flush()
        }
        return found
    }

    // MARK: The sift executable

    /// The `sift` executable built with the tests: `$SIFT_BINARY`, else `sift` beside the test
    /// bundle, else `.build/debug/sift`.
    static func siftExecutable() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["SIFT_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var candidates: [URL] = []
        let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: selfPath).deletingLastPathComponent()
        // On Apple platforms the tests run inside `X.xctest/Contents/MacOS`.
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("sift"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug/sift"))
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
        }
        throw ChildProcessError(
            "no sift executable found (looked at \(candidates.map(\.path).joined(separator: ", "))); build it or set SIFT_BINARY")
    }

    /// The environment for a child `sift`: this one without the variables that would point it
    /// at another store, model or key.
    static func childEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["SIFT_STORE", "SIFT_MODEL", "SIFT_KEY_FILE"] { environment[name] = nil }
        environment["OPENBLAS_NUM_THREADS"] = "1"
        environment.merge(extra) { $1 }
        return environment
    }

    /// Runs `sift` to completion and returns its exit status, standard output and error.
    static func runSift(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = try siftExecutable()
        process.arguments = arguments
        process.environment = childEnvironment(environment)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe cannot block the child.
        let group = DispatchGroup()
        let box = DataBox()
        group.enter()
        DispatchQueue.global().async {
            box.set(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let stderrData = box.get()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdoutData, as: UTF8.self), String(decoding: stderrData, as: UTF8.self))
    }

    // MARK: A tiny model

    /// A small hashed n-gram model with seeded weights (256 buckets × 16 dimensions), so the
    /// semantic half is exercised without the bundled model.
    static func tinyModel() -> HashedNGramEmbedder {
        var rng = SeededGenerator(seed: 4242)
        let dimension = 16
        let bucketBits = 8
        let weights = (0..<((1 << bucketBits) * dimension)).map { _ in Float(rng.int(-1000..<1000)) / 1000 }
        return HashedNGramEmbedder(
            featurizer: NGramFeaturizer(bucketBits: bucketBits), dimension: dimension, weights: weights,
            quantized: true, name: "reliability-tiny")
    }
}

/// A failure of the test harness itself (no executable, a child that misbehaved).
struct ChildProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A value handed from a reader thread back to the test.
final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}

/// A child process whose standard error the test reads line by line while it runs, and may
/// kill at any moment.
final class ChildProcess {
    let process = Process()
    private let errorPipe = Pipe()
    private var buffer = Data()
    private var ended = false

    init(executable: URL, arguments: [String], environment: [String: String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        process.standardError = errorPipe
        try process.run()
    }

    /// The next line of standard error, or nil at its end. Blocks until one is available.
    func nextErrorLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return String(decoding: line, as: UTF8.self)
            }
            if ended {
                guard !buffer.isEmpty else { return nil }
                defer { buffer = Data() }
                return String(decoding: buffer, as: UTF8.self)
            }
            let chunk = errorPipe.fileHandleForReading.availableData
            if chunk.isEmpty { ended = true } else { buffer.append(chunk) }
        }
    }

    /// Sends SIGKILL (no chance to clean up) and waits for the process to end.
    func kill() {
        sendSIGKILL(process.processIdentifier)
        process.waitUntilExit()
    }

    /// Waits for the process to end; true when a signal ended it.
    @discardableResult
    func wait() -> Bool {
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }
}

/// `kill(pid, SIGKILL)`, outside ``ChildProcess`` whose `kill()` would shadow it.
private func sendSIGKILL(_ pid: Int32) {
    _ = kill(pid, SIGKILL)
}
