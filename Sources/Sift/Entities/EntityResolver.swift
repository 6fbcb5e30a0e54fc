import Foundation

/// Where an app's entities of one type live (its database): the app's half of entity
/// resolution.
public protocol EntitySource<Entity>: Sendable {
    associatedtype Entity: IndexedEntity
    /// The entities with these identifiers that exist, in any order; missing ones are simply
    /// absent. Entities with other identifiers are ignored by the caller.
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
}

/// Turns identifiers back into entities (App Intents' `EntityQuery`), failing closed: each
/// requested identifier gets exactly its own entity or an ``EntityError`` saying why it is
/// missing — never replaced by another, whatever order or extras the source returns.
///
/// Entities that the policy now withholds resolve as missing too (``EntityError/withheld(_:reason:)``),
/// so a stale identifier from a result, a suggestion or a URL cannot open a private entity.
public struct EntityResolver<Source: EntitySource>: Sendable {
    package typealias Entity = Source.Entity

    public let source: Source
    public let index: EntityIndex

    public init(source: Source, index: EntityIndex) {
        self.source = source
        self.index = index
    }

    /// One result per identifier, in the order given (duplicates repeated): the entity, or
    /// the ``EntityError`` that says why it is missing (``EntityError/notFound(_:)``,
    /// ``EntityError/withheld(_:reason:)``). `requireAll()` turns them into all or an error.
    /// - Complexity: one source call for the distinct identifiers, plus O(n).
    public func entities(for identifiers: [Source.Entity.ID]) async throws -> [Result<Source.Entity, EntityError>] {
        guard !identifiers.isEmpty else { return [] }
        var unique: [Entity.ID] = []
        var seen = Set<Entity.ID>()
        for id in identifiers where seen.insert(id).inserted { unique.append(id) }
        var found: [Entity.ID: Entity] = [:]
        for entity in try await source.entities(for: unique) where seen.contains(entity.id) && found[entity.id] == nil {
            found[entity.id] = entity
        }
        return identifiers.map { id in
            let itemID = ItemID.entity(Entity.self, id: id)
            guard let entity = found[id] else { return .failure(.notFound(itemID)) }
            if let reason = entity.withholdingReason(under: index.policy) {
                return .failure(.withheld(itemID, reason: reason))
            }
            return .success(entity)
        }
    }

    /// One result per item identifier, in the order given; an identifier of another type or
    /// of no entity fails (``EntityError/otherType(_:domain:)``, ``EntityError/notAnEntity(_:)``,
    /// ``EntityError/unparsableIdentifier(_:)``).
    public func entities(for itemIDs: [ItemID]) async throws -> [Result<Source.Entity, EntityError>] {
        let ids = itemIDs.map { $0.entityID(as: Entity.self) }
        let resolved = try await entities(for: ids.compactMap { $0 })
        var next = resolved.makeIterator()
        return zip(itemIDs, ids).map { itemID, id in
            if id != nil, let r = next.next() { return r }
            guard let (domain, _) = itemID.entityComponents else { return .failure(.notAnEntity(itemID)) }
            return .failure(
                domain == Entity.domainIdentifier ? .unparsableIdentifier(itemID) : .otherType(itemID, domain: domain))
        }
    }

    /// The entity `reference` names.
    /// - Throws: ``EntityError`` when it names another type or is missing.
    public func entity(for reference: EntityReference) async throws -> Source.Entity {
        guard let id = reference.id(as: Entity.self) else {
            throw reference.refers(to: Entity.self)
                ? EntityError.unparsableIdentifier(reference.itemID)
                : EntityError.otherType(reference.itemID, domain: reference.domain)
        }
        return try await entities(for: [id])[0].get()
    }

    /// The entity `url` names (OpenIntent).
    /// - Throws: ``EntityError`` for a malformed or unknown URL (a route case), or a resolution
    ///   case when it names another type or a missing entity.
    public func entity(forURL url: String) async throws -> Source.Entity {
        try await entity(for: index.reference(for: url))
    }

    /// This type's entities by decayed donation score, highest first, that still exist and
    /// may be indexed: the donation log's suggestions.
    public func suggestedEntities(limit: Int = 10, now: Date? = nil) async throws -> [Source.Entity] {
        guard limit > 0 else { return [] }
        let suggestions = await index.index.suggestions(limit: Int.max, now: now)
        let ids = suggestions.compactMap { $0.item.id.entityID(as: Entity.self) }
        var result: [Entity] = []
        for case .success(let entity) in try await entities(for: ids) {
            result.append(entity)
            if result.count == limit { break }
        }
        return result
    }
}

extension Array {
    /// Every entity, or the error of the first that is missing (all-or-nothing).
    public func requireAll<Entity: IndexedEntity>() throws(EntityError) -> [Entity]
    where Element == Result<Entity, EntityError> {
        var result: [Entity] = []
        result.reserveCapacity(count)
        for resolved in self { result.append(try resolved.get()) }
        return result
    }
}
