public import Foundation

/// Finds an executable SwiftPM built beside the test bundle (a test target that depends on an executable target
/// gets it built first), falling back to `.build/debug/NAME` under the package root.
public enum BuiltExecutable {
    /// The executable `name`, or an error naming where it looked and how to build it.
    public static func find(_ name: String, packageRoot: URL? = nil) throws -> URL {
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent(name))
            directory = directory.deletingLastPathComponent()
        }
        let root = packageRoot ?? URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/\(name)"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) && !$0.hasDirectoryPath }) else {
            throw NotBuilt(description: "\(name) not found in \(candidates.map(\.path)); run `swift build --build-tests`")
        }
        return found
    }

    /// The error when the executable was not built.
    public struct NotBuilt: Error, CustomStringConvertible {
        /// Where it looked and what to run.
        public var description: String
    }
}
