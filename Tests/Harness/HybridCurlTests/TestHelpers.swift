import Foundation
import HybridTestSupport
import HybridTransport

/// The error a throwing async body raised, as a TransportError (nil if none or another type).
func transportError(_ body: () async throws -> Void) async -> TransportError? {
    do {
        try await body()
        return nil
    } catch let error as TransportError {
        return error
    } catch {
        return nil
    }
}

extension String {
    var utf8Data: Data { Data(utf8) }
}
