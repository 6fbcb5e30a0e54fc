import Foundation

/// The URL of one entity type's values: an absolute URL with exactly one `{id}` in its path
/// (`https://example.app/recipes/{id}`), where the value's identifier string goes,
/// percent-escaped so that it is one path segment.
package struct URLTemplate: Sendable, Hashable, CustomStringConvertible {
    /// The template as written.
    package let template: String
    /// Before `{id}`, with the scheme and host lower-cased.
    let prefix: String
    /// After `{id}`.
    let suffix: String

    static let placeholder = "{id}"

    /// Validates `template`.
    /// - Throws: ``EntityError/invalidTemplate(_:reason:)`` saying what is wrong.
    package init(_ template: String) throws(EntityError) {
        func fail(_ reason: String) -> EntityError { .invalidTemplate(template, reason: reason) }
        let pieces = template.components(separatedBy: Self.placeholder)
        guard pieces.count == 2 else {
            throw fail(pieces.count == 1 ? "it has no {id} placeholder" : "it has more than one {id} placeholder")
        }
        guard !template.contains("?"), !template.contains("#") else {
            throw fail("a query or fragment cannot be part of a route")
        }
        guard URLParts(pieces[0] + "0" + pieces[1]) != nil, let head = URLParts(pieces[0]) else {
            throw fail("it is not an absolute URL with a scheme and a host")
        }
        guard head.path.hasPrefix("/") else { throw fail("the {id} placeholder must be in the path") }
        let before = head.normalized
        let after = pieces[1]
        self.template = template
        self.prefix = before
        self.suffix = after
    }

    /// The URL of the value whose identifier string is `identifier`.
    /// - Complexity: O(n) in the length of the identifier.
    package func url(for identifier: String) -> String {
        prefix + EntityEscaping.escape(identifier) + suffix
    }

    /// The identifier string in `url` when it matches this template (the scheme and host
    /// compared without case, a query and a fragment ignored); nil when it does not match.
    /// - Throws: ``EntityError/invalidIdentifier(url:segment:reason:)`` when it matches but the
    ///   identifier segment is empty or its escapes are malformed.
    func identifier(in parts: URLParts, url: String) throws(EntityError) -> String? {
        let s = parts.normalized
        guard s.count >= prefix.count + suffix.count, s.hasPrefix(prefix), s.hasSuffix(suffix) else { return nil }
        let start = s.index(s.startIndex, offsetBy: prefix.count)
        let end = s.index(s.endIndex, offsetBy: -suffix.count)
        guard start <= end else { return nil }
        let segment = s[start..<end]
        if segment.contains("/") { return nil }
        guard !segment.isEmpty else {
            throw .invalidIdentifier(url: url, segment: "", reason: "the identifier is empty")
        }
        guard let identifier = EntityEscaping.unescape(segment), !identifier.isEmpty else {
            throw .invalidIdentifier(url: url, segment: String(segment), reason: "malformed percent-escape")
        }
        return identifier
    }

    package var description: String { template }
}

/// An absolute URL reduced to what routes compare: `scheme://host[:port]` lower-cased, then the
/// percent-encoded path; the query and fragment dropped.
struct URLParts {
    let origin: String
    let path: String
    var normalized: String { origin + path }

    init?(_ string: String) {
        guard let components = URLComponents(string: string), let scheme = components.scheme, !scheme.isEmpty,
            let host = components.percentEncodedHost, !host.isEmpty
        else { return nil }
        var origin = scheme.lowercased() + "://" + host.lowercased()
        if let port = components.port { origin += ":\(port)" }
        self.origin = origin
        self.path = components.percentEncodedPath
    }
}
