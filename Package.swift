// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Gateway",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Gateway", targets: ["Gateway"]),
        .library(name: "GatewaySQLite", targets: ["GatewaySQLite"]),
        .library(name: "GatewayRedis", targets: ["GatewayRedis"]),
        .library(name: "GatewayTesting", targets: ["GatewayTesting"]),
        .library(name: "GraphQLLanguage", targets: ["GraphQLLanguage"]),
        .executable(name: "gateway", targets: ["gateway"]),
        .plugin(name: "GatewayCodegenPlugin", targets: ["GatewayCodegenPlugin"]),
    ],
    dependencies: [],
    targets: [
        // The GraphQL language layer: no Foundation, bytes → tokens → AST → printer → schema → validation.
        .target(name: "GraphQLLanguage"),
        // The client: one pipeline for REST endpoints and GraphQL operations.
        .target(
            name: "Gateway", dependencies: ["GraphQLLanguage"],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]),
        // The system SQLite library (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The on-disk response cache; every sqlite3_* call lives here.
        .target(name: "GatewaySQLite", dependencies: ["Gateway", "CSQLite"]),
        // The shared response cache on Redis, with the package's own RESP2 client over POSIX sockets.
        .target(name: "GatewayRedis", dependencies: ["Gateway"]),
        // An HTTP/1.1 server on 127.0.0.1 for tests and the demo backend (POSIX sockets, no Testing import).
        .target(name: "GatewayLoopback"),
        // Stubs, the loopback server, query-file checks and transport conformance for users' test suites.
        .target(name: "GatewayTesting", dependencies: ["Gateway", "GatewayLoopback", "GraphQLLanguage"]),
        // This package's own test scheduling (OffPool, OnceCache, UndisturbedTiming): not a product.
        .target(name: "GatewayTestSupport", dependencies: ["Gateway", "GatewayTesting"]),
        // The demo's music backend (REST, GraphQL, sign-in) on the loopback server: not a product.
        .target(name: "GatewayDemoBackend", dependencies: ["Gateway", "GatewayLoopback", "GraphQLLanguage"]),
        // Swift types for .graphql operations (`gateway generate`): schema and operations in, files out; no Foundation.
        .target(name: "GatewayCodegen", dependencies: ["GraphQLLanguage"]),
        // The `gateway` command, as a library so that it can be tested.
        .target(
            name: "GatewayCLI",
            dependencies: [
                "Gateway", "GatewaySQLite", "GatewayRedis", "GatewayLoopback", "GatewayDemoBackend", "GraphQLLanguage",
                "GatewayCodegen",
                "MusicOperations",
            ]
        ),
        .executableTarget(name: "gateway", dependencies: ["GatewayCLI"]),
        // The generator that the build plugin runs: files in, one Swift file out.
        .executableTarget(name: "gateway-codegen", dependencies: ["GatewayCodegen", "GraphQLLanguage"]),
        // `plugins: [.plugin(name: "GatewayCodegenPlugin", package: "Gateway")]` in an app's target
        // generates the types of its .graphql operations on every build.
        .plugin(name: "GatewayCodegenPlugin", capability: .buildTool(), dependencies: ["gateway-codegen"]),

        .testTarget(name: "GraphQLLanguageTests", dependencies: ["GraphQLLanguage", "GatewayTestSupport"]),
        .testTarget(
            name: "GatewayTests", dependencies: ["Gateway", "GatewayTesting", "GatewayTestSupport"],
            // Run by the tests with python3, not compiled.
            exclude: ["Streaming/subscription_server.py"]
        ),
        .testTarget(name: "GatewayTestingTests", dependencies: ["GatewayTesting", "GatewayTestSupport"]),
        .testTarget(name: "GatewayTestSupportTests", dependencies: ["GatewayTestSupport"]),
        .testTarget(
            name: "GatewayCLITests",
            dependencies: [
                "GatewayCLI", "GatewayDemoBackend", "GatewayRedis", "GatewayTesting", "GatewayTestSupport",
                "MusicOperations",
            ]
        ),
        // `gateway generate`'s output for Queries/ against Schemas/music.graphql, kept fresh by GatewayCodegenTests.
        .target(name: "MusicOperations", dependencies: ["Gateway", "GraphQLLanguage"], path: "Tests/MusicOperations"),
        .testTarget(name: "GatewayCodegenTests", dependencies: ["GatewayCodegen", "Gateway", "MusicOperations", "GatewayTestSupport"]),
        .testTarget(
            name: "GatewaySQLiteTests",
            dependencies: ["GatewaySQLite", "GatewayTesting", "GatewayTestSupport"]
        ),
        // One application instance on a shared Redis cache, driven over stdin/stdout by GatewayRedisTests
        // (two of them are two processes sharing one cache): not a product.
        .executableTarget(
            name: "GatewayRedisPeer",
            dependencies: ["Gateway", "GatewayRedis", "GraphQLLanguage"],
            path: "Tests/GatewayRedisPeer"
        ),
        .testTarget(
            name: "GatewayRedisTests",
            dependencies: ["GatewayRedis", "GatewayCLI", "GatewayTesting", "GatewayTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
