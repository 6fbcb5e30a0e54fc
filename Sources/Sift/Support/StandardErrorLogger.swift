import Foundation

/// Writes one line per record to standard error, for `sift --verbose`.
package struct StandardErrorLogger: SiftLogger {
    package init() {}
    package func log(_ r: LogRecord) {
        let line =
            "sift: \(r.operation) index=\(r.index) items=\(r.itemCount) ms=\(String(format: "%.1f", r.duration * 1000)) \(r.outcome)\n"
        FileHandle.standardError.write(line.data(using: .utf8)!)
    }
}
