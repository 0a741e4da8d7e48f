package import HybridTransport

/// The error a throwing async body raised, as a `TransportError` (nil if it returned or threw another type): what the
/// curl and URLSession transport tests assert on.
package func transportError(_ body: () async throws -> Void) async -> TransportError? {
    do {
        try await body()
        return nil
    } catch let error as TransportError {
        return error
    } catch {
        return nil
    }
}
