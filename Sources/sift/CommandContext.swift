import Foundation
import Sift
import SiftCommandLine

/// What every subcommand needs: where the index lives, the model, output helpers.
struct CommandContext {
    let arguments: ParsedArguments

    var json: Bool { arguments.flag("--json") }

    var storeRoot: URL {
        if let dir = arguments.value("--store") { return URL(fileURLWithPath: dir, isDirectory: true) }
        return SearchIndex.defaultStoreRoot()
    }

    var indexName: String { arguments.value("--index") ?? "default" }

    func indexDirectory() throws -> URL {
        let name = indexName
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw UsageError("--index expects a plain name (letters, digits, - and _), got \"\(name)\"")
        }
        return storeRoot.appendingPathComponent(name, isDirectory: true)
    }

    /// The embedding model: `--model`, else `$SIFT_MODEL`, else the bundled one. With
    /// `required`, a missing model is an error; otherwise the index runs keyword-only and
    /// says so on standard error.
    func embedder(required: Bool) throws -> (any Embedder)? {
        do {
            if let path = arguments.value("--model") {
                return try HashedNGramEmbedder(contentsOf: URL(fileURLWithPath: path))
            }
            return try HashedNGramEmbedder.bundled()
        } catch {
            if required { throw CommandFailure("\(error)") }
            warn("no embedding model (\(error)); keyword search only")
            return nil
        }
    }

    /// How the index is sealed at rest: AES-256-GCM with the key of `--key-file`, else of
    /// `$SIFT_KEY_FILE`, else no protection.
    func codec() throws -> any RecordCodec {
        let environment = ProcessInfo.processInfo.environment["SIFT_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let path = arguments.value("--key-file") ?? environment else { return PlainCodec() }
        do {
            return AESGCMCodec(key: try ProtectionKey(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    func openIndex(requireModel: Bool = false) throws -> SearchIndex {
        let logger: any SiftLogger = arguments.flag("--verbose") ? StandardErrorLogger() : NullLogger()
        return try SearchIndex(
            configuration: .init(
                directory: try indexDirectory(), embedder: try embedder(required: requireModel), logger: logger, codec: try codec()))
    }

    func warn(_ message: String) {
        FileHandle.standardError.write(Data("sift: \(message)\n".utf8))
    }

    func printJSON(_ object: Any) {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}

/// A failure to report on standard error with exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A subcommand: its interface and what it does.
protocol Command: SendableMetatype {
    static var spec: CommandSpec { get }
    static func run(_ context: CommandContext) async throws -> ExitStatus
}

func jsonDate(_ date: Date?) -> Any { date.map { ISODate.string($0) } ?? NSNull() }
func jsonNumber(_ value: Float) -> Double { (Double(value) * 1e6).rounded() / 1e6 }
