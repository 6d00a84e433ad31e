// swift-tools-version: 6.1
import PackageDescription

// Every code example of the README and of the doc comments, built by `.ci/run` so that none of
// them stops compiling. It depends on Gateway by path, as an app of its own would.
//
// - `Bookshelf`: the README's tour, a small app with a REST endpoint, a GraphQL query and
//   mutation from `Queries/`, refresh-token auth and an SQLite cache.
// - `TypedBookshelf`: the same GraphQL calls through the types that GatewayCodegenPlugin generates
//   from `Queries/` on every build.
// - `DocExamples`: the examples of the doc comments, one file per module.
// - `BookshelfTests`: the README's testing tour (stubs for REST and GraphQL, query-file checks),
//   run by `swift test` in this folder.
// - `TypedBookshelfTests`: the generated types over a stub, and against ariadne (a real GraphQL
//   server, `python3 -m pip install ariadne`) on 127.0.0.1; skipped without it, unless
//   `GATEWAY_REQUIRE_PEERS=1` (set by `.ci/run`) makes that a failure.
let package = Package(
    name: "GatewayExamples",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        .package(name: "Gateway", path: ".."),
    ],
    targets: [
        .target(
            name: "Bookshelf",
            dependencies: [
                .product(name: "Gateway", package: "Gateway"),
                .product(name: "GatewaySQLite", package: "Gateway"),
            ]
        ),
        .target(
            name: "TypedBookshelf",
            dependencies: [.product(name: "Gateway", package: "Gateway")],
            plugins: [.plugin(name: "GatewayCodegenPlugin", package: "Gateway")]
        ),
        .target(
            name: "DocExamples",
            dependencies: [
                .product(name: "Gateway", package: "Gateway"),
                .product(name: "GatewaySQLite", package: "Gateway"),
                .product(name: "GatewayRedis", package: "Gateway"),
                .product(name: "GatewayTesting", package: "Gateway"),
                .product(name: "GraphQLLanguage", package: "Gateway"),
            ]
        ),
        .testTarget(
            name: "BookshelfTests",
            dependencies: [
                "Bookshelf",
                .product(name: "Gateway", package: "Gateway"),
                .product(name: "GatewayTesting", package: "Gateway"),
            ]
        ),
        .testTarget(
            name: "TypedBookshelfTests",
            dependencies: [
                "TypedBookshelf",
                .product(name: "Gateway", package: "Gateway"),
                .product(name: "GatewayTesting", package: "Gateway"),
            ],
            // The ariadne server the end-to-end tests start, read from its path (python3 runs it).
            exclude: ["bookshelf_server.py"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
