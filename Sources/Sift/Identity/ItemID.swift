/// The one identifier that crosses every boundary of Sift: the store, both indexes, results,
/// donations and the host app all name an item by its `ItemID`.
///
/// For an app entity it is derived from the entity's own stable `id` by ``ItemID/entity(_:)``,
/// never from a convenience string such as a title or a date.
public struct ItemID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// Orders by the UTF-8 bytes of the identifier: the same on every platform and locale.
    public static func < (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}
