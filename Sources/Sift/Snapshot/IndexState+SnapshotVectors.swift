import Foundation

/// The vectors section of a snapshot: the rows, then the quantized and re-scoring copies.
extension IndexState {
    /// The vector index (nil when the snapshot has none), and which rows hold a vector. Its rows
    /// are the components' pages in `region` (the section, at `sectionOffset` in the file, mapped
    /// on its own) when it is given, else a copy.
    ///
    /// The rows are outside the file's checksum, each with its own (``RowChecks``). They are
    /// verified as they are read when the queries read only a few of them — the rows are mapped,
    /// both quantized copies restored and the index has `verifyAsReadFrom` rows or more (below
    /// it the queries scan the rows themselves) — and here, every row, otherwise.
    static func readVectors(
        _ r: inout SnapshotReader, dimension: Int, precision: VectorPrecision, coding: QuantizedCoding?, sectionOffset: Int,
        region: MappedRegion?, verifyAsReadFrom: Int
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
        try readPadding(&r)
        guard rows <= r.remaining / 4 else { throw malformed("\(rows) vector row checksums, more than the file has bytes") }
        let sums = try r.take(rows * 4)
        let place = Placement(region: region, sectionOffset: sectionOffset)
        let quantized = try readCopy(&r, rows: rows, dimension: d, wanted: coding, place: place)
        let rescoring = try readCopy(
            &r, rows: rows, dimension: d, wanted: coding.map { _ in QuantizedCoding(components: d, bits: 8) }, place: place)
        let checks = RowChecks(sums: place.buffer(sums, count: rows, of: UInt32.self, reader: r))
        let asRead = region != nil && coding != nil && quantized != nil && rescoring != nil && rows >= verifyAsReadFrom
        if !asRead {
            guard checks.verifyAll(raw, stride: d * precision.bytesPerComponent) else { throw damagedRow(checks.damagedRow ?? 0) }
        }
        switch precision {
        case .float32:
            return VectorIndex(
                dimension: d, coding: coding, matrix: place.buffer(raw, count: rows * d, of: Float.self, reader: r), occupied: occupied,
                quantized: quantized, rescoring: rescoring, checks: checks)
        case .float16:
            return VectorIndex(
                dimension: d, coding: coding, halves: place.buffer(raw, count: rows * d, of: UInt16.self, reader: r),
                occupied: occupied, quantized: quantized, rescoring: rescoring, checks: checks)
        }
    }

    /// The rejection of a snapshot whose vector row `row` does not match its checksum.
    static func damagedRow(_ row: Int) -> SnapshotRejection {
        SnapshotRejection("the snapshot is damaged (vector row \(row) does not match its checksum)", damagedRow: row)
    }

    /// Where the vector rows lie in a snapshot file (`bytes`): from their first component to
    /// the end of the zeros after them, a multiple of 64 bytes from the start of the file at
    /// both ends — the part of the file its checksum leaves out. Nil when the vectors section
    /// has no rows or does not parse (the checksum then covers every byte, and fails if that
    /// section was damaged).
    static func rowsRange(in bytes: UnsafeRawBufferPointer, vectors section: Range<Int>, bytesPerComponent: Int) -> Range<Int>? {
        var r = SnapshotReader(UnsafeRawBufferPointer(rebasing: bytes[section]))
        do throws(SnapshotRejection) {
            guard try r.bool() else { return nil }
            let d = Int(try r.u32())
            let rows = try r.count()
            _ = try r.take(rows)
            // Zeros up to the next multiple of 64 in the file (by offset: `bytes` may lie anywhere).
            let at = section.lowerBound + r.offset
            _ = try r.take((vectorAlignment - at % vectorAlignment) % vectorAlignment)
            let start = section.lowerBound + r.offset
            let (length, overflow) = rows.multipliedReportingOverflow(by: d * bytesPerComponent)
            guard d > 0, rows > 0, !overflow, length <= r.remaining else { return nil }
            let end = (start + length + vectorAlignment - 1) / vectorAlignment * vectorAlignment
            return end <= section.upperBound ? start..<end : nil
        } catch {
            return nil
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
