import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension KeywordIndex {
    /// Bump when the ``Analyzer``, ``PorterStemmer`` or the way items become terms change what
    /// terms an item gives: a snapshot made by other analysis is then rebuilt.
    static let analysisVersion = 1

    /// The analysis version with the stop words folded in (FNV-1a 64): part of a snapshot's key.
    static let analysisFingerprint: UInt64 = {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in "keyword-analysis-\(analysisVersion)\n".utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        for word in StopWords.english.sorted() {
            for b in word.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            h = (h ^ 0x0A) &* 0x100_0000_01b3
        }
        return h
    }()
}

/// The body of a snapshot (``IndexSnapshot``): sections, each decoded on its own (in parallel),
/// found through the section table at the end of the file.
/// ```
/// items (several, each a run of rows):
///           u32 first row, u32 rows; per row u8 holds an item, then id, domain, title,
///           content (strings: u32 length + UTF-8), u32 n + n keywords, optional date, optional
///           expiry (f64 seconds since 1970), optional url, optional ranking hint (i32),
///           optional display name
/// domains:  u32 n; n × (domain, optional display name)
/// keyword:  u32 T; T term strings (id = position); u32 R; R × u32 where the row's term list
///           starts in the B bytes (0xFFFFFFFF: no document); u32 B; B bytes: the rows' lists in
///           row order, each its id count, first id and gaps, LEB128 (`RowTermLists`); T × u32
///           posting count per term; u32 P, zeros to a multiple of 64, P postings (u32 row,
///           u8 tf title, keywords, content — 255 for 255 or more —, u8 0; terms in order);
///           u32 E + E × (u32 term, u32 row, 3 × u16) the
///           exact frequencies of the postings with a 255; R × 3 u32 field lengths;
///           u32 H + H u16 title-word hashes; u32 S + S u32 sorted term ids. The lists' bytes and
///           the postings are used where they lie (see ``KeywordIndex/postings``)
/// vectors:  u8 present; then u32 dimension, u32 rows, rows × u8 occupied, zero bytes up to a
///           multiple of 64 in the file, rows × dimension components (f32, or binary16 bits as
///           the key's precision says) and zeros up to a multiple of 64 — the part of the file
///           its checksum leaves out —, rows × u32 row checksums (`SnapshotChecksum.row` of each
///           row's component bytes, `RowChecks`); u32 components of the quantized copy (0: none), and
///           when there is one: u8 bits a code (8 or 4), zeros to a multiple of 64, rows × f32
///           scales, zeros to a multiple of 64, rows × the codes' bytes (components int8 codes,
///           or components / 2 bytes of 4-bit codes, `QuantizedRows`). An open uses the
///           components and the copy where they lie in the file (the copy only when it codes as
///           the index wants; else it codes the rows again)
/// ```
/// The identifier table is the item ids by row; the length totals and the document count follow
/// from the lengths and the rows' term lists (stored, not derived from the postings: that would
/// be millions of appends scattered over the rows, a cache miss each); the quantized copy of
/// the vectors is made again when the index asks for another. Optionals are a u8 flag (0 or 1) and the
/// value.
extension IndexState {
    /// Rows per items section: enough sections for the cores to share, few enough to be cheap.
    static let itemsPerSection = 8192
    /// The file offset the vector components start at is a multiple of this (a cache line).
    static let vectorAlignment = 64

    /// The sections of a body, in file order.
    enum SnapshotSection: UInt32 {
        case items = 1
        case domains, keyword, vectors
    }

    /// Writes the body; returns each section's kind and byte range in the file.
    /// - Parameter rowSums: each vector row's checksum (``VectorIndex/rowSums()``).
    func writeSnapshotBody(to w: SnapshotWriter, rowSums: [UInt32]) -> [(SnapshotSection, Range<Int>)] {
        var sections: [(SnapshotSection, Range<Int>)] = []
        func section(_ kind: SnapshotSection, _ body: () -> Void) {
            let start = w.count
            body()
            sections.append((kind, start..<w.count))
        }
        for first in stride(from: 0, to: items.count, by: Self.itemsPerSection) {
            let rows = first..<min(first + Self.itemsPerSection, items.count)
            section(.items) {
                w.count(rows.lowerBound)
                w.count(rows.count)
                for r in rows {
                    // A row unchanged since it was read from a snapshot is copied as it lies.
                    if let record = items.unchangedRecord(at: r) { w.bytes(record) } else { Self.writeItem(items[r], to: w) }
                }
            }
        }
        section(.domains) {
            w.count(domainNames.count)
            for (domain, name) in domainNames.sorted(by: { $0.key < $1.key }) {
                w.string(domain)
                w.optionalString(name)
            }
        }
        section(.keyword) { Self.writeKeyword(keyword, to: w) }
        section(.vectors) {
            w.bool(vectors != nil)
            if let v = vectors {
                w.count(v.dimension)
                w.count(v.capacity)
                v.occupied.withUnsafeBufferPointer { flags in
                    w.records(flags, size: 1) { f, out in out.storeBytes(of: f ? 1 : 0, as: UInt8.self) }
                }
                // Aligned, so that an open can use the components in the mapped file as they are.
                Self.writePadding(to: w)
                // Raw components in the platform's order (little-endian, as everywhere Sift runs),
                // outside the file's checksum: each row has its own, after them.
                w.unchecksummed {
                    switch v.precision {
                    case .float32: v.matrix.forEachRun { w.bytes($0) }
                    case .float16: v.halves.forEachRun { w.bytes($0) }
                    }
                    Self.writePadding(to: w)
                }
                precondition(rowSums.count == v.capacity)
                rowSums.withUnsafeBytes { w.bytes($0) }
                // Read through the mapping here; queries read a few rows from the file.
                v.matrix.releaseMappedPages()
                v.halves.releaseMappedPages()
                // The quantized and re-scoring copies, so that an open needs not code every row again.
                Self.writeCopy(v.quantized, rows: v.capacity, to: w)
                Self.writeCopy(v.rescoring, rows: v.capacity, to: w)
            }
        }
        return sections
    }

    private static func writeItem(_ item: SearchableItem?, to w: SnapshotWriter) {
        w.bool(item != nil)
        guard let item else { return }
        w.string(item.id.rawValue)
        w.string(item.domain)
        w.string(item.title)
        w.string(item.content)
        w.count(item.keywords.count)
        for k in item.keywords { w.string(k) }
        w.optionalDate(item.date?.timeIntervalSince1970)
        w.optionalDate(item.expires?.timeIntervalSince1970)
        w.optionalString(item.url)
        w.bool(item.rankingHint != nil)
        if let hint = item.rankingHint { w.u32(UInt32(bitPattern: Int32(clamping: hint))) }
        w.optionalString(item.displayName)
    }

    // MARK: Reading

    /// Where each row's item record starts, the ids, which rows hold an item and their
    /// attributes, as the items sections fill them: each section its own run of rows, from
    /// several threads, straight into the arrays the state keeps.
    struct RestoredRows {
        /// Per row the byte offset of its record in the items sections' region.
        var offsets: [UInt32]
        var ids: [ItemID?]
        var holds: [Bool]
        /// Each row's attributes, its domain coded by position in its section's own list.
        var entries: [RowAttributes.Entry]

        init(count: Int) {
            offsets = .init(repeating: 0, count: count)
            ids = .init(repeating: nil, count: count)
            holds = .init(repeating: false, count: count)
            entries = .init(repeating: .free, count: count)
        }

        /// The entries, handed over: the rows keep none.
        mutating func takeEntries() -> [RowAttributes.Entry] {
            defer { entries = [] }
            return entries
        }

        /// Runs `body` with the rows open for writing.
        mutating func filling<R>(_ body: (Writer) -> R) -> R {
            offsets.withUnsafeMutableBufferPointer { offsets in
                ids.withUnsafeMutableBufferPointer { ids in
                    holds.withUnsafeMutableBufferPointer { holds in
                        entries.withUnsafeMutableBufferPointer { entries in
                            body(Writer(offsets: offsets, ids: ids, holds: holds, entries: entries))
                        }
                    }
                }
            }
        }

        /// The rows, writable from several threads as long as each writes only its own rows.
        struct Writer: @unchecked Sendable {
            let offsets: UnsafeMutableBufferPointer<UInt32>
            let ids: UnsafeMutableBufferPointer<ItemID?>
            let holds: UnsafeMutableBufferPointer<Bool>
            let entries: UnsafeMutableBufferPointer<RowAttributes.Entry>
        }
    }

    static func malformed(_ what: String) -> SnapshotRejection { SnapshotRejection("the snapshot is malformed (\(what))") }

    /// The first row and the number of rows of an items section (its first 8 bytes).
    static func itemsRange(_ r: inout SnapshotReader) throws(SnapshotRejection) -> Range<Int> {
        let first = Int(try r.u32())
        let rows = try r.count()
        return first..<(first + rows)
    }

    /// Reads an items section into its rows of `into`: where each row's record starts (as a
    /// byte offset in `region`, which holds the section at `sectionOffset` in the file), its id
    /// and attributes; every record read in full, bounds-checked, its text left where it lies.
    /// Returns the section's rows and the domains they name, in order of first appearance
    /// (their attributes code a domain by its position there).
    static func readItems(_ r: inout SnapshotReader, sectionOffset: Int, region: MappedRegion, into rows: RestoredRows.Writer)
        throws(SnapshotRejection) -> (rows: Range<Int>, domains: [String])
    {
        let range = try itemsRange(&r)
        guard range.upperBound <= rows.offsets.count else { throw malformed("item rows beyond the items sections' count") }
        var domains = RowAttributes.DomainCodes()
        for row in range {
            rows.offsets[row] = UInt32(region.offset(ofFileOffset: sectionOffset + r.offset))
            guard let (id, entry) = try readItemAttributes(&r, domains: &domains) else { continue }
            rows.entries[row] = entry
            rows.ids[row] = id
            rows.holds[row] = true
        }
        return (range, domains.names)
    }

    /// One item record: the item, or nil for a free row. (``readItemAttributes(_:domains:)``
    /// reads the same layout for the open.)
    static func readItem(_ r: inout SnapshotReader) throws(SnapshotRejection) -> SearchableItem? {
        guard try r.bool() else { return nil }
        var item = SearchableItem(id: ItemID(try r.string()))
        item.domain = try r.string()
        item.title = try r.string()
        item.content = try r.string()
        let keywordCount = try r.count(minimumSize: 4)
        if keywordCount > 0 {
            var keywords: [String] = []
            keywords.reserveCapacity(keywordCount)
            for _ in 0..<keywordCount { keywords.append(try r.string()) }
            item.keywords = keywords
        }
        item.date = try r.optionalDouble().map(Date.init(timeIntervalSince1970:))
        item.expires = try r.optionalDouble().map(Date.init(timeIntervalSince1970:))
        item.url = try r.optionalString()
        item.rankingHint = try r.bool() ? Int(Int32(bitPattern: try r.u32())) : nil
        item.displayName = try r.optionalString()
        return item
    }

    /// What the open needs of one item record — its id and its attributes, the domain coded in
    /// `domains` — or nil for a free row. The texts are read past (their lengths checked, the
    /// bytes not decoded), and no ``SearchableItem`` is made.
    static func readItemAttributes(
        _ r: inout SnapshotReader, domains: inout RowAttributes.DomainCodes
    ) throws(SnapshotRejection) -> (ItemID, RowAttributes.Entry)? {
        guard try r.bool() else { return nil }
        let id = ItemID(try r.string())
        let domain = domains.code(ofUTF8: try r.take(Int(try r.u32())))
        for _ in 0..<2 { _ = try r.take(Int(try r.u32())) }  // title, content
        for _ in 0..<(try r.count(minimumSize: 4)) { _ = try r.take(Int(try r.u32())) }  // keywords
        let date = try r.optionalDouble().map(Date.init(timeIntervalSince1970:))
        let expires = try r.optionalDouble().map(Date.init(timeIntervalSince1970:))
        if try r.bool() { _ = try r.take(Int(try r.u32())) }  // url
        let hint = try r.bool() ? Int(Int32(bitPattern: try r.u32())) : nil
        if try r.bool() { _ = try r.take(Int(try r.u32())) }  // display name
        return (id, RowAttributes.entry(expires: expires, date: date, rankingHint: hint, domain: domain))
    }

    /// Reads past one item record.
    static func skipItem(_ r: inout SnapshotReader) throws(SnapshotRejection) {
        var domains = RowAttributes.DomainCodes()
        _ = try readItemAttributes(&r, domains: &domains)
    }

    static func readDomains(_ r: inout SnapshotReader) throws(SnapshotRejection) -> [String: String?] {
        var domainNames: [String: String?] = [:]
        for _ in 0..<(try r.count(minimumSize: 5)) {
            let domain = try r.string()
            domainNames[domain] = .some(try r.optionalString())
        }
        return domainNames
    }

    /// The state the sections make, once each read on its own: the keyword index's documents and
    /// the vectors must be in the rows that hold items.
    /// - Parameter slots: the identifier table's slots built from `rows.ids`, nil when an id is in two rows.
    /// - Parameter runs: each items section's rows and the domains its attributes code.
    /// - Parameter itemsRegion: the items sections' mapped pages (nil when there are none).
    init(
        rows: consuming RestoredRows, slots: RowSlots?, itemsRegion: MappedRegion?, runs: [(rows: Range<Int>, domains: [String])],
        domainNames: [String: String?], keyword: (KeywordIndex, holds: [Bool]), vectors: VectorIndex?
    ) throws(SnapshotRejection) {
        guard keyword.holds == rows.holds else { throw Self.malformed("the keyword index's rows disagree with the items") }
        if let vectors {
            guard vectors.capacity <= rows.holds.count else {
                throw Self.malformed("\(vectors.capacity) vector rows for \(rows.holds.count) rows")
            }
            for (row, o) in vectors.occupied.enumerated() where o && !rows.holds[row] {
                throw Self.malformed("vector row \(row) holds no item")
            }
        }
        guard let slots else { throw Self.malformed("an item id is in two rows") }
        self.init(keyword: keyword.0, vectors: vectors)
        self.table = IdentifierTable(rows: rows.ids, slots: slots)
        if let region = itemsRegion { self.items = ItemCache(encoded: EncodedItems(region: region, offsets: rows.offsets)) }
        self.domainNames = domainNames
        // The compact per-row fields filters read are derived from the items, not stored.
        attributes = RowAttributes(entries: rows.takeEntries(), runs: runs)
    }
}

extension SnapshotWriter {
    /// Writes `values` as fixed-size records, `encode` filling `size` bytes for each, in buffer
    /// chunks rather than one call per field.
    func records<T>(_ values: UnsafeBufferPointer<T>, size: Int, _ encode: (T, UnsafeMutableRawPointer) -> Void) {
        let perChunk = max(1, (1 << 16) / size)
        var i = 0
        while i < values.count {
            let n = min(perChunk, values.count - i)
            withSpace(n * size) { out in
                for k in 0..<n { encode(values[i + k], out + k * size) }
            }
            i += n
        }
    }
}
