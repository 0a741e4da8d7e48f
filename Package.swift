// swift-tools-version: 6.1
// Layers, in data-flow order: config → providers → router → runner → store → report → recommend.
// HybridCore holds the provider-independent types an app embeds; HybridTransport is HTTP over libcurl.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "HybridAI",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "HybridCore", targets: ["HybridCore"]),
        .library(name: "HybridTransport", targets: ["HybridTransport"]),
        .library(name: "HybridConfig", targets: ["HybridConfig"]),
        .library(name: "HybridProviders", targets: ["HybridProviders"]),
        .library(name: "HybridStore", targets: ["HybridStore"]),
        .library(name: "HybridRouter", targets: ["HybridRouter"]),
        .executable(name: "hybrid", targets: ["hybrid"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .target(name: "HybridCore", swiftSettings: strict),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .target(
            name: "HybridTransport",
            dependencies: ["CCurl", "HybridCore"],
            swiftSettings: strict
        ),
        .target(
            name: "HybridProviders",
            dependencies: ["HybridCore", "HybridTransport", "HybridConfig", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "HybridConfig",
            dependencies: ["HybridCore", "HybridTransport", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .target(
            name: "HybridStore",
            dependencies: ["HybridCore", "HybridConfig", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        .target(
            name: "HybridRunner",
            dependencies: ["HybridCore", "HybridConfig", "HybridStore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .target(name: "HybridReport", dependencies: ["HybridCore", "HybridStore"], swiftSettings: strict),
        .target(
            name: "HybridRecommend",
            dependencies: ["HybridCore", "HybridConfig", "HybridStore", "HybridReport", "HybridTransport", "HybridRouter"],
            swiftSettings: strict
        ),
        .target(
            name: "HybridRouter",
            dependencies: ["HybridCore", "HybridConfig", "HybridProviders", "HybridStore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "hybrid-example-app",
            dependencies: ["HybridRouter", "HybridConfig", "HybridProviders", "HybridCore"],
            path: "Examples/AppIntegration",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "hybrid",
            dependencies: [
                "HybridCore", "HybridTransport", "HybridProviders", "HybridStore", "HybridRunner", "HybridConfig",
                "HybridReport", "HybridRecommend",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "hybrid-bench",
            dependencies: [
                "HybridCore", "HybridTransport", "HybridTestSupport", "HybridConfig", "HybridStore", "HybridProviders",
                "HybridRunner", "HybridRouter", "HybridReport",
            ],
            path: "Benchmarks/hybrid-bench",
            swiftSettings: strict
        ),
        // Loopback HTTP servers and fixtures shared by the tests and the benchmarks; never shipped to apps.
        .target(name: "HybridTestSupport", dependencies: ["HybridCore", "HybridTransport"], swiftSettings: strict),
        .testTarget(name: "HybridCoreTests", dependencies: ["HybridCore"], swiftSettings: strict),
        .testTarget(
            name: "HybridTransportTests",
            dependencies: ["HybridTransport", "HybridTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridProvidersTests",
            dependencies: [
                "HybridProviders", "HybridTransport", "HybridTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Writes results from a separate process so the store tests can SIGKILL a writer mid-run.
        .executableTarget(name: "hybrid-store-stress", dependencies: ["HybridStore"], swiftSettings: strict),
        .testTarget(
            name: "HybridStoreTests",
            dependencies: ["HybridStore", "hybrid-store-stress", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridConfigTests",
            dependencies: ["HybridConfig", "HybridTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridReportTests",
            dependencies: ["HybridReport", "HybridStore", "HybridCore", "HybridTestSupport", "hybrid"],
            exclude: ["Golden"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridRecommendTests",
            dependencies: [
                "HybridRecommend", "HybridTestSupport", "HybridStore", "HybridConfig", "HybridCore", "HybridTransport",
                "HybridRunner", "HybridProviders", "HybridRouter",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridRouterTests",
            dependencies: ["HybridRouter", "HybridTestSupport", "HybridStore", "HybridConfig"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridRunnerTests",
            dependencies: ["HybridRunner", "HybridCore", "HybridTestSupport"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
