package import HybridCore

/// A feature's request rendered for one input: what is sent, and a hash that names it.
package struct RenderedPrompt: Sendable, Hashable {
    /// The request to send (instructions, the rendered user message, options, schema, deadline).
    package var request: GenerationRequest
    /// The variant that was rendered.
    package var variant: String
    /// The rendered user message, for reports and the response cache key.
    package var prompt: String
}

/// Why a feature could not be rendered for an input.
package enum PromptRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The feature has no variant by that name.
    case unknownVariant(feature: String, variant: String, known: [String])
    /// The variant has neither an inline template nor an inlined template file (the config was not validated).
    case missingTemplate(feature: String, variant: String)
    /// The template names a variable the input does not supply.
    case template(feature: String, variant: String, detail: String)

    package var description: String {
        switch self {
        case .unknownVariant(let feature, let variant, let known):
            "feature \(feature) has no variant \"\(variant)\" (variants: \(known.sorted().joined(separator: ", ")))"
        case .missingTemplate(let feature, let variant):
            "features.\(feature).variants.\(variant): no template; validate the config so template files are inlined"
        case .template(let feature, let variant, let detail):
            "features.\(feature).variants.\(variant): \(detail)"
        }
    }
}

extension FeatureConfig {
    /// Renders variant `variant` (the default variant when nil) with `input`.
    ///
    /// `name` is the feature's key in the config, used in errors. The deadline, when the feature sets one, starts
    /// at `now`: callers render right before sending.
    package func render(
        name: String, variant: String? = nil, input: [String: String], now: ContinuousClock.Instant = .now
    ) throws(PromptRenderError) -> RenderedPrompt {
        let variantName = variant ?? defaultVariant
        guard let chosen = variants[variantName] else {
            throw .unknownVariant(feature: name, variant: variantName, known: Array(variants.keys))
        }
        guard let source = chosen.template else { throw .missingTemplate(feature: name, variant: variantName) }
        let prompt: String
        do {
            prompt = try PromptTemplate(source).render(input)
        } catch {
            throw .template(feature: name, variant: variantName, detail: error.description)
        }
        let request = GenerationRequest(
            instructions: instructions(for: chosen),
            messages: [.user(prompt)],
            options: options?.generationOptions ?? GenerationOptions(),
            responseSchema: outputSchema?.source,
            responseSchemaName: name,
            deadline: deadline.map { now + $0 })
        return RenderedPrompt(request: request, variant: variantName, prompt: prompt)
    }
}

extension FeatureConfig {
    /// The request for a conversation: variant `variant`'s instructions, the feature's options and output schema,
    /// and `messages` as they are. No template is rendered, because the turns are the input; `prompt` is the last
    /// user turn's text. The deadline, when the feature sets one, starts at `now`.
    package func render(
        name: String, variant: String? = nil, messages: [ChatMessage], now: ContinuousClock.Instant = .now
    ) throws(PromptRenderError) -> RenderedPrompt {
        let variantName = variant ?? defaultVariant
        guard let chosen = variants[variantName] else {
            throw .unknownVariant(feature: name, variant: variantName, known: Array(variants.keys))
        }
        let request = GenerationRequest(
            instructions: instructions(for: chosen),
            messages: messages,
            options: options?.generationOptions ?? GenerationOptions(),
            responseSchema: outputSchema?.source,
            responseSchemaName: name,
            deadline: deadline.map { now + $0 })
        let prompt = messages.last { $0.role == .user }?.content ?? ""
        return RenderedPrompt(request: request, variant: variantName, prompt: prompt)
    }
}
