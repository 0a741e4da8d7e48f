// `import HybridAI` is all an app writes: the router, the config loader, the providers, the events, the transport
// and the core types (as Hummingbird's Exports.swift does for its modules). The split products stay for apps that
// want less.
@_exported public import HybridConfig
@_exported public import HybridCore
@_exported public import HybridEvents
@_exported public import HybridProviders
@_exported public import HybridRouter
@_exported public import HybridTransport
