import Foundation

/// The vectors section of a snapshot: the rows, then the quantized and re-scoring copies.
extension IndexState {
    /// The vector index (nil when the snapshot has none), and which rows hold a vector. Its rows
    /// are the components' pages in `region` (the section, at `sectionOffset` in the file, mapped
    /// on its own) when it is given, else a copy.
    static func readVectors(
        _ r: inout SnapshotReader, dimension: Int, precision: VectorPrecision, coding: QuantizedCoding?, sectionOffset: Int,
        region: MappedRegion?
    ) throws(SnapshotRejection) -> VectorIndex? {
        guard try r.bool() else {
            if dimension != 0 { throw malformed("no vectors, expected \(dimension)-dimensional ones") }
            return nil
        }
        let d = Int(try r.u32())
        guard d == dimension, d > 0 else { throw malformed("vectors of dimension \(d), expected \(dimension)") }
        let rows = try r.count()
        let flags = try r.take(rows)
        var occupied = [Bool](repeating: false, count: rows)
        for row in 0..<rows {
            guard flags[row] <= 1 else { throw malformed("vector row \(row) has flag \(flags[row])") }
            occupied[row] = flags[row] == 1
        }
        try readPadding(&r)
        guard rows <= r.remaining / max(1, d * precision.bytesPerComponent) else {
            throw malformed("\(rows) vector rows, more than the file has bytes")
        }
        let raw = try r.take(rows * d * precision.bytesPerComponent)
        let place = Placement(region: region, sectionOffset: sectionOffset)
        /// `raw` (`count` values) where it lies in `region`, else a copy.
        func rowBuffer<T: BitwiseCopyable & Sendable>(_ raw: UnsafeRawBufferPointer, count: Int, of type: T.Type) -> RowBuffer<T> {
            place.buffer(raw, count: count, of: type, reader: r)
        }
        let quantized = try readCopy(&r, rows: rows, dimension: d, wanted: coding, place: place)
        let rescoring = try readCopy(
            &r, rows: rows, dimension: d, wanted: coding.map { _ in QuantizedCoding(components: d, bits: 8) }, place: place)
        switch precision {
        case .float32:
            return VectorIndex(
                dimension: d, coding: coding, matrix: rowBuffer(raw, count: rows * d, of: Float.self), occupied: occupied,
                quantized: quantized, rescoring: rescoring)
        case .float16:
            return VectorIndex(
                dimension: d, coding: coding, halves: rowBuffer(raw, count: rows * d, of: UInt16.self),
                occupied: occupied, quantized: quantized, rescoring: rescoring)
        }
    }

    /// A quantized copy of the rows as the vectors section records it: its components (0 for
    /// none), its bits, then its scales and its codes, each aligned.
    static func writeCopy(_ copy: QuantizedRows?, rows: Int, to w: SnapshotWriter) {
        guard let q = copy, q.capacity == rows else {
            w.count(0)
            return
        }
        w.count(q.components)
        w.u8(UInt8(q.bits))
        writePadding(to: w)
        q.scales.withUnsafeBytes { w.bytes($0) }
        writePadding(to: w)
        q.codes.withUnsafeBytes { w.bytes($0) }
    }

    /// The copy ``writeCopy(_:rows:to:)`` recorded, when it codes as `wanted` says (its pages in
    /// place when the section is mapped); nil when it codes otherwise (the open codes the rows
    /// again) or none was recorded.
    static func readCopy(
        _ r: inout SnapshotReader, rows: Int, dimension d: Int, wanted: QuantizedCoding?, place: Placement
    ) throws(SnapshotRejection) -> QuantizedRows? {
        let coded = Int(try r.u32())
        guard coded > 0 else { return nil }
        guard coded <= d, coded == d || coded % 32 == 0 else { throw malformed("a quantized copy of \(coded) components") }
        let bits = Int(try r.u8())
        guard bits == 8 || bits == 4 else { throw malformed("a quantized copy of \(bits)-bit codes") }
        let width = QuantizedCoding(components: coded, bits: bits).bytesPerRow
        try readPadding(&r)
        guard rows <= r.remaining / 4 else { throw malformed("\(rows) quantized scales, more than the file has bytes") }
        let scales = try r.take(rows * 4)
        try readPadding(&r)
        guard rows <= r.remaining / width else { throw malformed("\(rows) quantized rows, more than the file has bytes") }
        let codes = try r.take(rows * width)
        guard wanted == QuantizedCoding(components: coded, bits: bits) else { return nil }
        for i in 0..<rows {
            let s = Float(bitPattern: UInt32(littleEndian: scales.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)))
            guard s.isFinite, s >= 0 else { throw malformed("quantized row \(i) has scale \(s)") }
        }
        return QuantizedRows(
            dimension: d, components: coded, bits: bits, codes: place.buffer(codes, count: rows * width, of: Int8.self, reader: r),
            scales: place.buffer(scales, count: rows, of: Float.self, reader: r))
    }

    /// Zero bytes up to the next multiple of ``vectorAlignment`` in the file.
    static func writePadding(to w: SnapshotWriter) {
        for _ in 0..<((vectorAlignment - w.count % vectorAlignment) % vectorAlignment) { w.u8(0) }
    }

    /// Reads past ``writePadding(to:)``'s zeros. The section starts where the file's pages do,
    /// so address and file offset agree modulo the alignment.
    static func readPadding(_ r: inout SnapshotReader) throws(SnapshotRejection) {
        let at = Int(bitPattern: r.bytes.baseAddress) + r.offset
        let padding = try r.take((vectorAlignment - at % vectorAlignment) % vectorAlignment)
        guard padding.allSatisfy({ $0 == 0 }) else { throw malformed("a section's padding is not zeros") }
    }
}
