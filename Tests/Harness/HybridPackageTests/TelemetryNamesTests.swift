@testable import HybridRouter
import Testing

#if canImport(OTelSemanticConventions)
import OTelSemanticConventions

/// The router spells the GenAI conventions' names itself (`GenAINames`), so no app compiles
/// swift-otel-semantic-conventions; here, in the harness, every attribute name is held equal to that package's constant
/// (it has no constants for metric names or attribute values, so those are checked against the conventions' text in
/// review only).
@Suite("Telemetry: the router's GenAI names are the conventions'")
struct TelemetryNamesTests {
    @Test("every gen_ai.* and error.type attribute name matches swift-otel-semantic-conventions")
    func attributeNames() {
        let pairs = Self.pairs(ConventionNames.self)
        #expect(pairs.count == 16)
        for pair in pairs { #expect(pair.ours == pair.theirs) }
    }

    /// Read through the protocol, so the deprecated constants are named in one deprecated declaration only.
    static func pairs<Names: NamePairs>(_ names: Names.Type) -> [(ours: String, theirs: String)] { Names.pairs }
}

/// The pairs to compare, behind a protocol: swift-otel-semantic-conventions 1.44 marks its GenAI constants deprecated
/// (they moved to the OpenTelemetry GenAI conventions' own repository; the names are unchanged), and reading them
/// from a deprecated witness keeps the build free of warnings.
protocol NamePairs {
    static var pairs: [(ours: String, theirs: String)] { get }
}

enum ConventionNames: NamePairs {
    @available(*, deprecated, message: "reads swift-otel-semantic-conventions' deprecated GenAI constants on purpose")
    static var pairs: [(ours: String, theirs: String)] {
        [
            (GenAINames.operationName, OTelAttribute.genAi.operation.name),
            (GenAINames.providerName, OTelAttribute.genAi.provider.name),
            (GenAINames.requestModel, OTelAttribute.genAi.request.model),
            (GenAINames.requestMaxTokens, OTelAttribute.genAi.request.maxTokens),
            (GenAINames.requestTemperature, OTelAttribute.genAi.request.temperature),
            (GenAINames.responseModel, OTelAttribute.genAi.response.model),
            (GenAINames.responseFinishReasons, OTelAttribute.genAi.response.finishReasons),
            (GenAINames.usageInputTokens, OTelAttribute.genAi.usage.inputTokens),
            (GenAINames.usageOutputTokens, OTelAttribute.genAi.usage.outputTokens),
            (GenAINames.tokenType, OTelAttribute.genAi.token.`type`),
            (GenAINames.inputMessages, OTelAttribute.genAi.input.messages),
            (GenAINames.outputMessages, OTelAttribute.genAi.output.messages),
            (GenAINames.systemInstructions, OTelAttribute.genAi.systemInstructions),
            (GenAINames.errorType, OTelAttribute.error.`type`),
            (GenAINames.toolName, OTelAttribute.genAi.tool.name),
            (GenAINames.toolCallID, OTelAttribute.genAi.tool.call.id),
        ]
    }
}
#endif
