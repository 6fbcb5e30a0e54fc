import Foundation

extension HashedNGramEmbedder {
    /// File name of the model that ships in `Models/`.
    public static let bundledFileName = "sift-ngram-256.siftmodel"

    /// Where ``bundled()`` looks, in order: `$SIFT_MODEL` (if set, the only place); `Models/` of
    /// this source tree; `Models/` under the current directory; `Models/` under each ancestor of
    /// the running executable (so `.build/release/sift` finds the checkout's model).
    public static func bundledModelCandidates(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [URL] {
        if let path = environment["SIFT_MODEL"], !path.isEmpty {
            return [URL(fileURLWithPath: path)]
        }
        var result: [URL] = []
        // <root>/Sources/Sift/Embedding/<this file> → <root>
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        result.append(root.appendingPathComponent("Models").appendingPathComponent(bundledFileName))
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        result.append(cwd.appendingPathComponent("Models").appendingPathComponent(bundledFileName))
        var executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        executable = executable.resolvingSymlinksInPath()
        var dir = executable.deletingLastPathComponent()
        for _ in 0..<8 {
            result.append(dir.appendingPathComponent("Models").appendingPathComponent(bundledFileName))
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        var seen = Set<String>()
        return result.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The model that ships with Sift, loaded once per process and shared (see
    /// ``bundledModelCandidates(environment:)`` for where it is looked for).
    /// - Throws: ``ModelError`` — `.notFound` with every path tried, or what is wrong with the file.
    public static func bundled() throws(ModelError) -> HashedNGramEmbedder {
        try bundledModel.get()
    }

    /// Loads the first existing candidate (no caching).
    static func loadBundled() -> Result<HashedNGramEmbedder, ModelError> {
        let candidates = bundledModelCandidates()
        let explicit = ProcessInfo.processInfo.environment["SIFT_MODEL"].map { !$0.isEmpty } ?? false
        for url in candidates where explicit || FileManager.default.fileExists(atPath: url.path) {
            return Result { () throws(ModelError) in try HashedNGramEmbedder(contentsOf: url) }
        }
        return .failure(
            ModelError(
                path: candidates.first?.path ?? bundledFileName,
                reason: .notFound(searched: candidates.map(\.path))))
    }
}

/// Loaded on first use, thread-safely (global `let`).
private let bundledModel: Result<HashedNGramEmbedder, ModelError> = HashedNGramEmbedder.loadBundled()
