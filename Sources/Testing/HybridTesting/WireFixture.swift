public import Foundation
public import HybridTestSupport
public import HybridTransport
public import Testing

/// One recorded-shape HTTP answer: status, headers and the exact body bytes, in a provider's documented wire format.
///
/// Shared by scripted-transport tests and loopback tests, so both exercise byte-for-byte the same wire data.
public struct WireFixture: Sendable, CustomTestStringConvertible {
    /// Shown in test output.
    public var name: String
    /// HTTP status.
    public var status: Int
    /// Response headers, in order.
    public var headerFields: [HTTPHeaders.Field]
    /// The body exactly as the provider sends it.
    public var body: Data

    /// A fixture whose body is `body`'s UTF-8 bytes.
    public init(_ name: String, status: Int = 200, headers: [(String, String)] = [], body: String) {
        self.name = name
        self.status = status
        self.headerFields = headers.map { HTTPHeaders.Field(name: $0.0, value: $0.1) }
        self.body = Data(body.utf8)
    }

    /// The headers as `HTTPHeaders`.
    public var headers: HTTPHeaders { HTTPHeaders(headerFields.map { ($0.name, $0.value) }) }
    public var testDescription: String { name }

    /// Served byte for byte by `LoopbackHTTPServer`: the body written in `chunkSize` pieces (each its own HTTP chunk
    /// for event streams), with an optional pause between pieces.
    public func scripted(chunkSize: Int = 17, delay: Duration? = nil) -> ScriptedResponse {
        var parts: [ScriptedResponse.Part] = []
        for (index, piece) in ScriptedHTTPResponse.split(body, every: chunkSize).enumerated() {
            if index > 0, let delay { parts.append(.delay(delay)) }
            parts.append(.bytes(piece))
        }
        let isStream = headers["Content-Type"]?.hasPrefix("text/event-stream") ?? false
        return ScriptedResponse(
            status: status,
            headers: headerFields.map { (name: $0.name, value: $0.value) },
            parts: parts,
            framing: isStream ? .chunked : .contentLength
        )
    }
}
