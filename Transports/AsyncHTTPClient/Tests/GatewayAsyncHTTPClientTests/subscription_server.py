# A GraphQL server with subscriptions over graphql-transport-ws: strawberry-graphql (nobody
# here wrote it) on uvicorn (with the websockets package for WebSocket), on 127.0.0.1.
#
#   python3 subscription_server.py
#
# Prints "READY <port>" once it accepts connections, or "MISSING <module>" when strawberry,
# uvicorn or websockets is not installed. It ends when its standard input (a pipe the test
# process holds) reaches its end.
#
# What the tests read:
# - subscription count(to, expireAfter): 1, 2, … to; with expireAfter N, a socket whose
#   connection_init carried "Bearer old" is closed with 4401 after N results.
# - query completes(token): waits (at most 20 s) until a `complete` message arrived on a socket
#   whose connection_init carried "Bearer <token>", and lists the ids completed there.
# - query inits: the Authorization of every connection_init, in order.
# A connection_init whose Authorization is "Bearer refused" is refused (4403).
import asyncio
import os
import socket
import sys
import threading
from collections import defaultdict
from typing import AsyncGenerator

try:
    import strawberry
    import uvicorn
    import websockets  # noqa: F401  (uvicorn's WebSocket support)
    from strawberry.asgi import GraphQL
    from strawberry.exceptions import ConnectionRejectionError
    from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
    from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler
except ImportError as missing:
    print("MISSING", missing, flush=True)
    sys.exit(0)

COMPLETES = defaultdict(list)
COMPLETED = defaultdict(asyncio.Event)
INITS = []


def authorization(params):
    if isinstance(params, dict):
        return str(params.get("Authorization", ""))
    return ""


@strawberry.type
class Query:
    @strawberry.field
    async def completes(self, token: str) -> list[str]:
        try:
            await asyncio.wait_for(COMPLETED["Bearer " + token].wait(), 20)
        except asyncio.TimeoutError:
            pass
        return COMPLETES["Bearer " + token]

    @strawberry.field
    def inits(self) -> list[str]:
        return INITS


@strawberry.type
class Subscription:
    @strawberry.subscription
    async def count(self, info: strawberry.Info, to: int, expire_after: int = 0) -> AsyncGenerator[int, None]:
        bearer = authorization(info.context.get("connection_params"))
        for number in range(1, to + 1):
            if expire_after and number > expire_after and bearer == "Bearer old":
                await info.context["close"](code=4401, reason="token expired")
                return
            yield number
            await asyncio.sleep(0)


class Handler(BaseGraphQLTransportWSHandler):
    async def handle_connection_init(self, message):
        self.context["close"] = self.websocket.close
        await super().handle_connection_init(message)

    async def handle_complete(self, message):
        bearer = authorization(self.context.get("connection_params"))
        COMPLETES[bearer].append(message["id"])
        COMPLETED[bearer].set()
        await super().handle_complete(message)


class App(GraphQL):
    graphql_transport_ws_handler_class = Handler

    async def on_ws_connect(self, context):
        bearer = authorization(context.get("connection_params"))
        INITS.append(bearer)
        if bearer == "Bearer refused":
            raise ConnectionRejectionError({"reason": "refused"})
        return await super().on_ws_connect(context)


schema = strawberry.Schema(query=Query, subscription=Subscription)
app = App(schema, subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL])


def end_with_the_tests():
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    port = listener.getsockname()[1]
    threading.Thread(target=end_with_the_tests, daemon=True).start()
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", lifespan="off")
    server = uvicorn.Server(config)
    print("READY", port, flush=True)
    server.run(sockets=[listener])


main()
