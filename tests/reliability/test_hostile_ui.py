"""Hostile text in the UI: every view, and the pyvis graph, show markup from sources as text.

A corpus whose sentences, titles, authors, entity names and aliases carry
``<script>``, ``"><img src=x onerror=…>``, ``javascript:`` links, ``<svg
onload>``, a ``</script>`` that tries to end the graph's script, and friends is
extracted, asked about and shown in every view of the workbench. Every HTML
value any view produces (the graph's ``<iframe srcdoc>`` page and the evidence
its click handler inserts included) is parsed: no element or attribute the
payloads try to create exists, and each payload still reads as text. The
browser test (tests/browser) proves in Chromium that none of it runs.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser

import ipywidgets as w
import pytest

from tests.reliability.conftest import SAMPLE, TALLY
from widgets.audit import AuditView
from widgets.graph_view import GraphView
from widgets.session import Session
from widgets.workbench import Workbench
from zehn.config import Settings
from zehn.engine import ANSWERED
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.store.client import GraphClient

PAYLOADS = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    "[x](javascript:alert(3))",
    '<a href="javascript:alert(4)">click</a>',
    "</script><script>alert(5)</script>",
    "<svg onload=alert(6)>",
    '<iframe srcdoc="<script>alert(7)</script>"></iframe>',
    "'-alert(8)-' ${alert(9)} {{constructor.constructor('alert(10)')()}}",
    "<!-- <script>alert(11)</script> -->",
    "<body onload=alert(12)>",
]
NOTE = "\n\n".join(
    f"The indexer feeds search-api {p} every night. The origin-mapper feeds the indexer {p} too."
    for p in PAYLOADS
)
EVIL_ENTITY = "evil<script>alert(50)</script>"
EVIL_ALIAS = '"><img src=x onerror=alert(51)>'
CATALOG_EXTRA = f"""
  - name: {json.dumps(EVIL_ENTITY)}
    kind: service
    aliases: [{json.dumps(EVIL_ALIAS)}, "javascript:alert(52)"]
    owner: null
"""
QUESTION = "If I change origin-mapper, what breaks?"
DANGEROUS_SCHEMES = ("javascript:", "vbscript:", "data:text/html")
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "poster"}
# The graph page's own scripts: vis-network (inlined), pyvis's helpers and drawGraph, our click handler.
OWN_SCRIPTS = 4


@dataclass
class Hostile:
    session: Session
    graph: str


@pytest.fixture(scope="module")
def hostile(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hostile]:
    corpus = tmp_path_factory.mktemp("hostile-ui")
    catalog = (SAMPLE / "catalog.yaml").read_text(encoding="utf-8") + CATALOG_EXTRA
    (corpus / "catalog.yaml").write_text(catalog, encoding="utf-8")
    sources = corpus / "sources"
    shutil.copytree(SAMPLE / "sources" / "meetings", sources / "meetings")
    (sources / "notes").mkdir()
    (sources / "notes" / "evil.md").write_text(
        f"---\ntitle: {json.dumps('Evil ' + PAYLOADS[1] + ' notes')}\n"
        f"author: {json.dumps(PAYLOADS[0])}\ndate: 2024-03-01\n---\n\n{NOTE}\n\n"
        f"The {EVIL_ENTITY} feeds the indexer. The indexer depends on {EVIL_ENTITY}.\n",
        encoding="utf-8",
    )
    (sources / "notes" / "page.html").write_text(
        f"<html><head><title>Page {PAYLOADS[4]}</title></head><body><p>The origin-mapper "
        f'feeds the indexer. <a href="javascript:alert(60)">{PAYLOADS[5]}</a></p></body></html>',
        encoding="utf-8",
    )
    client = GraphClient.connect(settings)
    graph = build_graph(client, f"rel_ui_{uuid.uuid4().hex[:6]}", corpus, "cooccurrence").graph
    session = Session(settings, client, graph=graph, policy=load_policy("production"))
    yield Hostile(session, graph)
    client.delete_graph(graph)


@pytest.mark.integration
def test_every_view_shows_hostile_text_as_text(hostile: Hostile) -> None:
    bench = Workbench(hostile.session)
    answer = bench.ask.ask(QUESTION)
    assert answer.status == ANSWERED, answer.reason
    quotes = " ".join(c.quote for c in answer.citations)
    assert any(p in quotes for p in PAYLOADS), "the hostile sentences were not cited"

    seen = _check(bench.ask, "ask view")
    options = bench.radar.find("indexer origin-mapper " + EVIL_ENTITY)
    assert any("alert(50)" in label for label, _ in options), options
    for _, entity_id in options:
        bench.radar.show(entity_id)
        seen += _check(bench.radar, f"impact radar: {entity_id}")
        bench.explorer.search(entity_id.partition(":")[2] or entity_id)
        bench.explorer.select(entity_id)
        seen += _check(bench.explorer, f"explorer: {entity_id}")
    history_id = bench.history.record(dataclasses.replace(answer, question=NOTE))
    assert history_id is not None
    assert bench.history.choice.value == history_id, "Reopen would not reopen what is shown"
    bench.history.reopen(history_id)
    bench.observatory.refresh()
    audit = AuditView(hostile.session, reviewer=PAYLOADS[1], n=40)
    for _ in audit.items:
        _check(audit, "audit view")
        audit.record("correct", note=PAYLOADS[0])
        audit.next()
    audit.stats()
    seen += _check(bench, "workbench") + _check(audit, "audit view, after labelling")
    for payload in (PAYLOADS[0], PAYLOADS[1], "javascript:alert(3)", "alert(50)"):
        assert payload in seen, f"{payload!r} is not shown at all (it must read as text)"
    audit.close()
    bench.close()


@pytest.mark.integration
def test_the_pyvis_graph_keeps_every_payload_inert(hostile: Hostile) -> None:
    answer = hostile.session.engine().ask(QUESTION)
    assert answer.paths
    view = GraphView(answer.paths, {i.id: i.name for i in answer.identities})
    page = view.to_html()
    scripts = _inspect(page, "pyvis page", allowed_scripts=OWN_SCRIPTS).scripts
    evidence = _evidence(page)
    fragments = [*evidence["edges"].values(), *evidence["nodes"].values()]
    shown = " ".join(_check_html(f, "graph evidence") for f in fragments)
    assert any(p in shown for p in PAYLOADS), "the evidence does not show the sentences"
    for script in scripts:  # markup reaches a script only escaped (as &lt; in JSON strings)
        for payload in (p for p in PAYLOADS if "<" in p):
            assert payload not in script, f"{payload!r} raw inside a script of the graph page"
    TALLY["ui: pyvis evidence fragments checked"] += len(fragments)


@pytest.mark.parametrize(
    "unsafe",
    [PAYLOADS[0], PAYLOADS[1], PAYLOADS[3], PAYLOADS[5], PAYLOADS[6], PAYLOADS[9],
     '<iframe class="zehn-graph" srcdoc="&lt;img src=x onerror=alert(1)&gt;"></iframe>',
     "<a href=' JaVaScRiPt:alert(1)'>x</a>", '<meta http-equiv="refresh" content="0;url=x">'],
)  # fmt: skip
def test_the_checker_catches_what_it_looks_for(unsafe: str) -> None:
    """The oracle itself: each unescaped payload is caught (so a pass above means something)."""
    with pytest.raises(AssertionError):
        _check_html(f"<p>{unsafe}</p>", "checker")


# --- the checker ----------------------------------------------------------------------------


def _check(widget: w.Widget, where: str) -> str:
    """Check every HTML value under ``widget``; returns their text, for 'shown as text'."""
    texts = []
    for value in _html_values(widget):
        texts.append(_check_html(value, where))
        TALLY["ui: HTML values checked"] += 1
    return " ".join(texts)


def _html_values(widget: w.Widget) -> Iterator[str]:
    if isinstance(widget, w.HTML | w.HTMLMath):
        yield str(widget.value)
    for child in getattr(widget, "children", ()) or ():
        yield from _html_values(child)


class _Inspector(HTMLParser):
    """Collects text, script bodies and anything a payload could have turned into markup."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.scripts: list[str] = []
        self.problems: list[str] = []
        self.frames: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=…>: an event handler attribute")
            cleaned = re.sub(r"[\s\x00-\x1f]", "", value).lower()
            if name in URL_ATTRIBUTES and cleaned.startswith(DANGEROUS_SCHEMES):
                self.problems.append(f"<{tag} {name}={value!r}>: a script URL")
            if name == "srcdoc":
                self.frames.append(value)
        if tag in ("img", "svg", "object", "embed", "base", "form"):
            self.problems.append(f"<{tag}>: an element no view emits")
        if tag == "meta" and any(name == "http-equiv" for name, _ in attrs):
            self.problems.append("<meta http-equiv>: could refresh or redirect the page")
        if tag == "iframe" and ("class", "zehn-graph") not in attrs:
            self.problems.append("<iframe> that is not the graph view's")
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data
        else:
            self.text.append(data)


def _check_html(html: str, where: str) -> str:
    """Check one HTML value (no script allowed); returns its text."""
    return " ".join(_inspect(html, where, allowed_scripts=0).text)


def _inspect(html: str, where: str, *, allowed_scripts: int) -> _Inspector:
    inspector = _Inspector()
    inspector.feed(html)
    inspector.close()
    assert not inspector.problems, f"{where}: {inspector.problems}"
    assert len(inspector.scripts) <= allowed_scripts, f"{where}: {len(inspector.scripts)} scripts"
    for frame in inspector.frames:  # the graph page, shown through srcdoc
        _inspect(frame, f"{where} (graph page)", allowed_scripts=OWN_SCRIPTS)
    return inspector


def _evidence(page: str) -> dict[str, dict[str, str]]:
    """The JSON the click handler reads (it inserts these fragments with innerHTML)."""
    match = re.search(r"var EVIDENCE = (\{.*?\});\n", page, re.DOTALL)
    assert match, "no evidence in the graph page"
    evidence: dict[str, dict[str, str]] = json.loads(match.group(1))
    return evidence
