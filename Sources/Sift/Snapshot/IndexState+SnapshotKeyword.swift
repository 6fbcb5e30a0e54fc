import Foundation

/// The keyword section of a snapshot (see ``IndexState`` in IndexState+Snapshot.swift for the layout).
extension IndexState {
    static func writeKeyword(_ k: KeywordIndex, to w: SnapshotWriter) {
        w.count(k.termStrings.count)
        for t in k.termStrings { w.string(t) }
        // Where each row's list starts, then every row's list in one run, encoded as it lies in
        // memory (RowTermLists), used in place.
        w.count(k.rowTerms.count)
        var start: UInt32 = 0
        for row in k.rowTerms.indices {
            k.rowTerms.withEncodedList(row) { list in
                w.u32(list == nil ? RowTermLists.noDocument : start)
                start += UInt32(list?.count ?? 0)
            }
        }
        w.count(k.rowTerms.encodedCount)
        for row in k.rowTerms.indices {
            k.rowTerms.withEncodedList(row) { list in
                guard let list else { return }
                w.bytes(UnsafeRawBufferPointer(list))
            }
        }
        // Read through the mapping here; queries read a few lists from the file.
        k.rowTerms.releaseMappedPages()
        // Each term's posting count, then every term's postings in one run, as they lie in memory.
        for term in k.postings.indices { w.count(k.postings.count(of: term)) }
        w.count(k.postings.total)
        writePadding(to: w)
        for term in k.postings.indices {
            k.postings.withList(term) { postings in
                w.records(postings, size: 8) { p, out in
                    out.storeBytes(of: UInt32(bitPattern: p.row).littleEndian, toByteOffset: 0, as: UInt32.self)
                    let tf = UInt32(p.tf.0) | UInt32(p.tf.1) << 8 | UInt32(p.tf.2) << 16
                    out.storeBytes(of: tf.littleEndian, toByteOffset: 4, as: UInt32.self)
                }
            }
        }
        // The exact frequencies of the postings that escape their byte.
        w.count(k.largeFrequencies.count)
        for key in k.largeFrequencies.keys.sorted() {
            let f = k.largeFrequencies[key]!
            w.u32(UInt32(key >> 32))
            w.u32(UInt32(truncatingIfNeeded: key))
            for v in [f.0, f.1, f.2] { w.u16(v) }
        }
        k.fieldLengths.withUnsafeBufferPointer { lengths in
            w.records(lengths, size: 12) { l, out in
                out.storeBytes(of: l.0.littleEndian, toByteOffset: 0, as: UInt32.self)
                out.storeBytes(of: l.1.littleEndian, toByteOffset: 4, as: UInt32.self)
                out.storeBytes(of: l.2.littleEndian, toByteOffset: 8, as: UInt32.self)
            }
        }
        w.count(k.titleHeads.count)
        k.titleHeads.withUnsafeBufferPointer { heads in
            w.records(heads, size: 2) { h, out in out.storeBytes(of: h.littleEndian, toByteOffset: 0, as: UInt16.self) }
        }
        w.count(k.sortedTerms.count)
        k.sortedTerms.withUnsafeBufferPointer { ids in
            w.records(ids, size: 4) { id, out in out.storeBytes(of: UInt32(bitPattern: id).littleEndian, toByteOffset: 0, as: UInt32.self) }
        }
    }

    /// The keyword index, and which rows hold a document (to be checked against the items). The
    /// rows' term ids and the postings are used where they lie in `region` (the section, at
    /// `sectionOffset` in the file, mapped on its own) when it is given, else copied.
    static func readKeyword(
        _ r: inout SnapshotReader, bm25: BM25Parameters, sectionOffset: Int, region: MappedRegion?
    ) throws(SnapshotRejection) -> (KeywordIndex, holds: [Bool]) {
        let place = Placement(region: region, sectionOffset: sectionOffset)
        var keyword = KeywordIndex(parameters: bm25)
        let (termStrings, termIDs) = try readTerms(&r)
        let termCount = termStrings.count
        let (rows, rowTerms, holds, documentCount) = try readRowTerms(&r, termCount: termCount, place: place)
        let (postings, largeFrequencies) = try readPostings(&r, termCount: termCount, holds: holds, place: place)
        let (fieldLengths, totals) = try readFieldLengths(&r, rows: rows)
        let titleHeads = try readTitleHeads(&r, rows: rows)
        let sortedTerms = try readSortedTerms(&r, termCount: termCount)
        keyword.termStrings = termStrings
        keyword.termIDs = termIDs
        keyword.postings = postings
        keyword.largeFrequencies = largeFrequencies
        keyword.rowTerms = rowTerms
        keyword.fieldLengths = fieldLengths
        keyword.titleHeads = titleHeads
        keyword.totalLengths = totals
        keyword.documentCount = documentCount
        keyword.sortedTerms = sortedTerms
        return (keyword, holds)
    }

    /// The term strings (id = position) and the map back to their ids.
    private static func readTerms(_ r: inout SnapshotReader) throws(SnapshotRejection) -> ([String], [String: Int32]) {
        let termCount = try r.count(minimumSize: 4)
        var termStrings: [String] = []
        termStrings.reserveCapacity(termCount)
        var termIDs: [String: Int32] = [:]
        termIDs.reserveCapacity(termCount)
        for id in 0..<termCount {
            let term = try r.string()
            guard termIDs.updateValue(Int32(id), forKey: term) == nil else { throw malformed("term \(id) repeats an earlier one") }
            termStrings.append(term)
        }
        return (termStrings, termIDs)
    }

    /// Per row its term ids (nil for a row without a document), which rows hold one, and how many.
    private static func readRowTerms(
        _ r: inout SnapshotReader, termCount: Int, place: Placement
    ) throws(SnapshotRejection) -> (rows: Int, rowTerms: RowTermLists, holds: [Bool], documentCount: Int) {
        let rows = try r.count(minimumSize: 4)
        let rawStarts = try r.take(rows * 4)
        var starts = [UInt32](repeating: RowTermLists.noDocument, count: rows)
        var holds = [Bool](repeating: false, count: rows)
        var documentCount = 0
        for row in 0..<rows {
            let start = UInt32(littleEndian: rawStarts.loadUnaligned(fromByteOffset: row * 4, as: UInt32.self))
            if start == RowTermLists.noDocument { continue }
            starts[row] = start
            holds[row] = true
            documentCount += 1
        }
        let byteCount = try r.count(minimumSize: 1)
        let bytes = try place.buffer(r.take(byteCount), count: byteCount, of: UInt8.self, reader: r)
        // Every list lies where the one before ended, decodes within the bytes and names terms.
        let checked = bytes.withUnsafeBufferPointer { RowTermLists.validate($0, starts: starts, termCount: termCount) }
        switch checked {
        case .failure(let why): throw malformed(why.description)
        case .success(let idCount):
            let lists = RowTermLists(encoded: bytes, starts: starts, idCount: idCount)
            // Queries read a few rows' lists, from the file: the check's pages need not stay.
            lists.releaseMappedPages()
            return (rows, lists, holds, documentCount)
        }
    }

    /// Whether ``KeywordIndex/Posting`` lies in memory as a snapshot stores it (u32 row, a byte
    /// a field, a byte of padding), so that stored postings can be used where they lie.
    static let postingLayoutMatches =
        MemoryLayout<KeywordIndex.Posting>.stride == 8 && MemoryLayout<KeywordIndex.Posting>.offset(of: \.row) == 0
        && MemoryLayout<KeywordIndex.Posting>.offset(of: \.tf) == 4

    /// Per term its postings, and the exact frequencies of the escaped ones.
    private static func readPostings(
        _ r: inout SnapshotReader, termCount: Int, holds: [Bool], place: Placement
    ) throws(SnapshotRejection) -> (PostingLists, [UInt64: (UInt16, UInt16, UInt16)]) {
        guard postingLayoutMatches else { throw SnapshotRejection("this platform lays postings out otherwise than a snapshot") }
        let rawCounts = try r.take(termCount * 4)
        var starts = [UInt32](repeating: 0, count: termCount + 1)
        var total = 0
        for term in 0..<termCount {
            total += Int(UInt32(littleEndian: rawCounts.loadUnaligned(fromByteOffset: term * 4, as: UInt32.self)))
            guard total <= Int(UInt32.max) else { throw malformed("more postings than a u32 counts") }
            starts[term + 1] = UInt32(total)
        }
        let postingCount = try r.count(minimumSize: 8)
        guard postingCount == total else { throw malformed("the terms' posting lists add up to \(total), the section has \(postingCount)") }
        try readPadding(&r)
        let base = try place.buffer(r.take(total * 8), count: total, of: KeywordIndex.Posting.self, reader: r)
        // Every posting names a row that holds a document; the escaped ones are listed.
        var escaped = Set<UInt64>()
        let bad = base.withUnsafeBufferPointer { list in
            holds.withUnsafeBufferPointer { holds in
                var bad = false
                for term in 0..<termCount {
                    for i in Int(starts[term])..<Int(starts[term + 1]) {
                        let p = list[i]
                        let row = Int(UInt32(bitPattern: p.row))
                        bad = bad || row >= holds.count || !holds[row]
                        if p.isEscaped { escaped.insert(KeywordIndex.largeKey(term: Int32(term), row: p.row)) }
                    }
                }
                return bad
            }
        }
        if bad { throw malformed("a posting names a row that holds no document") }
        let exactCount = try r.count(minimumSize: 14)
        guard exactCount == escaped.count else {
            throw malformed("\(exactCount) exact frequencies for \(escaped.count) escaped postings")
        }
        var largeFrequencies: [UInt64: (UInt16, UInt16, UInt16)] = [:]
        largeFrequencies.reserveCapacity(exactCount)
        for _ in 0..<exactCount {
            let key = KeywordIndex.largeKey(term: Int32(bitPattern: try r.u32()), row: Int32(bitPattern: try r.u32()))
            let f = (try r.u16(), try r.u16(), try r.u16())
            guard escaped.contains(key), max(f.0, max(f.1, f.2)) >= UInt16(KeywordIndex.Posting.escape),
                largeFrequencies.updateValue(f, forKey: key) == nil
            else { throw malformed("exact frequencies for no escaped posting") }
        }
        return (PostingLists(base: base, starts: starts), largeFrequencies)
    }

    /// Where fixed-size records of a section are kept after the open: in the section's own
    /// mapping when there is one, else copied into an array.
    struct Placement {
        var region: MappedRegion?
        var sectionOffset: Int

        /// `raw` (`count` values, read by `reader` from the section) where it lies in the region,
        /// else a copy.
        func buffer<T: BitwiseCopyable & Sendable>(_ raw: UnsafeRawBufferPointer, count: Int, of _: T.Type, reader: SnapshotReader)
            -> RowBuffer<T>
        {
            if let region, count > 0,
                let mapped = RowBuffer<T>(
                    region: region, offset: region.offset(ofFileOffset: sectionOffset + (raw.baseAddress! - reader.bytes.baseAddress!)),
                    count: count)
            {
                return mapped
            }
            return RowBuffer(
                [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                    if count > 0 { UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: raw.baseAddress!, byteCount: raw.count) }
                    initialized = count
                })
        }
    }

    /// Per row its three field lengths, and their totals.
    private static func readFieldLengths(
        _ r: inout SnapshotReader, rows: Int
    ) throws(SnapshotRejection) -> ([(UInt32, UInt32, UInt32)], (Int, Int, Int)) {
        let rawLengths = try r.take(rows * 12)
        var totals = (0, 0, 0)
        let fieldLengths = [(UInt32, UInt32, UInt32)](unsafeUninitializedCapacity: rows) { buffer, initialized in
            for i in 0..<rows {
                let l = (
                    UInt32(littleEndian: rawLengths.loadUnaligned(fromByteOffset: i * 12, as: UInt32.self)),
                    UInt32(littleEndian: rawLengths.loadUnaligned(fromByteOffset: i * 12 + 4, as: UInt32.self)),
                    UInt32(littleEndian: rawLengths.loadUnaligned(fromByteOffset: i * 12 + 8, as: UInt32.self))
                )
                buffer[i] = l
                totals.0 += Int(l.0)
                totals.1 += Int(l.1)
                totals.2 += Int(l.2)
            }
            initialized = rows
        }
        return (fieldLengths, totals)
    }

    /// The title-word hashes, ``KeywordIndex/titleHeadLength`` per row.
    private static func readTitleHeads(_ r: inout SnapshotReader, rows: Int) throws(SnapshotRejection) -> [UInt16] {
        let headCount = try r.count(minimumSize: 2)
        guard headCount == rows * KeywordIndex.titleHeadLength else { throw malformed("\(headCount) title-word hashes for \(rows) rows") }
        let rawHeads = try r.take(headCount * 2)
        let titleHeads = [UInt16](unsafeUninitializedCapacity: headCount) { buffer, initialized in
            for i in 0..<headCount { buffer[i] = UInt16(littleEndian: rawHeads.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self)) }
            initialized = headCount
        }
        return titleHeads
    }

    /// The ids of the sorted terms (a permutation of the first ids).
    private static func readSortedTerms(_ r: inout SnapshotReader, termCount: Int) throws(SnapshotRejection) -> [Int32] {
        let sortedCount = try r.count(minimumSize: 4)
        guard sortedCount <= termCount else { throw malformed("\(sortedCount) sorted terms of \(termCount)") }
        let rawSorted = try r.take(sortedCount * 4)
        var seen = [Bool](repeating: false, count: sortedCount)
        var sortedTerms: [Int32] = []
        sortedTerms.reserveCapacity(sortedCount)
        for i in 0..<sortedCount {
            let id = Int(UInt32(littleEndian: rawSorted.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)))
            // The sorted ids are always the first `sortedCount` ids (KeywordIndex.sortedTerms).
            guard id < sortedCount, !seen[id] else { throw malformed("the sorted term list is not a permutation") }
            seen[id] = true
            sortedTerms.append(Int32(id))
        }
        return sortedTerms
    }
}
