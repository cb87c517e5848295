// swift-tools-version:6.2
import PackageDescription

// Dependency direction is one way: verdict (CLI) → simulator / HTTP edge → AppStoreServer,
// and verdict → RuleEngine → AppStoreServer (RuleEngine is pure too: no HTTP, no database;
// it uses AppStoreServer's enums so the rule language knows Apple's values from one source).
// `AppStoreServer` is the pure core of Apple's protocol: it depends on no other target of this package
// and does no I/O of its own (HTTP is reached through the `AppStoreHTTPTransport` protocol).
let package = Package(
    name: "verdict",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AppStoreServer", targets: ["AppStoreServer"]),
        .library(name: "AppStoreServerHTTP", targets: ["AppStoreServerHTTP"]),
        .library(name: "AppStoreSimulator", targets: ["AppStoreSimulator"]),
        .library(name: "RuleEngine", targets: ["RuleEngine"]),
        .library(name: "VerdictRequests", targets: ["VerdictRequests"]),
        .library(name: "VerdictStorage", targets: ["VerdictStorage"]),
        .library(name: "VerdictService", targets: ["VerdictService"]),
        .executable(name: "verdict", targets: ["verdict"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "4.5.2"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // One trait, not Hummingbird's two defaults: SwiftPM passes enabled traits to the compiler in
        // an order that changes from one invocation to the next, so with two every `swift test` after
        // a `swift build` recompiled Hummingbird's modules. Verdict reads its settings itself and
        // uses none of the swift-configuration integration the other trait adds.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        // OpenTelemetry's attribute names, typed (stable ones only: no `Experimental` trait).
        .package(url: "https://github.com/swift-otel/swift-otel-semantic-conventions.git", from: "1.44.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        // The system's zlib (Debian: zlib1g-dev; the Swift toolchain needs it too).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "AppStoreServer",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            name: "RuleEngine",
            dependencies: [
                "AppStoreServer",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Storage: the repository protocol and its SQLite and PostgreSQL implementations.
        // Knows nothing of HTTP or of Apple's protocol beyond the strings it stores.
        .target(
            name: "VerdictStorage",
            dependencies: [
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "OTelSemanticConventions", package: "swift-otel-semantic-conventions"),
            ]
        ),
        // The bodies of Verdict's API and their checks, without HTTP — the JSON bodies, and the
        // replay candidate as uploaded (JSON, tar, zip, a console form): the service reads requests
        // with them, the fuzz targets feed them arbitrary bytes.
        .target(
            name: "VerdictRequests",
            dependencies: ["AppStoreServer", "RuleEngine", "CZlib"]
        ),
        // The service: intake, job queue, HTTP API and operations. Depends on the pure cores and
        // storage; the CLI's `serve` runs it.
        .target(
            name: "VerdictService",
            dependencies: [
                "AppStoreServer",
                "AppStoreServerHTTP",
                "RuleEngine",
                "VerdictRequests",
                "VerdictStorage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "OTelSemanticConventions", package: "swift-otel-semantic-conventions"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            // The HTTP contract (served at GET /openapi.yaml) and the console's templates and style
            // sheet, compiled in: no bundle to ship beside the binary.
            resources: [
                .embedInCode("Resources/openapi.yaml"),
                .embedInCode("Resources/Console/console.css"),
                .embedInCode("Resources/Console/page.mustache"),
                .embedInCode("Resources/Console/sign-in.mustache"),
                .embedInCode("Resources/Console/rules.mustache"),
                .embedInCode("Resources/Console/refunds.mustache"),
                .embedInCode("Resources/Console/decisions.mustache"),
                .embedInCode("Resources/Console/decision.mustache"),
                .embedInCode("Resources/Console/customer.mustache"),
                .embedInCode("Resources/Console/replay.mustache"),
                .embedInCode("Resources/Console/replay-status.mustache"),
                .embedInCode("Resources/Console/overview.mustache"),
                .embedInCode("Resources/Console/apps.mustache"),
                .embedInCode("Resources/Console/period.mustache"),
            ]
        ),
        .target(
            name: "AppStoreServerHTTP",
            dependencies: [
                "AppStoreServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "AppStoreSimulator",
            dependencies: [
                "AppStoreServer",
                "AppStoreServerHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Fuzz targets (libFuzzer): pure (Apple's protocol, the rules, the API's request bodies and
        // replay uploads: no HTTP, no database), so the fuzzing build stays small.
        // `verdict-fuzz` is a libFuzzer program when built by Scripts/fuzz.sh, a replayer otherwise.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "AppStoreServer",
                "RuleEngine",
                "VerdictRequests",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "verdict-fuzz",
            dependencies: ["FuzzTargets"]
        ),
        .executableTarget(
            name: "verdict",
            dependencies: [
                "AppStoreServer",
                "AppStoreServerHTTP",
                "AppStoreSimulator",
                "RuleEngine",
                "VerdictService",
                "VerdictStorage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "AppStoreServerTests",
            dependencies: [
                "AppStoreServer",
                "AppStoreSimulator",
                "FuzzTargets",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // The fresh database per test that the storage and service suites share.
        .target(
            name: "VerdictTestSupport",
            dependencies: ["VerdictStorage", .product(name: "Logging", package: "swift-log")],
            path: "Tests/VerdictTestSupport"
        ),
        .testTarget(
            name: "VerdictStorageTests",
            dependencies: ["VerdictStorage", "VerdictTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "VerdictServiceTests",
            dependencies: [
                "AppStoreServer",
                "RuleEngine",
                "AppStoreServerHTTP",
                "AppStoreSimulator",
                "VerdictService",
                "VerdictRequests",
                "VerdictStorage",
                "VerdictTestSupport",
                "FuzzTargets",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RuleEngineTests",
            dependencies: [
                "FuzzTargets", "RuleEngine", "AppStoreServer"]
        ),
        .testTarget(
            name: "AppStoreSimulatorTests",
            dependencies: [
                "AppStoreServer",
                "AppStoreServerHTTP",
                "AppStoreSimulator",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
