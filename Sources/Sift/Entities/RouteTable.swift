import Foundation

/// The URL routes of an app's entity types (App Intents' `URLRepresentableEntity` and
/// `OpenIntent`): each type with a ``IndexedEntity/urlTemplate`` gets one; a URL parses back
/// to the ``EntityReference`` (and so the ``ItemID``) it was made from.
public struct RouteTable: Sendable {
    struct Route: Sendable {
        let domain: String
        let typeName: String
        let template: URLTemplate?
        let isValidIdentifier: @Sendable (String) -> Bool
    }

    let routes: [Route]

    /// The routes of `types`.
    /// - Throws: ``EntityError`` when a template is invalid, two types share a domain
    ///   identifier, or two share a template.
    public init(_ types: [any IndexedEntity.Type]) throws(EntityError) {
        var routes: [Route] = []
        var domains = Set<String>()
        var templates = Set<String>()
        for type in types {
            let domain = type.domainIdentifier
            guard domains.insert(domain).inserted else { throw .duplicateDomain(domain) }
            var template: URLTemplate?
            if let raw = type.urlTemplate {
                let parsed = try URLTemplate(raw)
                guard templates.insert(parsed.prefix + "{id}" + parsed.suffix).inserted else {
                    throw .duplicateTemplate(raw)
                }
                template = parsed
            }
            routes.append(
                Route(
                    domain: domain, typeName: type.typeDisplayName, template: template,
                    isValidIdentifier: { type.isValidIdentifierString($0) }))
        }
        self.routes = routes
    }

    /// The domain identifiers of the registered types, in registration order.
    public var domains: [String] { routes.map(\.domain) }

    /// Whether `domain` is a registered type's domain identifier.
    public func contains(domain: String) -> Bool { routes.contains { $0.domain == domain } }

    /// The template of the type with this domain identifier, if it has one.
    package func template(for domain: String) -> URLTemplate? {
        routes.first { $0.domain == domain }?.template
    }

    /// The URL of the referenced entity, or nil when its type has no template or is not
    /// registered.
    public func url(for reference: EntityReference) -> String? {
        template(for: reference.domain)?.url(for: reference.identifier)
    }

    /// The entity `url` names.
    /// - Throws: ``EntityError/malformedURL(_:reason:)`` when it is not an absolute URL or has a
    ///   malformed percent-escape;
    ///   ``EntityError/unknownRoute(_:known:)`` when no template matches it;
    ///   ``EntityError/invalidIdentifier(url:segment:reason:)`` when one matches but the
    ///   identifier segment is empty, badly escaped, or not an identifier of that type.
    /// - Complexity: O(r · n) for r routes and a URL of length n.
    public func reference(for url: String) throws(EntityError) -> EntityReference {
        guard !url.isEmpty else { throw .malformedURL(url, reason: "the URL is empty") }
        guard EntityEscaping.unescape(url) != nil else {
            throw .malformedURL(
                url, reason: "it has a malformed percent-escape (a % must be followed by two hex digits, and the bytes must be UTF-8)")
        }
        guard let parts = URLParts(url) else {
            throw .malformedURL(url, reason: "it is not an absolute URL with a scheme and a host")
        }
        for route in routes {
            guard let template = route.template, let identifier = try template.identifier(in: parts, url: url) else {
                continue
            }
            guard route.isValidIdentifier(identifier) else {
                throw .invalidIdentifier(
                    url: url, segment: EntityEscaping.escape(identifier),
                    reason: "not an identifier of \(route.typeName) (\(template.template))")
            }
            return EntityReference(domain: route.domain, identifier: identifier)
        }
        throw .unknownRoute(url, known: routes.compactMap { $0.template?.template })
    }

    /// The entity `url` names, as a `URL`. See ``reference(for:)-(String)``.
    public func reference(for url: URL) throws(EntityError) -> EntityReference {
        try reference(for: url.absoluteString)
    }

    /// The item identifier of the entity `url` names. See ``reference(for:)-(String)``.
    public func itemID(for url: String) throws(EntityError) -> ItemID {
        try reference(for: url).itemID
    }
}
