// sift-bench: Sift's speed at 1k → 1M items beside the peers a user would pick instead, in one
// run. See BenchOptions.spec (`--help`), and Benchmarks/RESULTS.md for the latest full run.
import Foundation
import Sift
import SiftCommandLine
import SiftEvaluation

#if canImport(Glibc)
    import Glibc
#endif

let options = CommandLineTool.parseOrExit(Array(CommandLine.arguments.dropFirst()), spec: BenchOptions.spec, BenchOptions.init)

// The child that measures a cold open (see OpenProbe).
if let directory = options.probeOpen {
    do {
        try await OpenProbe.runChild(directory: directory, options: options)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("sift-bench --probe-open \(directory): \(error)\n".utf8))
        exit(1)
    }
}

// Query timing on an existing store, for profilers (see QueryProfile).
if let directory = options.profileQueries {
    do {
        try await QueryProfile.run(directory: directory, options: options)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("sift-bench --profile-queries \(directory): \(error)\n".utf8))
        exit(1)
    }
}

if options.profileNominators {
    NominatorProfile.run(options: options)
    exit(0)
}
if options.profileScan {
    ScanProfile.run(options: options)
    exit(0)
}
if options.profileMemory || options.profilePostings {
    do {
        if options.profileMemory { try MemoryProfile.run(options: options) }
        if options.profilePostings { try PostingsProfile.run(options: options) }
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("sift-bench --profile-memory: \(error)\n".utf8))
        exit(1)
    }
}

func writeFile(_ path: String, _ text: String) {
    do {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        Progress.log("wrote \(path)")
    } catch {
        FileHandle.standardError.write(Data("sift-bench: cannot write \(path): \(error)\n".utf8))
    }
}

do {
    let started = monotonicNanoseconds()
    Progress.started = started
    // The checkout's state when the run starts (the binary is assumed built from it).
    let revision = Machine.sourceRevision()
    let work = options.workDirectory ?? (FileManager.default.temporaryDirectory.path + "/sift-bench-\(getpid())")
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { if !options.keepWorkDirectory { try? FileManager.default.removeItem(atPath: work) } }

    let (embedder, modelLabel) = BenchModel.load(options.model)
    Progress.log("model: \(modelLabel)")
    let source: CorpusSource = try options.corpus.map(CorpusSource.load) ?? .synthetic(SyntheticCorpus(seed: options.seed))
    Progress.log("corpus: \(source.label)")
    if let path = options.writeCorpus {
        let n = source.sizes(requested: options.sizes, given: options.sizesGiven).max() ?? 0
        writeFile(path, CorpusSource.jsonl(source.items(n)))
        exit(0)
    }

    var runner = BenchRunner(options: options, embedder: embedder, modelLabel: modelLabel, source: source, work: work)
    try await runner.run()
    let totalSeconds = Double(monotonicNanoseconds() - started) / 1e9
    let targets = runner.targets(totalSeconds: totalSeconds)

    let machine: [(String, JSONValue)] = [
        ("cpus", .integer(Machine.processors)),
        ("cpu", .string(Machine.cpuModel())),
        ("memory_bytes", .integer(Int(Machine.memoryBytes))),
        ("kernel", .string(Machine.kernel())),
        ("sqlite", .string(FTS5Peer.sqliteVersion)),
        ("source", .string(revision)),
    ]
    let command = (["sift-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
    let header = """
        sift-bench — \(Machine.processors) × \(Machine.cpuModel()), \(String(format: "%.1f", Double(Machine.memoryBytes) / 1_073_741_824)) GiB, SQLite \(FTS5Peer.sqliteVersion), source \(revision)
        model:   \(modelLabel)
        corpus:  \(source.label)
        queries: \(runner.queryMix)
        """
    print(header)
    print("")
    print(TableFormat.table(runner.rows))
    print("")
    print("targets:")
    for t in targets { print(t.line) }
    print(String(format: "total %.1f s", totalSeconds))

    if let path = options.json {
        let document = JSONValue.object([
            ("machine", .object(machine)),
            ("command", .string(command)),
            ("model", .string(modelLabel)),
            ("corpus", .string(source.label)),
            ("queries", .string(runner.queryMix)),
            ("seconds", .number(totalSeconds)),
            ("results", .array(runner.rows.map(\.json))),
            ("targets", .array(targets.map(\.json))),
        ])
        writeFile(path, document.serialized() + "\n")
    }
    if let path = options.svg {
        let title = "Sift query latency vs N — \(Machine.processors) × \(Machine.cpuModel())"
        writeFile(path, LatencyPlot.svg(rows: runner.rows, title: title))
    }
} catch {
    FileHandle.standardError.write(Data("sift-bench: \(error)\n".utf8))
    exit(1)
}
