import Foundation
import Testing

/// `Sources/` and `Tests/` are grouped by who links what (#65): the folder a target sits in is its half, and these
/// checks fail when the folder and the dependencies disagree, so `ls Sources` keeps telling the truth.
///
/// - `Sources/App`: the modules `import HybridAI` brings. They depend on App and System targets only, and every target
///   an app product links sits in App or System.
/// - `Sources/System`: C shims over system libraries (libcurl, libcrypto, libpq, zlib).
/// - `Sources/Harness`: the CLI and its modules (eval, store, report, recommend, collector, viewer).
/// - `Sources/Testing`: test kits (the public `HybridTesting`, the project's own launchers, the virtual clock).
/// - `Sources/Tools`: stress and measuring executables the tests and benchmarks run.
/// - `Tests/App`: the app half's tests. They build on App targets, the example app and the app test kits only, so
///   `make test-app` builds and runs them where none of the harness's system packages is installed.
/// - `Tests/Harness`: everything else, including app modules tested against curl, SQLite, the real local model or the
///   harness's bundled config (HybridConfigTests' fixtures).
@Suite("Package layout: folders by half")
struct PackageHalvesTests {
    enum Half: String, CaseIterable { case app = "App", system = "System", harness = "Harness", testing = "Testing", tools = "Tools" }

    /// Test kits an app-half test may use: their closures reach no harness target, system library or package.
    /// (What the nested `Tests/App` package can reach: the `HybridTesting` product and the modules it brings.)
    static let appTestKits: Set = ["HybridTestSupport", "HybridTesting", "HybridVirtualTime"]
    /// The example app's feature code (Examples/), written on the app products only.
    static let exampleApp: Set = ["AppIntegrationFeatures"]

    /// The half a target's folder says, or nil for the example app (Examples/).
    static func half(of target: Manifest.Target) -> Half? {
        let path = target.path ?? ""
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count == 3, parts[0] == "Sources" || parts[0] == "Tests" else { return nil }
        return Half(rawValue: parts[1])
    }

    @Test("every target sits in a half's folder named after it: Sources/<half>/<name> or Tests/<App|Harness>/<name>")
    func everyTargetHasAHalf() async throws {
        let manifest = try await PackageLayoutTests.manifest.value
        for target in manifest.targets.values.sorted(by: { $0.name < $1.name }) where !(target.path ?? "").hasPrefix("Examples/") {
            let path = try #require(target.path, "\(target.name) has no path: in Package.swift; give it its half's folder")
            let half = Self.half(of: target)
            #expect(half != nil && path.hasSuffix("/\(target.name)"), "\(target.name) sits in \(path), not in Sources/<half>/\(target.name)")
            if target.type == "test" {
                #expect(half == .app || half == .harness, "test target \(target.name) sits in \(path): Tests/App or Tests/Harness")
            }
        }
    }

    @Test("what an app product links sits in Sources/App or Sources/System, and App targets depend on nothing else")
    func appHalfIsClosed() async throws {
        let manifest = try await PackageLayoutTests.manifest.value
        for product in PackageLayoutTests.appProducts {
            for name in try manifest.closure(ofProductOrTarget: product).targets.sorted() {
                let half = Self.half(of: try #require(manifest.targets[name]))
                #expect(half == .app || half == .system, "\(product) links \(name), which sits in \(half?.rawValue ?? "no half"), not App or System")
            }
        }
        for target in manifest.targets.values where target.type != "test" && Self.half(of: target) == .app {
            for dependency in target.targetDependencies {
                let half = manifest.targets[dependency].flatMap(Self.half(of:))
                #expect(half == .app || half == .system, "\(target.name) (App) depends on \(dependency) (\(half?.rawValue ?? "?"))")
            }
        }
    }

    @Test("every package but the app's (swift-log, tracing, metrics) is used under the Harness trait only, so an app with traits: [] never fetches it")
    func harnessPackagesAreTraitGuarded() async throws {
        let manifest = try await PackageLayoutTests.manifest.value
        for target in manifest.targets.values.sorted(by: { $0.name < $1.name }) {
            let unguarded = Set(target.unguardedPackages).subtracting(PackageLayoutTests.allowedPackages)
            #expect(unguarded.isEmpty, "\(target.name) depends on \(unguarded.sorted()) without `condition: harness` in Package.swift")
        }
    }

    @Test("the app half's tests build on the app half and its test kits alone (what make test-app builds)")
    func appTestsStayInTheAppHalf() async throws {
        let manifest = try await PackageLayoutTests.manifest.value
        let allowed = Self.appTestKits.union(Self.exampleApp)
        let appTests = manifest.targets.values.filter { $0.type == "test" && Self.half(of: $0) == .app }
        #expect(!appTests.isEmpty)
        for test in appTests.sorted(by: { $0.name < $1.name }) {
            for name in try manifest.closure(ofProductOrTarget: test.name).targets.sorted() where name != test.name {
                let target = try #require(manifest.targets[name])
                let half = Self.half(of: target)
                #expect(half == .app || half == .system || allowed.contains(name), "\(test.name) (Tests/App) reaches \(name) (\(half?.rawValue ?? "?"))")
            }
            // Packages a trait guards (HybridOTLP's swift-otel, under `OTLP`) are not built with `traits: []`.
            let closure = try manifest.closure(ofProductOrTarget: test.name).targets
            let packages = Set(closure.flatMap { manifest.targets[$0]?.unguardedPackages ?? [] })
            #expect(packages.isSubset(of: PackageLayoutTests.allowedPackages), "\(test.name) (Tests/App) reaches packages \(packages.sorted())")
        }
    }

    @Test("the checks are not vacuous: the CLI is a harness target, curl a system one, the test kit a testing one")
    func halvesAreRead() async throws {
        let manifest = try await PackageLayoutTests.manifest.value
        #expect(manifest.targets["hybrid"].flatMap(Self.half(of:)) == .harness)
        #expect(manifest.targets["CCurl"].flatMap(Self.half(of:)) == .system)
        #expect(manifest.targets["HybridTesting"].flatMap(Self.half(of:)) == .testing)
        #expect(manifest.targets["HybridRouter"].flatMap(Self.half(of:)) == .app)
        #expect(manifest.targets["HybridStoreTests"].flatMap(Self.half(of:)) == .harness)
    }
}
