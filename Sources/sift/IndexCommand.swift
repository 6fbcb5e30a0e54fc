import Foundation
import Sift
import SiftCommandLine

/// `sift index FILE|-`: reads JSONL items and indexes every good line, in batches that each
/// commit with the client state `FILE#LINE` of their last line.
enum IndexCommand: Command {
    static let spec = CommandSpec(
        name: "index",
        summary:
            "Index the items of a JSONL file (one JSON object a line; - reads standard input). A bad line is reported as FILE:LINE: reason and skipped; every good line is indexed.",
        arguments: "FILE|-",
        options: [
            OptionSpec(names: ["--batch-size"], value: "N", help: "items committed per transaction (default 1000)"),
            OptionSpec(
                names: ["--expect-client-state"], value: "STATE", help: "refuse to index unless the index's last client state is STATE"),
        ],
        positionals: 1...1)

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let path = context.arguments.positionals[0]
        let batchSize = try context.arguments.int("--batch-size", default: 1000, range: 1...1_000_000)
        let data: Data
        do {
            data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("\(path): cannot read (\((error as NSError).localizedDescription))")
        }
        let source = path == "-" ? "<stdin>" : path
        let index = try context.openIndex()
        var expected = context.arguments.value("--expect-client-state")
        let reader = JSONLItemReader(source: source)
        var pending: [SearchableItem] = []
        var rejected = 0
        var indexed = 0
        var privateCount = 0
        var expired = 0
        var lines = 0
        let progress = ProgressBar(total: data.count, enabled: !context.json && isatty(2) == 1)
        var lastLine = 0
        func flush() async throws {
            guard !pending.isEmpty else { return }
            try await index.beginBatch()
            let summary: SearchIndex.UpsertSummary
            do {
                summary = try await index.upsert(pending)
                try await index.endBatch(clientState: "\(source)#\(lastLine)", expectedClientState: expected)
            } catch {
                await index.cancelBatch()
                throw error
            }
            expected = nil
            indexed += summary.indexed
            privateCount += summary.refusedPrivate
            expired += summary.expired
            pending.removeAll(keepingCapacity: true)
        }
        var parsed: [(line: Int, result: Result<SearchableItem, LineError>)] = []
        reader.read(data) { line, result in parsed.append((line, result)) }
        for (position, entry) in parsed.enumerated() {
            lines += 1
            lastLine = entry.line
            switch entry.result {
            case .success(let item): pending.append(item)
            case .failure(let error):
                rejected += 1
                context.warn(error.description)
            }
            if pending.count >= batchSize {
                try await flush()
                progress.update(data.count * (position + 1) / max(parsed.count, 1))
            }
        }
        try await flush()
        progress.finish()
        let stats = try await index.statistics()
        if context.json {
            context.printJSON([
                "indexed": indexed, "rejected": rejected, "private_or_hidden": privateCount, "expired": expired, "lines": lines,
                "items_in_index": stats.items, "index": context.indexName,
            ])
        } else {
            print(
                "indexed \(indexed) item\(indexed == 1 ? "" : "s") from \(source) into '\(context.indexName)' (\(rejected) rejected, \(privateCount) private or hidden, \(expired) expired; \(stats.items) in the index)"
            )
        }
        return rejected > 0 ? .failure : .success
    }
}

/// A one-line progress bar on standard error, drawn only when it is a terminal.
final class ProgressBar {
    let total: Int
    let enabled: Bool
    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }
    func update(_ done: Int) {
        guard enabled, total > 0 else { return }
        let fraction = min(1, Double(done) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(Int(fraction * 100))%".utf8))
    }
    func finish() {
        guard enabled else { return }
        update(total)
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
