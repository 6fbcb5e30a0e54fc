import Foundation

/// One way of writing a domain's name as words, each with the singular and plural forms it accepts.
struct DomainPhrase: Hashable {
    var words: [String]
    var identifier: String
    var forms: [Set<String>]

    init(words: [String], identifier: String) {
        self.words = words
        self.identifier = identifier
        forms = words.map(Self.numberForms)
    }

    /// The word sequences that name `domain`: the identifier as one word and split at camel case
    /// or separators ("streakDay" → "streakday", "streak day"), and the display name split at
    /// white space and at punctuation ("To-do items" → "to-do items", "to do items").
    static func spellings(of domain: DomainName) -> [[String]] {
        var result: [[String]] = []
        func add(_ words: [String]) {
            let words = words.filter { !$0.isEmpty }
            if !words.isEmpty, !result.contains(words) { result.append(words) }
        }
        add([domain.identifier.lowercased()])
        add(camelCaseWords(domain.identifier))
        if let name = domain.displayName {
            add(name.lowercased().split(whereSeparator: { $0.isWhitespace }).map { QueryWord(String($0)).key })
            add(name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
        }
        return result
    }

    private static func camelCaseWords(_ identifier: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for character in identifier {
            if !character.isLetter && !character.isNumber {
                words.append(current)
                current = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase && previousWasLower {
                words.append(current)
                current = ""
            }
            current += character.lowercased()
            previousWasLower = character.isLowercase || character.isNumber
        }
        words.append(current)
        return words
    }

    /// `word` with its likely plural and singular spellings: expense ↔ expenses, entry ↔ entries,
    /// match ↔ matches, day ↔ days.
    static func numberForms(_ word: String) -> Set<String> {
        var forms: Set<String> = [word, word + "s", word + "es"]
        if word.count > 1, word.hasSuffix("y"), let before = word.dropLast().last, !"aeiou".contains(before) {
            forms.insert(String(word.dropLast()) + "ies")
        }
        if word.count > 3, word.hasSuffix("ies") {
            forms.insert(String(word.dropLast(3)) + "y")
        } else if ["sses", "shes", "ches", "xes", "zes", "oes"].contains(where: { word.hasSuffix($0) }) {
            forms.insert(String(word.dropLast(2)))
        } else if word.count > 1, word.hasSuffix("s"), !word.hasSuffix("ss") {
            forms.insert(String(word.dropLast()))
        }
        return forms
    }
}
