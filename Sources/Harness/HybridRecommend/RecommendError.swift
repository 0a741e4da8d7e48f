/// Why a simulation or recommendation could not be made. Every message says what to change.
public enum RecommendError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store has no run with this id.
    case runNotFound(runID: String)
    /// The run has no results for the feature.
    case noResults(runID: String, feature: String)
    /// The run covers several features and none was named.
    case ambiguousFeature(runID: String, features: [String])
    /// The run does not cover the named feature.
    case unknownFeature(runID: String, feature: String, known: [String])
    /// The run has several prompt variants and the policy names none.
    case ambiguousVariant(variants: [String])
    /// An arm of the order has no results in the run.
    case unknownArm(arm: String, known: [String])
    /// The order is empty.
    case emptyOrder
    /// A `--fallback-on` condition could not be parsed.
    case invalidCondition(String, reason: String)
    /// No case has a result on every arm the order needs.
    case noCompleteCases(runID: String, order: [String])
    /// The policy file could not be read or decoded.
    case invalidPolicy(path: String, reason: String)
    /// The store failed while reading the run.
    case store(String)
    /// The run's feature is not in the config the recommendation starts from.
    case featureNotInConfig(feature: String)
    /// A fallback condition the router cannot evaluate at run time (a quality score needs a reference).
    case conditionNotRoutable(feature: String, condition: String)
    /// The config to replay does not validate (every problem with its JSON path).
    case invalidConfig(String)
    /// No arm of the run answered any case: there is nothing to recommend from.
    case nothingAnswered(runID: String, feature: String)
    /// The models of the route in force answered no case of the run, so no candidate can be compared with it.
    case currentRouteUnanswered(runID: String, feature: String, models: [String])

    public var description: String {
        switch self {
        case .runNotFound(let runID):
            "no run \(runID) in the database; `hybrid report` lists runs"
        case .noResults(let runID, let feature):
            "run \(runID) has no stored results for feature \(feature); run `hybrid eval` first"
        case .ambiguousFeature(let runID, let features):
            "run \(runID) covers several features (\(features.joined(separator: ", "))); name one with --feature"
        case .unknownFeature(let runID, let feature, let known):
            "run \(runID) has no feature \(feature) (it covers \(known.joined(separator: ", ")))"
        case .ambiguousVariant(let variants):
            "the run has several prompt variants (\(variants.joined(separator: ", "))); name one with --variant or write arms as variant@model"
        case .unknownArm(let arm, let known):
            "arm \(arm) has no results in the run (arms: \(known.joined(separator: ", ")))"
        case .emptyOrder:
            "the order is empty; give at least one model id"
        case .invalidCondition(let text, let reason):
            "fallback condition \"\(text)\": \(reason) (use adherence, schema, constraints, check:max_words, error, timeout:2s or timeout:1500ms, quality:SCORER>=0.5)"
        case .noCompleteCases(let runID, let order):
            "run \(runID) has no case with a result on every arm of \(order.joined(separator: ", ")); finish it with `hybrid eval --resume \(runID)`"
        case .invalidPolicy(let path, let reason):
            "policy \(path): \(reason)"
        case .store(let reason):
            "reading results: \(reason)"
        case .featureNotInConfig(let feature):
            "feature \(feature) of the run is not in the config; pass the config the run used with --config"
        case .invalidConfig(let problems):
            "the config does not validate: \(problems)"
        case .nothingAnswered(let runID, let feature):
            "run \(runID) (\(feature)) has no answered case on any arm: nothing to recommend from, and no config is "
                + "written. `hybrid report \(runID)` says why each model failed; fix that and run `hybrid eval` again"
        case .currentRouteUnanswered(let runID, let feature, let models):
            "the route in force for \(feature) (\(models.joined(separator: " → "))) answered no case of run \(runID): "
                + "a recommendation would compare candidates with nothing, and a model that could not run on the eval "
                + "machine says nothing about the model. `hybrid report \(runID)` says why; fix that and run `hybrid eval` again"
        case .conditionNotRoutable(let feature, let condition):
            "\(feature): cannot recommend fallback on \(condition): quality scores need references an app does not have at run time, so no router can fall back on them; use adherence, schema, constraints, check:NAME or timeout:… (keep quality as a floor with maxQualityDrop)"
        }
    }
}
