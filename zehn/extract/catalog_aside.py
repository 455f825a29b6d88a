"""Load a large catalog in a forked process while the build ingests its documents.

Parsing YAML is Python work on one core (about 0.6 s for 10k entities, 3 s for 50k), and
ingesting is mostly the server's work plus splitting text: done one after the other, a core
waits each time. A catalog from ``ASIDE_FROM_BYTES`` is therefore parsed in a forked child
that sends the ``Catalog`` back pickled (a few hundredths of a second for 50k entities),
with its entities' writes made and encoded there as well (about a second for 50k entities
that the parent would otherwise spend before reading its first sentence).
Whatever goes wrong aside (a malformed catalog, a child that died, no ``fork``) is settled by
loading the catalog here, so the error a user sees is exactly the one a plain load raises.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from zehn.extract.stream import a_second_core_to_fork
from zehn.extract.write import entity_batches
from zehn.reading.model import Entity
from zehn.reading.names.catalog import Catalog

ASIDE_FROM_BYTES = 32 * 1024  # smaller catalogs load in a few milliseconds


class CatalogLoad:
    """A catalog being loaded: ``result()`` gives it (or raises ``CatalogError``)."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._pool: ProcessPoolExecutor | None = None
        self._future: Future[tuple[Catalog, tuple[str, ...]]] | None = None
        self._loaded: Catalog | None = None
        self._batches: tuple[str, ...] | None = None
        if path is None:
            return
        if not _worth_aside(path):
            self._loaded = Catalog.load(path)  # at once: a bad small catalog fails the build first
            return
        context = multiprocessing.get_context("fork")
        self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        self._future = self._pool.submit(_load_with_batches, path)

    def result(self) -> Catalog | None:
        if self._path is None or self._future is None:
            return self._loaded
        try:
            self._loaded, self._batches = self._future.result()
        except Exception:  # settled below: the plain load raises the real error
            self._loaded = Catalog.load(self._path)
        finally:
            self.close()
            self._future = None
        return self._loaded

    def entity_batches(self, entities: tuple[Entity, ...]) -> tuple[str, ...] | None:
        """The catalog's entity batches, encoded aside (``zehn.extract.write.entity_batches``),
        when ``entities`` are the catalog's own (the very tuple ``result()`` gave); else None."""
        if self._loaded is None or entities is not self._loaded.entities:
            return None
        return self._batches

    def close(self) -> None:
        """Stop the child (a build that failed before it needed the catalog)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _load_with_batches(path: Path) -> tuple[Catalog, tuple[str, ...]]:
    """In the child: the catalog, and its entities' batches made and encoded there too."""
    catalog = Catalog.load(path)
    return catalog, entity_batches(catalog.entities)


def _worth_aside(path: Path) -> bool:
    try:
        size = path.stat().st_size
    except OSError:
        return False  # the plain load names the problem
    return size >= ASIDE_FROM_BYTES and a_second_core_to_fork()
