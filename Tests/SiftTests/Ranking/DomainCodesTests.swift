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
