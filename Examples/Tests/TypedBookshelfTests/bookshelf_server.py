# The bookshelf API of Examples/Schemas/bookshelf.graphql, served by ariadne (a GraphQL server
# nobody here wrote, on graphql-core) through the standard library's WSGI server on 127.0.0.1.
# The resolvers answer with fixed data and store nothing, so tests may run in any order.
#
#   python3 bookshelf_server.py SCHEMA-FILE
#
# Prints "READY <port>" once it accepts connections, or "MISSING <module>" when ariadne is not
# installed. It ends when its standard input (a pipe the test process holds) reaches its end.
import os
import sys
import threading

try:
    from ariadne import MutationType, QueryType, make_executable_schema
    from ariadne.wsgi import GraphQL
except ImportError as missing:
    print("MISSING", missing, flush=True)
    sys.exit(0)
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

BOOKS = [
    {"id": "1", "title": "The Dispossessed", "author": "Ursula K. Le Guin", "year": 1974},
    {"id": "2", "title": "A Wizard of Earthsea", "author": "Ursula K. Le Guin", "year": 1968},
    {"id": "3", "title": "Beloved", "author": "Toni Morrison", "year": 1987},
    {"id": "4", "title": "Kindred", "author": "Octavia E. Butler", "year": None},
]

query, mutation = QueryType(), MutationType()


@query.field("book")
def book(_, info, id):
    return next((book for book in BOOKS if book["id"] == id), None)


@query.field("books")
def books(_, info, author=None, first=10):
    return [book for book in BOOKS if author is None or book["author"] == author][:first]


@mutation.field("addBook")
def add_book(_, info, input):
    # The new book always gets the id "100"; nothing is stored.
    return {"id": "100", "title": input["title"], "author": input["author"], "year": input.get("year")}


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def end_with_the_tests():
    sys.stdin.buffer.read()
    os._exit(0)


schema = make_executable_schema(open(sys.argv[1], encoding="utf-8").read(), query, mutation)
server = make_server("127.0.0.1", 0, GraphQL(schema), server_class=Server, handler_class=QuietHandler)
threading.Thread(target=end_with_the_tests, daemon=True).start()
print("READY", server.server_port, flush=True)
# Nobody reads standard error once the server is up: a full pipe must not stop it.
os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
server.serve_forever()
