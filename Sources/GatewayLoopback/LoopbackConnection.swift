import Foundation

/// One accepted connection, served on its own thread: read a request, ask the handler, write
/// the response (misbehaving as its fault says), and repeat while the connection stays alive.
struct LoopbackConnection {
    let core: ServerCore
    let id: Int
    let fd: Int32

    /// What writing a response left the connection as.
    private enum Outcome {
        case open
        case closed
        case reset
    }

    func run() {
        let reader = RequestReader(fd: fd)
        var outcome = Outcome.open
        while outcome == .open && !core.isShutDown {
            outcome = serveOne(reader)
        }
        core.closeConnection(id, reset: outcome == .reset)
    }

    private func serveOne(_ reader: RequestReader) -> Outcome {
        let head: RequestHead
        let body: Data
        do {
            guard let next = try reader.readHead() else { return .closed }
            head = next
            let framing = try RequestReader.framing(of: head, limit: core.maxRequestBodyBytes)
            if framing != .none, head.version == "HTTP/1.1", head.headers.lists("Expect", token: "100-continue") {
                guard Socket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return .closed }
            }
            switch framing {
            case .none: body = Data()
            case .length(let count): body = try reader.readBody(count: count)
            case .chunked: body = try reader.readChunkedBody(limit: core.maxRequestBodyBytes)
            }
        } catch {
            switch error {
            case .closed:
                return .closed
            case .rejected(let status, let reason):
                var response = LoopbackResponse.text("\(reason)\n", status: status)
                response.headers["Connection"] = "close"
                if write(response, method: "GET", keepAlive: false) != .reset { Socket.finishSendingAndDrain(fd) }
                return .closed
            }
        }

        let request = LoopbackRequest(
            method: head.method, target: head.target, version: head.version,
            headers: head.headers, body: body, connectionID: id
        )
        core.record(request)
        guard let response = core.answer(request) else { return .closed }
        let keepAlive = wantsKeepAlive(request) && !response.headers.lists("Connection", token: "close")
        return write(response, method: request.method, keepAlive: keepAlive)
    }

    private func wantsKeepAlive(_ request: LoopbackRequest) -> Bool {
        if request.headers.lists("Connection", token: "close") { return false }
        if request.version == "HTTP/1.0" { return request.headers.lists("Connection", token: "keep-alive") }
        return true
    }

    /// Writes a response, applying its fault.
    private func write(_ response: LoopbackResponse, method: String, keepAlive: Bool) -> Outcome {
        switch response.fault {
        case .resetConnection?:
            return .reset
        case .stall?:
            core.waitForShutdown()
            return .closed
        case .raw(let bytes)?:
            guard bytes.withUnsafeBytes({ Socket.sendAll(fd, $0) }) else { return .closed }
            Socket.finishSendingAndDrain(fd)
            return .closed
        case .delayHeaders(let delay)?:
            guard core.pause(delay) else { return .closed }
        default:
            break
        }

        let sendsBody = response.carriesBody(forMethod: method)
        let framedByHandler = response.headers.contains("Content-Length") || response.headers.contains("Transfer-Encoding")
        let chunked = (response.chunked || response.stream != nil) && !framedByHandler && sendsBody
        guard Socket.sendAll(fd, head(of: response, chunked: chunked, framedByHandler: framedByHandler, keepAlive: keepAlive))
        else { return .closed }
        guard sendsBody else { return keepAlive ? .open : .closed }

        var body = response.body[...]
        var pieceSize = chunked ? 16 * 1024 : max(body.count, 1)
        var pause: Duration?
        var stopAfter: Int?
        switch response.fault {
        case .throttleBody(let chunk, let every)?:
            pieceSize = max(1, chunk)
            pause = every
        case .closeMidBody(let afterBytes)?:
            stopAfter = max(0, afterBytes)
        default:
            break
        }
        if let stopAfter { body = body.prefix(stopAfter) }

        var first = true
        while !body.isEmpty {
            if let pause, !first { guard core.pause(pause) else { return .closed } }
            first = false
            let piece = body.prefix(pieceSize)
            body = body.dropFirst(piece.count)
            guard send(piece, chunked: chunked) else { return .closed }
        }
        if stopAfter != nil { return .closed }
        if let stream = response.stream {
            while let piece = core.run(stream.next) {
                guard let piece else { break }
                guard piece.isEmpty || send(piece, chunked: chunked) else {
                    stream.ended(true)
                    return .closed
                }
            }
            if core.isShutDown {
                stream.ended(true)
                return .closed
            }
            stream.ended(false)
        }
        if chunked { guard Socket.sendAll(fd, Array("0\r\n\r\n".utf8)) else { return .closed } }
        return keepAlive ? .open : .closed
    }

    private func send(_ piece: Data, chunked: Bool) -> Bool {
        if chunked {
            guard Socket.sendAll(fd, Array("\(String(piece.count, radix: 16))\r\n".utf8)) else { return false }
        }
        let sent = piece.withUnsafeBytes { Socket.sendAll(fd, $0) }
        guard sent else { return false }
        return chunked ? Socket.sendAll(fd, [13, 10]) : true
    }

    /// The status line and header fields, ending with the empty line.
    private func head(of response: LoopbackResponse, chunked: Bool, framedByHandler: Bool, keepAlive: Bool) -> [UInt8] {
        func clean(_ text: String) -> String {
            String(text.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : Character($0) })
        }
        var text = "HTTP/1.1 \(response.status) \(LoopbackResponse.reason(for: response.status))\r\n"
        for field in response.headers {
            text += "\(clean(field.name)): \(clean(field.value))\r\n"
        }
        let status = response.status
        if !framedByHandler && !(100..<200).contains(status) && status != 204 && status != 304 {
            text += chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: \(response.body.count)\r\n"
        }
        if !keepAlive && !response.headers.lists("Connection", token: "close") {
            text += "Connection: close\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }
}
