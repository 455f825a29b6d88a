"""GRAPH.COPY without FalkorDB 4.16.3's deadlock: one copy at a time, never beside a fork.

FalkorDB 4.16.3 runs GRAPH.COPY on its cron thread: it takes the module lock (Redis's GIL)
and forks. When the fork fails — Redis refuses a second child while a background save, an
AOF rewrite or another module fork runs ("Can't fork for module: File exists") — it sleeps
5 ms and takes the GIL again without having released it: the thread waits on itself, the
main thread waits for the GIL, and the server never answers again
(docs/reliability.md#a-copy-that-never-came-back). So a copy here waits until no child
process runs, and copies go one at a time through a key on the server (``SET NX PX``), so
two ZEHN processes never fork for copies together. The managed server starts no child of
its own accord (no snapshot points, no automatic AOF rewrite: ``zehn.store.server``).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import redis

from zehn.errors import QueryTimeout

COPY_LOCK = "zehn:graph-copy-lock"
LOCK_TTL_MS = 600_000  # a copy killed with its process frees the lock after this
DEFAULT_WAIT_S = 300.0
CHILD_FIELDS = ("rdb_bgsave_in_progress", "aof_rewrite_in_progress", "module_fork_in_progress")
_POLL_S = 0.05
_RELEASE = (
    "if redis.call('GET', KEYS[1]) == ARGV[1] then "
    "return redis.call('DEL', KEYS[1]) else return 0 end"
)


@contextmanager
def no_fork_beside(connection: redis.Redis, *, wait_s: float = DEFAULT_WAIT_S) -> Iterator[None]:
    """Hold the copy lock, with no child process running on the server, for the block."""
    token = uuid.uuid4().hex
    deadline = time.monotonic() + wait_s
    while not connection.set(COPY_LOCK, token, nx=True, px=LOCK_TTL_MS):
        _wait_or_fail(deadline, wait_s, "another graph copy")
    try:
        while child_running(connection):
            _wait_or_fail(deadline, wait_s, "a background save or AOF rewrite")
        yield
    finally:
        connection.eval(_RELEASE, 1, COPY_LOCK, token)


def child_running(connection: redis.Redis) -> bool:
    """True while the server has a child process (a save, an AOF rewrite, a module fork)."""
    persistence = connection.info("persistence")
    return any(int(persistence.get(field, 0)) for field in CHILD_FIELDS)


def _wait_or_fail(deadline: float, wait_s: float, what: str) -> None:
    if time.monotonic() >= deadline:
        raise QueryTimeout(
            f"the graph copy did not start: {what} was still running after {wait_s:g} s "
            "(copying beside it would hang the server); try again",
            timeout_ms=int(wait_s * 1000),
        )
    time.sleep(_POLL_S)
