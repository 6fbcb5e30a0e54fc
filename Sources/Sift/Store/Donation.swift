import Foundation

/// One recorded user action (App Intents' `donate()`).
package struct Donation: Sendable, Equatable, Hashable {
    package var intent: String
    package var itemID: ItemID
    package var surface: String?
    package var date: Date

    package init(intent: String, itemID: ItemID, surface: String? = nil, date: Date) {
        self.intent = intent
        self.itemID = itemID
        self.surface = surface
        self.date = date
    }
}
