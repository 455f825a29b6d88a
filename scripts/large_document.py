"""Time the ingest of one large generated Markdown document at several sizes.

``python scripts/large_document.py 2 5 15`` writes a deterministic invented document of
about 2, 5 and 15 MB (headings, paragraphs, kebab-case component names used many times,
relation sentences and filler) into a temporary folder, builds it with default settings
(``build_graph``, rules, no catalog) in a temporary ``ZEHN_HOME``, and prints seconds,
sentences, parts written and seconds per MB for each. The document is never kept.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from zehn.config import Settings
from zehn.extract.pipeline import build_graph
from zehn.store.client import GraphClient
from zehn.store.server import ManagedServer

NAMES = [f"{a}-{b}" for a in ("ledger", "vault", "router", "relay", "index", "quota")
         for b in ("api", "store", "worker", "queue", "gateway", "cache")]  # fmt: skip
RELATIONS = ("{a} depends on {b}.", "{a} calls {b}.", "{a} reads from {b}.",
             "{a} writes to {b}.", "{a} publishes to {b}.",
             "The {a} service uses {b}.")  # fmt: skip
FILLER = ("The rotation reviewed the dashboards this week.",
          "Latency stayed within the agreed budget.",
          "A postmortem was scheduled for Thursday afternoon.",
          "Capacity planning for the next quarter is still open.")  # fmt: skip


def document(megabytes: float, seed: int = 7) -> str:
    """About ``megabytes`` MB of Markdown: a section every 40 sentences, 5 per paragraph."""
    rng = random.Random(seed)
    target = int(megabytes * 1_000_000)
    parts, size, n = ["# Platform handbook\n\n"], 0, 0
    while size < target:
        if n % 40 == 0:
            parts.append(f"## Section {n // 40}\n\n")
        paragraph = []
        for _ in range(5):
            if rng.random() < 0.4:
                a, b = rng.sample(NAMES, 2)
                paragraph.append(rng.choice(RELATIONS).format(a=a, b=b))
            else:
                paragraph.append(rng.choice(FILLER))
            n += 1
        text = " ".join(paragraph) + "\n\n"
        parts.append(text)
        size += len(text)
    return "".join(parts)


class _Parts:
    """A progress bar that counts files and keeps the last per-part message."""

    def __init__(self, total: int) -> None:
        self.messages: list[str] = []

    def update(self, n: int = 1) -> None:
        return None

    def set_postfix_str(self, text: str) -> None:
        self.messages.append(text)

    def close(self) -> None:
        return None


def main(sizes: list[float]) -> None:
    with tempfile.TemporaryDirectory(prefix="zehn-large-") as tmp:
        home = Path(tmp) / "home"
        client = GraphClient.connect(Settings(home=home))
        try:
            for mb in sizes:
                folder = Path(tmp) / f"doc-{mb}"
                folder.mkdir()
                text = document(mb)
                (folder / "handbook.md").write_text(text, encoding="utf-8")
                bars: list[_Parts] = []

                def progress(total: int, bars: list[_Parts] = bars) -> _Parts:
                    bars.append(_Parts(total))
                    return bars[-1]

                started = time.perf_counter()
                report = build_graph(client, f"large{int(mb * 10)}", folder, progress=progress)
                seconds = time.perf_counter() - started
                parts = len(bars[0].messages) if bars else 0
                print(
                    f"{len(text) / 1e6:5.1f} MB: {seconds:6.1f} s, "
                    f"{report.ingest.sentences:,} sentences, {parts} parts, "
                    f"ingest {report.ingest.elapsed_s:.1f} s, "
                    f"extraction {report.extraction_s:.1f} s, "
                    f"{report.edges:,} edges, {seconds / (len(text) / 1e6):.1f} s/MB",
                    flush=True,
                )
                client.delete_graph(report.graph)
        finally:
            client.close()
            ManagedServer(home).stop()


if __name__ == "__main__":
    main([float(a) for a in sys.argv[1:]] or [2.0, 5.0, 15.0])
