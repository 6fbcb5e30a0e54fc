import Foundation
import Testing

@testable import Sift

@Suite("Row buffers: a snapshot's pages used in place, copied at the first change")
struct RowBufferTests {
    /// `count` u32s, element i = i &* 2654435761, written to a file and mapped from `offset`
    /// bytes in (the rest of the file before them is zeros).
    static func mapped(count: Int, offset: Int, in directory: TemporaryDirectory) throws -> RowBuffer<UInt32> {
        var data = Data(count: offset)
        data.append(
            contentsOf: (0..<count).flatMap { i in
                withUnsafeBytes(of: (UInt32(truncatingIfNeeded: i) &* 2_654_435_761).littleEndian, Array.init)
            })
        let url = directory.path("rows-\(count)-\(offset)")
        try data.write(to: url)
        let file = try MappedSnapshot(path: url.path)
        let region = try file.keep(offset..<data.count)
        return try #require(RowBuffer<UInt32>(region: region, offset: region.offset(ofFileOffset: offset), count: count))
    }

    static func expected(_ count: Int) -> [UInt32] { (0..<count).map { UInt32(truncatingIfNeeded: $0) &* 2_654_435_761 } }

    @Test(
        "A large mapped buffer's first change copies it (its pages populated, the mapped ones let go); a copy taken before still reads the file's values",
        arguments: [(3, 0), (3_000_000, 4096), (3_000_000, 100)])
    func firstChangeCopies(count: Int, offset: Int) throws {
        let directory = try TemporaryDirectory()
        var buffer = try Self.mapped(count: count, offset: offset, in: directory)
        let before = buffer
        #expect(buffer.isMapped && buffer.count == count)
        buffer.append(contentsOf: [7, 8, 9])
        #expect(!buffer.isMapped)
        buffer.withUnsafeMutableBufferPointer { $0[0] = 42 }
        var model = Self.expected(count) + [7, 8, 9]
        model[0] = 42
        #expect(buffer.array == model)
        // The earlier value still reads the mapped pages, faulted in again from the file after
        // the copy let them go.
        #expect(before.isMapped)
        #expect(before.array == Self.expected(count))
    }
}
