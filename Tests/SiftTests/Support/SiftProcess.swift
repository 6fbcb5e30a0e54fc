import Foundation
import Testing

/// Runs the built `sift` executable as a child process, the way a user or a script would.
///
/// The binary is `$SIFT_BINARY` when set, else `sift` next to the test bundle (SwiftPM builds
/// every executable product into the same directory before it runs the tests).
struct SiftProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data

        /// Standard output parsed as one JSON object.
        func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: stdoutData)
            return try #require(object as? [String: Any], "stdout is not a JSON object: \(stdout.prefix(300))")
        }
    }

    static let binary: URL? = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SIFT_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        var directories: [URL] = []
        let bundle = Bundle.main.bundleURL
        directories.append(bundle)
        directories.append(bundle.deletingLastPathComponent())
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            var dir = executable.deletingLastPathComponent()
            for _ in 0..<4 {  // <build>/debug/X.xctest/Contents/MacOS/X on Apple platforms
                directories.append(dir)
                dir = dir.deletingLastPathComponent()
            }
        }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        directories.append(me.deletingLastPathComponent())
        for dir in directories {
            let candidate = dir.appendingPathComponent("sift")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }()

    /// A scratch directory for the outputs and the store of one test.
    let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory("sift-cli")
    }

    /// The store root the test's commands use.
    var store: String { scratch.url.appendingPathComponent("store").path }

    /// Writes `fixture` to a file in ``scratch`` and indexes it into ``store``, expecting `sift
    /// index` to succeed.
    func index(_ fixture: JSONLFixture, file name: String = "items.jsonl", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = scratch.path(name)
        try fixture.write(to: file)
        let output = try run(["index", "--store", store, file.path])
        #expect(output.status == 0, "\(output.stderr)", sourceLocation: sourceLocation)
    }

    /// Runs `sift arguments…` with `stdin` as its standard input (empty when nil) and waits.
    func run(_ arguments: [String], stdin: Data? = nil) throws -> Output {
        let binary = try #require(
            Self.binary, "the sift executable was not found next to the tests; build it (swift build) or set SIFT_BINARY")
        let id = UUID().uuidString
        let inURL = scratch.url.appendingPathComponent("in-\(id)")
        let outURL = scratch.url.appendingPathComponent("out-\(id)")
        let errURL = scratch.url.appendingPathComponent("err-\(id)")
        try (stdin ?? Data()).write(to: inURL)
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let input = try FileHandle(forReadingFrom: inURL)
        let output = try FileHandle(forWritingTo: outURL)
        let error = try FileHandle(forWritingTo: errURL)
        defer {
            try? input.close()
            try? output.close()
            try? error.close()
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        // Never touch the user's own indexes, whatever a test forgets to pass.
        environment["SIFT_STORE"] = scratch.url.appendingPathComponent("default-store").path
        environment["XDG_DATA_HOME"] = scratch.url.appendingPathComponent("xdg").path
        process.environment = environment
        process.currentDirectoryURL = scratch.url
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        let out = try Data(contentsOf: outURL)
        let err = try Data(contentsOf: errURL)
        return Output(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self), stdoutData: out)
    }
}
