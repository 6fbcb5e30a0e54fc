import Foundation
import Testing

@testable import Sift

@Suite("Identifier table and ItemID")
struct IdentifierTableTests {
    @Test("New ids get dense rows; a known id keeps its row")
    func assignsDenseRows() throws {
        var table = IdentifierTable()
        let first = table.assign("a")
        let second = table.assign("b")
        let again = table.assign("a")
        #expect(first.row == 0 && first.isNew)
        #expect(second.row == 1 && second.isNew)
        #expect(again.row == 0 && !again.isNew)
        #expect(table.count == 2 && table.capacity == 2)
        #expect(table.row(of: "b") == 1 && table.id(at: 1) == "b")
        #expect(table.id(at: 2) == nil && table.id(at: -1) == nil)
        try table.checkInvariants()
    }

    @Test("Freed rows are reused, lowest first, and capacity never shrinks")
    func reusesLowestFreeRow() throws {
        var table = IdentifierTable()
        for id in ["a", "b", "c", "d"] { _ = table.assign(ItemID(id)) }
        #expect(table.remove("c") == 2)
        #expect(table.remove("a") == 0)
        #expect(table.remove("a") == nil)
        #expect(table.row(of: "a") == nil && table.id(at: 0) == nil)
        try table.checkInvariants()
        #expect(table.assign("e").row == 0)
        #expect(table.assign("f").row == 2)
        #expect(table.assign("g").row == 4)
        #expect(table.capacity == 5 && table.count == 5)
        try table.checkInvariants()
    }

    @Test("Removing everything forgets every row")
    func removeAll() throws {
        var table = IdentifierTable()
        for i in 0..<10 { _ = table.assign(ItemID("id\(i)")) }
        table.removeAll()
        #expect(table.count == 0 && table.capacity == 0)
        #expect(table.assign("x").row == 0)
        try table.checkInvariants()
    }

    @Test("Random assign/remove sequences keep the two maps inverse")
    func randomSequences() throws {
        var rng = SeededGenerator(seed: 7)
        var table = IdentifierTable()
        var model: [ItemID: Int32] = [:]
        for step in 0..<5_000 {
            let id = ItemID("id\(rng.int(0..<300))")
            if rng.chance(0.6) {
                let (row, isNew) = table.assign(id)
                #expect(isNew == (model[id] == nil))
                if let known = model[id] { #expect(row == known) }
                model[id] = row
            } else {
                #expect(table.remove(id) == model.removeValue(forKey: id))
            }
            if step % 500 == 0 { try table.checkInvariants() }
        }
        try table.checkInvariants()
        #expect(table.count == model.count)
        #expect(Set(table.ids) == Set(model.keys))
        #expect(Set(model.values).count == model.count)
        for (id, row) in model { #expect(table.row(of: id) == row && table.id(at: row) == id) }
    }

    @Test("A table rebuilt from rows (as a snapshot restores it) finds every id, refuses an id in two rows, and grows as ids come")
    func rebuiltFromRows() throws {
        // Ids of many lengths (the hash reads eight bytes at a time), free rows among them.
        let ids: [ItemID?] = (0..<20_000).map { $0 % 13 == 0 ? nil : ItemID(String(repeating: "k", count: $0 % 23) + "\($0)") }
        var table = try #require(IdentifierTable(rows: ids))
        for (row, id) in ids.enumerated() { if let id { #expect(table.row(of: id) == Int32(row)) } }
        #expect(table.row(of: "absent") == nil)
        #expect(table.assign("new").row == 0)  // the lowest free row
        for i in 0..<50_000 { _ = table.assign(ItemID("more\(i)")) }
        try table.checkInvariants()
        #expect(IdentifierTable(rows: ["a", "b", nil, "a"]) == nil)
    }

    @Test(
        "A map built by several tasks, each filling its own range of slots (ids whose probe crosses a range's end placed after), finds what a serial build finds, removes and refuses alike",
        arguments: [1, 2, 64, 4096])
    func partitionedSlots(parts: Int) throws {
        let ids: [ItemID?] = (0..<30_000).map { $0 % 11 == 0 ? nil : ItemID("p" + String(repeating: "q", count: $0 % 19) + "\($0)") }
        let slots = try #require(ids.withUnsafeBufferPointer { RowSlots(every: $0, parts: parts) })
        #expect(slots.count == ids.count(where: { $0 != nil }))
        var table = IdentifierTable(rows: ids, slots: slots)
        for (row, id) in ids.enumerated() { if let id { #expect(table.row(of: id) == Int32(row)) } }
        #expect(table.row(of: "p-absent") == nil)
        // Removals shift later entries of a run back (including across the ranges' ends).
        for row in stride(from: 1, to: ids.count, by: 3) where ids[row] != nil { #expect(table.remove(ids[row]!) == Int32(row)) }
        for (row, id) in ids.enumerated() where row % 3 != 1 { if let id { #expect(table.row(of: id) == Int32(row)) } }
        try table.checkInvariants()
        // An id in two rows is refused, wherever the two lie.
        for (a, b) in [(5, 29_999), (29_998, 29_999), (1, 2), (17_000, 3)] {
            var twice = ids
            twice[b] = ids[a] ?? "p-dup"
            twice[a] = twice[b]
            #expect(twice.withUnsafeBufferPointer { RowSlots(every: $0, parts: parts) } == nil, "\(a), \(b)")
        }
    }

    @Test("Ids are the same when their bytes are, as the store keeps them: canonically equivalent spellings take two rows")
    func idsCompareByBytes() throws {
        var table = IdentifierTable()
        let composed = ItemID("caf\u{E9}")
        let decomposed = ItemID("cafe\u{301}")
        #expect(table.assign(composed) == (0, true))
        #expect(table.assign(decomposed) == (1, true))
        #expect(table.row(of: composed) == 0 && table.row(of: decomposed) == 1)
        #expect(table.remove(composed) == 0)
        #expect(table.row(of: decomposed) == 1)
        try table.checkInvariants()
    }

    @Test("ItemID orders by UTF-8 bytes and round-trips through JSON as a plain string")
    func itemID() throws {
        #expect(ItemID("B") < ItemID("a"))
        #expect(ItemID("a") < ItemID("ab"))
        #expect(ItemID("z") < ItemID("é"))
        #expect(["b", "é", "a", "B"].map { ItemID($0) }.sorted().map(\.rawValue) == ["B", "a", "b", "é"])
        let data = try JSONEncoder().encode([ItemID("recipe-42")])
        #expect(String(decoding: data, as: UTF8.self) == #"["recipe-42"]"#)
        #expect(try JSONDecoder().decode([ItemID].self, from: data) == ["recipe-42"])
        #expect(ItemID("x").description == "x")
    }
}
