import Foundation

/// What the engine does when a socket cannot be opened or is lost: renew the credential, wait
/// and connect again, or end the subscriptions.
extension SocketEngine {
    /// The close codes after which the protocol says not to connect again (graphql-ws's
    /// client does the same): the request or the server is at fault, not the network.
    static let fatalCloseCodes: Set<WebSocketCloseCode> = [
        .badRequest, .subprotocolNotAcceptable, .subscriberAlreadyExists, .tooManyInitialisationRequests,
        .graphQLServerError, WebSocketCloseCode(rawValue: 4004), WebSocketCloseCode(rawValue: 4005),
    ]

    /// The close codes in 1000–1999 after which connecting again may work.
    static let passingCloseCodes: Set<WebSocketCloseCode> = [
        .normalClosure, .goingAway, .noStatusReceived, .abnormalClosure,
        WebSocketCloseCode(rawValue: 1012), WebSocketCloseCode(rawValue: 1013), WebSocketCloseCode(rawValue: 1014),
    ]

    /// The socket closed (the server's close, or a drop).
    func closed(_ close: WebSocketClose) {
        guard phase.connection != nil else { return }
        abandonSocket(closing: .normalClosure)
        guard !subscribers.isEmpty else { return }
        let code = close.code
        if code == .unauthorized || code == .forbidden {
            renewCredential(after: close)
        } else if Self.fatalCloseCodes.contains(code)
                    || (1000...1999).contains(code.rawValue) && !Self.passingCloseCodes.contains(code) {
            failAll(GatewayError(.transport, "the server closed the subscription socket at "
                                    + "\(Redaction.redactedURL(url)) with \(close)"))
        } else {
            scheduleReconnect(after: GatewayError(.transport, "the subscription socket at "
                                                    + "\(Redaction.redactedURL(url)) closed with \(close)"))
        }
    }

    /// Opening a socket failed.
    func connectFailed(_ error: any Error, retryable: Bool) {
        phase = .idle
        if let failure = error as? GatewayError, failure.kind == .status, failure.status == 401 || failure.status == 403 {
            renewCredential(after: WebSocketClose(code: failure.status == 401 ? .unauthorized : .forbidden,
                                                  reason: "HTTP \(failure.status ?? 0) to the handshake"))
        } else if retryable {
            scheduleReconnect(after: error)
        } else {
            failAll(GatewayError.wrap(error, as: .transport, "the subscription socket could not be opened"))
        }
    }

    /// After the server refused the credential: one refresh, then a new socket; a second
    /// refusal before an acknowledgement ends the subscriptions.
    func renewCredential(after close: WebSocketClose) {
        guard !renewedSinceAcknowledgement else {
            failAll(GatewayError(.authentication,
                                 "the server refused the subscription socket's credential again (\(close)) after it "
                                    + "was renewed",
                                 fix: "check that the server reads the token from the connection_init payload "
                                    + "(`Options.connectionPayload`) and that the account may subscribe"))
            return
        }
        renewedSinceAcknowledgement = true
        phase = .waiting
        let authorization = authorization
        let refused = sentCredential
        let inbox = inbox
        let stamp = generation
        tasks.append(Task {
            do {
                _ = try await authorization.renew(refused, close)
                inbox.yield(.renewed(stamp))
            } catch {
                inbox.yield(.renewFailed(stamp, error))
            }
        })
    }

    /// Waits the back-off before the next attempt, or ends the subscriptions after
    /// `Reconnection.maxAttempts` failed attempts in a row.
    func scheduleReconnect(after error: any Error) {
        failures += 1
        let policy = options.reconnection
        guard failures <= policy.maxAttempts else {
            let attempts = failures - 1
            failAll(GatewayError(
                .transport,
                "the subscription socket at \(Redaction.redactedURL(url)) was lost and could not be opened again "
                    + "(\(attempts) attempt\(attempts == 1 ? "" : "s"))",
                fix: "check the network and the server; `Options.reconnection` sets how often the client tries",
                underlying: error))
            return
        }
        phase = .waiting
        let delay = policy.delay(before: failures, random: Double.random(in: 0..<1))
        let clock = options.clock
        let inbox = inbox
        let stamp = generation
        tasks.append(Task {
            guard (try? await clock.sleep(for: delay)) != nil else { return }
            inbox.yield(.reconnectDue(stamp))
        })
    }
}
