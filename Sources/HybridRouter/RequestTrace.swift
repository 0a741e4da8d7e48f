import HybridConfig

/// What the app asked for in one `generate` or `stream` call, kept so the request's event can be built even when
/// it failed before a plan existed.
struct RequestTrace: Sendable {
    var feature: String
    var input: [String: String]
    var privacy: PrivacyClass?
    var deadline: Duration?
    var truncateInputTo: Int?
}
