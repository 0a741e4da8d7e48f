// The public test kit: what HybridTestSupport makes public (scripted models, transports and server responses, the
// transport conformance suite; its loopback servers are package-only) plus the provider conformance suite, for adapters and
// apps. The project's own launchers (PostgreSQL, Chromium, the built CLI) are in HybridProjectTestSupport, not here.
@_exported public import HybridTestSupport
