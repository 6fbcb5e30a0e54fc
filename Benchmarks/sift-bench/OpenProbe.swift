import Foundation
import Sift
import SiftEvaluation

#if canImport(Glibc)
    import Glibc
#endif

/// Cold open and resident memory, measured in a fresh child process (`sift-bench --probe-open
/// DIR`), so that neither the parent's heap nor its caches flatter the figures. The file pages of
/// the store are in the OS page cache (the parent just wrote them): "cold" means a new process and
/// a new ``SearchIndex``, not a cold disk.
enum OpenProbe {
    struct Figures {
        var openMilliseconds: Double
        /// Resident bytes after loading the model and before opening, and after opening, reading
        /// every item once and touching every page of the vectors that queries read in place
        /// (``SearchIndex/touchVectorPages()``) — both after the allocator returned its free
        /// pages — and after opening before that. An index opened from a snapshot maps the items'
        /// text and the vectors and reads them as queries need them: the figure is that of an
        /// index whose pages are all resident, as a while of queries leaves it, and the text
        /// subtracted below is text in memory. A large index's rows and rows' term lists are
        /// read with `pread` for the few rows a query needs: they stay in the page cache.
        var residentBefore: Int
        var residentAfter: Int
        var residentAfterUntrimmed: Int
        /// Resident bytes right after the open (trimmed), before any item was read: what an index
        /// opened from a snapshot holds before it answers anything.
        var residentAfterOpen: Int
        var items: Int
        /// UTF-8 bytes of every item's strings (id, domain, title, content, keywords, url,
        /// display name): the stored text, which memory per item excludes.
        var textBytes: Int
        /// The open's log outcome: "ok, from the snapshot", or "ok, rebuilt: " and why.
        var outcome: String
        /// How much of `residentAfter - residentBefore` is anonymous memory and how much is pages
        /// of mapped files (nil where /proc does not say).
        var residentDeltaSplit: (anonymous: Int, file: Int)?

        /// Per item, beyond the text: anonymous bytes, and mapped-file bytes less the text (the
        /// text is read through the items' mapping). They add up to ``bytesPerItemBeyondText``.
        var splitPerItemBeyondText: (anonymous: Double, file: Double)? {
            residentDeltaSplit.map {
                (Double($0.anonymous) / Double(max(items, 1)), Double($0.file - textBytes) / Double(max(items, 1)))
            }
        }

        var bytesPerItemBeyondText: Double {
            Double(residentAfter - residentBefore - textBytes) / Double(max(items, 1))
        }

        var untrimmedBytesPerItemBeyondText: Double {
            Double(residentAfterUntrimmed - residentBefore - textBytes) / Double(max(items, 1))
        }
    }

    /// The child's side: opens `directory` with the model of `options`, prints one JSON line.
    static func runChild(directory: String, options: BenchOptions) async throws {
        let (embedder, _) = BenchModel.load(options.model)
        _ = embedder.map { $0.embed("warm the model up") }
        // New items (ids no corpus item has) for --probe-writes, embedded once before the baseline
        // so that the model pages they need are resident in it and not counted as the index's.
        let fresh = SyntheticCorpus(seed: 7).items(count: options.probeWrites).enumerated().map { i, item in
            var item = item
            item.id = ItemID("probe-write-\(i)")
            return item
        }
        for item in fresh { _ = embedder?.embed(item.title + " " + item.content) }
        // Open and drop an empty index first, so that code pages, SQLite and Foundation set-up
        // are resident before the baseline and only the index's own memory is counted.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sift-bench-probe-\(getpid())", isDirectory: true)
        do {
            let empty = try SearchIndex(configuration: .init(directory: scratch, embedder: embedder))
            _ = try await empty.search(SearchQuery("warm up", mode: embedder == nil ? .keyword : .hybrid))
        }
        try? FileManager.default.removeItem(at: scratch)
        Machine.trimHeap()
        let before = Machine.residentBytes() ?? 0
        let splitBefore = Machine.residentSplit()
        let logger = MemoryLogger()
        let start = monotonicNanoseconds()
        var configuration = SearchIndex.Configuration(
            directory: URL(fileURLWithPath: directory, isDirectory: true), embedder: embedder, logger: logger)
        options.applyScan(to: &configuration)
        let index = try SearchIndex(configuration: configuration)
        let openMilliseconds = millisecondsSince(start)
        let outcome = logger.records.last { $0.operation == "open" }?.outcome ?? "unknown"
        let untrimmed = Machine.residentBytes() ?? 0
        Machine.trimHeap()
        let afterOpen = Machine.residentBytes() ?? 0
        var textBytes = 0
        for item in await index.allItems() {
            textBytes +=
                item.id.rawValue.utf8.count + item.domain.utf8.count + item.title.utf8.count
                + item.content.utf8.count + item.keywords.reduce(0) { $0 + $1.utf8.count }
                + (item.url?.utf8.count ?? 0) + (item.displayName?.utf8.count ?? 0)
        }
        _ = await index.touchVectorPages()
        Machine.trimHeap()
        let after = Machine.residentBytes() ?? 0
        let split = Machine.residentSplit().flatMap { a in splitBefore.map { b in (a.anonymous - b.anonymous, a.file - b.file) } }
        let items = try await index.statistics().items
        var splitFields = split.map { ",\"rss_anon_delta\":\($0.0),\"rss_file_delta\":\($0.1)" } ?? ""
        if options.probeWrites > 0 {
            // The new items upserted into the opened index, then every page queries use touched
            // again: the memory a write leaves.
            try await index.upsert(fresh)
            _ = await index.touchVectorPages()
            Machine.trimHeap()
            splitFields += ",\"rss_after_writes\":\(Machine.residentBytes() ?? 0),\"writes\":\(options.probeWrites)"
            if let a = Machine.residentSplit(), let b = splitBefore {
                splitFields +=
                    ",\"rss_anon_delta_after_writes\":\(a.anonymous - b.anonymous),\"rss_file_delta_after_writes\":\(a.file - b.file)"
            }
        }
        let line =
            "{\"open_ms\":\(openMilliseconds),\"rss_before\":\(before),\"rss_after\":\(after),\"rss_after_open\":\(afterOpen),\"rss_after_untrimmed\":\(untrimmed),\"items\":\(items),\"text_bytes\":\(textBytes)\(splitFields),\"outcome\":\"\(outcome)\"}\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// The parent's side: runs the child on `directory` and reads its figures.
    static func measure(directory: String, options: BenchOptions) throws -> Figures {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Machine.executablePath())
        process.arguments = ["--probe-open", directory] + options.modelArguments + options.scanArguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = String(decoding: outData, as: UTF8.self).split(separator: "\n").last,
            let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let open = (o["open_ms"] as? NSNumber)?.doubleValue,
            let before = (o["rss_before"] as? NSNumber)?.intValue,
            let after = (o["rss_after"] as? NSNumber)?.intValue,
            let untrimmed = (o["rss_after_untrimmed"] as? NSNumber)?.intValue,
            let afterOpen = (o["rss_after_open"] as? NSNumber)?.intValue,
            let items = (o["items"] as? NSNumber)?.intValue,
            let text = (o["text_bytes"] as? NSNumber)?.intValue,
            let outcome = o["outcome"] as? String
        else {
            throw BenchFailure(
                "open probe on \(directory) failed (exit \(process.terminationStatus)): \(String(decoding: errData, as: UTF8.self).suffix(500))"
            )
        }
        var split: (anonymous: Int, file: Int)?
        if let anonymous = (o["rss_anon_delta"] as? NSNumber)?.intValue, let file = (o["rss_file_delta"] as? NSNumber)?.intValue {
            split = (anonymous, file)
        }
        return Figures(
            openMilliseconds: open, residentBefore: before, residentAfter: after, residentAfterUntrimmed: untrimmed,
            residentAfterOpen: afterOpen, items: items,
            textBytes: text, outcome: outcome, residentDeltaSplit: split)
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
