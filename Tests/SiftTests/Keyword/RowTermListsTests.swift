import Testing

@testable import Sift

@Suite("Row term lists: every row's term ids in one flat array")
struct RowTermListsTests {
    @Test("Set, replace, remove and grow read back as an array of optional lists would, through compactions")
    func matchesArrayOfLists() {
        var lists = RowTermLists()
        var model: [[Int32]?] = []
        var rng = SeededGenerator(seed: 4)
        for step in 0..<20_000 {
            let row = rng.int(0..<300)
            if row >= model.count { model += repeatElement(nil, count: row - model.count + 1) }
            let value: [Int32]? = rng.int(0..<5) == 0 ? nil : (0..<rng.int(0..<40)).map { _ in Int32(rng.int(0..<1000)) }.sorted()
            lists[row] = value
            model[row] = value
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

    @Test("Restored lists equal the same lists set row by row; equality ignores the layout")
    func restoredEqualsSet() {
        let restored = RowTermLists(
            ids: [9, 1, 2, 3, 7, 8], starts: [1, 0, 4, 0], lengths: [3, RowTermLists.noDocument, 2, 0])
        var set = RowTermLists()
        set[3] = []
        set[2] = [7, 8]
        set[0] = [5]
        set[0] = [1, 2, 3]
        #expect(restored == set)
        #expect(restored.idCount == 5)
        #expect(set.idCount == 5)
        #expect(!restored.holdsDocument(1) && restored.holdsDocument(3) && restored[3] == [])
        set[2] = [7, 9]
        #expect(restored != set)
    }
}
