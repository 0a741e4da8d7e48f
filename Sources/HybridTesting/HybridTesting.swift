// The public test kit: everything in HybridTestSupport (loopback HTTP servers, scripted models and transports,
// `BlockingWork`, the transport conformance suite) plus the provider conformance suite, for third-party adapters and
// apps. The project's own launchers (PostgreSQL, Chromium, the built CLI) are in HybridProjectTestSupport, not here.
@_exported public import HybridTestSupport
