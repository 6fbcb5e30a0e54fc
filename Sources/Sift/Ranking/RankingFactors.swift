import Foundation

/// Step 4 of ``Ranker``, set up once per query: what the factors a candidate's relevance is
/// multiplied by need — donations, ranking hint, a domain named in the query, a title that
/// begins with the query — and the bounds of their product that let selection skip a
/// candidate that cannot enter the top k.
struct RankingFactors {
    /// The query's words, stop words included, and their hashes, for the title-prefix boost.
    let headWords: [String]
    let headHashes: [UInt16]
    /// The last word is being typed: a title word may begin with it.
    let lastIsPrefix: Bool
    /// Per domain code: boosted (a domain the query named that does not filter).
    let boostCodes: [Bool]
    /// The query has 2…``KeywordIndex/titleHeadLength`` words: the title-prefix boost may apply.
    let titled: Bool
    /// Bounds of the product of the factors, without and with the title-prefix boost, when
    /// every factor is positive (then the product is monotone in each, in floating point too);
    /// nil turns the skipping off (and so does an exhaustive request).
    let bounds: (plain: Float, titled: Float)?

    init(
        request: Ranker.Request, keyword: KeywordIndex, attributes: RowAttributes, fusion: FusionParameters,
        donations: DonationBoost, hasDonations: Bool
    ) {
        var words: [String] = []
        keyword.analyzer.forEachWord(request.text) { word, _ in words.append(word) }
        headWords = words
        headHashes = words.map(KeywordIndex.titleHash)
        lastIsPrefix =
            request.prefixLastTerm && (request.text.unicodeScalars.last.map(Analyzer.isWordScalarOrASCIIAlnum) ?? false)
        boostCodes = attributes.membership(request.boostDomains)
        let titled = words.count >= 2 && words.count <= KeywordIndex.titleHeadLength
        self.titled = titled
        bounds =
            request.exhaustive
            ? nil
            : Self.bounds(
                fusion: fusion, donations: donations, hasDonations: hasDonations, boostsDomain: !request.boostDomains.isEmpty,
                titled: titled)
    }

    private static func bounds(
        fusion: FusionParameters, donations: DonationBoost, hasDonations: Bool, boostsDomain: Bool, titled: Bool
    ) -> (plain: Float, titled: Float)? {
        let strength = donations.strength
        let donation = !hasDonations ? (1, 1) : (min(1, 1 + strength * Float(1.0)), max(1, 1 + strength * Float(1.0)))
        let hs = fusion.rankingHintStrength
        let atZero = 1 + hs * (Float(0) - 50) / 50
        let atHundred = 1 + hs * (Float(100) - 50) / 50
        let hint = (min(1, atZero, atHundred), max(1, atZero, atHundred))
        let domain = !boostsDomain ? (1, 1) : (min(1, fusion.domainBoost), max(1, fusion.domainBoost))
        let title = titled ? (min(1, fusion.titlePrefixBoost), max(1, fusion.titlePrefixBoost)) : (Float(1), Float(1))
        guard donation.0 > 0, hint.0 > 0, domain.0 > 0, title.0 > 0 else { return nil }
        let plain = donation.1 * hint.1 * domain.1
        return (plain * 1, plain * title.1)
    }
}

/// One candidate's factors and its final score.
struct CandidateFactors {
    var donationScore: Float = 0
    var donation: Float = 1
    var hint: Float = 1
    var domain: Float = 1
    var title: Float = 1
    var final: Float = 0
}

extension Ranker {
    /// Whether the title-prefix boost can apply to `row` (the accumulator knows which rows'
    /// titles hold every whole word of the query); always checked in full when exhaustive.
    @inline(__always)
    func mayBeginTitle(_ row: Int32) -> Bool {
        priors.titled && (request.exhaustive || buffers.accumulator.mayBeginTitle(row: row))
    }

    /// The factors of `row` and its final score: relevance times their product (divided by it
    /// for a negative relevance, so that a boost never lowers an item).
    @inline(__always)
    func factors(of row: Int32, relevance: Float, keywordScore: Float, cosine c: Float?) -> CandidateFactors {
        let r = Int(row)
        var f = CandidateFactors()
        let matches = keywordScore > 0 || (c ?? -1) >= fusion.semanticMatchThreshold
        if matches, relevance > 0, !state.donationLog.isEmpty, let list = state.donationLog[ids[r]!] {
            let s = donations.score(list.map(\.date), now: request.now)
            f.donationScore = Float(s)
            f.donation = donations.factor(forScore: s)
        }
        let a = state.attributes.entries[r]
        if a.hint != RowAttributes.noHint {
            f.hint = 1 + fusion.rankingHintStrength * (Float(a.hint) - 50) / 50
        }
        let boostCodes = priors.boostCodes
        if !boostCodes.isEmpty && Int(a.domain) < boostCodes.count && boostCodes[Int(a.domain)] { f.domain = fusion.domainBoost }
        if relevance > 0, mayBeginTitle(row),
            state.keyword.titleBegins(
                row: row, with: priors.headWords, hashes: priors.headHashes, lastIsPrefix: priors.lastIsPrefix,
                title: { state.items[r]!.title })
        {
            f.title = fusion.titlePrefixBoost
        }
        let factor = f.donation * f.hint * f.domain * f.title
        f.final = relevance >= 0 ? relevance * factor : relevance / factor
        return f
    }
}
