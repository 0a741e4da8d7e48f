public import Foundation

/// A fresh directory under the system temp directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    /// The directory; it exists until `remove()`.
    public let url: URL

    /// Creates `hybrid-tests-<UUID>` under the system temp directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Deletes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a temporary directory that is removed afterwards, whatever happens.
public func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try await body(directory)
}
