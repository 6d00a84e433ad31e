import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TCPSocket {
    /// One address a host name resolved to: a socket address of its family, as bytes.
    package struct ResolvedAddress: Sendable, Hashable {
        /// `AF_INET` or `AF_INET6`.
        package let family: Int32
        /// The `sockaddr_in` or `sockaddr_in6`.
        package let socketAddress: [UInt8]

        /// Makes an address from its family and socket address.
        package init(family: Int32, socketAddress: [UInt8]) {
            self.family = family
            self.socketAddress = socketAddress
        }
    }

    /// Why a host name could not be resolved (`gai_strerror`'s text).
    package struct ResolutionFailure: Error, Sendable {
        /// What the resolver said.
        package let reason: String
    }

    /// Turns a host name and port into addresses to try, in order. It may block.
    package typealias Resolver = @Sendable (_ host: String, _ port: Int) -> Result<[ResolvedAddress], ResolutionFailure>

    /// The system's resolver (`getaddrinfo`), for TCP streams of any address family.
    package static let systemResolver: Resolver = { host, port in
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = TCPSocket.streamType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            return .failure(ResolutionFailure(reason: gai_strerror(status).map { String(cString: $0) } ?? "error \(status)"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [ResolvedAddress] = []
        var current = list
        while let info = current {
            current = info.pointee.ai_next
            guard let address = info.pointee.ai_addr else { continue }
            let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen))
            addresses.append(ResolvedAddress(family: info.pointee.ai_family, socketAddress: Array(bytes)))
        }
        return .success(addresses)
    }

    /// Resolves `host` with `resolver` on a thread of its own, waiting for it until `deadline`.
    static func resolve(_ host: String, _ port: Int, service: String, deadline: ContinuousClock.Instant,
                        with resolver: @escaping Resolver) throws(Failure) -> [ResolvedAddress] {
        let outcome = Locked<Result<[ResolvedAddress], ResolutionFailure>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = resolver(host, port)
            outcome.withLock { $0 = result }
            answered.signal()
        }
        thread.name = "Gateway resolver"
        thread.start()
        // Dispatch clamps a time past its range to "forever".
        let wait = max(0, ContinuousClock.now.duration(to: deadline).seconds)
        guard answered.wait(timeout: .now() + wait) == .success, let result = outcome.withLock({ $0 }) else {
            throw Failure(kind: .timeout, message: "timed out resolving \(host), the host of \(service)")
        }
        switch result {
        case .success(let addresses):
            return addresses
        case .failure(let failure):
            throw Failure(kind: .connection, message: "could not resolve \(host), the host of \(service): \(failure.reason)")
        }
    }
}
