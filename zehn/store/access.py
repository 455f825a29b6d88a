"""Server users for retrieval: an ACL user that can read graphs and nothing else.

Retrieval only ever sends ``GRAPH.RO_QUERY`` (the server refuses a write inside
one), so it can run as a user whose ACL allows that and what a connection
needs (``PING``, ``INFO``, ``GRAPH.LIST``), and no other command: a write
through it fails twice over (the ACL refuses ``GRAPH.QUERY``, FalkorDB refuses
a write in ``GRAPH.RO_QUERY``). Point ``FALKORDB_URL`` at
``redis://NAME:PASSWORD@host:port`` (see :func:`user_url`) to use it. The
managed server keeps users in its ACL file, so they survive restarts.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from zehn.errors import QueryError
from zehn.store.client import GraphClient

USER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MIN_PASSWORD = 12
# What a read-only retrieval connection sends: queries through RO_QUERY, graph listing,
# the connect-time PING/INFO (the driver asks INFO whether the server is a cluster or a
# sentinel), MODULE LIST for version reports, and CLIENT SETINFO (sent by redis-py on connect).
READ_ONLY_COMMANDS: tuple[str, ...] = (
    "graph.ro_query",
    "graph.explain",
    "graph.list",
    "ping",
    "info",
    "module|list",
    "client|setinfo",
)


def create_readonly_user(client: GraphClient, name: str, password: str) -> None:
    """Create (or reset) ACL user ``name`` that may only read graphs, with ``password``.

    Runs with the privileges of ``client`` (which must be allowed ``ACL SETUSER``).
    Resetting first means an existing user of that name loses any other right.
    """
    _check(name, password)
    rules = ["reset", "on", f">{password}", "~*", "resetchannels", "-@all"]
    rules += [f"+{command}" for command in READ_ONLY_COMMANDS]
    client.server_command("ACL", "SETUSER", name, *rules)
    _save_acl(client)


def delete_user(client: GraphClient, name: str) -> bool:
    """Remove ACL user ``name``; True if it existed."""
    if not USER_NAME.match(name or ""):
        raise QueryError(f"invalid user name {name!r}")
    deleted = bool(client.server_command("ACL", "DELUSER", name))
    _save_acl(client)
    return deleted


def user_url(client: GraphClient, name: str, password: str) -> str:
    """``redis://NAME:PASSWORD@host:port`` for the server ``client`` talks to (quoted)."""
    host, port = client.address()
    return f"redis://{quote(name, safe='')}:{quote(password, safe='')}@{host}:{port}"


def _save_acl(client: GraphClient) -> None:
    """Persist users where the server has an ACL file (the managed server does)."""
    try:
        client.server_command("ACL", "SAVE")
    except QueryError as e:
        if "not configured to use an ACL file" not in str(e):
            raise


def _check(name: str, password: str) -> None:
    if not USER_NAME.match(name or ""):
        raise QueryError(f"invalid user name {name!r}: letters, digits, '_', '.', '-'")
    if name == "default":
        raise QueryError("the default user cannot be made read-only here")
    if len(password) < MIN_PASSWORD:
        raise QueryError(f"a password needs at least {MIN_PASSWORD} characters")
    if any(ch.isspace() or ord(ch) < 32 or ch == "\x7f" for ch in password):
        raise QueryError("a password cannot contain spaces or control characters")
