import Foundation

/// Why the entity layer refused or failed: a URL route that could not be built or followed
/// (``RouteTable``, ``EntityIndex/reference(for:)``), misuse of ``EntityIndex`` detected before
/// anything is sent to the index, or an identifier that did not resolve to an entity
/// (``EntityResolver``: the failure of a resolved `Result`, or what its methods throw).
public enum EntityError: Error, Sendable, Hashable, CustomStringConvertible {
    // Routes.
    /// An entity type's ``IndexedEntity/urlTemplate`` is not a valid template.
    case invalidTemplate(String, reason: String)
    /// Two registered types have the same domain identifier.
    case duplicateDomain(String)
    /// Two registered types have the same URL template.
    case duplicateTemplate(String)
    /// The string is not an absolute URL.
    case malformedURL(String, reason: String)
    /// No registered template matches the URL; `known` lists them.
    case unknownRoute(String, known: [String])
    /// A template matches but the identifier segment is not one.
    case invalidIdentifier(url: String, segment: String, reason: String)

    // Entity index misuse.
    /// The entity type was not among the `entityTypes` the entity index was built with.
    case unregisteredType(String, registered: [String])
    /// An entity of this domain has an empty identifier string.
    case emptyIdentifier(String)

    // Resolution: an identifier that did not resolve to an entity, and why.
    /// The app has no entity with this identifier (deleted, or never existed).
    case notFound(ItemID)
    /// The entity exists but the policy withholds it now.
    case withheld(ItemID, reason: WithholdingReason)
    /// The identifier names an entity of another type (its domain).
    case otherType(ItemID, domain: String)
    /// The identifier is of this type but does not parse as its `ID`.
    case unparsableIdentifier(ItemID)
    /// The item identifier was not made by ``ItemID/entity(domain:identifier:)``.
    case notAnEntity(ItemID)

    public var description: String {
        switch self {
        case .invalidTemplate(let template, let reason): "invalid URL template \"\(template)\": \(reason)"
        case .duplicateDomain(let domain): "two entity types have the domain identifier \"\(domain)\""
        case .duplicateTemplate(let template): "two entity types have the URL template \"\(template)\""
        case .malformedURL(let url, let reason): "malformed URL \"\(url)\": \(reason)"
        case .unknownRoute(let url, let known):
            "no route matches \"\(url)\"; known routes: \(known.isEmpty ? "none" : known.joined(separator: ", "))"
        case .invalidIdentifier(let url, let segment, let reason):
            "URL \"\(url)\" has an invalid identifier \"\(segment)\": \(reason)"
        case .unregisteredType(let domain, let registered):
            "entity type \"\(domain)\" is not registered with this EntityIndex (registered: "
                + (registered.isEmpty ? "none" : registered.joined(separator: ", ")) + "); pass it in entityTypes"
        case .emptyIdentifier(let domain):
            "an entity of type \"\(domain)\" has an empty identifier; entity ids must be non-empty to be resolved back"
        case .notFound(let itemID): "cannot resolve \(itemID): no such entity"
        case .withheld(let itemID, let reason): "cannot resolve \(itemID): withheld from search (\(reason))"
        case .otherType(let itemID, let domain): "cannot resolve \(itemID): it names a \(domain), not this type"
        case .unparsableIdentifier(let itemID): "cannot resolve \(itemID): the identifier is not valid for this type"
        case .notAnEntity(let itemID): "cannot resolve \(itemID): it is not an entity identifier"
        }
    }
}
