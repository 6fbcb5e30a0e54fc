import Foundation

/// Where an app sends its donations: the seam that lets an app's tests check that an action
/// donated the matching intent (`MemoryDonationRecorder`). The recorder that feeds an
/// index is ``SearchIndexing/donationRecorder`` (also ``EntityIndex/donationRecorder``).
public protocol DonationRecorder: Sendable {
    /// Records `donation`; returns how many of its entities were recorded (an entity that is
    /// not indexed — private, deleted — is dropped).
    @discardableResult
    func donate(_ donation: IntentDonation) async throws -> Int
}

/// Donations into an index (``SearchIndex/donate(intent:itemIDs:surface:at:)``).
package struct IndexDonationRecorder: DonationRecorder {
    package let index: any SearchIndexing

    package init(index: any SearchIndexing) {
        self.index = index
    }

    /// Records `donation` in the index; a donation naming no entity does not call it.
    @discardableResult
    package func donate(_ donation: IntentDonation) async throws -> Int {
        guard !donation.entities.isEmpty else { return 0 }
        return try await index.donate(
            intent: donation.intent, itemIDs: donation.itemIDs, surface: donation.surface.rawValue, at: donation.date)
    }
}
