import Foundation

/// Every figure of a run goes to stderr and, when set, to a log file (Models/train.log).
final class TrainLog: @unchecked Sendable {
    // Guarded by `lock`.
    private var handle: FileHandle?
    private let lock = NSLock()
    private let start = Date()

    static let shared = TrainLog()

    func open(_ path: String, append: Bool) throws {
        if !append || !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let h = FileHandle(forWritingAtPath: path) else {
            throw TrainError("cannot open log file \(path)")
        }
        h.seekToEndOfFile()
        lock.withLock { handle = h }
    }

    func callAsFunction(_ message: String) {
        let t = String(format: "[%7.1fs] ", Date().timeIntervalSince(start))
        let line = t + message + "\n"
        lock.withLock {
            FileHandle.standardError.write(Data(line.utf8))
            handle?.write(Data(line.utf8))
        }
    }
}

let log = TrainLog.shared

struct TrainError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

func elapsed(_ since: Date) -> String { String(format: "%.1fs", Date().timeIntervalSince(since)) }

/// Reads a raw little-endian float32 matrix of `columns` columns.
func readMatrix(_ path: String, columns: Int) throws -> [Float] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    guard data.count % (4 * columns) == 0 else {
        throw TrainError("\(path): \(data.count) bytes is not a whole number of \(columns)-float rows")
    }
    return data.withUnsafeBytes { raw in
        [Float](unsafeUninitializedCapacity: data.count / 4) { buf, n in
            for i in 0..<(data.count / 4) {
                buf[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
            }
            n = data.count / 4
        }
    }
}

func readLines(_ path: String) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
}
