// A stub of the FoundationModels API surface the HybridAI adapters use, transcribed from Apple's documentation pages
// (developer.apple.com/documentation/foundationmodels, 26 and 27 SDKs), so scripts/typecheck-apple-adapters.sh can
// type-check the adapters on Linux. It proves the adapters match the signatures as transcribed here, not that Apple's
// SDK matches them. Bodies are placeholders; nothing here runs.
public protocol LanguageModel: Sendable {}

public final class SystemLanguageModel: LanguageModel, Sendable {
    public static let `default` = SystemLanguageModel()
    public init() {}
    /// developer.apple.com/documentation/foundationmodels/systemlanguagemodel/init(usecase:guardrails:)
    public convenience init(useCase: UseCase = .general, guardrails: Guardrails = .default) { self.init() }
    public struct UseCase: Equatable, Sendable {
        public static let general = UseCase()
        public static let contentTagging = UseCase()
    }
    public struct Guardrails: Sendable {
        public static let `default` = Guardrails()
        public static let permissiveContentTransformations = Guardrails()
    }
    public enum Availability: Sendable {
        case available
        case unavailable(UnavailableReason)
        public enum UnavailableReason: Sendable { case deviceNotEligible, appleIntelligenceNotEnabled, modelNotReady }
    }
    public var availability: Availability { .available }
    public var contextSize: Int { 4096 }
    public enum Error: Swift.Error, Sendable {
        case assetsUnavailable(AssetsUnavailable)
        public struct AssetsUnavailable: Sendable { public var debugDescription: String }
    }
}

public final class PrivateCloudComputeLanguageModel: LanguageModel, Sendable {
    public init() {}
    public struct QuotaUsage: Sendable { public var isLimitReached: Bool }
    public var quotaUsage: QuotaUsage { QuotaUsage(isLimitReached: false) }
    public var contextSize: Int { get async throws { 0 } }
    public enum Error: Swift.Error, Sendable {
        case quotaLimitReached(QuotaLimitReached)
        case networkFailure(NetworkFailure)
        case serviceUnavailable(ServiceUnavailable)
        public struct QuotaLimitReached: Sendable {}
        public struct NetworkFailure: Sendable {}
        public struct ServiceUnavailable: Sendable { public var debugDescription: String }
    }
}

public enum LanguageModelError: Error, Sendable {
    case contextSizeExceeded(ContextSizeExceeded)
    case rateLimited(RateLimited)
    case refusal(Refusal)
    case unsupportedLanguageOrLocale(UnsupportedLanguageOrLocale)
    public struct ContextSizeExceeded: Sendable { public var contextSize: Int }
    public struct RateLimited: Sendable {}
    public struct Refusal: Sendable {}
    public struct UnsupportedLanguageOrLocale: Sendable { public var languageCode: Locale.LanguageCode }
}

import Foundation

public struct Prompt: Sendable {}

public struct GeneratedContent: Sendable { public var jsonString: String }

public struct GenerationOptions: Sendable {
    public struct SamplingMode: Sendable {
        public static var greedy: SamplingMode { SamplingMode() }
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode { SamplingMode() }
    }
    public init(sampling: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {}
}

public struct DynamicGenerationSchema: Sendable {
    public struct Property: Sendable {
        public init(name: String, description: String? = nil, schema: DynamicGenerationSchema, isOptional: Bool = false) {}
    }
    public init(name: String, description: String? = nil, properties: [Property]) {}
    public init(arrayOf itemSchema: DynamicGenerationSchema, minimumElements: Int? = nil, maximumElements: Int? = nil) {}
    public init<Value>(type: Value.Type, guides: [Int] = []) {}
    public init(name: String, description: String? = nil, anyOf choices: [String]) {}
}

public struct GenerationSchema: Sendable {
    public init(root: DynamicGenerationSchema, dependencies: [DynamicGenerationSchema]) throws {}
}

public final class LanguageModelSession: @unchecked Sendable {
    public init(model: some LanguageModel = SystemLanguageModel.default, instructions: String? = nil) {}
    public func prewarm(promptPrefix: Prompt? = nil) {}
    public struct Response<Content: Sendable>: Sendable { public let content: Content }
    public struct Snapshot: Sendable { public let content: String }
    public struct ResponseStream: AsyncSequence, Sendable {
        public typealias Element = Snapshot
        public struct AsyncIterator: AsyncIteratorProtocol { public mutating func next() async throws -> Snapshot? { nil } }
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }
    public func respond(to prompt: String, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        Response(content: "")
    }
    public func respond(to prompt: String, schema: GenerationSchema, includeSchemaInPrompt: Bool = true, options: GenerationOptions = GenerationOptions()) async throws -> Response<GeneratedContent> {
        Response(content: GeneratedContent(jsonString: "{}"))
    }
    public func streamResponse(to prompt: String, options: GenerationOptions = GenerationOptions()) -> ResponseStream { ResponseStream() }

    public enum GenerationError: Swift.Error, Sendable {
        public struct Context: Sendable { public var debugDescription: String }
        public struct Refusal: Sendable {}
        case exceededContextWindowSize(Context)
        case assetsUnavailable(Context)
        case guardrailViolation(Context)
        case unsupportedGuide(Context)
        case unsupportedLanguageOrLocale(Context)
        case decodingFailure(Context)
        case rateLimited(Context)
        case concurrentRequests(Context)
        case refusal(Refusal, Context)
    }
    public enum Error: Swift.Error, Sendable { case concurrentRequests }
}

// Tools and transcripts (developer.apple.com/documentation/foundationmodels/tool, .../transcript,
// .../languagemodelsession/toolcallerror).
public protocol ConvertibleFromGeneratedContent {}
public protocol PromptRepresentable {}
extension String: PromptRepresentable {}
extension GeneratedContent: ConvertibleFromGeneratedContent {
    public init(json: String) throws { self.init(jsonString: json) }
}

public protocol Tool<Arguments, Output>: Sendable {
    associatedtype Arguments: ConvertibleFromGeneratedContent
    associatedtype Output: PromptRepresentable
    var name: String { get }
    var description: String { get }
    var parameters: GenerationSchema { get }
    func call(arguments: Arguments) async throws -> Output
}

public struct Transcript: Sendable {
    public init(entries: some Sequence<Entry> = []) {}
    public enum Entry: Sendable {
        case instructions(Instructions)
        case prompt(Prompt)
        case toolCalls(ToolCalls)
        case toolOutput(ToolOutput)
        case response(Response)
    }
    public enum Segment: Sendable { case text(TextSegment) }
    public struct TextSegment: Sendable { public init(id: String = "", content: String) {} }
    public struct ToolDefinition: Sendable { public init(name: String, description: String, parameters: GenerationSchema) {} }
    public struct Instructions: Sendable { public init(id: String = "", segments: [Segment], toolDefinitions: [ToolDefinition]) {} }
    public struct Prompt: Sendable { public init(id: String = "", segments: [Segment], options: GenerationOptions = GenerationOptions()) {} }
    public struct ToolCall: Sendable { public init(id: String, toolName: String, arguments: GeneratedContent) {} }
    public struct ToolCalls: Sendable { public init<S: Sequence>(id: String = "", _ calls: S) where S.Element == ToolCall {} }
    public struct ToolOutput: Sendable { public init(id: String, toolName: String, segments: [Segment]) {} }
    public struct Response: Sendable { public init(id: String = "", assetIDs: [String], segments: [Segment]) {} }
}

extension LanguageModelSession {
    public convenience init(model: some LanguageModel = SystemLanguageModel.default, tools: [any Tool] = [], transcript: Transcript) {
        self.init(model: model, instructions: nil)
    }
    public struct ToolCallError: Swift.Error, Sendable {
        public var tool: any Tool
        public var underlyingError: any Swift.Error
    }
}
