"""The ask view on the sample graph (real FalkorDB, offline model): what a person would
see in the rendered HTML for answered, abstained, ambiguous and failed questions."""

from __future__ import annotations

import html
import re
import socket
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import REPO
from widgets.ask import AskView
from widgets.session import Session
from zehn.config import Settings
from zehn.engine.answer import CitedAnswer
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
_VOID = {"br", "img", "hr", "input", "meta", "link", "wbr"}


class _ByClass(HTMLParser):
    """Text and attributes of every element carrying a CSS class, nested tags flattened."""

    def __init__(self, css_class: str) -> None:
        super().__init__(convert_charrefs=True)
        self.css_class = css_class
        self.found: list[tuple[dict[str, str | None], list[str]]] = []
        self._open: list[tuple[int, int]] = []  # (index in found, depth)
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        self._depth += 1
        if self.css_class in (dict(attrs).get("class") or "").split():
            self._open.append((len(self.found), self._depth))
            self.found.append((dict(attrs), []))

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        self._open = [(i, d) for i, d in self._open if d < self._depth]
        self._depth -= 1

    def handle_data(self, data: str) -> None:
        for i, _ in self._open:
            self.found[i][1].append(data)


def elements(page: str, css_class: str) -> list[tuple[dict[str, str | None], str]]:
    parser = _ByClass(css_class)
    parser.feed(page)
    return [(attrs, "".join(texts)) for attrs, texts in parser.found]


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.fixture(scope="module")
def sample(settings: Settings) -> Iterator[tuple[GraphClient, str]]:
    client = GraphClient.connect(settings)
    report = build_graph(client, "widgets_ask", REPO / "data" / "sample", "rules")
    yield client, report.graph
    client.delete_graph(report.graph)
    client.close()


@pytest.fixture
def session(settings: Settings, sample: tuple[GraphClient, str]) -> Session:
    client, graph = sample
    return Session(settings, client, graph=graph, policy=load_policy("production"))


def _stored(client: GraphClient, graph: str, sentence_id: str) -> str:
    query = "MATCH (s:Sentence {id: $id}) RETURN s.text"
    return str(client.read(graph, query, {"id": sentence_id}).scalar())


def test_an_answered_question_shows_numbered_verbatim_citations(
    session: Session, sample: tuple[GraphClient, str]
) -> None:
    client, graph = sample
    seen: list[CitedAnswer] = []
    view = AskView(session, on_answer=seen.append)
    answer = view.ask("If I change origin-mapper, what breaks?")
    assert seen == [answer] and view.answer is answer
    page = view.result.value

    [(status, label)] = elements(page, "zehn-status")
    assert status["data-status"] == "answered" and "Answered" in label
    citations = elements(page, "zehn-citation")
    assert len(citations) == len(answer.citations) > 0
    quotes = [text for _, text in elements(page, "zehn-quote")]
    for (attrs, shown), citation, quote in zip(citations, answer.citations, quotes, strict=True):
        assert attrs["data-n"] == str(citation.n)
        assert f"[{citation.n}]" in text_of(page)
        assert quote == _stored(client, graph, citation.id) == citation.quote
        assert citation.title in shown and citation.id in shown
        assert citation.date and citation.date[:10] in shown
        assert citation.source_type in shown
    assert "EVALUATION MODE" not in page
    assert elements(page, "zehn-limitations")
    assert "<iframe" in view.graph.frame.value and view.graph.layout.display is None


def test_the_log_streams_each_call_with_counts_and_time(session: Session) -> None:
    view = AskView(session)
    snapshots: list[str] = []
    view.investigation.observe(lambda change: snapshots.append(str(change["new"])), names="value")
    answer = view.ask("If I change origin-mapper, what breaks?")
    log = view.investigation.value
    assert elements(log, "zehn-log")
    calls = elements(log, "zehn-log-call")
    results = elements(log, "zehn-log-result")
    assert [a["data-query"] for a, _ in calls][:2] == ["find_entities", "downstream_impact"]
    assert calls[0][0]["data-by"] == "engine" and "called by engine" in calls[0][1]
    assert "origin-mapper" in calls[0][1]
    for (attrs, text), record in zip(results, answer.tool_calls, strict=True):
        assert attrs["data-query"] == record.query
        assert attrs["data-returned"] == str(len(record.returned_ids))
        assert f"{len(record.returned_ids)} evidence IDs in" in text and text.endswith(" ms")
        assert " results, " in text
    assert any(
        a["data-query"] == "downstream_impact" and a["data-returned"] != "0" for a, _ in results
    )
    # streamed: the log changed once per event, not once at the end
    assert len(snapshots) >= len(calls) + len(results)


def test_an_unsupported_question_says_i_dont_know_and_why(session: Session) -> None:
    view = AskView(session)
    answer = view.ask("Does query-planner call the indexer directly?")
    page = view.result.value
    assert elements(page, "zehn-status")[0][0]["data-status"] == "abstained"
    [(_, idk)] = elements(page, "zehn-idk")
    assert idk == "I don't know"
    [(_, reason)] = elements(page, "zehn-reason")
    assert answer.reason and answer.reason in reason and "no source states it" in reason
    assert not elements(page, "zehn-citation")


def test_an_ambiguous_name_lists_every_identity(session: Session) -> None:
    view = AskView(session)
    answer = view.ask("What does Redwood Inference depend on?")
    page = view.result.value
    assert elements(page, "zehn-status")[0][0]["data-status"] == "ambiguous"
    identities = elements(page, "zehn-identity")
    assert {a["data-kind"] for a, _ in identities} == {"team", "service", "customer"}
    for (attrs, text), identity in zip(identities, answer.identities, strict=True):
        assert attrs["data-id"] == identity.id
        assert identity.name in text and identity.kind in text and identity.id in text
        assert identity.evidence and all(s in text for s in identity.evidence)
    assert view.graph.layout.display == "none"


def test_switching_to_evaluation_shows_the_badge_and_it_travels_with_the_answer(
    session: Session,
) -> None:
    view = AskView(session)
    assert "EVALUATION MODE" not in view.policy_line.value
    session.policy = load_policy("evaluation")
    assert elements(view.policy_line.value, "zehn-badge")[0][1].startswith("EVALUATION MODE")
    view.ask("If I change auth-gateway, what breaks?")
    [(_, shown)] = elements(view.result.value, "zehn-badge")
    assert shown == "EVALUATION MODE · policy evaluation"
    session.policy = load_policy("production")
    assert "EVALUATION MODE" not in view.policy_line.value


def test_a_down_server_is_an_error_box_not_a_traceback(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = Settings(home=tmp_path, falkordb_url=f"redis://127.0.0.1:{port}")
    session = Session(settings, graph="sample__rules", policy=load_policy("production"))
    view = AskView(session)
    answer = view.ask("Who owns search-api?")
    page = view.result.value
    assert answer.status == "error" and "GraphUnavailable" in (answer.reason or "")
    assert elements(page, "zehn-status")[0][0]["data-status"] == "error"
    [(_, box)] = elements(page, "zehn-error")
    assert box.startswith("GraphUnavailable")
    assert elements(page, "zehn-idk")[0][1] == "I don't know"
    assert "Traceback" not in page + view.investigation.value
    assert elements(view.investigation.value, "zehn-log-error")


def test_a_chinese_question_is_answered_in_chinese_with_mentions_marked_by_span(
    session: Session, sample: tuple[GraphClient, str]
) -> None:
    client, graph = sample
    view = AskView(session)
    answer = view.ask("如果我修改 indexer，哪些服务会受影响？")
    page = view.result.value
    assert answer.status == "answered" and answer.language == "zh"
    assert '<div class="zehn-answer" lang="zh-Hans">' in page
    [(_, text)] = elements(page, "zehn-answer-text")
    assert text.startswith("如果 indexer 发生变更，以下各项有风险")
    quotes = re.findall(
        r'<blockquote class="zehn-quote" lang="([^"]+)"[^>]*>(.*?)</blockquote>', page
    )
    chinese = [(lang, body) for lang, body in quotes if "依赖" in body]
    assert chinese and all(lang == "zh-Hans" for lang, _ in chinese)
    assert any(lang == "en" for lang, _ in quotes)  # English sources stay English
    for citation in answer.citations:  # verbatim, in the source's language
        assert citation.quote == _stored(client, graph, citation.id)
    body = next(b for _, b in chinese if "feed-builder 依赖 search-api" in text_of(b))
    assert re.findall(r"<mark>(.*?)</mark>", body) == ["feed-builder", "search-api"]
    assert text_of(body) == "feed-builder 依赖 search-api 获取候选文档。"


def test_a_chinese_abstention_reads_wo_bu_zhi_dao_with_the_reason(session: Session) -> None:
    view = AskView(session)
    answer = view.ask("recs-ranker 是否调用 auth-gateway？")
    page = view.result.value
    assert answer.status == "abstained" and answer.answer == "我不知道"
    [(_, idk)] = elements(page, "zehn-idk")
    assert idk == "我不知道"
    [(_, reason)] = elements(page, "zehn-reason")
    assert reason.startswith("原因：") and "no source states it" in reason


def test_a_two_part_question_shows_each_part_with_its_own_status(session: Session) -> None:
    view = AskView(session)
    answer = view.ask("What depends on the indexer, and what port does search-api use?")
    page = view.result.value
    parts = elements(page, "zehn-part")
    assert [attrs["data-status"] for attrs, _ in parts] == ["answered", "abstained"]
    assert [p.status for p in answer.parts] == ["answered", "abstained"]
    _, second = parts[1]
    assert "what port does search-api use?" in second.lower()
    assert "asks for the port of search-api" in second  # the part says why, on its own
    numbers = {c.n for c in answer.answer_citations}
    assert [a["data-n"] for a, _ in elements(page, "zehn-citation")][: len(numbers)] == [
        str(n) for n in sorted(numbers)
    ]


def test_related_context_is_set_apart_and_never_shown_as_the_answer(session: Session) -> None:
    view = AskView(session)
    answer = view.ask("What port does search-api listen on?")
    page = view.result.value
    [(status, _)] = elements(page, "zehn-status")
    assert status["data-status"] == "abstained" and answer.related
    [(_, related)] = elements(page, "zehn-related")
    assert "not the answer" in related
    assert len(elements(page, "zehn-related-item")) == len(answer.related)
    # its quotes are under "Related", never in the answer's citation list
    assert not elements(page, "zehn-citations")
    related_quotes = elements(page, "zehn-related-citations")
    assert related_quotes and all(c.quote in text_of(page) for c in answer.citations)


def test_a_citation_found_by_search_is_marked(
    session: Session, sample: tuple[GraphClient, str]
) -> None:
    client, graph = sample
    client.copy_graph(graph, f"{graph}_noaffects")
    try:
        client.write(
            f"{graph}_noaffects", "MATCH ()-[r:RELATES {rel_type: 'AFFECTS'}]->() DELETE r"
        )
        searching = Session(
            session.settings, client, graph=f"{graph}_noaffects", policy=session.policy
        )
        view = AskView(searching)
        answer = view.ask("What does origin-mapper affect?")
        assert answer.status == "answered"
        marks = elements(view.result.value, "zehn-found-by")
        assert len(marks) == len(answer.answer_citations) > 0
        assert all(attrs["data-found-by"] == "search" for attrs, _ in marks)
    finally:
        client.delete_graph(f"{graph}_noaffects")
