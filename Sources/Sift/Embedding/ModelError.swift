/// Why a model file could not be used. The description names the file and what is wrong.
public struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    package enum Reason: Sendable, Equatable {
        /// The file could not be opened or read (the system's message).
        case unreadable(String)
        /// The file is shorter than its header says (`expected` and `actual` in bytes).
        case truncated(expected: Int, actual: Int)
        /// The file does not start with the Sift model magic.
        case badMagic
        /// The format version is not one this library reads.
        case unsupportedVersion(found: UInt32, supported: UInt32)
        /// The stored checksum does not match the contents (the file is damaged).
        case checksumMismatch(stored: UInt64, computed: UInt64)
        /// A header field or section is out of range or disagrees with another.
        case inconsistent(String)
        /// No model file was found; the paths that were tried.
        case notFound(searched: [String])
    }

    /// The model file (or the first place searched).
    public var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .unreadable(let message):
            return "\(path): cannot read the model file: \(message)"
        case .truncated(let expected, let actual):
            return "\(path): model file is truncated: expected \(expected) bytes, found \(actual)"
        case .badMagic:
            return "\(path): not a Sift model file (bad magic; expected \"SIFTNGRM\")"
        case .unsupportedVersion(let found, let supported):
            return "\(path): unsupported model format version \(found) (this library reads version \(supported))"
        case .checksumMismatch(let stored, let computed):
            return "\(path): model file is damaged: bad checksum (stored \(hex(stored)), computed \(hex(computed)))"
        case .inconsistent(let what):
            return "\(path): inconsistent model file: \(what)"
        case .notFound(let searched):
            return "no Sift model file found (set SIFT_MODEL to its path); tried: "
                + searched.joined(separator: ", ")
        }
    }

    private func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 16 - s.count)) + s
    }
}
