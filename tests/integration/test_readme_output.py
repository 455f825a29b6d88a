"""The README's sample output is what the demo prints (issue 30, item 6): every line of the
README's answer block, "…" standing for what it leaves out, is a line of the real rendering of
that question on the sample graph, and the ingest line's counts are the build's."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.conftest import REPO
from zehn.config import Settings
from zehn.engine import Engine
from zehn.engine.render import render_answer
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.review.stats import audit_summary
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
README = REPO / "README.md"
QUESTION = "If I change origin-mapper, what breaks?"


@pytest.fixture(scope="module")
def sample(settings: Settings) -> Iterator[tuple[GraphClient, str, int, int]]:
    client = GraphClient.connect(settings)
    report = build_graph(client, "readme_sample", REPO / "data" / "sample", "rules")
    yield client, report.graph, report.ingest.documents, report.ingest.sentences
    client.delete_graph(report.graph)
    client.close()


def _answer_block() -> list[str]:
    """The README's code block right after its ``zehn ask`` example."""
    text = README.read_text(encoding="utf-8")
    at = text.index(f'zehn ask "{QUESTION}" --graph sample\n```')
    block = text[at:].split("```", 3)[2]
    return [line for line in block.splitlines() if line.strip() and line.strip() != "…"]


def test_the_readme_answer_is_the_one_the_sample_gives(
    sample: tuple[GraphClient, str, int, int],
) -> None:
    client, graph, _, _ = sample
    engine = Engine(
        client,
        graph,
        load_policy("production"),
        OfflineModel(),
        annotators={"audit": audit_summary},
    )
    shown = render_answer(engine.ask(QUESTION)).splitlines()
    for line in _answer_block():
        pattern = ".*".join(re.escape(part) for part in line.split("…"))
        assert any(re.fullmatch(pattern, real) for real in shown), f"README says {line!r}"


def test_the_readme_ingest_counts_are_the_builds(
    sample: tuple[GraphClient, str, int, int],
) -> None:
    _, _, documents, sentences = sample
    text = README.read_text(encoding="utf-8")
    assert f"{documents} documents, {sentences} sentences" in text
