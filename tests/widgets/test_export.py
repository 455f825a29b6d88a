"""Exports from the ask view: the answer as Markdown with its citations (quote, document,
span), the graph as a standalone page, both written under ZEHN_HOME/exports; everything from a
document escaped. The real answer comes from the sample graph on a real FalkorDB."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from widgets.ask import AskView
from widgets.export import EXPORTS, answer_markdown, md
from widgets.session import Session
from zehn.config import Settings
from zehn.engine.answer import Citation, CitedAnswer
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SCRIPT = "<script>alert(1)</script>"
_REMOTE = re.compile(r"<(?:script|link|img|iframe)\b[^>]*(?:src|href)\s*=\s*[\"']?https?:", re.I)


@pytest.fixture(scope="module")
def sample(settings: Settings) -> Iterator[tuple[GraphClient, str]]:
    client = GraphClient.connect(settings)
    report = build_graph(client, "widgets_export", REPO / "data" / "sample", "rules")
    yield client, report.graph
    client.delete_graph(report.graph)
    client.close()


def _invented_answer() -> CitedAnswer:
    quote = f"The quillmap [link](javascript:alert(1)) *reads* from `zorbital` {SCRIPT} | x"
    return CitedAnswer(
        question="# What does quillmap read?",
        status="answered",
        answer="quillmap reads from:\n- zorbital: quillmap READS_FROM zorbital [1]",
        reason=None,
        graph="invented__rules",
        policy={"name": "production"},
        model="offline",
        citations=(
            Citation(
                1,
                "doc/q#10-90",
                "doc/q",
                "email",
                f"Night notes {SCRIPT}",
                quote,
                (10, 90),
                "2024-03-01T00:00:00+00:00",
            ),
        ),
        limitations=("corpus: 1 email",),
    )


def test_markdown_keeps_structure_and_neutralises_the_corpus() -> None:
    text = answer_markdown(_invented_answer())
    lines = text.splitlines()
    assert lines[0] == "# \\# What does quillmap read?"  # the question cannot add a heading
    assert "- zorbital: quillmap READS\\_FROM zorbital [1]" in lines  # the engine's list item
    quote = next(line for line in lines if line.startswith("1. > "))
    assert "&lt;script&gt;" in quote and "<script>" not in text
    assert "\\[link\\](javascript:alert(1))" in quote and "\\*reads\\*" in quote
    assert "\\`zorbital\\`" in quote and "\\| x" in quote
    source = lines[lines.index(quote) + 2]
    assert "Night notes &lt;script&gt;" in source and "document `doc/q`" in source
    assert "span 10–90" in source and "sentence `doc/q#10-90`" in source and "2024-03-01" in source
    assert "## Limitations" in text and "- corpus: 1 email" in text
    assert md("1. x") == "1\\. x" and md("- y") == "\\- y" and md("a & b") == "a &amp; b"


def test_the_ask_view_exports_the_answer_and_its_graph_under_zehn_home(
    settings: Settings, sample: tuple[GraphClient, str]
) -> None:
    client, graph = sample
    view = AskView(Session(settings, client, graph=graph, policy=load_policy("production")))
    assert view.exports.layout.display == "none"  # nothing to export before an answer
    answer = view.ask("If I change origin-mapper, what breaks?")
    assert answer.status == "answered" and answer.paths
    assert not view.exports.graph_button.disabled and not view.exports.answer_button.disabled
    view.exports.answer_button.click()
    written = re.search(r'class="zehn-export-file">([^<]+)</code>', view.exports.path.value)
    assert written, view.exports.path.value
    markdown = Path(written[1])
    assert markdown.parent == settings.home / EXPORTS and markdown.suffix == ".md"
    text = markdown.read_text(encoding="utf-8")
    for citation in answer.answer_citations:
        assert f"sentence `{citation.id}`" in text
        assert f"span {citation.span[0]}–{citation.span[1]}" in text
    view.exports.graph_button.click()
    page_path = Path(re.findall(r'zehn-export-file">([^<]+)<', view.exports.path.value)[0])
    assert page_path.suffix == ".html" and page_path != markdown
    page = page_path.read_text(encoding="utf-8")
    assert page == view.graph.to_html(f"{answer.question} — {answer.graph}")
    assert "vis.Network" in page and "zehn-legend-focus" in page and not _REMOTE.findall(page)
    view.exports.answer_button.click()  # a second export never overwrites the first
    assert len(list((settings.home / EXPORTS).glob("*.md"))) >= 2


def test_an_answer_without_paths_offers_no_graph_export(
    settings: Settings, sample: tuple[GraphClient, str]
) -> None:
    client, graph = sample
    view = AskView(Session(settings, client, graph=graph, policy=load_policy("production")))
    answer = view.ask("What is the capital of France?")
    assert not answer.paths
    assert view.exports.graph_button.disabled and not view.exports.answer_button.disabled
