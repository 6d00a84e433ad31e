// swift-tools-version: 6.1
import PackageDescription

// A `Transport` for Gateway on swift-server's async-http-client: a package of its own so that
// the main package keeps no dependencies.
let package = Package(
    name: "GatewayAsyncHTTPClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "GatewayAsyncHTTPClient", targets: ["GatewayAsyncHTTPClient"]),
    ],
    dependencies: [
        .package(name: "Gateway", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.29.0"),
    ],
    targets: [
        .target(
            name: "GatewayAsyncHTTPClient",
            dependencies: [
                .product(name: "Gateway", package: "Gateway"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "GatewayAsyncHTTPClientTests",
            dependencies: [
                "GatewayAsyncHTTPClient",
                .product(name: "GatewayTesting", package: "Gateway"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
