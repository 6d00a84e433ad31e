import Foundation
import GatewayTestSupport
import Testing

/// uvicorn (with the `websockets` package) on 127.0.0.1 serving two apps nobody here wrote the
/// server side of: `/echo`, an ASGI app that echoes text and closes on "close <code> <reason>",
/// and `/graphql`, strawberry-graphql over graphql-transport-ws with a counting subscription.
/// One per test process, started on first use off the cooperative pool; it exits with the test
/// process.
enum WebSocketPeer {
    /// What the skip names.
    static let server = ThirdPartyServer(
        name: "uvicorn with websockets and strawberry-graphql",
        install: "python3 -m pip install -r .ci/requirements.txt (uvicorn 0.54.0, websockets 17.4, "
            + "strawberry-graphql 0.341.2)")

    /// The running server, or `nil` when a module it needs is not installed.
    static let shared = Task<PythonPeer?, any Error> { try await PythonPeer.launch(script: script) }

    /// Whether the server runs (for `.requires`).
    static func isRunning() async throws -> Bool { try await shared.value != nil }

    /// `ws://127.0.0.1:<port><path>`.
    static func url(_ path: String) async throws -> URL {
        let peer = try #require(try await shared.value)
        return try #require(URL(string: "ws://127.0.0.1:\(peer.port)\(path)"))
    }

    private static let script = """
        import asyncio, logging, socket, sys
        from typing import AsyncGenerator

        logging.disable(logging.CRITICAL)
        try:
            import strawberry
            import uvicorn
            import websockets
            from strawberry.asgi import GraphQL
            from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
        except ImportError as missing:
            print("MISSING", missing, flush=True)
            sys.exit(0)


        @strawberry.type
        class Query:
            @strawberry.field
            def hello(self) -> str:
                return "world"


        @strawberry.type
        class Subscription:
            @strawberry.subscription
            async def count(self, to: int) -> AsyncGenerator[int, None]:
                for number in range(1, to + 1):
                    yield number


        graphql = GraphQL(strawberry.Schema(query=Query, subscription=Subscription),
                          subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL])


        # Echoes text; "close <code> <reason>" closes with that code and reason.
        async def echo(scope, receive, send):
            await receive()
            offered = scope.get("subprotocols") or []
            await send({"type": "websocket.accept", "subprotocol": offered[0] if offered else None})
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return
                text = message.get("text") or ""
                if text.startswith("close "):
                    _, code, reason = text.split(" ", 2)
                    await send({"type": "websocket.close", "code": int(code), "reason": reason})
                    return
                await send({"type": "websocket.send", "text": text})


        async def app(scope, receive, send):
            if scope["type"] == "websocket" and scope["path"] == "/echo":
                await echo(scope, receive, send)
            else:
                await graphql(scope, receive, send)


        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        server = uvicorn.Server(uvicorn.Config(app, log_level="critical", lifespan="off", ws="websockets-sansio",
                                               ws_max_size=64 * 1024 * 1024))


        async def main():
            serving = asyncio.ensure_future(server.serve(sockets=[listener]))
            while not server.started:
                if serving.done():
                    return
                await asyncio.sleep(0.01)
            print("READY", listener.getsockname()[1], flush=True)
            await serving


        asyncio.run(main())
        """
}
