import Testing

@testable import Sift

@Suite("Posting lists: each term's postings, in place where a snapshot has them until they change")
struct PostingListsTests {
    typealias Posting = KeywordIndex.Posting

    static func posting(_ row: Int32, _ tf: UInt8) -> Posting { Posting(row: row, tf: (tf, 0, tf &+ 1)) }

    static func rows(_ lists: PostingLists) -> [[Int32]] { lists.map { $0.map(\.row) } }

    @Test("Lists restored from one run read back as the arrays they stand for, and change as those would")
    func restoredListsBehaveAsArrays() {
        // Three terms of the base (the second empty), then a term added after the restore.
        var model: [[Posting]] = [[Self.posting(4, 1), Self.posting(2, 2), Self.posting(9, 3)], [], [Self.posting(2, 5)]]
        var lists = PostingLists(base: RowBuffer(model.flatMap { $0 }), starts: [0, 3, 3, 4])
        #expect(lists.count == 3 && lists.listsInPlace == 3 && lists.total == 4)
        #expect(Self.rows(lists) == model.map { $0.map(\.row) })
        #expect(lists.count(of: 0) == 3 && lists.count(of: 1) == 0 && lists.count(of: 2) == 1)

        lists.appendList()
        model.append([])
        lists.append(Self.posting(7, 1), to: 3)
        model[3].append(Self.posting(7, 1))
        lists.append(Self.posting(11, 4), to: 1)
        model[1].append(Self.posting(11, 4))
        // A removal as KeywordIndex.remove makes it: the last posting takes the removed one's place.
        lists.modify(0) { list in
            list.swapAt(0, list.count - 1)
            list.removeLast()
        }
        model[0].swapAt(0, model[0].count - 1)
        model[0].removeLast()
        #expect(Self.rows(lists) == model.map { $0.map(\.row) })
        #expect(lists.map { $0.map(\.tf.2) } == model.map { $0.map(\.tf.2) })
        #expect(lists.listsInPlace == 1, "only the list of term 2 is still the base's")
        #expect(lists.total == model.reduce(0) { $0 + $1.count })

        // Lists written from several threads: those named are copied out of the base first.
        lists.withLists(owning: [2]) { all in all[2].append(Self.posting(13, 6)) }
        model[2].append(Self.posting(13, 6))
        #expect(Self.rows(lists) == model.map { $0.map(\.row) })
        #expect(lists.listsInPlace == 0)
        lists.trim()
        #expect(Self.rows(lists) == model.map { $0.map(\.row) })
    }

    @Test("A trim keeps an eighth of room, so that the next append does not copy the list")
    func trimKeepsRoom() {
        var lists = PostingLists(base: RowBuffer([Self.posting(1, 1)]), starts: [0, 1, 1])
        for r in 2..<1_100 { lists.modify(1) { $0.append(Self.posting(Int32(r), 1)) } }
        let count = lists.modify(1) { $0.count }
        #expect(lists.modify(1) { $0.capacity } > count + count / 4, "grown by doubling")
        lists.trim()
        let capacity = lists.modify(1) { $0.capacity }
        #expect(capacity >= PostingLists.room(for: count) && capacity < PostingLists.room(for: count) + 64)
        // Within the room, appends leave the list where it is.
        let before = lists.modify(1) { list in list.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        for r in 0..<(count / 8) { lists.modify(1) { $0.append(Self.posting(Int32(2_000 + r), 1)) } }
        #expect(lists.modify(1) { list in list.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } } == before)
        // A list already within its room is left as it is by the next trim.
        lists.trim()
        #expect(lists.modify(1) { list in list.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } } == before)
        let appended: [Int32] = (0..<(count / 8)).map { Int32(2_000 + $0) }
        let expected: [Int32] = Array(2..<1_100).map { Int32($0) } + appended
        #expect(Self.rows(lists)[1] == expected)
    }

    @Test("A copy of the lists keeps its postings when the original changes")
    func valueSemantics() {
        var lists = PostingLists(base: RowBuffer([Self.posting(1, 1), Self.posting(2, 1)]), starts: [0, 2])
        let copy = lists
        lists.modify(0) { _ = $0.removeLast() }
        #expect(Self.rows(copy) == [[1, 2]])
        #expect(Self.rows(lists) == [[1]])
    }

    @Test("A posting lies in memory as a snapshot stores it, so stored postings are used in place")
    func postingLayout() {
        #expect(IndexState.postingLayoutMatches)
    }
}
