import Testing

@testable import Sift

@Suite("Domain codes: names coded by order of first appearance")
struct DomainCodesTests {
    @Test(
        "Names given as bytes get the codes names given as strings get: interleaved, past the names compared as bytes, empty and same-length names"
    )
    func bytesAndStringsAgree() {
        // More names than are compared byte for byte, several of one length, an empty one, non-ASCII.
        let names = ["note", "news", "nose", "", "journal", "recipe", "expense", "café", "cafe", "x", "y", "zz", "note2", "émoji🙂"]
        var rng = SeededGenerator(seed: 11)
        var byString = RowAttributes.DomainCodes()
        var byBytes = RowAttributes.DomainCodes()
        for _ in 0..<2_000 {
            let name = names[rng.int(0..<names.count)]
            let expected = byString.code(of: name)
            var copy = name
            let code = copy.withUTF8 { byBytes.code(ofUTF8: UnsafeRawBufferPointer($0)) }
            #expect(code == expected, "\(name)")
        }
        #expect(byBytes.names == byString.names)
        #expect(Set(byBytes.names) == Set(names))
    }
}

@Suite("Row attributes restored from a snapshot")
struct RestoredAttributesTests {
    @Test("The restored rows' entries are recoded where they lie, not copied, and get the codes set row by row gives")
    func entriesHandedOver() {
        var rows = IndexState.RestoredRows(count: 5)
        rows.entries[0] = RowAttributes.entry(expires: nil, date: nil, rankingHint: nil, domain: 1)
        rows.entries[1] = RowAttributes.entry(expires: nil, date: nil, rankingHint: nil, domain: 0)
        rows.entries[3] = RowAttributes.entry(expires: nil, date: nil, rankingHint: nil, domain: 0)
        let before = rows.entries.withUnsafeBufferPointer { $0.baseAddress }
        let attributes = RowAttributes(entries: rows.takeEntries(), runs: [(0..<2, ["b", "a"]), (2..<5, ["a"])])
        #expect(rows.entries.isEmpty)
        #expect(attributes.entries.withUnsafeBufferPointer { $0.baseAddress } == before)
        #expect(attributes.domainNames == ["b", "a"])
        #expect(attributes.entries.map(\.domain) == [1, 0, RowAttributes.freeRow, 1, RowAttributes.freeRow])
    }
}
