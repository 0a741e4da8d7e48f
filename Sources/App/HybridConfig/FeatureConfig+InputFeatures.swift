package import HybridCore

extension FeatureConfig {
    /// The features an input rule tests, measured on the request this feature sends for `input` with variant
    /// `variant` (the default variant when nil): the router measures here before it chooses a rule, and
    /// `hybrid recommend --by-input` measures here when it learns one, so a learned threshold selects on the
    /// device the requests it selected in the harness.
    package func inputFeatures(
        name: String, variant: String? = nil, input: [String: String]
    ) throws(PromptRenderError) -> InputFeatures {
        InputFeatures(try render(name: name, variant: variant, input: input).request)
    }
}
