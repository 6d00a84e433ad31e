import Foundation
import Testing

/// A server that another project wrote, which some end-to-end tests run on 127.0.0.1 to check
/// Gateway against code nobody here wrote (httpbin for REST, ariadne for GraphQL).
///
/// On a machine without it, the tests that need it are skipped, and the skip names the server
/// and the command that installs it. `.ci/run` installs every such server and sets
/// `GATEWAY_REQUIRE_PEERS=1`, under which a missing server fails those tests instead: CI always
/// runs them.
package struct ThirdPartyServer: Sendable, CustomStringConvertible {
    /// The server's name, as the skip and the failure print it.
    package let name: String
    /// The command that installs it.
    package let install: String

    package static let httpbin = ThirdPartyServer(
        name: "httpbin", install: "python3 -m pip install -r .ci/requirements.txt (httpbin 0.10.4 on werkzeug)")
    package static let ariadne = ThirdPartyServer(
        name: "ariadne", install: "python3 -m pip install -r .ci/requirements.txt (ariadne 1.1.1 on werkzeug)")
    package static let strawberry = ThirdPartyServer(
        name: "strawberry-graphql",
        install: "python3 -m pip install -r .ci/requirements.txt (strawberry-graphql 0.341.2 on uvicorn 0.54.0 "
            + "with websockets 17.4)")

    /// Makes the description of a server.
    package init(name: String, install: String) {
        self.name = name
        self.install = install
    }

    package var description: String { "\(name) (install it with: \(install))" }

    /// Whether a missing server fails the tests that need it (`GATEWAY_REQUIRE_PEERS=1`, set by `.ci/run`).
    package static var isRequired: Bool {
        ProcessInfo.processInfo.environment["GATEWAY_REQUIRE_PEERS"].map { ["1", "true", "yes"].contains($0) } ?? false
    }

    /// Thrown by the condition when the server is missing and required.
    package struct Missing: Error, CustomStringConvertible {
        package let server: ThirdPartyServer
        package var description: String {
            "\(server.name) is required (GATEWAY_REQUIRE_PEERS=1) but could not be started; \(server.install)"
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only where `server` runs: `start` starts it (once per test process) and
    /// tells whether it is up. Skipped, naming the server and how to install it, where it is
    /// missing; a failure instead under `GATEWAY_REQUIRE_PEERS=1`.
    package static func requires(
        _ server: ThirdPartyServer, sourceLocation: SourceLocation = #_sourceLocation,
        started start: @escaping @Sendable () async throws -> Bool
    ) -> Self {
        .enabled("needs \(server.name), which is not installed here; install it with \(server.install)",
                 sourceLocation: sourceLocation) {
            if try await start() { return true }
            if ThirdPartyServer.isRequired { throw ThirdPartyServer.Missing(server: server) }
            return false
        }
    }
}
