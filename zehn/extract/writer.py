"""Batched writes sent in order from one background thread, so that making and encoding the
next batch (Python) overlaps the server writing the previous one.

A build writes its entities, mentions and edges in UNWIND batches; each batch is first
turned into rows and checked and encoded (``zehn.store.client.prepare``), then written by
the server. Done one after the other, one of the two always waits. Here the caller prepares
while a single worker thread sends, in the order given: the graph ends up exactly as with
plain ``client.write`` calls. A value the checks refuse raises in the caller, before it is
sent. The first failed write stops every later one (none is sent after it) and is raised
from the next ``write`` or from ``close``; at most ``depth`` batches wait at a time. When the
caller fails inside ``with``, what it queued before is still written (as plain writes would
have been) and its own error is raised.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from types import TracebackType
from typing import Any

from zehn.store.client import GraphClient, Prepared, QueryResult, prepare


class OrderedWriter:
    """``write`` queues a prepared batch; ``close`` waits for all and raises the first error."""

    def __init__(self, client: GraphClient, graph: str, depth: int = 2) -> None:
        self._client = client
        self._graph = graph
        self._depth = depth
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zehn-writer")
        self._pending: deque[Future[QueryResult | None]] = deque()
        self._failed = threading.Event()

    def write(self, cypher: str, params: Mapping[str, Any]) -> None:
        self.send(prepare(cypher, params))  # here: a refused value raises before sending

    def send(self, prepared: Prepared) -> None:
        """Queue a write already checked and encoded (``prepare``)."""
        while len(self._pending) >= self._depth or (self._pending and self._pending[0].done()):
            self._pending.popleft().result()  # the first failure raises here
        self._pending.append(self._pool.submit(self._send, prepared))

    def _send(self, prepared: Prepared) -> QueryResult | None:
        if self._failed.is_set():  # an earlier write failed: nothing after it is sent
            return None
        try:
            return self._client.write(self._graph, prepared)
        except BaseException:
            self._failed.set()
            raise

    def close(self) -> None:
        """Wait for every queued write; raise the first that failed."""
        try:
            while self._pending:
                self._pending.popleft().result()
        finally:
            self._failed.set()  # anything still queued after a failure is not sent
            self._pool.shutdown(wait=True)

    def __enter__(self) -> OrderedWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if error is None:
            self.close()
            return
        # the caller failed: what it queued before is written, as plain writes would have
        # been; the caller's error is the one raised
        with contextlib.suppress(Exception):
            self.close()
