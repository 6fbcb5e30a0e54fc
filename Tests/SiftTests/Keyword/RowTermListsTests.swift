import Foundation
import Testing

@testable import Sift

@Suite("Row term lists: every row's term ids in one flat array")
struct RowTermListsTests {
    /// A random list of up to 39 ascending ids below 1,000, or (one time in five) none.
    static func randomList(_ rng: inout SeededGenerator) -> [Int32]? {
        rng.int(0..<5) == 0 ? nil : (0..<rng.int(0..<40)).map { _ in Int32(rng.int(0..<1000)) }.sorted()
    }

    /// Sets a random row below `rows` to ``randomList(_:)`` in `lists` and in `model`, the array of
    /// optional lists they should read back as.
    static func setRandomList(_ lists: inout RowTermLists, _ model: inout [[Int32]?], rows: Int, _ rng: inout SeededGenerator) {
        let row = rng.int(0..<rows)
        if row >= model.count { model += repeatElement(nil, count: row - model.count + 1) }
        let value = randomList(&rng)
        lists[row] = value
        model[row] = value
    }

    @Test("Set, replace, remove and grow read back as an array of optional lists would, through compactions")
    func matchesArrayOfLists() {
        var lists = RowTermLists()
        var model: [[Int32]?] = []
        var rng = SeededGenerator(seed: 4)
        for step in 0..<20_000 {
            Self.setRandomList(&lists, &model, rows: 300, &rng)
            if step % 997 == 0 {
                lists.grow(to: model.count + 3)
                model += [nil, nil, nil]
            }
        }
        #expect(lists.count == model.count)
        #expect(Array(lists) == model)
        #expect(lists.idCount == model.reduce(0) { $0 + ($1?.count ?? 0) })
        for (row, list) in model.enumerated() {
            #expect(lists.holdsDocument(row) == (list != nil))
            #expect(lists.withList(row) { $0.map(Array.init) } == list)
        }
    }

    @Test(
        "Lists restored from a file's mapped pages take changes in a tail of their own, the pages unchanged, until a compaction; they read back as an array of optional lists would"
    )
    func mappedListsTakeChangesInTail() throws {
        var rng = SeededGenerator(seed: 11)
        var model: [[Int32]?] = (0..<300).map { _ in
            rng.int(0..<4) == 0 ? nil : (0..<rng.int(0..<40)).map { _ in Int32(rng.int(0..<1000)) }.sorted()
        }
        var made = RowTermLists()
        for (row, list) in model.enumerated() { made[row] = list }
        // The layout a snapshot writes: the lists one after another, a start a row.
        var flat: [UInt8] = []
        var starts: [UInt32] = []
        for row in made.indices {
            made.withEncodedList(row) { list in
                starts.append(list == nil ? RowTermLists.noDocument : UInt32(flat.count))
                flat += list.map(Array.init) ?? []
            }
        }
        let temporary = try TemporaryDirectory("row-term-lists")
        let file = temporary.url.appendingPathComponent("lists").path
        try Data(flat).write(to: URL(fileURLWithPath: file))
        let region = try MappedSnapshot(path: file).keep(0..<flat.count)
        var lists = RowTermLists(
            encoded: try #require(RowBuffer<UInt8>(region: region, offset: 0, count: flat.count)), starts: starts, idCount: made.idCount)
        #expect(lists == made && lists.restoredListsAreMapped)
        var compacted = false
        for step in 0..<20_000 {
            Self.setRandomList(&lists, &model, rows: 320, &rng)
            compacted = compacted || !lists.restoredListsAreMapped
            if step == 10 {
                #expect(lists.restoredListsAreMapped, "a change leaves the pages mapped")
                #expect(Array(lists) == model)
            }
        }
        #expect(compacted)
        #expect(Array(lists) == model)
        #expect(lists.idCount == model.reduce(0) { $0 + ($1?.count ?? 0) })
        #expect(lists.encodedCount == model.reduce(0) { $0 + ($1.map { RowTermLists.encode($0).count } ?? 0) })
    }

    @Test("Restored lists equal the same lists set row by row; equality ignores the layout")
    func restoredEqualsSet() {
        // Rows 0, 2 and 3 as a snapshot lays them out: [count 3, id 1, gaps 1, 1], [2, 7, 1], [0].
        let bytes: [UInt8] = [3, 1, 1, 1, 2, 7, 1, 0]
        let starts: [UInt32] = [0, RowTermLists.noDocument, 4, 7]
        let restored = RowTermLists(encoded: RowBuffer(bytes), starts: starts, idCount: 5)
        var set = RowTermLists()
        set[3] = []
        set[2] = [7, 8]
        set[0] = [5]
        set[0] = [1, 2, 3]
        #expect(restored == set)
        #expect(restored.idCount == 5)
        #expect(set.idCount == 5)
        #expect(!restored.holdsDocument(1) && restored.holdsDocument(3) && restored[3] == [])
        #expect(bytes.withUnsafeBufferPointer { RowTermLists.validate($0, starts: starts, termCount: 9) } == .success(5))
        set[2] = [7, 9]
        #expect(restored != set)
    }

    @Test("A list takes a varint a gap: ids close together cost a byte each, large ids and gaps more")
    func encodedSize() {
        #expect(RowTermLists.encode([]) == [0])
        #expect(RowTermLists.encode([5]) == [1, 5])
        #expect(RowTermLists.encode([1, 2, 3, 130, 258]) == [5, 1, 1, 1, 0x7F, 0x80, 0x01])
        #expect(RowTermLists.encode([0, Int32.max]) == [2, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x07])
        var lists = RowTermLists()
        lists[0] = [0, Int32.max]
        lists[1] = Array(100..<140)
        #expect(lists[0] == [0, Int32.max])
        #expect(lists[1] == Array(100..<140))
        #expect(lists.encodedCount == 7 + 1 + 1 + 39)
    }

    @Test("Lists read from a file are checked: starts, counts, cut-off and overlong varints, terms past the last")
    func validation() {
        func check(_ bytes: [UInt8], _ starts: [UInt32], terms: Int = 10) -> String? {
            switch bytes.withUnsafeBufferPointer({ RowTermLists.validate($0, starts: starts, termCount: terms) }) {
            case .success: return nil
            case .failure(let why): return why.description
            }
        }
        let none = RowTermLists.noDocument
        #expect(check([2, 3, 1, 1, 9], [0, none, 3]) == nil)
        #expect(check([2, 3, 1, 1, 9], [1, none, 3]) == "row 0's term list starts at byte 1, not 0")
        #expect(check([2, 3, 1, 1, 9], [0, none, 2]) == "row 0's term list holds 1 ids, its count says 2")
        #expect(check([2, 3, 1, 1, 9], [0, none, 6])?.hasPrefix("row 2's term list starts at byte 6") == true)
        #expect(check([2, 3, 1, 1, 9], [0, none, 3], terms: 9) == "row 2 names term 9, past the last")
        #expect(check([2, 3, 7], [0], terms: 20) == nil)
        #expect(check([2, 3, 7], [0], terms: 10) == "row 0 names term 10, past the last")
        #expect(check([2, 3, 0x80], [0]) == "row 0's term list is cut off")
        #expect(check([5, 1, 1], [0]) == "row 0's term list holds 2 ids, its count says 5")
        #expect(check([1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], [0], terms: .max) == "row 0's term list has a varint longer than 5 bytes")
        #expect(check([1, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], [0], terms: .max)?.hasSuffix("past the last") == true)
        #expect(check([1, 1, 0], [0]) == "row 0's term list holds 2 ids, its count says 1")
        #expect(check([1, 1], [none]) == "the rows' term lists end at byte 0 of 2")
        #expect(check([], []) == nil)
        // Long lists take the eight-bytes-at-a-time path, with gaps of one, two and three bytes.
        var rng = SeededGenerator(seed: 9)
        for _ in 0..<200 {
            var ids = (0..<rng.int(0..<90)).map { _ in Int32(rng.int(0..<(rng.int(0..<3) == 0 ? 3_000_000 : 20_000))) }
            ids = Array(Set(ids)).sorted()
            let bytes = RowTermLists.encode(ids)
            let terms = Int(ids.last ?? 0) + 1
            #expect(check(bytes, [0], terms: terms) == nil)
            if let last = ids.last { #expect(check(bytes, [0], terms: Int(last)) == "row 0 names term \(last), past the last") }
        }
    }

    @Test(
        "Fuzzed: random bytes and starts never crash the check, and lists it accepts decode within their bytes to ids below the term count")
    func fuzzedValidation() {
        var rng = SeededGenerator(seed: 23)
        var accepted = 0
        for round in 0..<3_000 {
            // Half the rounds damage a valid encoding, half are noise.
            let rows = rng.int(0..<12)
            var lists: [[Int32]?] = (0..<rows).map { _ in
                rng.int(0..<4) == 0
                    ? nil : Array(Set((0..<rng.int(0..<20)).map { _ in Int32(rng.int(0..<(rng.int(0..<2) == 0 ? 200 : 70_000))) })).sorted()
            }
            var bytes: [UInt8] = []
            var starts: [UInt32] = []
            for list in lists {
                guard let list else {
                    starts.append(RowTermLists.noDocument)
                    continue
                }
                starts.append(UInt32(bytes.count))
                bytes += RowTermLists.encode(list)
            }
            if round % 2 == 1 {
                bytes = (0..<rng.int(0..<80)).map { _ in UInt8(truncatingIfNeeded: rng.int(0..<256)) }
                starts = starts.map { _ in rng.int(0..<3) == 0 ? RowTermLists.noDocument : UInt32(rng.int(0..<90)) }
                lists = []
            } else if !bytes.isEmpty {
                for _ in 0..<rng.int(0..<3) { bytes[rng.int(0..<bytes.count)] = UInt8(truncatingIfNeeded: rng.int(0..<256)) }
            }
            let terms = rng.int(1..<80_000)
            let result = bytes.withUnsafeBufferPointer { RowTermLists.validate($0, starts: starts, termCount: terms) }
            guard case .success(let idCount) = result else { continue }
            accepted += 1
            let restored = RowTermLists(encoded: RowBuffer(bytes), starts: starts, idCount: idCount)
            var seen = 0
            for row in starts.indices {
                restored.withList(row) { ids in
                    guard let ids else { return }
                    seen += ids.count
                    #expect(ids.allSatisfy { $0 >= 0 && Int($0) < terms })
                    #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 <= $1 })
                }
            }
            #expect(seen == idCount)
        }
        #expect(accepted > 200)
    }
}
