package import HybridCore

extension FeatureConfig {
    /// The input features of `input` rendered for `variant` as the router renders it (template filled): what an
    /// input rule tests, measured the one way the router measures it.
    package func inputFeatures(name: String, variant: String, input: [String: String]) -> InputFeatures? {
        guard let rendered = try? render(name: name, variant: variant, input: input, now: .now) else { return nil }
        return InputFeatures(rendered.request)
    }
}
