/// The fields of an item that the keyword index scores separately.
package enum KeywordField: Int, CaseIterable, Sendable, CustomStringConvertible {
    case title = 0
    case keywords = 1
    case content = 2

    package var description: String {
        switch self {
        case .title: "title"
        case .keywords: "keywords"
        case .content: "content"
        }
    }
}
