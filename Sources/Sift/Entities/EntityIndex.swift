import Foundation

/// An app's entities over a ``SearchIndexing`` index: the one place where entities become
/// items, under a ``PrivacyPolicy`` and the URL ``RouteTable`` of the app's entity types.
///
/// Build one at the app's composition root with the index (or a spy in tests), the policy and
/// every entity type, and hand it to whatever indexes, searches or opens entities.
///
/// Guarantees:
/// - an entity's item is named by ``ItemID/entity(_:)`` from its type and `id` alone;
/// - the policy is applied before anything reaches the index: a withheld entity is never
///   passed to ``SearchIndexing/upsert(_:)``; one that was indexed is deleted (first, so a
///   failure never leaves it searchable while its new state is indexed);
/// - an empty input does not call the index at all;
/// - an indexed entity's `url` is its type's template filled with its identifier.
public struct EntityIndex: Sendable {
    /// The index the items go to.
    public let index: any SearchIndexing
    /// Applied to every entity before it reaches ``index``.
    public let policy: any PrivacyPolicy
    /// The registered entity types and their URL routes.
    public let routes: RouteTable

    /// - Parameters:
    ///   - index: a ``SearchIndex``, or a spy or fake in tests.
    ///   - policy: decides which entities may be indexed; nil (the default) withholds those
    ///     whose ``IndexedEntity/isPrivate`` is true.
    ///   - entityTypes: every type this index will hold; only these can be indexed and routed.
    /// - Throws: ``EntityError`` when a type's URL template is invalid or two types clash.
    public init(
        index: any SearchIndexing, policy: (any PrivacyPolicy)? = nil, entityTypes: [any IndexedEntity.Type]
    ) throws(EntityError) {
        self.index = index
        self.policy = policy ?? FlagPrivacyPolicy.respectPrivacyFlag
        self.routes = try RouteTable(entityTypes)
    }

    // MARK: Indexing

    /// Indexes `entities` (same `id` replaces; of duplicates in the input the last wins).
    ///
    /// Each entity is first put to ``IndexedEntity/isHiddenFromSearch`` and the policy; those
    /// withheld are deleted from the index (a no-op for those never indexed) and never reach
    /// ``SearchIndexing/upsert(_:)``; the rest are upserted in one call. An empty array does
    /// not call the index.
    /// - Throws: ``EntityError`` (nothing is sent to the index), or the index's error.
    /// - Complexity: O(n) to build the items, plus at most one delete and one upsert call.
    @discardableResult
    public func indexEntities<Entity: IndexedEntity>(_ entities: [Entity]) async throws -> EntityIndexingSummary {
        try await send(entities, deletingWithheld: true)
    }

    /// Deletes the items of `entities`; returns how many were indexed. An empty array does
    /// not call the index.
    @discardableResult
    public func deleteEntities<Entity: IndexedEntity>(_ entities: [Entity]) async throws -> Int {
        try await deleteEntities(Entity.self, ids: entities.map(\.id))
    }

    /// Deletes the items of the `type` values with these ids; returns how many were indexed.
    @discardableResult
    public func deleteEntities<Entity: IndexedEntity>(_ type: Entity.Type, ids: [Entity.ID]) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        try requireRegistered(type)
        return try await index.delete(ids: ids.map { ItemID.entity(type, id: $0) })
    }

    /// Replaces every item of `type` with `entities`: deletes the type's domain, then indexes
    /// them as ``indexEntities(_:)`` does. With an empty array the domain is only deleted.
    ///
    /// Not atomic: if indexing fails after the delete, the domain is left empty; call again.
    @discardableResult
    public func reindex<Entity: IndexedEntity>(_ type: Entity.Type, with entities: [Entity]) async throws
        -> EntityIndexingSummary
    {
        try requireRegistered(type)
        try validateIdentifiers(entities)
        let removed = try await index.delete(domains: [Entity.domainIdentifier])
        var summary = try await send(entities, deletingWithheld: false)
        summary.replaced = removed
        return summary
    }

    /// The item `entity` becomes when indexed (whatever the policy says).
    public func item<Entity: IndexedEntity>(for entity: Entity) -> SearchableItem {
        let attributes = entity.attributeSet
        let url = routes.template(for: Entity.domainIdentifier).map { $0.url(for: entity.id.entityIdentifierString) }
        return SearchableItem(
            id: ItemID.entity(entity), domain: Entity.domainIdentifier, title: attributes.title,
            content: attributes.content, keywords: attributes.keywords, date: attributes.date,
            expires: attributes.expires, url: url ?? attributes.url, rankingHint: attributes.rankingHint,
            displayName: Entity.typeDisplayName)
    }

    /// The URL of `entity` from its type's template, or nil.
    public func url<Entity: IndexedEntity>(for entity: Entity) -> String? {
        routes.url(for: EntityReference(entity))
    }

    private func send<Entity: IndexedEntity>(_ entities: [Entity], deletingWithheld: Bool) async throws
        -> EntityIndexingSummary
    {
        var summary = EntityIndexingSummary()
        guard !entities.isEmpty else { return summary }
        try requireRegistered(Entity.self)
        try validateIdentifiers(entities)
        var items: [SearchableItem] = []
        var withheld: [ItemID] = []
        var seen = Set<ItemID>()
        for entity in entities.reversed() {
            let id = entity.itemID
            guard seen.insert(id).inserted else { continue }
            if let reason = entity.withholdingReason(under: policy) {
                summary.withheld[id] = reason
                withheld.append(id)
            } else {
                items.append(item(for: entity))
            }
        }
        items.reverse()
        withheld.reverse()
        if deletingWithheld && !withheld.isEmpty {
            summary.deleted = try await index.delete(ids: withheld)
        }
        if !items.isEmpty {
            let upserted = try await index.upsert(items)
            summary.indexed = upserted.indexed
            summary.expired = upserted.expired
        }
        return summary
    }

    func requireRegistered<Entity: IndexedEntity>(_ type: Entity.Type) throws(EntityError) {
        guard routes.contains(domain: Entity.domainIdentifier) else {
            throw .unregisteredType(Entity.domainIdentifier, registered: routes.domains)
        }
    }

    private func validateIdentifiers<Entity: IndexedEntity>(_ entities: [Entity]) throws(EntityError) {
        for entity in entities where entity.id.entityIdentifierString.isEmpty {
            throw .emptyIdentifier(Entity.domainIdentifier)
        }
    }
}
