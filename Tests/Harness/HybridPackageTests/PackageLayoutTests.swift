import Foundation
import HybridTestSupport
import Testing

/// What an iPhone, iPad or Mac app links must build for iOS: only Foundation (FoundationNetworking on Linux),
/// the platform's crypto, swift-log and the swift-distributed-tracing / swift-metrics APIs; no libcurl, no SQLite, no child processes. Read from the manifest as SwiftPM resolves
/// it (`swift package dump-package`), so a new dependency edge that breaks this fails here, on Linux.
@Suite("Package layout: what an app links")
struct PackageLayoutTests {
    /// The products apps use; `HybridAI` is the umbrella. `AppIntegrationFeatures` is the example app's feature code.
    static let appProducts = ["HybridCore", "HybridTransport", "HybridConfig", "HybridProviders", "HybridRouter", "HybridEvents", "HybridAI"]
    static let appTargets = ["AppIntegrationFeatures"]
    /// Targets only the harness may link: libcurl, the llama-server child processes, SQLite, PostgreSQL, the virtual clock.
    static let harnessOnly: Set = [
        "CCurl", "HybridCurl", "HybridLocalModel", "HybridStore", "HybridRunner", "HybridReport", "HybridRecommend", "HybridPostgres",
        "HybridVirtualTime",
    ]
    /// The only packages an app product may pull in: logging, and the tracing and metrics APIs the router reports
    /// through (no-ops until the app bootstraps a backend; never swift-otel, NIO or an exporter).
    static let allowedPackages: Set = ["swift-log", "swift-distributed-tracing", "swift-metrics"]
    /// Words that mean a child process or libcurl in app code (whole words, except the `curl_` prefix).
    static let forbiddenWords = ["Process", "fork", "posix_spawn", "setpriv"]

    static let packageRoot = ProjectRoot.url
    /// Dumped once for the three tests (a `swift package` call takes seconds).
    static let manifest = Task { try await Manifest.load(packageRoot: packageRoot) }

    @Test("app products depend only on app targets, swift-log and the tracing and metrics APIs (crypto is the platform's)")
    func appProductClosures() async throws {
        let manifest = try await Self.manifest.value
        for name in Self.appProducts + Self.appTargets {
            let closure = try manifest.closure(ofProductOrTarget: name)
            #expect(closure.targets.isDisjoint(with: Self.harnessOnly), "\(name) reaches \(closure.targets.intersection(Self.harnessOnly).sorted())")
            #expect(closure.packages.isSubset(of: Self.allowedPackages), "\(name) reaches packages \(closure.packages.subtracting(Self.allowedPackages).sorted())")
        }
    }

    @Test("app product sources start no processes and call no libcurl")
    func appSourcesStayPortable() async throws {
        let manifest = try await Self.manifest.value
        var targets = Set<String>()
        for name in Self.appProducts + Self.appTargets { targets.formUnion(try manifest.closure(ofProductOrTarget: name).targets) }
        for target in targets.sorted() {
            let hits = try Self.forbiddenMentions(in: manifest.sourceDirectory(of: target))
            #expect(hits.isEmpty, "\(target) mentions \(hits)")
        }
    }

    @Test("the checks see the harness: the CLI reaches libcurl and SQLite, the local-model sources start processes")
    func checksAreNotVacuous() async throws {
        let manifest = try await Self.manifest.value
        let cli = try manifest.closure(ofProductOrTarget: "hybrid")
        #expect(cli.targets.isSuperset(of: ["CCurl", "HybridCurl", "HybridStore", "HybridLocalModel"]))
        #expect(cli.packages.contains("GRDB.swift"))
        #expect(try !Self.forbiddenMentions(in: manifest.sourceDirectory(of: "HybridLocalModel")).isEmpty)
        #expect(try !Self.forbiddenMentions(in: manifest.sourceDirectory(of: "HybridCurl")).isEmpty)
    }

    /// `file:line: word` for every forbidden word in the Swift files under `directory`.
    static func forbiddenMentions(in directory: URL) throws -> [String] {
        let patterns = try forbiddenWords.map { try Regex("\\b\($0)\\b") } + [try Regex("curl_")]
        var hits: [String] = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where patterns.contains(where: { line.contains($0) }) {
                hits.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return hits
    }
}

/// The parts of `swift package dump-package` this check needs.
struct Manifest {
    struct Target {
        var name: String
        var type: String
        var path: String?
        var targetDependencies: [String]
        var packageDependencies: [String]
        /// Packages this target depends on whatever traits are enabled (no `condition: harness`).
        var unguardedPackages: [String] = []
    }

    var root: URL
    var products: [String: [String]]
    var targets: [String: Target]

    /// Dumps the manifest with a scratch directory of its own, so it never waits for the lock `swift test` holds.
    static func load(packageRoot: URL) async throws -> Manifest {
        let json = try await BlockingWork.run { try dumpPackage(packageRoot) }
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        var products: [String: [String]] = [:]
        for product in object["products"] as? [[String: Any]] ?? [] {
            if let name = product["name"] as? String { products[name] = product["targets"] as? [String] ?? [] }
        }
        var targets: [String: Target] = [:]
        for target in object["targets"] as? [[String: Any]] ?? [] {
            guard let name = target["name"] as? String else { continue }
            var local: [String] = []
            var packages: [String] = []
            var unguarded: [String] = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                if let byName = (dependency["byName"] ?? dependency["target"]) as? [Any], let first = byName.first as? String {
                    local.append(first)
                } else if let product = dependency["product"] as? [Any], product.count > 1, let package = product[1] as? String {
                    packages.append(package)
                    let traits = (product.count > 3 ? product[3] as? [String: Any] : nil)?["traits"] as? [String] ?? []
                    if traits.isEmpty { unguarded.append(package) }
                }
            }
            targets[name] = Target(
                name: name, type: target["type"] as? String ?? "", path: target["path"] as? String,
                targetDependencies: local, packageDependencies: packages, unguardedPackages: unguarded)
        }
        return Manifest(root: packageRoot, products: products, targets: targets)
    }

    /// Every target `name` (a product or a target) builds, and every external package it links.
    func closure(ofProductOrTarget name: String) throws -> (targets: Set<String>, packages: Set<String>) {
        var pending = try #require(products[name] ?? (targets[name] != nil ? [name] : nil), "no product or target \(name)")
        var seen = Set<String>()
        var packages = Set<String>()
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            // A by-name dependency that is not a target of ours is a product of a package (e.g. "Crypto").
            guard let target = targets[next] else {
                packages.insert("product \(next)")
                continue
            }
            pending += target.targetDependencies
            packages.formUnion(target.packageDependencies)
        }
        return (seen.filter { targets[$0] != nil }, packages)
    }

    /// Where SwiftPM reads `target`'s sources.
    func sourceDirectory(of target: String) throws -> URL {
        let entry = try #require(targets[target], "no target \(target)")
        let relative = entry.path ?? (entry.type == "test" ? "Tests/\(target)" : "Sources/\(target)")
        return root.appendingPathComponent(relative)
    }

    private static func dumpPackage(_ root: URL) throws -> Data {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-dump-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = (environment["PATH"].map { $0 + ":" } ?? "") + "/opt/swift/usr/bin:/usr/bin"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ManifestError(status: process.terminationStatus) }
        return data
    }
}

/// `swift package dump-package` failed.
struct ManifestError: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "swift package dump-package exited with status \(status); run it in the package root to see why" }
}
