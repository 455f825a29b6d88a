"""The version of the code that reads sentences, as a digest of its source.

A graph records the strategy version it was built with (``Meta.fingerprint``). A sentence
strategy's version is this digest: any change to the reading layer or to the sentence
strategies makes a different version, so an incremental build reads every document again
instead of keeping edges an older reader made, and ``zehn eval`` rebuilds a graph an older
reader built instead of scoring it (``zehn.extract.pipeline.graph_is_current``).
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]  # zehn/
# what a sentence strategy's output depends on: the reading layer and the strategies themselves
_SOURCES = ("reading", "extract/base.py", "extract/rules.py", "extract/cooccurrence.py",
            "extract/stream.py", "corpus")  # fmt: skip


@functools.cache
def reader_version() -> str:
    """A short digest of every source file the sentence strategies read with (computed once
    per process: about a hundred small files)."""
    digest = hashlib.sha256()
    for root in _SOURCES:
        path = _PACKAGE / root
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(_PACKAGE)).encode("utf-8"))
            digest.update(file.read_bytes())
    return digest.hexdigest()[:12]
