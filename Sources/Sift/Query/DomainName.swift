import Foundation

/// A kind of item that a query can name, e.g. identifier `expense`, display name "Expenses".
package struct DomainName: Sendable, Hashable {
    /// The domain as items carry it (`streakDay`).
    package var identifier: String
    /// The name a person would use ("Journal days"), if it differs from the identifier.
    package var displayName: String?

    package init(identifier: String, displayName: String? = nil) {
        self.identifier = identifier
        self.displayName = displayName
    }
}
