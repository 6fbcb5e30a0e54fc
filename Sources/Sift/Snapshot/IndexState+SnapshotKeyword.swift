import Foundation

/// The keyword section of a snapshot (see ``IndexState`` in IndexState+Snapshot.swift for the layout).
extension IndexState {
    static func writeKeyword(_ k: KeywordIndex, to w: SnapshotWriter) {
        w.count(k.termStrings.count)
        for t in k.termStrings { w.string(t) }
        w.count(k.rowTerms.count)
        for row in k.rowTerms.indices {
            k.rowTerms.withList(row) { ids in
                guard let ids else {
                    w.u32(noDocument)
                    return
                }
                w.count(ids.count)
                w.records(ids, size: 4) { id, out in
                    out.storeBytes(of: UInt32(bitPattern: id).littleEndian, toByteOffset: 0, as: UInt32.self)
                }
            }
        }
        for (term, list) in k.postings.enumerated() {
            w.count(list.count)
            list.withUnsafeBufferPointer { postings in
                // The exact frequencies: a posting that escapes its byte takes them from the side table.
                w.records(postings, size: 10) { p, out in
                    let f = k.frequencies(p, term: Int32(term))
                    out.storeBytes(of: UInt32(bitPattern: p.row).littleEndian, toByteOffset: 0, as: UInt32.self)
                    out.storeBytes(of: f.0.littleEndian, toByteOffset: 4, as: UInt16.self)
                    out.storeBytes(of: f.1.littleEndian, toByteOffset: 6, as: UInt16.self)
                    out.storeBytes(of: f.2.littleEndian, toByteOffset: 8, as: UInt16.self)
                }
            }
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
            w.records(heads, size: 8) { h, out in out.storeBytes(of: h.littleEndian, toByteOffset: 0, as: UInt64.self) }
        }
        w.count(k.sortedTerms.count)
        k.sortedTerms.withUnsafeBufferPointer { ids in
            w.records(ids, size: 4) { id, out in out.storeBytes(of: UInt32(bitPattern: id).littleEndian, toByteOffset: 0, as: UInt32.self) }
        }
    }

    /// The keyword index, and which rows hold a document (to be checked against the items).
    static func readKeyword(_ r: inout SnapshotReader, bm25: BM25Parameters) throws(SnapshotRejection) -> (KeywordIndex, holds: [Bool]) {
        var keyword = KeywordIndex(parameters: bm25)
        let (termStrings, termIDs) = try readTerms(&r)
        let termCount = termStrings.count
        let (rows, rowTerms, holds, documentCount) = try readRowTerms(&r, termCount: termCount)
        let (postings, largeFrequencies) = try readPostings(&r, termCount: termCount, rows: rows, holds: holds)
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
        _ r: inout SnapshotReader, termCount: Int
    ) throws(SnapshotRejection) -> (rows: Int, rowTerms: RowTermLists, holds: [Bool], documentCount: Int) {
        let rows = try r.count(minimumSize: 4)
        var starts = [UInt32](repeating: 0, count: rows)
        var lengths = [UInt32](repeating: RowTermLists.noDocument, count: rows)
        var holds = [Bool](repeating: false, count: rows)
        // Where each list lies (a skim of the lengths), then every list copied into one array.
        var lists: [UnsafeRawBufferPointer] = []
        lists.reserveCapacity(rows)
        var total = 0
        var documentCount = 0
        for row in 0..<rows {
            let n = try r.u32()
            if n == noDocument { continue }
            guard Int(n) <= r.remaining / 4 else { throw malformed("row \(row) has more terms than the file has bytes") }
            lists.append(try r.take(Int(n) * 4))
            starts[row] = UInt32(total)
            lengths[row] = n
            holds[row] = true
            total += Int(n)
            documentCount += 1
        }
        var largest: UInt32 = 0
        let ids = [Int32](unsafeUninitializedCapacity: total) { out, initialized in
            var at = 0
            for raw in lists {
                for i in 0..<raw.count / 4 {
                    let id = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                    largest = max(largest, id)
                    out[at + i] = Int32(truncatingIfNeeded: id)
                }
                at += raw.count / 4
            }
            initialized = total
        }
        if total > 0, largest >= UInt32(termCount) {
            let row = (0..<rows).first { row in
                holds[row] && ids[Int(starts[row])..<Int(starts[row] + lengths[row])].contains { $0 < 0 || $0 >= termCount }
            }
            throw malformed("row \(row ?? 0) names a term past the last")
        }
        return (rows, RowTermLists(ids: ids, starts: starts, lengths: lengths), holds, documentCount)
    }

    /// Per term its postings, and the exact frequencies of the escaped ones.
    private static func readPostings(
        _ r: inout SnapshotReader, termCount: Int, rows: Int, holds: [Bool]
    ) throws(SnapshotRejection) -> ([[KeywordIndex.Posting]], [UInt64: (UInt16, UInt16, UInt16)]) {
        var postings: [[KeywordIndex.Posting]] = []
        postings.reserveCapacity(termCount)
        var largeFrequencies: [UInt64: (UInt16, UInt16, UInt16)] = [:]
        let escape = UInt16(KeywordIndex.Posting.escape)
        try holds.withUnsafeBufferPointer { holds throws(SnapshotRejection) in
            for term in 0..<termCount {
                let n = try r.count(minimumSize: 10)
                let raw = try r.take(n * 10)
                var bad = false
                var escaped = false
                let list = [KeywordIndex.Posting](unsafeUninitializedCapacity: n) { buffer, initialized in
                    for i in 0..<n {
                        let o = i * 10
                        let row = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt32.self))
                        let f0 = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 4, as: UInt16.self))
                        let f1 = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 6, as: UInt16.self))
                        let f2 = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 8, as: UInt16.self))
                        bad = bad || row >= UInt32(rows) || !holds[Int(row)]
                        escaped = escaped || max(f0, max(f1, f2)) >= escape
                        // In memory a posting keeps a byte a field, as KeywordIndex.insert makes it.
                        buffer[i] = KeywordIndex.Posting(
                            row: Int32(bitPattern: row),
                            tf: (UInt8(min(f0, escape)), UInt8(min(f1, escape)), UInt8(min(f2, escape))))
                    }
                    initialized = n
                }
                if bad { throw malformed("a posting names a row that holds no document") }
                if escaped {
                    // The exact frequencies of a posting that escapes its byte, in the side table.
                    for (i, p) in list.enumerated() where p.isEscaped {
                        let o = i * 10
                        largeFrequencies[KeywordIndex.largeKey(term: Int32(term), row: p.row)] = (
                            UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 4, as: UInt16.self)),
                            UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 6, as: UInt16.self)),
                            UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 8, as: UInt16.self))
                        )
                    }
                }
                postings.append(list)
            }
        }
        return (postings, largeFrequencies)
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
    private static func readTitleHeads(_ r: inout SnapshotReader, rows: Int) throws(SnapshotRejection) -> [UInt64] {
        let headCount = try r.count(minimumSize: 8)
        guard headCount == rows * KeywordIndex.titleHeadLength else { throw malformed("\(headCount) title-word hashes for \(rows) rows") }
        let rawHeads = try r.take(headCount * 8)
        let titleHeads = [UInt64](unsafeUninitializedCapacity: headCount) { buffer, initialized in
            for i in 0..<headCount { buffer[i] = UInt64(littleEndian: rawHeads.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) }
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
