import Foundation

/// One white-space separated word of a query.
struct QueryWord {
    /// The word as written.
    var text: String
    /// Lower-cased, without surrounding punctuation or a possessive "'s"; what phrases match.
    var key: String

    /// A possessive written as its own word: "'s", "’s", "'".
    var isPossessiveMark: Bool {
        ["'s", "’s", "'", "’", "'S", "’S"].contains(text)
    }

    /// The words of `query`, split on white space and control characters (NUL included).
    static func split(_ query: String) -> [QueryWord] {
        var words: [QueryWord] = []
        let scalars = query.unicodeScalars
        var start: String.UnicodeScalarView.Index?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let separates =
                scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            if separates {
                if let first = start { words.append(QueryWord(String(scalars[first..<index]))) }
                start = nil
            } else if start == nil {
                start = index
            }
            scalars.formIndex(after: &index)
        }
        if let first = start { words.append(QueryWord(String(scalars[first..<scalars.endIndex]))) }
        return words
    }

    init(_ text: String) {
        self.text = text
        var scalars = Array(text.lowercased().unicodeScalars)
        var upper = scalars.count
        while upper > 0, Self.isTrimmed(scalars[upper - 1]) { upper -= 1 }
        if upper > 2, scalars[upper - 1] == "s", scalars[upper - 2] == "'" || scalars[upper - 2] == "’" {
            upper -= 2
            while upper > 0, Self.isTrimmed(scalars[upper - 1]) { upper -= 1 }
        }
        var lower = 0
        while lower < upper, Self.isTrimmed(scalars[lower]) { lower += 1 }
        scalars = Array(scalars[lower..<upper])
        var key = String.UnicodeScalarView()
        key.append(contentsOf: scalars)
        self.key = String(key)
    }

    /// Punctuation that may surround a word: quotes, brackets, commas, full stops, dashes.
    private static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
            .otherPunctuation, .dashPunctuation:
            return true
        default:
            return false
        }
    }
}
