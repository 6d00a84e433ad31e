# A GraphQL server with subscriptions that nobody here wrote: strawberry-graphql on uvicorn (with the
# websockets package), on 127.0.0.1. It serves multipart subscriptions (subscriptionSpec 1.0),
# graphql-sse's distinct connections mode and graphql-transport-ws at every path, and at `/echo` a
# plain WebSocket app that echoes text. The Swift tests start it (SubscriptionPeer.swift,
# WebSocketPeer.swift, and the CLI's tests); it prints "READY <port>" once it accepts connections,
# and "MISSING <module>" when a module is absent.
import asyncio, logging, socket, sys
from typing import AsyncGenerator

logging.disable(logging.CRITICAL)
try:
    import strawberry
    import uvicorn
    import websockets  # noqa: F401 (uvicorn's "websockets-sansio" WebSocket server below)
    from strawberry.asgi import GraphQL
    from strawberry.subscriptions import (GRAPHQL_SSE_PROTOCOL, GRAPHQL_TRANSPORT_WS_PROTOCOL,
                                         MULTIPART_SUBSCRIPTION_PROTOCOL)
except ImportError as missing:
    print("MISSING", missing, flush=True)
    sys.exit(0)

# Subscriptions that ended on the server, by the name the client gave them.
ENDED: dict[str, asyncio.Event] = {}


def ended(name: str) -> asyncio.Event:
    return ENDED.setdefault(name, asyncio.Event())


@strawberry.type
class Query:
    @strawberry.field
    async def ended(self, name: str) -> bool:
        """Waits (at most 20 s) until the subscription `name` has ended on the server."""
        try:
            await asyncio.wait_for(ended(name).wait(), 20)
            return True
        except asyncio.TimeoutError:
            return False


@strawberry.type
class Subscription:
    @strawberry.subscription
    async def count(self, to: int) -> AsyncGenerator[int, None]:
        """1, 2, … `to`, then the subscription completes."""
        for number in range(1, to + 1):
            yield number

    @strawberry.subscription
    async def hold(self, name: str) -> AsyncGenerator[int, None]:
        """1, then nothing until the client goes away; `ended(name)` then answers true."""
        try:
            yield 1
            await asyncio.Event().wait()
        finally:
            ended(name).set()


schema = strawberry.Schema(query=Query, subscription=Subscription)
graphql = GraphQL(schema, subscription_protocols=[MULTIPART_SUBSCRIPTION_PROTOCOL, GRAPHQL_SSE_PROTOCOL,
                                                 GRAPHQL_TRANSPORT_WS_PROTOCOL])


async def echo(scope, receive, send):
    """Accepts the first subprotocol offered and echoes text; "close <code> <reason>" closes
    with that code and reason."""
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
config = uvicorn.Config(app, log_level="critical", lifespan="off", ws="websockets-sansio",
                        ws_max_size=64 * 1024 * 1024)
server = uvicorn.Server(config)


async def main():
    serving = asyncio.ensure_future(server.serve(sockets=[listener]))
    while not server.started:
        if serving.done():
            return
        await asyncio.sleep(0.01)
    print("READY", listener.getsockname()[1], flush=True)
    await serving


asyncio.run(main())
