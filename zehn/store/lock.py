"""One build per graph at a time: a build lock kept on the FalkorDB server itself.

Two builds of one graph share ``<graph>__staging``; run together, one deletes
the other's staging graph mid-build. The lock is a plain key on the server
(``SET key value NX PX ttl``), so every process that can write the graph sees
it, whatever machine it runs on. It expires: a build that is killed frees it
after ``ttl_ms``; a live build renews it from a daemon thread every third of
that. Release and renewal only touch a key that still holds this build's own
token, so a build never frees a lock another build has taken since.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass

from zehn.errors import BuildInProgress, StoreError
from zehn.store.client import GraphClient

_logger = logging.getLogger(__name__)
LOCK_PREFIX = "zehn:build-lock:"
DEFAULT_TTL_MS = 30_000
POLL_S = 0.5
# compare-and-act on the server, in one step: only the holder of the token may renew or delete
_RENEW = (
    "if redis.call('GET', KEYS[1]) == ARGV[1] then "
    "return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end"
)
_RELEASE = (
    "if redis.call('GET', KEYS[1]) == ARGV[1] then "
    "return redis.call('DEL', KEYS[1]) else return 0 end"
)
_TAKE_OVER = (
    "if redis.call('GET', KEYS[1]) == ARGV[1] then "
    "return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) else return nil end"
)
# the tokens of the locks this process holds now: a lock that names this process but is not
# among them was left by a build of ours that failed to release it (the server went away)
_HELD: set[str] = set()
_HELD_GUARD = threading.Lock()


@dataclass(frozen=True)
class LockHolder:
    """Who holds a graph's build lock: what a waiting build tells its user."""

    graph: str
    pid: int
    host: str
    since: str
    token: str = ""

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host}, since {self.since}"

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, graph: str, raw: object) -> LockHolder:
        """The stored holder; a value this module did not write is still named, not trusted."""
        try:
            data = json.loads(str(raw))
            return cls(
                graph, int(data["pid"]), str(data["host"]), str(data["since"]), str(data["token"])
            )
        except (ValueError, TypeError, KeyError):
            return cls(graph, 0, "an unknown host", "an unknown time", str(raw))

    def error(self) -> BuildInProgress:
        return BuildInProgress(self.graph, self.pid, self.host, self.since)


WaitCallback = Callable[[LockHolder], None]


def lock_key(graph: str) -> str:
    return LOCK_PREFIX + graph


def current_holder(client: GraphClient, graph: str) -> LockHolder | None:
    """The build holding ``graph``'s lock now, or None when no build runs."""
    raw = client.server_command("GET", lock_key(graph))
    return None if raw is None else LockHolder.from_json(graph, raw)


def _left_by_this_process(holder: LockHolder) -> bool:
    """A lock naming this very process that none of its builds holds: certainly stale. (A
    dead pid elsewhere is not trusted: another container may share the host name.)"""
    if holder.pid != os.getpid() or holder.host != socket.gethostname():
        return False
    with _HELD_GUARD:
        return holder.token not in _HELD


class BuildLock:
    """The build lock of one graph; ``held()`` takes it for the length of a ``with`` block."""

    def __init__(self, client: GraphClient, graph: str, *, ttl_ms: int = DEFAULT_TTL_MS) -> None:
        if ttl_ms < 100:
            raise ValueError(f"ttl_ms must be at least 100, not {ttl_ms}")
        self.client = client
        self.graph = graph
        self.ttl_ms = ttl_ms
        self.me = LockHolder(
            graph,
            os.getpid(),
            socket.gethostname(),
            time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            uuid.uuid4().hex,
        )
        self.lost = False  # set when a renewal found the lock no longer ours
        self._stop = threading.Event()
        self._renewer: threading.Thread | None = None

    @property
    def key(self) -> str:
        return lock_key(self.graph)

    @property
    def value(self) -> str:
        """What the key holds while this build has it (its token makes it unique)."""
        return self.me.to_json()

    def try_acquire(self) -> bool:
        """Take the lock if it is free; True when this build now holds it."""
        taken = self.client.server_command(
            "SET", self.key, self.value, "NX", "PX", str(self.ttl_ms)
        )
        if not taken:
            return False
        self._start_renewing()
        return True

    def _take_over(self, stale: str) -> bool:
        """Replace ``stale`` (the exact value stored) by ours, if it is still there."""
        taken = self.client.server_command(
            "EVAL", _TAKE_OVER, "1", self.key, stale, self.value, str(self.ttl_ms)
        )
        if not taken:
            return False
        self._start_renewing()
        return True

    def acquire(self, *, wait_s: float | None = None, on_wait: WaitCallback | None = None) -> None:
        """Take the lock, waiting ``wait_s`` seconds at most (None: as long as it takes; 0:
        not at all). ``on_wait(holder)`` is called once per build that makes us wait.
        Raises ``BuildInProgress`` naming the running build when the wait runs out."""
        deadline = None if wait_s is None else time.monotonic() + max(0.0, wait_s)
        announced: str | None = None
        while not self.try_acquire():
            raw = self.client.server_command("GET", self.key)
            if raw is None:
                continue  # freed between our SET and GET: try again at once
            holder = LockHolder.from_json(self.graph, raw)
            if _left_by_this_process(holder) and self._take_over(str(raw)):
                return
            if deadline is not None and time.monotonic() >= deadline:
                raise holder.error()
            if on_wait is not None and holder.token != announced:
                announced = holder.token
                on_wait(holder)
            time.sleep(POLL_S)

    def release(self) -> None:
        """Stop renewing and delete the key if it is still ours. A release the server cannot
        take (it went away) is only logged: the key expires by itself, and the build's own
        outcome, success or failure, is what the caller must hear."""
        self._stop.set()
        if self._renewer is not None:
            self._renewer.join()
            self._renewer = None
        with _HELD_GUARD:
            _HELD.discard(self.me.token)
        try:
            self.client.server_command("EVAL", _RELEASE, "1", self.key, self.value)
        except StoreError as e:
            _logger.warning("could not release the build lock of %s (%s)", self.graph, e)

    @contextmanager
    def held(
        self, *, wait_s: float | None = None, on_wait: WaitCallback | None = None
    ) -> Iterator[BuildLock]:
        self.acquire(wait_s=wait_s, on_wait=on_wait)
        try:
            yield self
        finally:
            self.release()

    def _start_renewing(self) -> None:
        with _HELD_GUARD:
            _HELD.add(self.me.token)
        self._stop.clear()
        self._renewer = threading.Thread(
            target=self._renew_loop, name=f"zehn-build-lock:{self.graph}", daemon=True
        )
        self._renewer.start()

    def _renew_loop(self) -> None:
        while not self._stop.wait(self.ttl_ms / 3000):
            try:
                renewed = self.client.server_command(
                    "EVAL", _RENEW, "1", self.key, self.value, str(self.ttl_ms)
                )
            except StoreError:
                continue  # the server is away for a moment; the build itself will notice
            if not renewed:  # paused past the ttl, and another build may have taken it since
                self.lost = True
                _logger.warning(
                    "the build lock of %s expired before it was renewed; another build of the "
                    "same graph may be running",
                    self.graph,
                )
                return
