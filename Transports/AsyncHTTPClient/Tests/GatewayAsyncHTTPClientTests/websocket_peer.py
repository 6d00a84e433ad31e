# A scripted WebSocket server on the websockets package (nobody here wrote it), on 127.0.0.1,
# for the frame-level checks of NIOWebSocketTransport. The path picks the script:
#
#   /fragments  sends one text message in three fragments, then "whole", then echoes one
#               message back as "echo:<text>" and closes with 4000 "done"
#   /ping       pings with b"abc", and once the pong came sends "pong received" and closes 4000
#   /big        sends a text message of 2,048 bytes and waits for the client to close
#   /binary     sends a binary message and waits for the client to close
#   /echo       echoes every text message until the client closes
#   /closes?NAME  waits (at most 10 s) until the script NAME above has seen the client's close,
#               sends its code and reason as JSON ([1009, "…"]), then closes with 1000
#   /refuse     answers the handshake with 401
#
#   python3 websocket_peer.py
#
# Prints "READY <port>" once it accepts connections, or "MISSING <module>" when websockets is
# not installed. It ends when its standard input (a pipe the test process holds) reaches its end.
import asyncio
import json
import os
import sys
import threading
from collections import defaultdict
from http import HTTPStatus

try:
    from websockets.asyncio.server import serve
    from websockets.exceptions import ConnectionClosed
except ImportError as missing:
    print("MISSING", missing, flush=True)
    sys.exit(0)

CLOSES = {}
CLOSED = defaultdict(asyncio.Event)


def record(ws, name):
    CLOSES[name] = [ws.close_code, ws.close_reason]
    CLOSED[name].set()


async def wait_for_close(ws, name):
    try:
        async for _ in ws:
            pass
    except ConnectionClosed:
        pass
    record(ws, name)


async def handler(ws):
    path = ws.request.path
    if path == "/fragments":
        await ws.send(["frag", "mented ", "message"])
        await ws.send("whole")
        text = await ws.recv()
        await ws.send("echo:" + text)
        await ws.close(4000, "done")
    elif path == "/ping":
        waiter = await ws.ping(b"abc")
        await asyncio.wait_for(waiter, 10)
        await ws.send("pong received")
        await ws.close(4000, "done")
    elif path == "/big":
        await ws.send("x" * 2048)
        await wait_for_close(ws, "big")
    elif path == "/binary":
        await ws.send(b"\x00\x01")
        await wait_for_close(ws, "binary")
    elif path == "/echo":
        try:
            async for message in ws:
                await ws.send(message)
        except ConnectionClosed:
            pass
        record(ws, "echo")
    elif path.startswith("/closes?"):
        name = path.split("?", 1)[1]
        try:
            await asyncio.wait_for(CLOSED[name].wait(), 10)
        except asyncio.TimeoutError:
            pass
        await ws.send(json.dumps(CLOSES.get(name)))
        await ws.close(1000)


def process_request(connection, request):
    if request.path == "/refuse":
        return connection.respond(HTTPStatus.UNAUTHORIZED, "no\n")
    return None


def end_with_the_tests():
    sys.stdin.buffer.read()
    os._exit(0)


async def main():
    threading.Thread(target=end_with_the_tests, daemon=True).start()
    async with serve(handler, "127.0.0.1", 0, process_request=process_request, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        print("READY", port, flush=True)
        await asyncio.Future()


asyncio.run(main())
