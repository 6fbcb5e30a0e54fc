extension ItemID {
    /// The item identifier of the entity of type `domain` whose identifier string is
    /// `identifier`: `"<domain>/<identifier>"`, each part percent-escaped (RFC 3986, only
    /// `A–Z a–z 0–9 - . _ ~` kept), so the one "/" always splits it back.
    ///
    /// This is the only function that names an entity's item; ``entityComponents`` inverts it.
    /// - Complexity: O(n) in the length of both parts.
    public static func entity(domain: String, identifier: String) -> ItemID {
        ItemID(EntityEscaping.escape(domain) + "/" + EntityEscaping.escape(identifier))
    }

    /// The item identifier of the value of `type` whose `id` is `id`.
    public static func entity<Entity: IndexedEntity>(_ type: Entity.Type, id: Entity.ID) -> ItemID {
        entity(domain: Entity.domainIdentifier, identifier: id.entityIdentifierString)
    }

    /// The item identifier of `entity`, from its type and `id` — never its title or date.
    public static func entity<Entity: IndexedEntity>(_ entity: Entity) -> ItemID {
        self.entity(Entity.self, id: entity.id)
    }

    /// The domain and identifier string this item identifier was made from by
    /// ``entity(domain:identifier:)``, or nil when it was not made by it (an item indexed from
    /// JSONL, say): exactly one "/", both parts non-empty and in canonical escaped form.
    public var entityComponents: (domain: String, identifier: String)? {
        let parts = rawValue.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            EntityEscaping.isCanonical(parts[0]), EntityEscaping.isCanonical(parts[1]),
            let domain = EntityEscaping.unescape(parts[0]), let identifier = EntityEscaping.unescape(parts[1])
        else { return nil }
        return (domain, identifier)
    }

    /// The `id` of the `type` value this item represents, or nil when it represents something
    /// else (another type, or no entity).
    public func entityID<Entity: IndexedEntity>(as type: Entity.Type) -> Entity.ID? {
        guard let (domain, identifier) = entityComponents, domain == Entity.domainIdentifier else { return nil }
        return Entity.ID.entityIdentifier(for: identifier)
    }
}
