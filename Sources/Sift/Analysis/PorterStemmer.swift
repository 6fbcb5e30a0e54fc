/// The Porter (1980) suffix-stripping stemmer, as in Martin Porter's reference implementation.
///
/// M. F. Porter, "An algorithm for suffix stripping", *Program* 14(3), 130–137, 1980. This follows
/// the author's own C/Java reference implementation (the one Lucene's `PorterStemFilter` ports, and
/// NLTK's `PorterStemmer(mode=MARTIN_EXTENSIONS)`), which departs from the published paper in three
/// small ways, all kept here:
/// - step 2 maps `-bli` → `-ble` (the paper: `-abli` → `-able`), so "possibly" → "possibl";
/// - step 2 adds `-logi` → `-log`, so "archaeology" → "archaeolog";
/// - words of one or two letters are left alone.
///
/// On every other word the result equals NLTK's `ORIGINAL_ALGORITHM` mode.
package enum PorterStemmer {
    /// The stem of `word`, which should already be lower-cased.
    ///
    /// Only words made of the ASCII letters `a`–`z` are stemmed; a word of length ≤ 2, or one that
    /// holds anything else (digits, upper case, punctuation, non-ASCII letters), comes back unchanged.
    /// - Complexity: O(n) in the length of `word`, one small buffer allocation.
    package static func stem(_ word: String) -> String {
        let utf8 = word.utf8
        guard utf8.count > 2 else { return word }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        for byte in utf8 {
            guard byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") else { return word }
            bytes.append(byte)
        }
        var stemmer = Buffer(bytes)
        stemmer.run()
        return String(decoding: stemmer.b[0...stemmer.k], as: UTF8.self)
    }
}

/// The working state of one stemming: the word in `b[0...k]`, and `j`, the end of the stem
/// before the suffix last matched by `ends(_:)`. Names follow the reference implementation.
private struct Buffer {
    var b: [UInt8]
    var k: Int
    var j: Int = 0
    /// `consonant[i]` for every byte of `b`.
    var consonant: [Bool] = []

    init(_ bytes: [UInt8]) {
        b = bytes
        k = bytes.count - 1
        consonant.reserveCapacity(bytes.count + 2)
        classify(from: 0)
    }

    mutating func run() {
        step1ab()
        if k > 0 {
            step1c()
            step2()
            step3()
            step4()
            step5()
        }
    }

    /// Whether `b[i]` is a consonant: not a, e, i, o, u, and not a `y` that follows a consonant.
    func isConsonant(_ i: Int) -> Bool { consonant[i] }

    /// Recomputes `consonant` for `b[from...]` after an edit there; position i depends only on
    /// `b[0...i]`, so this keeps the test O(1) even for long runs of "y".
    mutating func classify(from start: Int) {
        consonant.removeSubrange(min(start, consonant.count)..<consonant.count)
        for i in consonant.count..<b.count {
            switch b[i] {
            case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"),
                UInt8(ascii: "u"):
                consonant.append(false)
            case UInt8(ascii: "y"):
                consonant.append(i == 0 ? true : !consonant[i - 1])
            default:
                consonant.append(true)
            }
        }
    }

    /// m, the number of vowel–consonant sequences in `b[0...j]`: [C](VC)^m[V].
    func measure() -> Int {
        var n = 0
        var i = 0
        while true {
            if i > j { return n }
            if !isConsonant(i) { break }
            i += 1
        }
        i += 1
        while true {
            while true {
                if i > j { return n }
                if isConsonant(i) { break }
                i += 1
            }
            i += 1
            n += 1
            while true {
                if i > j { return n }
                if !isConsonant(i) { break }
                i += 1
            }
            i += 1
        }
    }

    /// Whether `b[0...j]` contains a vowel.
    func vowelInStem() -> Bool {
        guard j >= 0 else { return false }
        for i in 0...j where !isConsonant(i) { return true }
        return false
    }

    /// Whether `b[i-1...i]` is a double consonant.
    func doubleConsonant(_ i: Int) -> Bool {
        i >= 1 && b[i] == b[i - 1] && isConsonant(i)
    }

    /// Whether `b[i-2...i]` is consonant–vowel–consonant and the last is not w, x or y
    /// (so "hop" → "hope" in step 1b, but not "snow", "box", "tray").
    func cvc(_ i: Int) -> Bool {
        guard i >= 2, isConsonant(i), !isConsonant(i - 1), isConsonant(i - 2) else { return false }
        let c = b[i]
        return c != UInt8(ascii: "w") && c != UInt8(ascii: "x") && c != UInt8(ascii: "y")
    }

    /// Whether `b[0...k]` ends with `suffix`; sets `j` to the end of the stem before it if so.
    mutating func ends(_ suffix: StaticString) -> Bool {
        let length = suffix.utf8CodeUnitCount
        guard length <= k + 1 else { return false }
        let matches = suffix.withUTF8Buffer { s -> Bool in
            guard s[length - 1] == b[k] else { return false }
            let start = k - length + 1
            for offset in 0..<length where b[start + offset] != s[offset] { return false }
            return true
        }
        if matches { j = k - length }
        return matches
    }

    /// Replaces `b[j+1...k]` with `replacement`, adjusting `k`.
    mutating func setTo(_ replacement: StaticString) {
        let length = replacement.utf8CodeUnitCount
        b.removeSubrange((j + 1)..<b.count)
        replacement.withUTF8Buffer { b.append(contentsOf: $0) }
        k = j + length
        classify(from: j + 1)
    }

    /// `setTo(_:)` when the stem before the suffix has m > 0.
    mutating func replace(_ replacement: StaticString) {
        if measure() > 0 { setTo(replacement) }
    }

    /// Plurals and -ed or -ing: caresses → caress, ponies → poni, meetings → meet,
    /// agreed → agree, plastered → plaster, hopping → hop, filing → file.
    mutating func step1ab() {
        if b[k] == UInt8(ascii: "s") {
            if ends("sses") {
                k -= 2
            } else if ends("ies") {
                setTo("i")
            } else if b[k - 1] != UInt8(ascii: "s") {
                k -= 1
            }
        }
        if ends("eed") {
            if measure() > 0 { k -= 1 }
        } else if (ends("ed") || ends("ing")) && vowelInStem() {
            k = j
            if ends("at") {
                setTo("ate")
            } else if ends("bl") {
                setTo("ble")
            } else if ends("iz") {
                setTo("ize")
            } else if doubleConsonant(k) {
                k -= 1
                let c = b[k]
                if c == UInt8(ascii: "l") || c == UInt8(ascii: "s") || c == UInt8(ascii: "z") {
                    k += 1
                }
            } else if measure() == 1 && cvc(k) {
                j = k
                setTo("e")
            }
        }
    }

    /// Terminal y → i when there is another vowel in the stem: happy → happi, sky → sky.
    mutating func step1c() {
        if ends("y") && vowelInStem() {
            b[k] = UInt8(ascii: "i")
            classify(from: k)
        }
    }

    /// Double suffixes to single ones when m > 0: relational → relate, digitizer → digitize.
    /// The first suffix that matches decides, whether or not m > 0.
    mutating func step2() {
        switch b[k - 1] {
        case UInt8(ascii: "a"):
            if ends("ational") { replace("ate") } else if ends("tional") { replace("tion") }
        case UInt8(ascii: "c"):
            if ends("enci") { replace("ence") } else if ends("anci") { replace("ance") }
        case UInt8(ascii: "e"):
            if ends("izer") { replace("ize") }
        case UInt8(ascii: "l"):
            if ends("bli") {
                replace("ble")  // reference-implementation departure; the paper has abli → able
            } else if ends("alli") {
                replace("al")
            } else if ends("entli") {
                replace("ent")
            } else if ends("eli") {
                replace("e")
            } else if ends("ousli") {
                replace("ous")
            }
        case UInt8(ascii: "o"):
            if ends("ization") {
                replace("ize")
            } else if ends("ation") {
                replace("ate")
            } else if ends("ator") {
                replace("ate")
            }
        case UInt8(ascii: "s"):
            if ends("alism") {
                replace("al")
            } else if ends("iveness") {
                replace("ive")
            } else if ends("fulness") {
                replace("ful")
            } else if ends("ousness") {
                replace("ous")
            }
        case UInt8(ascii: "t"):
            if ends("aliti") {
                replace("al")
            } else if ends("iviti") {
                replace("ive")
            } else if ends("biliti") {
                replace("ble")
            }
        case UInt8(ascii: "g"):
            if ends("logi") { replace("log") }  // reference-implementation departure
        default:
            break
        }
    }

    /// -ic-, -full, -ness and the like when m > 0: triplicate → triplic, hopeful → hope.
    mutating func step3() {
        switch b[k] {
        case UInt8(ascii: "e"):
            if ends("icate") {
                replace("ic")
            } else if ends("ative") {
                replace("")
            } else if ends("alize") {
                replace("al")
            }
        case UInt8(ascii: "i"):
            if ends("iciti") { replace("ic") }
        case UInt8(ascii: "l"):
            if ends("ical") { replace("ic") } else if ends("ful") { replace("") }
        case UInt8(ascii: "s"):
            if ends("ness") { replace("") }
        default:
            break
        }
    }

    /// Drops -ant, -ence and the like when m > 1: revival → reviv, adjustment → adjust.
    mutating func step4() {
        let matched: Bool
        switch b[k - 1] {
        case UInt8(ascii: "a"): matched = ends("al")
        case UInt8(ascii: "c"): matched = ends("ance") || ends("ence")
        case UInt8(ascii: "e"): matched = ends("er")
        case UInt8(ascii: "i"): matched = ends("ic")
        case UInt8(ascii: "l"): matched = ends("able") || ends("ible")
        case UInt8(ascii: "n"): matched = ends("ant") || ends("ement") || ends("ment") || ends("ent")
        case UInt8(ascii: "o"):
            if ends("ion") && j >= 0 && (b[j] == UInt8(ascii: "s") || b[j] == UInt8(ascii: "t")) {
                matched = true
            } else {
                matched = ends("ou")
            }
        case UInt8(ascii: "s"): matched = ends("ism")
        case UInt8(ascii: "t"): matched = ends("ate") || ends("iti")
        case UInt8(ascii: "u"): matched = ends("ous")
        case UInt8(ascii: "v"): matched = ends("ive")
        case UInt8(ascii: "z"): matched = ends("ize")
        default: matched = false
        }
        if matched && measure() > 1 { k = j }
    }

    /// A final -e when m > 1 (or m = 1 and not *o), and -ll → -l when m > 1:
    /// probate → probat, rate → rate, controll → control.
    mutating func step5() {
        j = k
        if b[k] == UInt8(ascii: "e") {
            let m = measure()
            if m > 1 || (m == 1 && !cvc(k - 1)) { k -= 1 }
        }
        if b[k] == UInt8(ascii: "l") && doubleConsonant(k) && measure() > 1 { k -= 1 }
    }
}
