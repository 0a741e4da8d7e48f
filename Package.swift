// swift-tools-version: 6.1
// Layers, in data-flow order: config → providers → router → runner → store → report → recommend.
// App products (HybridCore, HybridTransport, HybridConfig, HybridProviders, HybridRouter; umbrella HybridAI) need only
// Foundation, swift-log, the swift-distributed-tracing and swift-metrics APIs (no-ops until the app bootstraps a
// backend) and the platform's crypto (CryptoKit; libcrypto on Linux). The harness adds HybridCurl
// (libcurl), HybridLocalModel (llama-server child processes) and HybridStore (SQLite); `PackageLayoutTests` fails if
// an app product reaches any of them.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The harness's packages (SQLite, the HTTP servers, the CLI parser) are used only under the `Harness` trait, on by
// default: an app that depends on HybridAI with `traits: []` resolves and fetches swift-log, swift-distributed-tracing
// and swift-metrics alone (SE-0450 prunes a dependency every use of which is trait-guarded). One trait per condition: SwiftPM 6.2 reads several as all-of.
let harness: TargetDependencyCondition? = .when(traits: ["Harness"])
let otlp: TargetDependencyCondition? = .when(traits: ["OTLP"])

let package = Package(
    name: "HybridAI",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "HybridCore", targets: ["HybridCore"]),
        .library(name: "HybridValidation", targets: ["HybridValidation"]),
        .library(name: "HybridTransport", targets: ["HybridTransport"]),
        .library(name: "HybridConfig", targets: ["HybridConfig"]),
        .library(name: "HybridProviders", targets: ["HybridProviders"]),
        .library(name: "HybridStore", targets: ["HybridStore"]),
        .library(name: "HybridRouter", targets: ["HybridRouter"]),
        .library(name: "HybridEvents", targets: ["HybridEvents"]),
        // One module that re-exports the six app modules: `import HybridAI`.
        .library(name: "HybridAI", targets: ["HybridAI"]),
        // OTLP/HTTP export of spans and metrics through swift-otel: an app turns on the `OTLP` trait to have it.
        .library(name: "HybridOTLP", targets: ["HybridOTLP"]),
        .library(name: "HybridCurl", targets: ["HybridCurl"]),
        .library(name: "HybridLocalModel", targets: ["HybridLocalModel"]),
        .library(name: "HybridTesting", targets: ["HybridTesting"]),
        .executable(name: "hybrid", targets: ["hybrid"]),
        // `hybrid` with `--otlp-endpoint` working (HybridOTLP): the same commands; built by `make otlp` and the tests,
        // never by `make run`.
        .executable(name: "hybrid-otlp", targets: ["hybrid-otlp"]),
    ],
    traits: [
        .trait(name: "Harness", description: "The evaluation harness: the hybrid CLI, its SQLite store and servers. Apps leave it off."),
        .trait(
            name: "OTLP",
            description: "HybridOTLP: spans and metrics sent over OTLP/HTTP (protobuf) through swift-otel, its HTTP client and "
                + "swift-protobuf. An app turns it on (traits: [\"OTLP\"]); this package's own builds have it, and build "
                + "swift-otel only for what links HybridOTLP (hybrid-otlp, hybrid-bench, the tests), never for `hybrid`."),
        // Both on in this package's own builds, so the CLI, its tests and `hybrid-otlp` share one build folder: a trait
        // switched on for one product only would recompile every module (SwiftPM defines a package's traits for all).
        .default(enabledTraits: ["Harness", "OTLP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // The router's spans and metrics (#69): the API packages only; an app picks the backend (swift-otel, …).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The GenAI attribute names the router spells itself, compared with the conventions' constants by a harness
        // test. Its GenAI names sit behind the `Experimental` trait, which wants the minor version pinned.
        .package(url: "https://github.com/swift-otel/swift-otel-semantic-conventions", .upToNextMinor(from: "1.44.0"), traits: ["Experimental"]),
        // HybridOTLP's exporter, under the `OTLP` trait only; its OTLP/HTTP trait alone (no gRPC).
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.4.1"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The local results viewer (`hybrid view`) only; no library product an app embeds depends on these.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    ],
    targets: [
        // JSON values, their reader and writers, JSON Schema and the output checks: what validates model output and
        // configs, below the core (whose requests carry schemas and whose answers are checked). No Foundation.
        .target(name: "HybridValidation", path: "Sources/App/HybridValidation", swiftSettings: strict),
        .target(name: "HybridCore", dependencies: ["HybridValidation"], path: "Sources/App/HybridCore", swiftSettings: strict),
        // SHA-256 and Ed25519: CryptoKit on Apple platforms, the system's libcrypto (OpenSSL) on Linux, where
        // swift-crypto would compile a BoringSSL of its own into every clean build.
        .systemLibrary(name: "CLibCrypto", path: "Sources/System/CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(
            name: "HybridCrypto", dependencies: [.target(name: "CLibCrypto", condition: .when(platforms: [.linux]))],
            path: "Sources/App/HybridCrypto", swiftSettings: strict),
        .systemLibrary(
            name: "CCurl", path: "Sources/System/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .target(name: "HybridTransport", path: "Sources/App/HybridTransport", swiftSettings: strict),
        // The system zlib, for gzip upload bodies; part of every platform's SDK, so apps may link it.
        .systemLibrary(name: "CZlib", path: "Sources/System/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Route event sinks an app ships (memory, JSON Lines files, the HTTP batch uploader); no NIO, curl, SQLite.
        .target(name: "HybridEvents", dependencies: ["HybridCore", "HybridTransport", "CZlib"], path: "Sources/App/HybridEvents", swiftSettings: strict),
        // libcurl's multi interface: the harness's transport on Linux; not for apps (the iOS SDK has no libcurl).
        .target(name: "HybridCurl", dependencies: ["CCurl", "HybridTransport"], path: "Sources/Harness/HybridCurl", swiftSettings: strict),
        .target(
            name: "HybridProviders",
            dependencies: ["HybridCore", "HybridTransport", "HybridConfig", .product(name: "Logging", package: "swift-log")], path: "Sources/App/HybridProviders",
            swiftSettings: strict
        ),
        .target(
            name: "HybridConfig",
            dependencies: ["HybridCore", "HybridTransport", "HybridCrypto"], path: "Sources/App/HybridConfig",
            swiftSettings: strict
        ),
        // What only operators run on configs, out of the app products: `config diff`, signing for `publish`, and the
        // Firebase Remote Config template mapping of `import-firebase` / `export-firebase`.
        .target(
            name: "HybridConfigTools",
            dependencies: [
                "HybridCore", "HybridConfig", "HybridCrypto",
                .target(name: "CLibCrypto", condition: .when(platforms: [.linux])),
            ], path: "Sources/Harness/HybridConfigTools",
            swiftSettings: strict),
        // The llama-server child-process manager and `LocalLlamaModel` (Linux and macOS): harness, CLI, Mac apps.
        .target(
            name: "HybridLocalModel",
            dependencies: ["HybridCore", "HybridTransport", "HybridConfig", "HybridProviders"], path: "Sources/Harness/HybridLocalModel",
            swiftSettings: strict
        ),
        .target(
            name: "HybridStore",
            dependencies: [
                "HybridCore", "HybridConfig", .product(name: "GRDB", package: "GRDB.swift", condition: harness),
                // The raw SQLite API (`sqlite3_column_*`) for the report's read path, and for the field-event
                // insert that binds columns directly; GRDB's own system library.
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: harness),
            ], path: "Sources/Harness/HybridStore",
            swiftSettings: strict
        ),
        // Debian's libpq (PostgreSQL's own client; TLS through the system OpenSSL for sslmode=require): the shared
        // store's connection without postgres-nio's second BoringSSL and NIOSSL in every clean build.
        .systemLibrary(name: "CLibPQ", path: "Sources/System/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // The shared store: the same store protocols over PostgreSQL, for many workers filling one run at once.
        .target(
            name: "HybridPostgres",
            dependencies: [
                "HybridCore", "HybridConfig", "HybridStore", "HybridTransport", "CLibPQ",
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/Harness/HybridPostgres",
            swiftSettings: strict
        ),
        .target(
            name: "HybridRunner",
            dependencies: [
                "HybridCore", "HybridConfig", "HybridStore", "HybridCrypto", "HybridRouter",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ], path: "Sources/Harness/HybridRunner",
            swiftSettings: strict
        ),
        .target(name: "HybridReport", dependencies: ["HybridCore", "HybridStore"], path: "Sources/Harness/HybridReport", swiftSettings: strict),
        .target(
            name: "HybridRecommend",
            dependencies: [
                "HybridCore", "HybridConfig", "HybridConfigTools", "HybridStore", "HybridReport", "HybridTransport", "HybridRouter",
                "HybridVirtualTime",
            ], path: "Sources/Harness/HybridRecommend",
            swiftSettings: strict
        ),
        // The calibration zoo: seeded null and non-null scenarios driven through the real report and recommend code
        // (`hybrid-bench calibrate`, and a reduced zoo in the tests). Never shipped to apps.
        .target(
            name: "HybridCalibration",
            dependencies: ["HybridCore", "HybridConfig", "HybridConfigTools", "HybridStore", "HybridReport", "HybridRecommend"], path: "Sources/Harness/HybridCalibration",
            swiftSettings: strict
        ),
        .target(
            name: "HybridRouter",
            dependencies: [
                "HybridCore", "HybridConfig", "HybridProviders", "HybridTransport",
                "HybridCrypto",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ], path: "Sources/App/HybridRouter",
            swiftSettings: strict
        ),
        // `OTLPExport`: one call that sends every span and metric over OTLP/HTTP. Not in the umbrella: an app adds the
        // product and the `OTLP` trait; without the trait it compiles to an error that says so.
        .target(
            name: "HybridOTLP",
            dependencies: [
                .product(name: "OTel", package: "swift-otel", condition: otlp),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: otlp),
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/App/HybridOTLP",
            swiftSettings: strict
        ),
        .target(
            name: "HybridAI",
            dependencies: ["HybridCore", "HybridTransport", "HybridConfig", "HybridProviders", "HybridRouter", "HybridEvents"], path: "Sources/App/HybridAI",
            swiftSettings: strict
        ),
        // The example app: feature code on the app products only; the app shell registers the local model.
        .target(
            name: "AppIntegrationFeatures",
            dependencies: ["HybridRouter", "HybridConfig", "HybridProviders", "HybridCore", "HybridTransport"],
            path: "Examples/AppIntegration/Features",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "hybrid-example-app",
            dependencies: ["AppIntegrationFeatures", "HybridProviders", "HybridTransport", "HybridLocalModel"],
            path: "Examples/AppIntegration/App",
            swiftSettings: strict
        ),
        // `hybrid view`: a read-only web app over the store. The only target that depends on Hummingbird.
        .target(
            name: "HybridView",
            dependencies: [
                "HybridCore", "HybridStore", "HybridReport", "HybridRunner", "HybridRecommend",
                .product(name: "Hummingbird", package: "hummingbird", condition: harness),
                .product(name: "NIOCore", package: "swift-nio", condition: harness),
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/Harness/HybridView",
            swiftSettings: strict
        ),
        // `hybrid collect` / `hybrid ingest`: router events from apps into field runs (Hummingbird, SQLite, zlib).
        .target(
            name: "HybridCollect",
            dependencies: [
                "HybridCore", "HybridStore", "HybridEvents", "CZlib",
                .product(name: "Hummingbird", package: "hummingbird", condition: harness),
                .product(name: "NIOCore", package: "swift-nio", condition: harness),
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/Harness/HybridCollect",
            swiftSettings: strict
        ),
        // The CLI's commands, run by two executables: `hybrid` and `hybrid-otlp` (which adds the OTLP exporter).
        .target(
            name: "HybridCommands",
            dependencies: [
                "HybridCore", "HybridTransport", "HybridProviders", "HybridStore", "HybridRunner", "HybridConfig", "HybridConfigTools",
                "HybridReport", "HybridRecommend", "HybridCurl", "HybridLocalModel", "HybridView", "HybridPostgres", "HybridCollect",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: harness),
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/Harness/HybridCommands",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "hybrid",
            dependencies: ["HybridCommands"], path: "Sources/Harness/hybrid",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "hybrid-otlp",
            dependencies: ["HybridCommands", "HybridOTLP"], path: "Sources/Harness/hybrid-otlp",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "hybrid-bench",
            dependencies: [
                "HybridCore", "HybridTransport", "HybridTestSupport", "HybridProjectTestSupport", "HybridConfig", "HybridConfigTools", "HybridStore",
                "HybridProviders", "HybridRunner", "HybridRouter", "HybridReport", "HybridCurl", "HybridView", "HybridPostgres", "HybridEvents", "HybridCollect",
                "HybridCalibration", "hybrid-measure", "HybridOTLP",
                // `router`'s telemetry rows record into the in-memory tracer and TestMetrics.
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "Sources/Tools/hybrid-bench",
            swiftSettings: strict
        ),
        // MeasuredProcess's launcher (C, about 1 MB resident): a program forked from it reports its own peak RSS,
        // not the test's or the benchmark's.
        .executableTarget(name: "hybrid-measure", path: "Sources/Tools/hybrid-measure"),
        // Loopback HTTP servers and fixtures shared by the tests and the benchmarks; never shipped to apps.
        // The clock router tests and `router check` move by hand; a harness module, so no app links it.
        .target(name: "HybridVirtualTime", dependencies: ["HybridRouter"], path: "Sources/Testing/HybridVirtualTime", swiftSettings: strict),
        .target(name: "HybridTestSupport", dependencies: ["HybridCore", "HybridTransport", "HybridRouter", "HybridVirtualTime"], path: "Sources/Testing/HybridTestSupport", swiftSettings: strict),
        // The project's own test launchers (the built `hybrid`, PostgreSQL, headless Chromium, measured child
        // processes, the Python JSON Schema oracle): for this package's tests and benchmarks only, so the HybridTesting
        // product a third party imports holds the conformance suites and scripted parts, not these. Imports Swift Testing.
        .target(name: "HybridProjectTestSupport", dependencies: ["HybridTestSupport", "HybridCore", "HybridTransport"], path: "Sources/Testing/HybridProjectTestSupport", swiftSettings: strict),
        // The public test kit (product HybridTesting): re-exports HybridTestSupport and adds the provider conformance
        // suite, so a third-party `LanguageModel` proves itself in a few lines. Imports Swift Testing.
        .target(
            name: "HybridTesting",
            dependencies: [
                "HybridTestSupport", "HybridCore", "HybridTransport", "HybridRouter",
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/Testing/HybridTesting",
            swiftSettings: strict
        ),
        // Tests on the real local model: the installed-model guard and the local + loopback-cloud config. Its own
        // target so neither HybridTestSupport (benchmarks) nor the HybridTesting product pulls in the local-model
        // processes. Imports Swift Testing.
        .target(
            name: "HybridLocalModelTestSupport",
            dependencies: ["HybridLocalModel", "HybridConfig", "HybridConfigTools", "HybridCore", "HybridProviders", "HybridCurl"], path: "Sources/Testing/HybridLocalModelTestSupport",
            swiftSettings: strict
        ),
        // HybridProjectTestSupport runs the Python jsonschema oracle; HybridReport provides the seeded SplitMix64.
        .testTarget(
            name: "HybridCoreTests", dependencies: ["HybridCore", "HybridValidation"], path: "Tests/App/HybridCoreTests",
            swiftSettings: strict),
        .testTarget(
            name: "HybridTransportTests",
            dependencies: ["HybridTransport", "HybridTestSupport"], path: "Tests/App/HybridTransportTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridProvidersTests",
            dependencies: [
                "HybridProviders", "HybridTransport", "HybridTestSupport", "HybridTesting", "HybridConfig", "HybridCore",
                .product(name: "Logging", package: "swift-log"),
            ], path: "Tests/App/HybridProvidersTests",
            swiftSettings: strict
        ),
        // Writes results from a separate process so the store tests can SIGKILL a writer mid-run.
        .executableTarget(name: "hybrid-store-stress", dependencies: ["HybridStore"], path: "Sources/Tools/hybrid-store-stress", swiftSettings: strict),
        .testTarget(
            name: "HybridStoreTests",
            dependencies: [
                "HybridConfigTools",
                "HybridProjectTestSupport", "HybridStore", "hybrid-store-stress", "HybridTestSupport", "HybridTesting", "HybridPostgres", "HybridCore",
                // FileSpendLedger, the file store apps keep spend in, killed mid-write like the SQLite store.
                "HybridRouter", "hybrid-ledger-stress",
                // The rollout's crash and race tests drive `RolloutDriver` over both backends.
                "HybridRecommend", "HybridConfig",
                .product(name: "GRDB", package: "GRDB.swift", condition: harness),
            ], path: "Tests/Harness/HybridStoreTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridConfigTests",
            dependencies: ["HybridProjectTestSupport", "HybridConfig", "HybridConfigTools", "HybridTestSupport", "HybridCurl", "HybridCrypto", "HybridReport"], path: "Tests/Harness/HybridConfigTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridReportTests",
            dependencies: ["HybridProjectTestSupport", "HybridReport", "HybridStore", "HybridCore", "HybridTestSupport", "hybrid"], path: "Tests/Harness/HybridReportTests",
            exclude: ["Golden"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridRecommendTests",
            dependencies: [
                "HybridRecommend", "HybridTestSupport", "HybridStore", "HybridConfig", "HybridConfigTools", "HybridCore", "HybridTransport",
                "HybridRunner", "HybridProviders", "HybridRouter", "HybridCurl", "HybridLocalModel", "HybridReport",
                "HybridLocalModelTestSupport", "HybridCalibration", "HybridProjectTestSupport", "hybrid", "HybridVirtualTime",
            ], path: "Tests/Harness/HybridRecommendTests",
            swiftSettings: strict
        ),
        // Adds spend through FileSpendLedger from a separate process so the router tests can SIGKILL a writer mid-write.
        .executableTarget(name: "hybrid-ledger-stress", dependencies: ["HybridRouter", "HybridCore"], path: "Sources/Tools/hybrid-ledger-stress", swiftSettings: strict),
        // Routes requests with a JSONLinesEventSink and returns from main at once, so the events tests see what a
        // process that exits right after its last request leaves on disk.
        .executableTarget(
            name: "hybrid-events-exit", dependencies: ["HybridRouter", "HybridEvents", "HybridTestSupport"],
            path: "Sources/Tools/hybrid-events-exit", swiftSettings: strict),
        .testTarget(
            name: "HybridEventsProcessTests",
            dependencies: ["HybridProjectTestSupport", "HybridTestSupport", "HybridEvents", "HybridCore", "hybrid-events-exit"],
            path: "Tests/Harness/HybridEventsProcessTests", swiftSettings: strict),
        .testTarget(
            name: "HybridViewTests",
            dependencies: ["HybridProjectTestSupport", "HybridView", "HybridStore", "HybridCore", "HybridRunner", "HybridTestSupport", "hybrid", "HybridRecommend"], path: "Tests/Harness/HybridViewTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridRouterTests",
            dependencies: [
                "HybridRouter", "HybridTestSupport", "HybridConfig", "HybridProviders", "HybridEvents", "HybridVirtualTime",
                "HybridTransport", "HybridCore",
                // The router's spans and metrics recorded in memory (TelemetryTests).
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ], path: "Tests/App/HybridRouterTests",
            swiftSettings: strict
        ),
        .testTarget(
            name: "HybridEventsTests", dependencies: ["HybridEvents", "HybridCore", "HybridTransport", "HybridTestSupport"], path: "Tests/App/HybridEventsTests",
            swiftSettings: strict),
        // The app's public API as an app sees it (#49): no `package` access, so a test here cannot lean on a
        // declaration an app could not call.
        .testTarget(
            name: "HybridAppTests", dependencies: ["HybridAI", "HybridTestSupport", "AppIntegrationFeatures"], path: "Tests/App/HybridAppTests", packageAccess: false,
            swiftSettings: strict),
        // Fails when an app product's dependency closure reaches libcurl, SQLite or the local-model processes.
        // TelemetryNamesTests: the router's GenAI attribute names against swift-otel-semantic-conventions' constants.
        .testTarget(
            name: "HybridPackageTests",
            dependencies: [
                "HybridTestSupport", "HybridRouter",
                .product(name: "OTelSemanticConventions", package: "swift-otel-semantic-conventions", condition: harness),
            ], path: "Tests/Harness/HybridPackageTests", swiftSettings: strict),
        .testTarget(
            name: "HybridRunnerTests",
            dependencies: [
                "HybridConfigTools",
                "HybridProjectTestSupport", "HybridRunner", "HybridCore", "HybridTestSupport", "HybridCurl", "HybridLocalModel", "HybridProviders",
                "HybridReport", "HybridLocalModelTestSupport", "hybrid-measure",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ], path: "Tests/Harness/HybridRunnerTests",
            swiftSettings: strict
        ),
        // The collector in-process and the field loop end to end (router → uploader → `hybrid collect` → report → recommend).
        .testTarget(
            name: "HybridCollectTests",
            dependencies: [
                "HybridConfigTools",
                "HybridProjectTestSupport", "HybridCollect", "HybridStore", "HybridCore", "HybridTestSupport", "HybridCurl", "HybridTransport",
                "HybridRouter", "HybridConfig", "HybridProviders", "HybridLocalModel", "HybridEvents", "HybridReport", "hybrid",
                "HybridLocalModelTestSupport", "HybridPostgres", "HybridRecommend",
            ], path: "Tests/Harness/HybridCollectTests",
            swiftSettings: strict
        ),
        // libcurl's transport: its own tests, the loopback server, and the transport conformance suite run on both transports.
        .testTarget(
            name: "HybridCurlTests", dependencies: ["HybridCurl", "HybridTransport", "HybridTestSupport"],
            path: "Tests/Harness/HybridCurlTests", swiftSettings: strict),
        // The app's providers and router on the real SmolLM2 (llama-server child processes).
        .testTarget(
            name: "HybridLocalModelTests",
            dependencies: [
                "HybridLocalModel", "HybridLocalModelTestSupport", "HybridProjectTestSupport", "HybridTestSupport", "HybridTesting",
                "HybridProviders", "HybridRouter", "HybridConfig", "HybridConfigTools", "HybridCore", "HybridCurl", "HybridTransport",
                // PhoenixTelemetryTests runs it.
                "hybrid-otlp",
            ],
            path: "Tests/Harness/HybridLocalModelTests", swiftSettings: strict),
        // JSON Schema and member tables checked against second opinions: Python's jsonschema and seeded random documents.
        .testTarget(
            name: "HybridCoreOracleTests",
            dependencies: ["HybridCore", "HybridValidation", "HybridProjectTestSupport", "HybridTestSupport", "HybridReport"],
            path: "Tests/Harness/HybridCoreOracleTests", swiftSettings: strict),
        // Every Swift block of README.md and docs/, written here by scripts/extract-doc-snippets.py (run by
        // `make test`) and compiled against the app products as an app would import them.
        .testTarget(name: "HybridOTLPTests", dependencies: ["HybridOTLP"], path: "Tests/App/HybridOTLPTests", swiftSettings: strict),
        .testTarget(
            name: "HybridDocSnippetTests",
            dependencies: [
                "HybridAI", "HybridTesting", "HybridTestSupport", "HybridOTLP",
                // The observability block imports Tracing, as an app that starts spans of its own does.
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ], path: "Tests/App/HybridDocSnippetTests",
            packageAccess: false, swiftSettings: strict),
        // The blocks marked `<!-- snippet: runs -->`, written here too and run against the real SmolLM2.
        .testTarget(
            name: "HybridDocSnippetRunTests",
            dependencies: ["HybridAI", "HybridLocalModel", "HybridLocalModelTestSupport", "HybridCurl"],
            path: "Tests/Harness/HybridDocSnippetRunTests", packageAccess: false, swiftSettings: strict),
        // The `hybrid` executable run as users run it: option checks, config sources, resume integrity.
        .testTarget(
            name: "HybridCLITests",
            dependencies: [
                "HybridConfigTools",
                "HybridProjectTestSupport", "hybrid", "HybridTestSupport", "HybridConfig", "HybridStore", "HybridReport", "HybridCore", "HybridTesting",
                "HybridPostgres", .product(name: "GRDB", package: "GRDB.swift", condition: harness), "HybridLocalModelTestSupport", "HybridRecommend",
            ], path: "Tests/Harness/HybridCLITests",
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
