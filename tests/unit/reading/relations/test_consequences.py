"""A failure's stated consequence is an AFFECTS (issue 28, item 5), on invented sentences:
three forms per language, and the forms that state no consequence."""

from __future__ import annotations

import pytest

from zehn.corpus.model import SourceText
from zehn.reading.model import Entity
from zehn.reading.names.catalog import Catalog
from zehn.reading.references.reader import read_corpus
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import chunk_sentences, split_sentences

CATALOG = Catalog(
    (
        Entity("auth-db", "datastore"),
        Entity("login-api", "service"),
        Entity("鉴权库", "datastore"),
        Entity("登录服务", "service"),
    )
)


def _edges(text: str) -> set[tuple[str, str, str, bool]]:
    chunks, sentences = chunk_sentences("doc/n-md", split_sentences("doc/n-md", text))
    document = SourceText("doc/n-md", "Notes", text, tuple(chunks), tuple(sentences))
    _, read = read_corpus([document], CATALOG)
    return {
        (e.subject.split(":")[1], e.rel_type, e.object.split(":")[1], e.hedged)
        for sentence, mentions in read
        for e in sentence_edges(sentence, mentions, "rules")[0]
    }


@pytest.mark.parametrize(
    "text",
    [
        "If auth-db is down, login-api cannot issue new sessions.",
        "When the auth-db crashes, the login-api stops accepting requests.",
        "Without auth-db, login-api will not work.",
        "如果鉴权库宕机，登录服务无法签发令牌。",
        "鉴权库不可用时，登录服务会失败。",
        "一旦鉴权库故障，登录服务将停止接收请求。",
    ],
)
def test_an_outage_and_its_stated_consequence_are_an_affects(text: str) -> None:
    edges = _edges(text)
    cause, effect = ("auth-db", "login-api") if "auth" in text else ("鉴权库", "登录服务")
    assert (cause, "AFFECTS", effect, False) in edges


def test_a_possible_consequence_is_hedged() -> None:
    assert ("auth-db", "AFFECTS", "login-api", True) in _edges(
        "If auth-db is down, login-api may not work."
    )


@pytest.mark.parametrize(
    "text",
    [
        "If auth-db fails to start, check login-api's logs.",  # no outage: a failure to do
        "If auth-db is down, login-api retries every minute.",  # no consequence stated
        "If you deploy auth-db, login-api cannot be reached.",  # the condition is no outage
        "如果鉴权库升级，登录服务需要重新配置。",  # a change, and no consequence word
    ],
)
def test_a_condition_without_an_outage_or_a_consequence_states_none(text: str) -> None:
    assert not {e for e in _edges(text) if e[1] == "AFFECTS"}
