import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when the last reference goes away.
final class TemporaryDirectory: Sendable {
    let url: URL

    init(_ label: String = "sift-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the directory (nothing is created).
    func path(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Every byte of every regular file under the directory, file by file.
    func allFileContents() throws -> [(name: String, bytes: Data)] {
        var result: [(String, Data)] = []
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
        while let file = enumerator?.nextObject() as? URL {
            guard (try file.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            result.append((file.lastPathComponent, try Data(contentsOf: file)))
        }
        return result
    }
}
