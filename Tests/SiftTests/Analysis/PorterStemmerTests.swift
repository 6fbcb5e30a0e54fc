import Testing

@testable import Sift

/// Goldens from Porter's published vocabulary (the examples of the 1980 paper and the reference
/// site), each checked against NLTK's `PorterStemmer`: `ORIGINAL_ALGORITHM` and
/// `MARTIN_EXTENSIONS` agree on all of them.
private let goldens: [(String, String)] = [
    ("caresses", "caress"), ("ponies", "poni"), ("ties", "ti"), ("caress", "caress"),
    ("cats", "cat"), ("feed", "feed"), ("agreed", "agre"), ("plastered", "plaster"),
    ("bled", "bled"), ("motoring", "motor"), ("sing", "sing"), ("conflated", "conflat"),
    ("troubled", "troubl"), ("sized", "size"), ("hopping", "hop"), ("tanned", "tan"),
    ("falling", "fall"), ("hissing", "hiss"), ("fizzed", "fizz"), ("failing", "fail"),
    ("filing", "file"), ("happy", "happi"), ("sky", "sky"), ("relational", "relat"),
    ("conditional", "condit"), ("rational", "ration"), ("valenci", "valenc"), ("hesitanci", "hesit"),
    ("digitizer", "digit"), ("conformabli", "conform"), ("radicalli", "radic"), ("differentli", "differ"),
    ("vileli", "vile"), ("analogousli", "analog"), ("vietnamization", "vietnam"), ("predication", "predic"),
    ("operator", "oper"), ("feudalism", "feudal"), ("decisiveness", "decis"), ("hopefulness", "hope"),
    ("callousness", "callous"), ("formaliti", "formal"), ("sensitiviti", "sensit"), ("sensibiliti", "sensibl"),
    ("triplicate", "triplic"), ("formative", "form"), ("formalize", "formal"), ("electriciti", "electr"),
    ("electrical", "electr"), ("hopeful", "hope"), ("goodness", "good"), ("revival", "reviv"),
    ("allowance", "allow"), ("inference", "infer"), ("airliner", "airlin"), ("gyroscopic", "gyroscop"),
    ("adjustable", "adjust"), ("defensible", "defens"), ("irritant", "irrit"), ("replacement", "replac"),
    ("adjustment", "adjust"), ("dependent", "depend"), ("adoption", "adopt"), ("homologou", "homolog"),
    ("communism", "commun"), ("activate", "activ"), ("angulariti", "angular"), ("homologous", "homolog"),
    ("effective", "effect"), ("bowdlerize", "bowdler"), ("probate", "probat"), ("rate", "rate"),
    ("cease", "ceas"), ("controll", "control"), ("roll", "roll"), ("generalization", "gener"),
    ("oscillators", "oscil"), ("running", "run"), ("generously", "gener"), ("meetings", "meet"),
    ("agreement", "agreement"),
]

@Suite("Porter stemmer")
struct PorterStemmerTests {
    @Test("Stems the published Porter vocabulary", arguments: goldens)
    func golden(word: String, stem: String) {
        #expect(PorterStemmer.stem(word) == stem)
    }

    @Test("Follows the reference implementation where it departs from the paper")
    func referenceDepartures() {
        // -bli → -ble and -logi → -log: Lucene and NLTK MARTIN_EXTENSIONS; the paper leaves "-i".
        #expect(PorterStemmer.stem("possibly") == "possibl")
        #expect(PorterStemmer.stem("archaeology") == "archaeolog")
        #expect(PorterStemmer.stem("technologies") == "technolog")
    }

    @Test("Leaves words of one or two letters alone")
    func shortWords() {
        for word in ["", "a", "is", "as", "us", "ys"] {
            #expect(PorterStemmer.stem(word) == word)
        }
    }

    @Test("Leaves words with digits, upper case, punctuation or non-ASCII letters alone")
    func nonASCII() {
        let words = ["café", "cafés", "русский", "covid19", "mp3s", "Running", "don't", "😤😤😤", "naïve"]
        for word in words {
            #expect(PorterStemmer.stem(word) == word)
        }
    }

    @Test("Never grows a word and copes with pathological input")
    func stability() {
        for (word, stem) in goldens {
            #expect(PorterStemmer.stem(word).utf8.count <= word.utf8.count)
            #expect(!stem.isEmpty)
        }
        // Runs of "y" (the recursive consonant rule) and long words do not trap it.
        // Goldens from NLTK: runs of "y" exercise the recursive consonant rule.
        #expect(PorterStemmer.stem("yyyies") == "yyyi")
        #expect(PorterStemmer.stem(String(repeating: "y", count: 30)) == String(repeating: "y", count: 29) + "i")
        #expect(PorterStemmer.stem("ationalationalational") == "ationalational")
        let long = String(repeating: "y", count: 100_000)
        #expect(PorterStemmer.stem(long).utf8.count == long.utf8.count)
    }
}
