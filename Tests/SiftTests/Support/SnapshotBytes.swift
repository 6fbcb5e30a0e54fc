@testable import Sift

extension SnapshotChecksum {
    /// Rewrites the checksum at the end of a snapshot's bytes to match the bytes before it (but
    /// the vector rows, which have a checksum each), so
    /// that a test's change to them reaches the checks behind the checksum.
    static func reseal(_ bytes: inout [UInt8]) {
        let sum = bytes.withUnsafeBytes { IndexSnapshot.expectedChecksum(of: $0) }
        withUnsafeBytes(of: sum.littleEndian) { for i in 0..<8 { bytes[bytes.count - 8 + i] = $0[i] } }
    }
}
