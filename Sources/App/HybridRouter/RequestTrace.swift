import HybridConfig
import HybridCore

/// What the app asked for in one `generate` or `stream` call, kept so the request's event can be built even when
/// it failed before a plan existed.
struct RequestTrace: Sendable {
    var feature: String
    var input: [String: String]
    var privacy: PrivacyClass?
    var deadline: Duration?
    var truncateInputTo: Int?
    /// Labels the app passed with this call, which input rules may test (`label.NAME`).
    var labels: [String: String] = [:]
    /// The Swift type the caller decodes the answer into (`generating:`); nil for text.
    var output: TypedOutput? = nil
}

/// The schema derived from the caller's type and the check that the answer decodes into it.
struct TypedOutput: Sendable {
    var schema: JSONSchema
    var decodes: DecodeCheck
}
