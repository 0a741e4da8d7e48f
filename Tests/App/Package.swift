// swift-tools-version: 6.1
// `make test-app`: the app half's tests (the folders beside this file) built and run on their own, against the app
// products of the package two folders up, linked as an app links them: with `traits: []`, as the README tells apps,
// so SwiftPM resolves, fetches and builds the app modules, swift-log, swift-distributed-tracing and swift-metrics alone: nothing of GRDB, Hummingbird, NIO or the
// argument parser, no libcurl, SQLite or libpq, so it runs where none of the harness's system packages is installed. The root package builds the same folders as its own test targets for `make test`.
// Tests reach the app modules' `package` declarations through `@testable import`, which works from here too.
import Foundation
import PackageDescription

/// The root package's identity: its folder's name, lowercased (what SwiftPM calls a path dependency).
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let hybridAI = root.lastPathComponent.lowercased()

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

func app(_ product: String) -> Target.Dependency { .product(name: product, package: hybridAI) }

let package = Package(
    name: "HybridAIAppTests",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(path: "../..", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // The router's telemetry tests record into InMemoryTracer and TestMetrics (packages the app products already bring).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        // The example app's feature code (a link to Examples/AppIntegration/Features), on the app products only.
        .target(
            name: "AppIntegrationFeatures",
            dependencies: [app("HybridRouter"), app("HybridConfig"), app("HybridProviders"), app("HybridCore"), app("HybridTransport")],
            path: "AppIntegrationFeatures", swiftSettings: strict),
        .testTarget(name: "HybridCoreTests", dependencies: [app("HybridCore"), app("HybridValidation")], path: "HybridCoreTests", swiftSettings: strict),
        .testTarget(
            name: "HybridTransportTests", dependencies: [app("HybridTransport"), app("HybridTesting")], path: "HybridTransportTests",
            swiftSettings: strict),
        .testTarget(
            name: "HybridProvidersTests",
            dependencies: [
                app("HybridProviders"), app("HybridTransport"), app("HybridTesting"), app("HybridConfig"), app("HybridCore"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "HybridProvidersTests", swiftSettings: strict),
        .testTarget(
            name: "HybridRouterTests",
            dependencies: [
                app("HybridRouter"), app("HybridTesting"), app("HybridConfig"), app("HybridProviders"), app("HybridEvents"), app("HybridCore"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "HybridRouterTests", swiftSettings: strict),
        .testTarget(
            name: "HybridEventsTests", dependencies: [app("HybridEvents"), app("HybridCore"), app("HybridTransport"), app("HybridTesting")],
            path: "HybridEventsTests", swiftSettings: strict),
        .testTarget(
            name: "HybridAppTests", dependencies: [app("HybridAI"), app("HybridTesting"), "AppIntegrationFeatures"], path: "HybridAppTests",
            swiftSettings: strict),
        .testTarget(name: "HybridOTLPTests", dependencies: [app("HybridOTLP")], path: "HybridOTLPTests", swiftSettings: strict),
        .testTarget(
            name: "HybridDocSnippetTests",
            dependencies: [app("HybridAI"), app("HybridTesting"), app("HybridOTLP"), .product(name: "Tracing", package: "swift-distributed-tracing")],
            path: "HybridDocSnippetTests",
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
