import Foundation

/// A type whose values can name an entity: converted to a string for its ``ItemID`` and URL,
/// and parsed back, losslessly (App Intents' `EntityIdentifierConvertible`).
///
/// The round trip must be exact: `Self.entityIdentifier(for: x.entityIdentifierString) == x`,
/// and only the canonical string of a value parses, so two strings never name one entity.
/// `String`, `Int` and `UUID` conform.
///
/// On Apple platforms, where App Intents declares a protocol of the same name, write
/// `Sift.EntityIdentifierConvertible`.
public protocol EntityIdentifierConvertible: Hashable, Sendable {
    /// The canonical string of this identifier.
    var entityIdentifierString: String { get }
    /// The identifier whose canonical string is `entityIdentifierString`, or nil.
    static func entityIdentifier(for entityIdentifierString: String) -> Self?
}

extension String: EntityIdentifierConvertible {
    public var entityIdentifierString: String { self }
    public static func entityIdentifier(for entityIdentifierString: String) -> String? {
        entityIdentifierString
    }
}

extension Int: EntityIdentifierConvertible {
    public var entityIdentifierString: String { String(self) }
    /// Only the decimal form `String(value)` parses: "+5" and "05" do not.
    public static func entityIdentifier(for entityIdentifierString: String) -> Int? {
        guard let value = Int(entityIdentifierString), String(value) == entityIdentifierString else { return nil }
        return value
    }
}

extension UUID: EntityIdentifierConvertible {
    /// The upper-case `uuidString`.
    public var entityIdentifierString: String { uuidString }
    /// Only the upper-case `uuidString` form parses.
    public static func entityIdentifier(for entityIdentifierString: String) -> UUID? {
        guard let value = UUID(uuidString: entityIdentifierString), value.uuidString == entityIdentifierString else {
            return nil
        }
        return value
    }
}
