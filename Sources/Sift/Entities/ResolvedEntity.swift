import Foundation

/// One requested identifier, resolved or not.
public enum ResolvedEntity<Entity: IndexedEntity>: Sendable {
    case found(Entity)
    case missing(ItemID, MissingReason)

    /// The entity, or nil when missing.
    public var entity: Entity? {
        if case .found(let entity) = self { return entity }
        return nil
    }

    /// The entity.
    /// - Throws: ``EntityError`` when missing.
    public func get() throws(EntityError) -> Entity {
        switch self {
        case .found(let entity): return entity
        case .missing(let itemID, let reason): throw EntityError.unresolved(itemID, reason: reason)
        }
    }
}

extension ResolvedEntity: Equatable where Entity: Equatable {}

extension Array {
    /// Every entity, or an error naming the first that is missing (all-or-nothing).
    public func requireAll<Entity: IndexedEntity>() throws(EntityError) -> [Entity]
    where Element == ResolvedEntity<Entity> {
        var result: [Entity] = []
        result.reserveCapacity(count)
        for resolved in self { result.append(try resolved.get()) }
        return result
    }
}

/// Why an identifier did not resolve.
public enum MissingReason: Sendable, Hashable, CustomStringConvertible {
    /// The app has no entity with this identifier (deleted, or never existed).
    case notFound
    /// The entity exists but the policy withholds it now.
    case withheld(WithholdingReason)
    /// The identifier names an entity of another type (its domain).
    case otherType(String)
    /// The identifier is of this type but does not parse as its `ID`.
    case invalidIdentifier
    /// The item identifier was not made by ``ItemID/entity(domain:identifier:)``.
    case notAnEntity

    public var description: String {
        switch self {
        case .notFound: "no such entity"
        case .withheld(let reason): "withheld from search (\(reason))"
        case .otherType(let domain): "it names a \(domain), not this type"
        case .invalidIdentifier: "the identifier is not valid for this type"
        case .notAnEntity: "it is not an entity identifier"
        }
    }
}
