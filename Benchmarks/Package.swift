// swift-tools-version: 6.1
import PackageDescription

// Gateway measured side by side with the libraries people would otherwise pick: GraphQLSwift for
// parsing, printing and validating, bare URLSession and async-http-client for the HTTP path.
// A package of its own so that the main package keeps no dependencies.
//
//     swift run -c release peers            # everything, about 2.5 minutes
//     swift run -c release peers --json     # one JSON object per benchmark
//     swift run -c release peers download   # a 200 MB file: Provider.download (AHC), bare AHC, curl -o
let package = Package(
    name: "GatewayBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Gateway", path: ".."),
        .package(name: "GatewayAsyncHTTPClient", path: "../Transports/AsyncHTTPClient"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", exact: "4.3.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
    ],
    targets: [
        .executableTarget(
            name: "peers",
            dependencies: [
                .product(name: "Gateway", package: "Gateway"),
                .product(name: "GraphQLLanguage", package: "Gateway"),
                .product(name: "GatewayTesting", package: "Gateway"),
                .product(name: "GatewayAsyncHTTPClient", package: "GatewayAsyncHTTPClient"),
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
