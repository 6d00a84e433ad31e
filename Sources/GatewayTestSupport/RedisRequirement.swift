import Foundation
import Testing

/// Whether a missing `redis-server` fails the tests that need it instead of skipping them
/// (`GATEWAY_REQUIRE_PEERS=1`, set by `.ci/run`, which installs it).
public enum RedisRequirement {
    public static let install = "apt-get install redis-server"

    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["GATEWAY_REQUIRE_PEERS"].map { ["1", "true", "yes"].contains($0) } ?? false
    }

    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "redis-server is required (GATEWAY_REQUIRE_PEERS=1) but is not installed; \(RedisRequirement.install)"
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only where `redis-server` is installed: skipped, naming it and how to install
    /// it, where it is missing; a failure instead under `GATEWAY_REQUIRE_PEERS=1`.
    public static var requiresRedis: Self {
        .enabled("needs redis-server, which is not installed here; install it with \(RedisRequirement.install)") {
            if RedisServer.executable != nil { return true }
            if RedisRequirement.isRequired { throw RedisRequirement.Missing() }
            return false
        }
    }
}
