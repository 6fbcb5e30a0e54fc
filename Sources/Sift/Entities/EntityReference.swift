/// Names one entity of one type without holding it: what a search result, a suggestion, a
/// donation or a URL hands the host so it can open the entity.
public struct EntityReference: Hashable, Sendable, CustomStringConvertible {
    /// The type's ``IndexedEntity/domainIdentifier``.
    public let domain: String
    /// The entity's ``EntityIdentifierConvertible/entityIdentifierString``.
    public let identifier: String

    /// A reference from its parts (not checked against any type).
    public init(domain: String, identifier: String) {
        self.domain = domain
        self.identifier = identifier
    }

    /// The reference to `entity`.
    public init<Entity: IndexedEntity>(_ entity: Entity) {
        self.init(Entity.self, id: entity.id)
    }

    /// The reference to the value of `type` with this `id`.
    public init<Entity: IndexedEntity>(_ type: Entity.Type, id: Entity.ID) {
        self.init(domain: Entity.domainIdentifier, identifier: id.entityIdentifierString)
    }

    /// The reference `itemID` was made from, or nil when it names no entity
    /// (see ``ItemID/entityComponents``).
    public init?(_ itemID: ItemID) {
        guard let (domain, identifier) = itemID.entityComponents else { return nil }
        self.init(domain: domain, identifier: identifier)
    }

    /// The item identifier: ``ItemID/entity(domain:identifier:)``.
    public var itemID: ItemID { ItemID.entity(domain: domain, identifier: identifier) }

    /// Whether this names a value of `type`.
    public func refers<Entity: IndexedEntity>(to type: Entity.Type) -> Bool {
        domain == Entity.domainIdentifier
    }

    /// The `id` of the `type` value this names, or nil when it names another type or the
    /// identifier does not parse as `Entity.ID`.
    public func id<Entity: IndexedEntity>(as type: Entity.Type) -> Entity.ID? {
        guard refers(to: type) else { return nil }
        return Entity.ID.entityIdentifier(for: identifier)
    }

    public var description: String { "\(domain) \(identifier)" }
}
