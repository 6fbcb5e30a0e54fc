import Foundation

/// What ``IndexSnapshot/inspect(in:expected:coding:)`` found.
enum SnapshotInspection {
    /// No snapshot belongs to an index like this (in memory, protected): why.
    case notApplicable(String)
    case missing
    /// The file fails its own checks (size, checksum): damaged, truncated or extended.
    case damaged(String)
    /// Intact, but made for another generation of the store or another configuration: the
    /// next open rebuilds (and removes it). Not damage.
    case stale(String)
    /// Intact and of the store's current generation: its state.
    case current(IndexState)
    /// Intact by its checksum, and yet it does not decode.
    case malformed(String)
    /// Intact by its checksum but for a vector row, which does not match its own (an open that
    /// verifies rows as they are read still uses the snapshot until a query reads that row).
    case damagedRow(String)
}

extension IndexSnapshot {
    /// Inspects the snapshot of `directory` against `expected` (nil: the store has no usable
    /// generation): its integrity first — the size in its trailer and the checksum of every
    /// byte, before anything in it is believed (a damaged generation must not pass for a stale
    /// one) — then its key, then its whole decode.
    static func inspect(in directory: URL, expected: Key?, coding: QuantizedCoding?) -> SnapshotInspection {
        let path = url(in: directory).path
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        let file: MappedSnapshot
        do { file = try MappedSnapshot(path: path) } catch { return .damaged(error.description) }
        guard file.count >= magic.count + 4 + 24 else { return .damaged("the snapshot is truncated (\(file.count) bytes)") }
        let size = UInt64(littleEndian: file.bytes.loadUnaligned(fromByteOffset: file.count - 16, as: UInt64.self))
        guard size == UInt64(file.count) else {
            return .damaged("the snapshot is truncated or damaged (\(file.count) bytes, its trailer says \(size))")
        }
        let stored = UInt64(littleEndian: file.bytes.loadUnaligned(fromByteOffset: file.count - 8, as: UInt64.self))
        guard expectedChecksum(of: file.bytes) == stored else {
            return .damaged("the snapshot is damaged (checksum mismatch)")
        }
        var r = SnapshotReader(file.bytes)
        do throws(SnapshotRejection) {
            guard Array(try r.take(magic.count)) == magic else { return .malformed("the file does not start with the snapshot magic") }
            let version = try r.u32()
            guard version == formatVersion else {
                return .stale("the snapshot has format version \(version), this Sift writes \(formatVersion)")
            }
            let key = try readKey(&r)
            guard let expected else { return .stale("the store has no usable generation") }
            if let mismatch = describeMismatch(found: key, expected: expected) { return .stale(mismatch) }
        } catch {
            return .malformed(error.description)
        }
        switch load(in: directory, expected: expected!, coding: coding) {
        case .success(let state): return .current(state)
        case .failure(let rejection) where rejection.damagedRow != nil: return .damagedRow(rejection.description)
        case .failure(let rejection): return .malformed(rejection.description)
        }
    }

    /// The checksum the trailer of a snapshot file whose bytes are `bytes` should hold: of every
    /// byte before it but the vector rows' (`IndexState.rowsRange`), found by reading the file's
    /// own key and section table — when those are damaged, the range found is wrong or none,
    /// and the checksum, which covers them, does not match.
    static func expectedChecksum(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count - 8)])
        guard let rows = rowsRange(ofFile: bytes) else { return SnapshotChecksum.of(body) }
        var state = SnapshotChecksum()
        state.combine(blocks: UnsafeRawBufferPointer(rebasing: body[0..<rows.lowerBound]))
        return state.finish(tail: UnsafeRawBufferPointer(rebasing: body[rows.upperBound...]))
    }

    /// The vector rows' range in a snapshot file (`IndexState.rowsRange`), nil when the file
    /// does not parse that far or has none.
    static func rowsRange(ofFile bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        guard bytes.count >= magic.count + 4 + 24 else { return nil }
        var r = SnapshotReader(bytes)
        do throws(SnapshotRejection) {
            guard Array(try r.take(magic.count)) == magic, try r.u32() == formatVersion else { return nil }
            let key = try readKey(&r)
            guard let vectors = try readSectionTable(bytes, bodyStart: r.offset).first(where: { $0.kind == .vectors }) else { return nil }
            return IndexState.rowsRange(in: bytes, vectors: vectors.range, bytesPerComponent: key.precision.bytesPerComponent)
        } catch {
            return nil
        }
    }

    /// The names of temporary files that interrupted snapshot writes left in `directory`.
    static func temporaryFiles(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(fileName + ".tmp-") }.sorted()
    }
}

extension IndexState {
    /// How this state (a snapshot's) differs from `rebuilt` (the store's projections made
    /// afresh): the same ids, each with the same item, the same keyword document (terms with
    /// their field frequencies, field lengths, title words) and the same vector; every domain of
    /// an item named. Rows may differ (a long-lived index recycles them): items are matched by
    /// id. At most `limit` differences are listed.
    func disagreements(with rebuilt: IndexState, limit: Int = 5) -> [String] {
        var found: [String] = []
        func note(_ s: String) { if found.count < limit { found.append(s) } }
        let mine = Set(table.ids)
        let theirs = Set(rebuilt.table.ids)
        for id in mine.subtracting(theirs).sorted().prefix(limit) { note("\(id) is in the snapshot, not in the store") }
        for id in theirs.subtracting(mine).sorted().prefix(limit) { note("\(id) is in the store, not in the snapshot") }
        let myDocuments = keyword.documentDigests()
        let theirDocuments = rebuilt.keyword.documentDigests()
        for id in mine.intersection(theirs).sorted() {
            let a = table.row(of: id)!
            let b = rebuilt.table.row(of: id)!
            if items[Int(a)] != rebuilt.items[Int(b)] { note("\(id): the snapshot's item differs from the store's") }
            if myDocuments[Int(a)] != theirDocuments[Int(b)] { note("\(id): the snapshot's keyword document differs from the store's") }
            let v1 = vectors.map { $0.contains(row: a) ? $0.vector(at: a) : [] }
            let v2 = rebuilt.vectors.map { $0.contains(row: b) ? $0.vector(at: b) : [] }
            if v1 != nil && v2 != nil && v1 != v2 { note("\(id): the snapshot's vector differs from the store's") }
        }
        if keyword.documentCount != rebuilt.keyword.documentCount {
            note("the snapshot's keyword index holds \(keyword.documentCount) documents, the store \(rebuilt.keyword.documentCount)")
        }
        for domain in Set(rebuilt.items.all.compactMap { $0?.domain }).sorted() where domainNames[domain] == nil {
            note("the snapshot does not know the domain of some items")
        }
        return found
    }
}

extension KeywordIndex {
    /// Per row, a digest of the row's document independent of term ids: the sum of a mix of
    /// each of its terms' string and exact field frequencies, its field lengths and title words
    /// (0 for a row without a document).
    /// - Complexity: O(postings + rows), one UInt64 a row.
    func documentDigests() -> [UInt64] {
        var digests = [UInt64](repeating: 0, count: rowTerms.count)
        for (term, list) in postings.enumerated() {
            let h = FNV1a.hash(termStrings[term])
            for p in list where Int(p.row) < digests.count {
                let f = frequencies(p, term: Int32(term))
                digests[Int(p.row)] &+= Self.mix(h ^ (UInt64(f.0) | UInt64(f.1) << 16 | UInt64(f.2) << 32))
            }
        }
        for row in digests.indices where rowTerms.holdsDocument(row) {
            var d = digests[row]
            if row < fieldLengths.count {
                let l = fieldLengths[row]
                d &+= Self.mix(0x6C65_6E67 ^ (UInt64(l.0) | UInt64(l.1) << 21 | UInt64(l.2) << 42))
            }
            for i in 0..<Self.titleHeadLength where row * Self.titleHeadLength + i < titleHeads.count {
                d &+= Self.mix(UInt64(titleHeads[row * Self.titleHeadLength + i]) &+ UInt64(i + 1))
            }
            digests[row] = d | 1
        }
        return digests
    }

    /// SplitMix64's finaliser.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
