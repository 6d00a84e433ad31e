// The examples of Sources/Gateway/Interceptors and Sources/Gateway/Pipeline.
import Foundation
import Gateway

// CURLLogger
func curlLogger(api: URL, logger: AppLogger) {
    let provider = Provider(baseURL: api) { config in
        config.observers = [CURLLogger(rules: .standard.adding(headers: ["X-Session"])) { line in
            logger.debug("\(line)")
        }]
    }
    _ = provider
}

// Interceptor
struct APIKey: Interceptor {
    let key: String
    func adapt(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
        var request = request
        request.headers["X-API-Key"] = key
        return request
    }
}

struct RetryUnavailable: Interceptor {
    func decide(_ response: HTTPResponse, for request: HTTPRequest,
                context: RequestContext) async throws -> Decision {
        response.status == 503 && context.attempt < 3 ? .retry(after: .seconds(1)) : .continue
    }
}

// Observer
struct StatusLogger: Observer {
    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        print(context.name, outcome, metrics.total)
    }
}

// RedactionRules
func redactionRules() {
    let rules = RedactionRules.standard.adding(headers: ["X-Session"], bodyFields: ["pin"])
    _ = rules
}

// RetryPolicy
func retryPolicy(api: URL) {
    let provider = Provider(baseURL: api) { config in
        config.retryPolicy = RetryPolicy(maxRetries: 3, initialDelay: .milliseconds(200))
    }
    _ = provider
}

// Requestable
struct Ping: Requestable {
    var name: String { "ping" }
    func prepare(baseURL: URL) throws -> PreparedRequest {
        PreparedRequest(name: name, method: .get, url: try PreparedRequest.url(baseURL, "ping"))
    }
    func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
        response.isSuccess ? nil : GatewayError(.status, "ping failed", response: response)
    }
    func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> Empty { Empty() }
}
