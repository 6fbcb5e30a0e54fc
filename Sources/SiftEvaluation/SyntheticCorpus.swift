import Foundation
import Sift

/// A deterministic generator of realistic short app content — journal days, triggers,
/// reflections, recipes, expenses, notes, tasks, workouts — for benchmarks and tests.
///
/// Words follow a Zipf–Mandelbrot law over one ranked vocabulary: English function words at the
/// head, then a few thousand real content words, then pronounceable pseudo-words for the long
/// tail (names, brands, rare words). Each domain mixes in its own topical words. Titles have
/// 2–8 words, bodies 10–80 words in sentences, most items carry a date in 2024–2026, some carry
/// keywords. Words that the query parser would read as a date phrase or a domain name are kept
/// out of the vocabulary, so generated queries exercise ranking rather than filters.
///
/// Item `i` depends only on the seed and `i` (its own SplitMix64 stream), so the first 1,000 items
/// of a 10,000-item corpus are the 1,000-item corpus, on every run.
package struct SyntheticCorpus: Sendable {
    /// One kind of item and the words typical of it.
    package struct Domain: Sendable, Equatable {
        package var identifier: String
        package var displayName: String
        /// Words typical of this domain; a share of each text is drawn from them.
        package var topicWords: [String]
        /// Share of items that carry a date (0…1).
        package var datedShare: Double
    }

    /// Number of words of a title.
    package static let titleWords: ClosedRange<Int> = 2...8
    /// Number of words of a body (the `content` attribute).
    package static let bodyWords: ClosedRange<Int> = 10...80
    /// Item dates lie in [2024-01-01, 2027-01-01) UTC.
    package static let firstDate = Date(timeIntervalSince1970: 1_704_067_200)
    package static let dateSpanDays = 1096

    /// The seed every item's random stream derives from.
    package let seed: UInt64
    /// The general vocabulary by rank (most frequent first): function words, real content words,
    /// then pseudo-words.
    package let vocabulary: [String]
    /// How many of the ranked words at the head are function (stop) words.
    package let functionWordCount: Int
    /// How many ranked words are real English words (the rest are pseudo-words).
    package let realWordCount: Int
    /// Zipf exponent `s` of `P(rank r) ∝ (r + 2.7)^-s`.
    package let exponent: Double
    package let domains: [Domain]
    /// Cumulative probabilities of `vocabulary`, and of its content part (ranks ≥ functionWordCount).
    private let cumulative: [Double]
    private let contentCumulative: [Double]

    /// Builds the vocabulary (`vocabularySize` ranked words, at least the real ones) and the
    /// sampling tables.
    /// - Complexity: O(vocabularySize); about 10 ms for the default 40,000 words.
    package init(seed: UInt64 = 20_261_202, vocabularySize: Int = 40_000, exponent: Double = 1.15) {
        self.seed = seed
        self.exponent = exponent
        let domains = Self.defaultDomains
        self.domains = domains
        let excluded = Self.excludedWords(domains)
        var seen = Set<String>()
        var words: [String] = []
        for w in Self.functionWordList.split(whereSeparator: \.isWhitespace) where seen.insert(String(w)).inserted {
            words.append(String(w))
        }
        functionWordCount = words.count
        for w in Self.contentWordList.split(whereSeparator: \.isWhitespace) {
            let word = String(w)
            if !excluded.contains(word) && seen.insert(word).inserted { words.append(word) }
        }
        realWordCount = words.count
        var pseudo = Generator(state: 0x5EED_0F_5EED)
        while words.count < vocabularySize {
            let word = Self.pseudoWord(&pseudo)
            if !excluded.contains(word) && seen.insert(word).inserted { words.append(word) }
        }
        vocabulary = words
        cumulative = Self.zipfCumulative(count: words.count, from: 0, exponent: exponent)
        contentCumulative = Self.zipfCumulative(count: words.count, from: functionWordCount, exponent: exponent)
    }

    /// Items `0..<count`.
    /// - Complexity: O(count · words per item).
    package func items(count: Int) -> [SearchableItem] { items(0..<count) }

    /// Items with these indices.
    package func items(_ indices: Range<Int>) -> [SearchableItem] { indices.map(item(at:)) }

    /// Item number `index`: same seed and index, same item.
    /// - Complexity: O(words of the item · log vocabulary).
    package func item(at index: Int) -> SearchableItem {
        var rng = Generator(seed: seed, stream: 1, index: index)
        let domain = domains[Int(rng.next() % UInt64(domains.count))]
        let titleCount = Self.titleWords.lowerBound + Int(rng.next() % UInt64(Self.titleWords.count))
        var title: [String] = []
        for i in 0..<titleCount {
            // Titles are mostly content words, the odd function word inside.
            if i > 0 && i < titleCount - 1 && rng.unit() < 0.15 {
                title.append(vocabulary[Int(rng.next() % UInt64(functionWordCount))])
            } else if rng.unit() < 0.4 {
                title.append(domain.topicWords[Int(rng.next() % UInt64(domain.topicWords.count))])
            } else {
                title.append(contentWord(&rng))
            }
        }
        let bodyCount = Self.bodyWords.lowerBound + Int(rng.next() % UInt64(Self.bodyWords.count))
        var body = ""
        body.reserveCapacity(bodyCount * 7)
        var sentenceLeft = 5 + Int(rng.next() % 11)
        for i in 0..<bodyCount {
            var word =
                rng.unit() < 0.25
                ? domain.topicWords[Int(rng.next() % UInt64(domain.topicWords.count))]
                : anyWord(&rng)
            if domain.identifier == "expense" && rng.unit() < 0.03 {
                let cents = rng.next() % 100
                word = "\(1 + rng.next() % 300).\(cents < 10 ? "0" : "")\(cents)"
            }
            if i == 0 {
                body += Self.capitalized(word)
            } else if sentenceLeft == 0 {
                body += ". " + Self.capitalized(word)
                sentenceLeft = 5 + Int(rng.next() % 11)
            } else {
                body += " " + word
            }
            sentenceLeft -= 1
        }
        body += "."
        var keywords: [String] = []
        if rng.unit() < 0.3 {
            let k = 1 + Int(rng.next() % 3)
            for _ in 0..<k {
                let w = domain.topicWords[Int(rng.next() % UInt64(domain.topicWords.count))]
                if !keywords.contains(w) { keywords.append(w) }
            }
        }
        var date: Date?
        if rng.unit() < domain.datedShare {
            let day = Int(rng.next() % UInt64(Self.dateSpanDays))
            let minute = Int(rng.next() % (24 * 60))
            date = Self.firstDate.addingTimeInterval(TimeInterval(day * 86_400 + minute * 60))
        }
        let hint: Int? = rng.unit() < 0.1 ? Int(rng.next() % 101) : nil
        return SearchableItem(
            id: ItemID("\(domain.identifier)-\(index)"), domain: domain.identifier,
            title: title.enumerated().map { $0.offset == 0 ? Self.capitalized($0.element) : $0.element }.joined(separator: " "),
            content: body, keywords: keywords, date: date, rankingHint: hint,
            displayName: domain.displayName)
    }

    /// A text of exactly `words` words drawn like a body (e.g. the 30-word texts of the
    /// embedding benchmark); text `index` is the same for the same seed.
    package func text(words: Int, index: Int) -> String {
        var rng = Generator(seed: seed, stream: 2, index: index)
        let domain = domains[Int(rng.next() % UInt64(domains.count))]
        var result: [String] = []
        result.reserveCapacity(words)
        for _ in 0..<words {
            result.append(
                rng.unit() < 0.25
                    ? domain.topicWords[Int(rng.next() % UInt64(domain.topicWords.count))]
                    : anyWord(&rng))
        }
        return result.joined(separator: " ")
    }

    // MARK: Sampling

    private func anyWord(_ rng: inout Generator) -> String {
        let word = vocabulary[Self.sample(cumulative, rng.unit())]
        return word.hasPrefix("i") && (word == "i" || word.hasPrefix("i'")) ? "I" + word.dropFirst() : word
    }

    private func contentWord(_ rng: inout Generator) -> String {
        vocabulary[Self.sample(contentCumulative, rng.unit())]
    }

    /// First index whose cumulative probability exceeds `u`.
    private static func sample(_ cdf: [Double], _ u: Double) -> Int {
        var lo = 0
        var hi = cdf.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cdf[mid] > u { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// Cumulative Zipf–Mandelbrot probabilities over ranks `from..<count` (zero before `from`).
    private static func zipfCumulative(count: Int, from start: Int, exponent: Double) -> [Double] {
        var cdf = [Double](repeating: 0, count: count)
        var total = 0.0
        for r in start..<count {
            total += pow(Double(r - start) + 1 + 2.7, -exponent)
            cdf[r] = total
        }
        for r in 0..<count { cdf[r] /= total }
        cdf[count - 1] = 1.0000001
        return cdf
    }

    private static func capitalized(_ word: String) -> String {
        guard let first = word.first, first.isLowercase else { return word }
        return first.uppercased() + word.dropFirst()
    }

    private static let onsets = [
        "b", "br", "c", "ch", "cl", "d", "dr", "f", "fl", "g", "gr", "h", "j", "k", "l", "m", "n", "p", "pl", "pr", "r", "s", "sh", "sl",
        "st", "t", "tr", "v", "w", "z", "",
    ]
    private static let nuclei = ["a", "e", "i", "o", "u", "ai", "ea", "oo", "ou", "y"]
    private static let codas = ["", "", "", "n", "r", "l", "s", "t", "m", "nd", "rt", "st", "ck", "x"]

    /// A pronounceable word of two syllables (three for one in four); only the last syllable
    /// takes a consonant cluster at its end.
    private static func pseudoWord(_ rng: inout Generator) -> String {
        let syllables = rng.next() % 4 == 0 ? 3 : 2
        var word = ""
        for s in 0..<syllables {
            word += onsets[Int(rng.next() % UInt64(onsets.count))]
            word += nuclei[Int(rng.next() % UInt64(nuclei.count))]
            let coda = codas[Int(rng.next() % UInt64(codas.count))]
            word += s == syllables - 1 || coda.count < 2 ? coda : String(coda.prefix(1))
        }
        return word
    }

    /// Date and number words the query parser understands, and the domains' own names: never
    /// generated, so that queries drawn from the corpus are plain text.
    private static func excludedWords(_ domains: [Domain]) -> Set<String> {
        var set = Set(dateAndNumberWords.split(whereSeparator: \.isWhitespace).map(String.init))
        for d in domains {
            for name in [d.identifier, d.displayName.lowercased()] {
                set.insert(name)
                set.insert(name + "s")
                if name.hasSuffix("s") { set.insert(String(name.dropLast())) }
            }
        }
        return set
    }

    private static let dateAndNumberWords = """
        today tonight yesterday tomorrow day days week weeks weekend month months year years last
        past previous next this since until till thru through throughout within during between
        before after ago monday tuesday wednesday thursday friday saturday sunday january february
        march april may june july august september october november december jan feb mar apr jun
        jul aug sep sept oct nov dec one two three four five six seven eight nine ten eleven
        twelve entries domain domains streakday
        """

    // MARK: Vocabulary

    static let defaultDomains: [Domain] = [
        Domain(
            identifier: "journal", displayName: "Journal",
            topicWords: words(
                """
                mood grateful calm anxious tired slept sleep walk coffee friend family mom dad sister
                brother talked felt energy focus rest gratitude happy sad overwhelmed peaceful routine
                sunshine rain park dinner lunch breakfast meditation breath therapy progress goal habit
                streak reading book music laughed hug quiet lonely proud hopeful restless cozy nap tea
                garden neighbor phone message sunset cloudy
                """), datedShare: 1.0),
        Domain(
            identifier: "trigger", displayName: "Triggers",
            topicWords: words(
                """
                stress deadline meeting boss email argument noise crowd traffic late criticism conflict
                pressure caffeine sugar alcohol screen scrolling news bills rent exam presentation call
                notification silence ignored rejected interrupted rushed hungry headache insomnia
                weather commute queue waiting clutter mess workload overtime reminder anniversary
                smell song comparison tense shouting panic
                """), datedShare: 0.9),
        Domain(
            identifier: "reflection", displayName: "Reflections",
            topicWords: words(
                """
                lesson learned realized insight pattern growth change choice decision value purpose
                meaning boundary patience kindness forgiveness courage fear trust honesty balance
                priority perspective mindset acceptance letting gentle compassion intention awareness
                journey grief healing resilience vulnerable regret hope listening belonging calmer
                noticed slowly enough worth
                """), datedShare: 0.8),
        Domain(
            identifier: "recipe", displayName: "Recipes",
            topicWords: words(
                """
                flour sugar butter egg eggs garlic onion tomato basil olive oil salt pepper lemon
                chicken rice pasta noodles beans lentils spinach mushroom cheese cream milk yogurt
                honey cinnamon vanilla chocolate oven bake roast simmer stir chop slice whisk boil fry
                grill soup salad curry stew bread dough sauce ginger cumin paprika avocado potato
                carrot broth yerba mate latte matcha
                """), datedShare: 0.3),
        Domain(
            identifier: "expense", displayName: "Expenses",
            topicWords: words(
                """
                groceries rent coffee taxi fuel gas parking subscription gym membership insurance
                phone internet electricity water restaurant lunch dinner takeout pharmacy doctor
                dentist books clothes shoes gift donation flight hotel train bus ticket concert movie
                haircut laundry repair plumber furniture laptop headphones charger refund invoice
                receipt tip fee paid spent card cash
                """), datedShare: 1.0),
        Domain(
            identifier: "note", displayName: "Notes",
            topicWords: words(
                """
                idea project draft outline list plan agenda summary question answer link article
                podcast quote reference research reminder address meeting client feedback proposal
                design prototype bug release feature roadmap budget report slide brainstorm interview
                hiring onboarding workshop conference deck spec sync review launch metrics
                """), datedShare: 0.8),
        Domain(
            identifier: "task", displayName: "Tasks",
            topicWords: words(
                """
                buy call email schedule book renew pay clean fix return pick drop submit send update
                order cancel prepare pack water plants vacuum laundry groceries appointment passport
                license tax form pharmacy prescription vet dog cat car oil tires garage bank transfer
                backup install charge print sign confirm reply follow urgent
                """), datedShare: 0.7),
        Domain(
            identifier: "workout", displayName: "Workouts",
            topicWords: words(
                """
                run running jog sprint interval tempo miles kilometers pace heart rate squat deadlift
                bench press pullup pushup plank lunge yoga stretch mobility cycling bike swim laps
                rowing hike climb reps sets weight dumbbell kettlebell barbell warmup cooldown recovery
                sore hamstring knee shoulder core cardio strength endurance personal record trail
                """), datedShare: 0.95),
    ]

    private static func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Function words, most frequent first (the head of the Zipf ranking).
    private static let functionWordList = """
        the i and to a of my in it was for that with on is at me this but so we had have be from
        about all just not up out an as our by then some they you were really what when there
        more too very been would could into over still much also again back only because while
        than even most other both each few any down off through against without almost around
        maybe like it's i'm didn't don't got get went did do does can will should might must
        her his him she he them their us your its which who how why where here if or no yes
        am are being having another every many lot lots such same own something nothing
        anything everything someone everyone
        """

    /// Real content words in rough order of frequency (common first).
    private static let contentWordList = """
        time work good home new feel people first way thing great little long well right
        need make know think going take see come want look use find give tell ask seem
        try leave call keep let begin help talk turn start show hear play move live believe
        hold bring happen write provide sit stand lose pay meet include continue set learn
        lead understand watch follow stop create speak read allow add spend grow open walk
        win offer remember love consider appear buy wait serve die send expect build stay
        fall cut reach kill remain suggest raise pass sell require report decide pull
        life hand part child eye woman place case point government company number group
        problem fact world school family student country question night thing story job word
        business issue side kind head house service friend father power hour game line end
        member law car city community name president team minute idea kid body information
        back parent face others level office door health person art war history party result
        change morning reason research girl guy moment air teacher force education foot boy
        age policy everything process music market sense nation plan college interest death
        experience effect class control care field development role effort rate heart drug
        show leader light voice wife police mind price report decision son view relationship
        town road arm difference value building action model season society tax director
        position player record paper space ground form event official matter center couple
        site project activity star table need court oil situation cost industry figure street
        image phone data picture practice piece land product doctor wall patient worker news
        test movie north love support technology step baby computer type attention film tree
        source organization hair window evidence population site blood theory chance future
        big small large important young different old few public bad able best better sure
        free low early late hard major real strong whole clear full special easy recent
        certain personal open red difficult available likely short single medical current
        wrong private past foreign fine common poor natural significant similar hot dead
        central happy serious ready simple left physical general environmental financial
        blue democratic dark various entire close legal religious cold final main green
        nice huge popular traditional cultural quick slow warm soft bright heavy light
        busy quiet calm fresh clean empty tired excited worried nervous angry glad proud
        afraid lucky gentle honest kind funny strange weird lovely beautiful amazing awesome
        terrible awful perfect favorite productive lazy sleepy hungry thirsty sick healthy
        always never often sometimes usually already soon later finally actually probably
        together almost enough instead quickly slowly suddenly recently especially exactly
        certainly simply clearly early tomorrow tonight forward away outside inside
        coffee tea water breakfast lunch dinner meal snack kitchen bedroom garden bathroom
        sofa couch bed pillow blanket desk chair lamp shelf closet fridge stove sink
        shower laundry dishes groceries store shop mall market bakery cafe restaurant bar
        pub gym park beach lake river mountain forest hill trail bridge station airport
        train bus bike car taxi flight trip travel vacation holiday hotel ticket passport
        luggage suitcase map ferry harbor island village neighborhood apartment office
        meeting email message call chat text letter note list plan schedule calendar
        appointment deadline project task goal habit routine progress report review budget
        invoice bill receipt payment salary bonus rent mortgage loan savings account bank
        card cash price discount sale order delivery package shipping refund return
        doctor nurse dentist therapist pharmacy medicine pill vitamin headache fever cough
        cold flu allergy pain back neck knee shoulder stomach sleep nap dream energy
        stress anxiety mood feeling emotion joy sadness anger fear hope gratitude patience
        kindness trust respect confidence courage focus attention memory thought belief
        friend friends partner husband wife boyfriend girlfriend mom dad mother father
        sister brother daughter son grandma grandpa aunt uncle cousin baby kids dog cat
        puppy kitten pet neighbor colleague coworker boss manager client customer team
        birthday wedding party celebration dinner anniversary holiday christmas festival
        concert show movie film series episode podcast book novel story article poem song
        album playlist guitar piano drums painting drawing photo camera picture video game
        puzzle chess cards football soccer basketball tennis golf hockey baseball running
        swimming cycling hiking climbing yoga pilates dance dancing boxing skiing surfing
        weather rain snow wind storm sun sunshine cloud fog heat frost spring summer autumn
        fall winter season temperature forecast sky moon stars ocean sea wave sand shell
        flower rose tulip grass leaf leaves branch seed soil plant plants tomato herbs
        apple banana orange lemon lime grape berry strawberry blueberry peach pear cherry
        mango pineapple melon watermelon coconut avocado potato carrot onion garlic pepper
        cucumber lettuce spinach kale broccoli cabbage corn peas beans rice pasta noodles
        bread toast bagel croissant muffin cake cookie pie chocolate candy sugar honey jam
        butter cheese milk cream yogurt egg eggs bacon ham sausage chicken beef pork lamb
        fish salmon tuna shrimp soup salad sandwich burger pizza taco burrito sushi curry
        stew sauce salt oil vinegar spice cinnamon vanilla ginger mint basil parsley wine
        beer juice smoothie soda cocktail whiskey latte espresso cappuccino matcha mocha
        laptop computer keyboard screen monitor mouse printer tablet charger battery cable
        headphones speaker watch app website password login update install backup file
        folder document spreadsheet slide presentation code bug feature release version
        server database network wifi internet signal download upload cloud storage device
        shirt pants jeans dress skirt jacket coat sweater hoodie scarf hat gloves socks
        shoes boots sneakers sandals bag backpack wallet keys glasses umbrella jewelry ring
        necklace bracelet perfume makeup shampoo soap towel toothbrush razor lotion
        walked ran drove cooked baked cleaned washed fixed bought sold paid spent saved
        earned lost found called texted emailed visited met talked listened watched read
        wrote painted drew played sang danced swam climbed hiked cycled stretched rested
        slept woke worked studied learned taught helped asked answered waited finished
        started planned booked cancelled moved packed unpacked organized sorted decided
        forgot remembered noticed realized wondered worried laughed cried smiled hugged
        thanked celebrated enjoyed loved hated missed needed wanted tried failed succeeded
        felt seemed looked sounded tasted smelled grew changed improved stopped continued
        running walking cooking baking cleaning reading writing working studying playing
        thinking feeling trying learning listening watching waiting planning shopping driving
        quarter half hour minutes seconds moment while period session round break weekend
        evening afternoon noon midnight dawn dusk lunchtime bedtime deadline overtime
        question answer reason result problem solution option choice chance risk mistake
        success failure lesson advice tip trick secret truth lie promise rule plan idea
        example detail fact opinion point topic subject theme issue concern doubt surprise
        journey path direction distance speed pace weight height size shape color sound
        smell taste touch voice noise silence music rhythm beat melody tune lyrics
        corner edge middle center top bottom front side surface inside outside hole gap
        box bottle jar cup mug glass plate bowl pan pot knife fork spoon tray basket
        paper pen pencil notebook journal diary envelope stamp label sticker tape glue
        tool hammer nail screw drill saw ladder rope chain lock key door gate fence
        window curtain floor ceiling roof stairs hallway garage basement attic porch yard
        energy power fuel gas electricity heating cooling air light lamp candle fire smoke
        health fitness strength balance flexibility endurance recovery injury therapy
        mindfulness meditation breathing journaling gratitude reflection intention purpose
        community volunteer charity donation neighbor village city town country nation
        culture language history science art design nature technology business economy
        career job interview resume promotion raise contract client project proposal pitch
        startup company office remote hybrid commute desk meeting standup retro sprint
        school class course exam test grade homework lecture teacher professor university
        library museum gallery theater cinema stadium zoo aquarium church temple market
        clinic hospital pharmacy bank post office police station fire court hall
        morning coffee evening walk late night early start long day short break quick
        """
}

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fully specified generator, so the corpus
/// does not depend on the platform's random source.
private struct Generator: Sendable {
    var state: UInt64

    init(state: UInt64) { self.state = state }

    /// The stream for item (or text) `index` of `stream` under `seed`: the three are hashed
    /// together, so streams start far apart on the generator's cycle.
    init(seed: UInt64, stream: UInt64, index: Int) {
        state = Self.mix(seed ^ Self.mix(stream &* 0x1_0000_0000 &+ UInt64(truncatingIfNeeded: index)))
    }

    /// SplitMix64's output function: a bijective 64-bit mix.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1).
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
