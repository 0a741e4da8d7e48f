public import Foundation

/// Finds an executable target SwiftPM built beside the test bundle, for tests that run it as a child process
/// (and kill it). The test target must depend on the executable target so `swift build --build-tests` builds it.
public enum BuiltExecutable {
    /// The executable `name`: `$override` when that environment variable is set, else next to the running test
    /// binary or up to three folders above it, else `<packageRoot>/.build/debug/name`.
    public static func find(_ name: String, override: String, packageRoot: URL) throws -> URL {
        if let path = ProcessInfo.processInfo.environment[override] { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent(name))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotFound(description: "\(name) not found (looked in \(candidates.map(\.path))); build with `swift build --build-tests` or set \(override)")
        }
        return found
    }

    /// No candidate path held the executable.
    public struct NotFound: Error, CustomStringConvertible {
        /// Where it looked and how to fix it.
        public var description: String
    }
}
