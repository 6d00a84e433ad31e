import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The platform's request for `request`: its method, header fields and timeout, with the
    /// transport's defaults for `User-Agent`, `Accept-Encoding` and `Content-Type`.
    func makeURLRequest(_ request: HTTPRequest) -> URLRequest {
        let timeout = request.timeout ?? configuration.timeout
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: URLSessionTransport.platformTimeout(timeout)
        )
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpShouldHandleCookies = false
        for field in request.headers where !HTTPHeaders.isFraming(field.name) {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if let body = request.body, body.length > 0, !request.headers.contains("Content-Type") {
            // Otherwise the platform labels any POST body as a form.
            urlRequest.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        if !request.headers.contains("User-Agent") {
            urlRequest.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        }
        if !request.headers.contains("Accept-Encoding") {
            urlRequest.setValue(configuration.acceptEncoding, forHTTPHeaderField: "Accept-Encoding")
        }
        return urlRequest
    }

    /// The timeout given to the platform, an idle timeout on every platform. FoundationNetworking
    /// truncates it to whole seconds (0.5 s would time out at once), so there it is rounded up
    /// and given a second more: it only backs up the transport's own idle timeout and deadline.
    static func platformTimeout(_ timeout: Duration) -> TimeInterval {
        let (seconds, attoseconds) = timeout.components
        let exact = Double(seconds) + Double(attoseconds) / 1e18
        #if canImport(Darwin)
        return max(0.001, exact)
        #else
        return min(exact, 30 * 24 * 3600).rounded(.up) + 1
        #endif
    }
}
