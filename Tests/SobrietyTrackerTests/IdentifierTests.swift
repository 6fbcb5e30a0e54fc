import Foundation
import Sift
import SobrietyTracker
import Testing

@Suite("Sample app: identifiers")
struct IdentifierTests {
    @Test("A day's item identifier is its type and entity id, and parses back to that id")
    func itemIdentifierMatchesEntityID() throws {
        let day = SampleData.days[0]
        #expect(day.itemID == ItemID("streakDay/\(day.id.uuidString)"))
        #expect(day.itemID.entityID(as: StreakDay.self) == day.id)
        #expect(EntityReference(day.itemID) == EntityReference(day))
    }
}
