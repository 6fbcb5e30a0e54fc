import Testing

@testable import Sift

@Suite("Stem memo: words to their stems, found by their bytes")
struct StemMemoTests {
    func lookUp(_ memo: StemMemo, _ word: String) -> StemEntry? {
        var word = word
        return word.withUTF8 { memo.entry(forBytes: $0) }
    }

    @Test("It holds what a dictionary holds, through growth, by bytes and by String")
    func likeADictionary() {
        var rng = SplitMix64(seed: 31)
        var memo = StemMemo()
        var reference: [String: StemEntry] = [:]
        let letters = Array("abcdefghijklmnopqrstuvwxyzé1".unicodeScalars)
        for i in 0..<5_000 {
            let n = 1 + Int(rng.next() % 9)
            var word = ""
            for _ in 0..<n { word.unicodeScalars.append(letters[Int(rng.next() % UInt64(letters.count))]) }
            let entry = StemEntry(stem: String(word.prefix(4)), id: Int32(i % 7) - 1)
            let added = memo.insert(entry, forWord: word)
            #expect(added == (reference[word] == nil), "\(word)")
            if reference[word] == nil { reference[word] = entry }
        }
        #expect(memo.count == reference.count)
        for (word, entry) in reference {
            #expect(memo[word] == entry)
            #expect(lookUp(memo, word) == entry)
            #expect(memo[word + "x"] == reference[word + "x"])
        }
        #expect(memo["never seen"] == nil)
        #expect(Set(memo.values.map(\.stem)) == Set(reference.values.map(\.stem)))
    }

    @Test("A word that is a prefix of another, the empty word and a second insert are told apart")
    func prefixesAndDuplicates() {
        var memo: StemMemo = ["run": StemEntry(stem: "run", id: 3)]
        let running = memo.insert(StemEntry(stem: "run", id: 4), forWord: "running")
        let empty = memo.insert(StemEntry(stem: "", id: -1), forWord: "")
        let again = memo.insert(StemEntry(stem: "other", id: 9), forWord: "run")
        #expect(running && empty)
        #expect(!again, "the first entry stays")
        #expect(memo["run"] == StemEntry(stem: "run", id: 3))
        #expect(memo["running"] == StemEntry(stem: "run", id: 4))
        #expect(memo["runnin"] == nil && memo["ru"] == nil)
        #expect(memo[""] == StemEntry(stem: "", id: -1))
        memo.setID(11, forWord: "running")
        memo.setID(12, forWord: "absent")
        #expect(memo["running"]?.id == 11 && memo["absent"] == nil && memo.count == 3)
    }

    @Test("A copy is a value: what the index adds later is not in an analyser's copy")
    func valueSemantics() {
        var memo: StemMemo = ["tea": StemEntry(stem: "tea", id: 1)]
        let copy = memo
        memo.insert(StemEntry(stem: "matcha", id: 2), forWord: "matcha")
        memo.setID(5, forWord: "tea")
        #expect(copy["matcha"] == nil && copy["tea"]?.id == 1)
        #expect(memo["matcha"]?.id == 2 && memo["tea"]?.id == 5)
    }
}
