import Foundation
import HybridReport

/// What a candidate route would have to show before it replaces the route in force: **better** than the current
/// route (quality or adherence, and as good on the other), or **as good and cheaper or faster** (non-inferior on
/// adherence and quality within the policy's margins, and cheaper or faster per case). Every claim is a one-sided
/// paired sign-flip test on the case, the unit the dataset sampled (repeats reduced to their mean first), the same
/// family of test the report uses; a claim made of several parts is tested as an intersection-union test (its p is
/// the largest part's). "Faster" also needs the candidate to cost no more per request. A graphical procedure (weighted
/// Holm) then runs over every claim of every distinct candidate, so a recommendation spends α once, however many
/// routes were simulated, and spends it where the config's prices say a candidate's case lies.
///
/// The reference is always the current route, never the best observed arm: the best observed arm is non-inferior
/// to itself by construction, so comparing with it moves small runs to whichever arm got lucky.
struct SwitchEvidence {
    /// One claim about one candidate.
    struct Claim: CustomStringConvertible {
        enum Kind: String {
            case betterQuality = "better quality"
            case betterAdherence = "better adherence"
            case cheaper = "cheaper and as good"
            case faster = "faster and as good"
        }

        var kind: Kind
        /// One-sided p of the claim (the largest of its parts').
        var pValue: Double
        /// Adjusted over the whole family (``SwitchEvidence/init(candidates:current:table:margins:configuration:pricedCheaper:)``).
        var adjustedPValue = 1.0
        /// The part that binds (the one with the largest p): its per-case differences in the claim's favour.
        var binding: Part
        var parts: [Part]
        /// Why the claim cannot hold whatever its tests say.
        var note: String?

        /// "better adherence: +0.30 per case over 10 cases (one-sided p 0.0039); …, adjusted p 0.031".
        var description: String {
            "\(kind.rawValue): " + parts.map(\.description).joined(separator: "; ")
                + (note.map { " (void: \($0))" } ?? "") + String(format: ", adjusted p %.3g", adjustedPValue)
        }
    }

    /// One one-sided paired test of a claim: per-case differences, positive in the claim's favour.
    struct Part: CustomStringConvertible {
        var name: String
        var mean: Double
        var standardDeviation: Double
        var cases: Int
        var pValue: Double
        /// The non-inferiority margin added to the differences; 0 for a superiority part.
        var margin: Double

        init(name: String, differences: [Double], margin: Double = 0, configuration: BootstrapConfiguration) {
            let shifted = differences.map { $0 + margin }
            self.name = name
            self.margin = margin
            cases = differences.count
            let moments = SampleMoments(shifted)
            mean = differences.isEmpty ? .nan : moments.mean
            standardDeviation = moments.standardDeviation ?? 0
            pValue = PairedSignFlipTest(differences: shifted, configuration: configuration)?.greaterPValue ?? 1
            if differences.isEmpty { pValue = 1 }
        }

        var description: String {
            let what = margin > 0 ? String(format: "%@ within %.3g", name, margin) : name
            return String(format: "%@ %+.4g per case over %d cases (one-sided p %.3g)", what, mean - margin, cases, pValue)
        }

        /// Cases for this part to be shown with 80 % power at `alpha`, if its observed mean is the truth; nil
        /// when it points the wrong way.
        func casesNeeded(alpha: Double) -> Int? {
            SampleSizePlan.pairedCases(mean: mean, standardDeviation: standardDeviation, alpha: alpha)
        }
    }

    /// Per candidate (by its index among the ones tested), its claims.
    var claims: [[Claim]]

    /// Per claim, in the order of `claims` flattened, its initial share of α.
    var weights: [Double]

    /// The claims of each of `candidates` against `current`, adjusted together by a graphical procedure
    /// (``GraphicalProcedure/passingEqually(weights:)``): each candidate starts with an equal share of α, spread
    /// evenly over its claims, except a candidate whose first model the config prices below the current route's
    /// (`pricedCheaper`), whose share goes wholly to "cheaper and as good", the claim its price makes it for; a
    /// rejected claim passes its share equally to every other. The prices are fixed before the run, so the weights
    /// are too, and the procedure holds the family-wise error at α; with no candidate priced cheaper it is Holm.
    init(
        candidates: [RouteTrace], current: RouteTrace, table: RunOutcomeTable, margins: Margins,
        configuration: BootstrapConfiguration, pricedCheaper: [Bool] = []
    ) {
        var claims = candidates.map { Self.claims($0, current, table: table, margins: margins, configuration: configuration) }
        let weights = Self.weights(claims, pricedCheaper: pricedCheaper)
        let procedure = GraphicalProcedure.passingEqually(weights: weights)
        let pValues = claims.flatMap { $0.map(\.pValue) }
        let adjusted = procedure?.adjustedPValues(pValues) ?? HolmCorrection.adjustedPValues(pValues)
        var position = 0
        for candidate in claims.indices {
            for claim in claims[candidate].indices {
                claims[candidate][claim].adjustedPValue = adjusted[position]
                position += 1
            }
        }
        self.claims = claims
        self.weights = weights
    }

    /// The initial weights (see ``init(candidates:current:table:margins:configuration:pricedCheaper:)``).
    static func weights(_ claims: [[Claim]], pricedCheaper: [Bool]) -> [Double] {
        let share = 1 / Double(max(1, claims.count))
        return claims.enumerated().flatMap { index, list -> [Double] in
            let primary = pricedCheaper.indices.contains(index) && pricedCheaper[index]
                ? list.firstIndex { $0.kind == .cheaper } : nil
            return list.indices.map { claim in
                guard let primary else { return share / Double(list.count) }
                return claim == primary ? share : 0
            }
        }
    }

    /// The margins of the non-inferiority parts and the quality scorer.
    struct Margins {
        /// The scorer index quality is compared on; nil: quality is not compared.
        var scorer: Int?
        var scorerName: String
        var quality: Double
        var adherence: Double
    }

    /// The claims a candidate makes against the current route.
    static func claims(
        _ candidate: RouteTrace, _ current: RouteTrace, table: RunOutcomeTable, margins: Margins,
        configuration: BootstrapConfiguration
    ) -> [Claim] {
        func differences(_ values: (RouteTrace) -> [Double?], favour: Double) -> [Double] {
            let (a, b) = TraceCases.paired((candidate, values(candidate)), (current, values(current)), table: table)
            return zip(a, b).map { favour * ($0 - $1) }
        }
        let adherence = differences({ $0.adherent.map { $0 ? 1.0 : 0.0 } }, favour: 1)
        let cost = differences({ $0.costUSD.map { Optional($0) } }, favour: -1)
        let latency = differences({ $0.latencyMs.map { Optional($0) } }, favour: -1)
        let betterAdherence = Part(name: "adherence", differences: adherence, configuration: configuration)
        let asGoodAdherence = Part(
            name: "adherence", differences: adherence, margin: margins.adherence, configuration: configuration)
        var asGood = [asGoodAdherence]
        var claims: [Claim] = []
        if let scorer = margins.scorer {
            let quality = differences({ $0.quality[scorer] }, favour: 1)
            let asGoodQuality = Part(
                name: margins.scorerName, differences: quality, margin: margins.quality, configuration: configuration)
            asGood.append(asGoodQuality)
            claims.append(claim(
                .betterQuality, [Part(name: margins.scorerName, differences: quality, configuration: configuration), asGoodAdherence]))
            claims.append(claim(.betterAdherence, [betterAdherence, asGoodQuality]))
        } else {
            claims.append(claim(.betterAdherence, [betterAdherence]))
        }
        claims.append(claim(.cheaper, [Part(name: "cost $/1k", differences: cost.map { $0 * 1_000 }, configuration: configuration)] + asGood))
        // Faster at a higher price is a trade-off, not an improvement: the claim holds only at no more cost per case.
        var faster = claim(.faster, [Part(name: "latency ms", differences: latency, configuration: configuration)] + asGood)
        if cost.reduce(0, +) < -1e-12 * max(1, cost.reduce(0) { $0 + abs($1) }) {
            faster.pValue = 1
            faster.note = "costs more than the current route"
        }
        claims.append(faster)
        return claims
    }

    private static func claim(_ kind: Claim.Kind, _ parts: [Part]) -> Claim {
        let binding = parts.max { $0.pValue < $1.pValue } ?? parts[0]
        return Claim(kind: kind, pValue: binding.pValue, binding: binding, parts: parts)
    }

    /// The first claim of `candidate` shown at `alpha` after the family's adjustment, if any.
    func shown(_ candidate: Int, alpha: Double) -> Claim? {
        claims[candidate].filter { $0.adjustedPValue < alpha }.min { $0.adjustedPValue < $1.adjustedPValue }
    }

    /// The claim closest to being shown (smallest p for its initial share of α) and the cases its binding part
    /// would need at that share, for the note that keeps the current route.
    func closest(alpha: Double) -> (candidate: Int, claim: Claim, casesNeeded: Int?)? {
        var best: (candidate: Int, claim: Claim, weight: Double)?
        var position = 0
        for (index, list) in claims.enumerated() {
            for claim in list {
                let weight = weights.indices.contains(position) ? weights[position] : 0
                position += 1
                guard weight > 0 else { continue }
                if let current = best, claim.pValue / weight >= current.claim.pValue / current.weight { continue }
                best = (index, claim, weight)
            }
        }
        guard let best else { return nil }
        return (best.candidate, best.claim, best.claim.binding.casesNeeded(alpha: alpha * best.weight))
    }
}
