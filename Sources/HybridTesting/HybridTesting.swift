// The public test kit: everything in HybridTestSupport (loopback HTTP servers, scripted models and transports,
// `BlockingWork`) plus the provider conformance suite, for third-party adapters and apps.
@_exported public import HybridTestSupport
