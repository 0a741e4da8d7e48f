public import HybridTransport
public import Foundation

/// One conformance suite every `HTTPTransport` must pass, run against `LoopbackHTTPServer`.
///
/// Providers rely on these behaviours whatever transport an app picks: chunks as they arrive, cancellation that
/// closes the connection, the three timeouts, error statuses returned rather than thrown, `maxBodyBytes`, connection
/// reuse, many requests at once and truncated bodies reported as failures. A third-party transport proves itself
/// with a few lines of Swift Testing:
///
/// ```swift
/// @Test(arguments: TransportConformanceCheck.allCases)
/// func conforms(_ check: TransportConformanceCheck) async throws {
///     try await TransportConformance { MyTransport() }.run(check)
/// }
/// ```
///
/// Each check makes a fresh transport and server, so connection counts belong to that check alone. A failed
/// expectation throws `TransportConformanceFailure`; the checks do not depend on a test framework.
public struct TransportConformance: Sendable {
    private let makeTransport: @Sendable () -> any HTTPTransport

    /// A suite over transports made by `makeTransport` (called once per check).
    public init(_ makeTransport: @escaping @Sendable () -> any HTTPTransport) {
        self.makeTransport = makeTransport
    }

    /// Runs one check; throws `TransportConformanceFailure` (or the transport's unexpected error) if it fails.
    public func run(_ check: TransportConformanceCheck) async throws {
        let transport = makeTransport()
        switch check {
        case .headBeforeBody: try await headBeforeBody(transport)
        case .chunksInOrderAsSent: try await chunksInOrderAsSent(transport)
        case .slowStreamTiming: try await slowStreamTiming(transport)
        case .requestRoundTrip: try await requestRoundTrip(transport)
        case .errorStatusBodies: try await errorStatusBodies(transport)
        case .cancelBeforeHead: try await cancelBeforeHead(transport)
        case .cancelMidBody: try await cancelMidBody(transport)
        case .cancelBetweenChunks: try await cancelBetweenChunks(transport)
        case .droppedBodyCancels: try await droppedBodyCancels(transport)
        case .connectTimeout: try await connectTimeout(transport)
        case .firstByteTimeout: try await firstByteTimeout(transport)
        case .totalTimeout: try await totalTimeout(transport)
        case .bodyOverLimit: try await bodyOverLimit(transport)
        case .keepAliveReuse: try await keepAliveReuse(transport)
        case .concurrentRequests: try await concurrentRequests(transport)
        case .serverClosesMidBody: try await serverClosesMidBody(transport)
        case .refusedConnectionRedacted: try await refusedConnectionRedacted(transport)
        case .nonHTTPURLRejected: try await nonHTTPURLRejected(transport)
        }
    }

    // MARK: Helpers shared by the checks

    /// A GET with generous limits unless the check or test says otherwise (the transport tests use it too).
    public static func request(
        _ url: String,
        method: String = "GET",
        headers: HTTPHeaders = HTTPHeaders(),
        body: Data? = nil,
        timeouts: HTTPTimeouts = HTTPTimeouts(connect: .seconds(10), firstByte: nil, total: .seconds(60)),
        maxBodyBytes: Int? = nil
    ) -> HTTPRequest {
        HTTPRequest(method: method, url: url, headers: headers, body: body, timeouts: timeouts, maxBodyBytes: maxBodyBytes)
    }

    /// The `TransportError` `body` threw; nil if it returned. Any other error is a conformance failure.
    static func transportError(
        _ check: TransportConformanceCheck, _ body: () async throws -> Void
    ) async throws -> TransportError? {
        do {
            try await body()
            return nil
        } catch let error as TransportError {
            return error
        } catch let error as TransportConformanceFailure {
            throw error
        } catch {
            throw TransportConformanceFailure(check, "threw \(type(of: error)) instead of TransportError: \(error)")
        }
    }

    /// Throws a failure saying `message` unless `condition` holds.
    static func expect(
        _ condition: Bool, _ check: TransportConformanceCheck, _ message: @autoclosure () -> String
    ) throws(TransportConformanceFailure) {
        if !condition { throw TransportConformanceFailure(check, message()) }
    }

    /// Reads the whole body.
    static func collect(_ body: HTTPBody) async throws -> Data {
        var data = Data()
        for try await chunk in body { data.append(chunk) }
        return data
    }
}

/// A conformance expectation that did not hold: which check, and what was seen instead.
public struct TransportConformanceFailure: Error, Sendable, CustomStringConvertible {
    /// The check that failed.
    public let check: TransportConformanceCheck
    /// What was expected and what happened.
    public let message: String

    /// A failure of `check`.
    public init(_ check: TransportConformanceCheck, _ message: String) {
        self.check = check
        self.message = message
    }

    public var description: String { "\(check.rawValue): \(message)" }
}
