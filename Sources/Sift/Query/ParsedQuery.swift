/// What ``QueryParser`` understood in a query: the text left to search and the filters it implies.
package struct ParsedQuery: Sendable, Equatable {
    /// The words left to search, separated by single spaces, in their original spelling.
    ///
    /// Date phrases, words naming a domain, their possessive leftovers ("'s") and the glue words
    /// that only served a removed phrase ("from", "in", "on", "during", "the" …) are gone. Empty
    /// when the whole query was understood as filters.
    package var text: String
    /// The date filter from the query's date phrases, or `nil` when it has none.
    package var dateRange: DateRange?
    /// Identifiers of the domains that a word of the query names; sorted, unique.
    ///
    /// The caller decides how strong this is: a filter while some item of the domain survives
    /// the other filters, otherwise only a boost.
    package var domains: [String]
    /// One human-readable line per understood phrase, in query order, for `--explain`, e.g.
    /// "last week → 2026-11-23 … 2026-11-29 (ISO weeks start on Monday)".
    package var understood: [String]

    package init(text: String, dateRange: DateRange? = nil, domains: [String] = [], understood: [String] = []) {
        self.text = text
        self.dateRange = dateRange
        self.domains = domains
        self.understood = understood
    }
}
