"""Hostile parameters: every named query, every tool call, and the client's encoding, fuzzed.

Values are arbitrary Unicode plus what breaks quoting: quotes, backslashes (a
trailing one too), newlines, NUL, unpaired surrogates, 64-bit overflows and
Cypher fragments such as ``'}) DETACH DELETE n //``. Whatever arrives, the
database is unchanged afterwards (node and edge counts after every call, the
content checksum at the end) and each call either returns a well-formed
result or raises a typed error; a value the client's CYPHER-header encoding
cannot carry exactly is refused before it is sent.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.reliability.conftest import TALLY, SampleGraph
from tests.reliability.graphprint import counts, graph_print
from zehn.engine import ABSTAINED, AMBIGUOUS, ERROR, Engine
from zehn.engine.tools import ToolExecutor, ToolOutcome
from zehn.errors import InvalidParameters, QueryError, RetrievalError
from zehn.evidence.policy import load_policy
from zehn.models.base import DraftAnswer, Exchange, Question, ToolRequest, ToolSpec
from zehn.queries import QUERIES
from zehn.queries.spec import _CONTROL, NamedQuery, ParamSpec
from zehn.queries.terms import fulltext_query
from zehn.store.client import QueryResult

pytestmark = pytest.mark.integration

CYPHER_FRAGMENTS = [
    "'}) DETACH DELETE n //",
    '"}) DETACH DELETE n //',
    "'}) MATCH (n) DETACH DELETE n RETURN 1 //",
    "\\'}) DETACH DELETE n //\\",
    "*/ MATCH (n) DETACH DELETE n /*",
    "` DELETE n //",
    "$entity_id",
    "' OR 1=1 OR '",
    "CALL db.idx.fulltext.drop('Entity')",
    "}] CREATE (:Pwned) [{",
    "\nMATCH (n) SET n.pwned = true\n",
]
AWKWARD = ["\\", "trailing\\", '"', "'", "\\\\\\", "\x00", "a\x00b", "\n", "\r\n", "\u2028",
           "\ud800", "\udfff", "\ufeff", "\x1b[31m", "\x7f", "", " ", "中文", "🔥", "e\u0301"]  # fmt: skip
HOSTILE_TEXT = st.one_of(
    st.sampled_from(CYPHER_FRAGMENTS + AWKWARD),
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec=None), max_size=20),  # surrogates included
    st.lists(
        st.sampled_from(CYPHER_FRAGMENTS + AWKWARD + ["indexer", "search-api"]), max_size=4
    ).map("".join),
)
HOSTILE_VALUE = st.recursive(
    HOSTILE_TEXT
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.none(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(HOSTILE_TEXT, inner, max_size=3),
    max_leaves=8,
)
FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
POLICY = load_policy("production")
EVALUATION = load_policy("evaluation")
EXACT_LOOKUPS = {"resolve_entity", "downstream_impact", "upstream_dependencies", "neighbours",
                 "mentions", "edge_evidence", "sentence", "path_between",
                 "search_sentences"}  # fmt: skip


def _arguments(query: NamedQuery) -> st.SearchStrategy[dict[str, Any]]:
    """Each declared parameter hostile or absent, sometimes an extra one. Half the time every
    parameter is given, so that a query with three required ones still gets past validation
    often enough to reach the database (it did not always, in 120 examples)."""
    declared = {p.name: HOSTILE_VALUE | _valid(p) for p in query.params}
    extra = st.dictionaries(HOSTILE_TEXT, HOSTILE_VALUE, max_size=1)
    return st.builds(
        lambda given, more: {**more, **given},
        st.fixed_dictionaries(declared) | st.fixed_dictionaries({}, optional=declared),
        extra,
    )


def _valid(param: ParamSpec) -> st.SearchStrategy[Any]:
    """Shapes that pass validation, so hostile text reaches the database too: quotes,
    backslashes and Cypher fragments, without the control characters and unpaired surrogates
    the validator refuses anyway (a list of five would otherwise almost never get through);
    a parameter with a closed set of values takes one of them (random text never would: a
    query with two such parameters sometimes got nothing past validation in 120 examples)."""
    kind = param.type
    if param.enum:
        return st.sampled_from(param.enum)
    text = HOSTILE_TEXT.filter(lambda t: t.strip() != "" and _passes_validation(t))
    if kind == "integer":
        return st.integers(min_value=1, max_value=3)
    if kind == "string_list":
        return st.lists(text, max_size=5)
    if kind == "node_list":  # a frontier walk's node ids (zehn.engine.frontier)
        return st.lists(st.integers(min_value=0, max_value=2**62), max_size=5)
    return text


def _plain_arguments(query: NamedQuery) -> dict[str, Any]:
    """Every parameter with a plain valid value: the call the fuzzing always includes, so that
    "nothing got past validation" means validation refused a valid call, never bad luck (it
    happened once in five fresh-clone runs, with 120 random examples)."""
    plain: dict[str, Any] = {}
    for param in query.params:
        if param.enum:
            plain[param.name] = param.enum[0]
        elif param.type == "integer":
            plain[param.name] = max(1, param.minimum or 1)
        elif param.type == "string_list":
            plain[param.name] = ["origin-mapper"]
        elif param.type == "node_list":
            plain[param.name] = [0]
        else:
            plain[param.name] = "origin-mapper"
    return plain


def _bound(query: NamedQuery, params: dict[str, Any]) -> dict[str, Any]:
    """What the engine adds from the policy (never from a model), as ToolExecutor does."""
    bound = dict(params)
    if query.policy_binding == "impact":
        bound["reverse"] = list(EVALUATION.impact_predicates("reverse"))
        bound["forward"] = list(EVALUATION.impact_predicates("forward"))
    if query.policy_binding == "predicates":
        bound["predicates"] = [params["predicate"]] if params.get("predicate") else ["DEPENDS_ON"]
        bound["direction"] = params.get("direction") or "both"
    if query.fulltext is not None:  # words only ever reach the index as words
        bound["query"] = fulltext_query(str(params[query.fulltext])) or "_"
    return bound


@pytest.fixture(scope="module")
def baseline(sample_graph: SampleGraph) -> Iterator[tuple[int, int]]:
    """Counts before the module's fuzzing; afterwards the full checksum must match too."""
    before = graph_print(sample_graph.client, sample_graph.graph)
    yield before.nodes, before.edges
    after = graph_print(sample_graph.client, sample_graph.graph)
    assert after == before, "hostile parameters changed the database"


def _unchanged(sample: SampleGraph, baseline: tuple[int, int]) -> None:
    assert counts(sample.client, sample.graph) == baseline


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_every_named_query_survives_hostile_parameters(
    sample_graph: SampleGraph, baseline: tuple[int, int], name: str
) -> None:
    query = QUERIES[name]
    tried = {"validated": 0, "refused": 0}

    @FUZZ
    @example(arguments=_plain_arguments(query))  # one call always gets past validation
    @given(arguments=_arguments(query))
    def check(arguments: dict[str, Any]) -> None:
        try:
            params = query.validate(arguments)
        except InvalidParameters:
            tried["refused"] += 1
            return
        tried["validated"] += 1
        bound = _bound(query, params)
        depths = range(1, int(params["depth"]) + 1) if query.variants else [None]
        for depth in depths:
            cypher = query.text_for({**bound, "depth": depth}) if depth else query.text_for(bound)
            try:
                result = sample_graph.client.read(sample_graph.graph, cypher, bound)
            except QueryError as e:  # refused by the client, before sending (see module doc)
                assert _unsendable(params) and "not valid Unicode" in str(e), e
                tried["refused by the client"] = tried.get("refused by the client", 0) + 1
                return
            _well_formed(result)
            if query.name in EXACT_LOOKUPS and _is_hostile(arguments):
                assert result.rows == (), f"{name} found rows for a hostile id: {result.rows}"
        _unchanged(sample_graph, baseline)

    check()
    assert tried["validated"] > 0 or not query.params, f"{name}: nothing got past validation"
    for outcome, n in tried.items():
        TALLY[f"parameters: named-query calls, {outcome}"] += n


def test_tool_calls_with_hostile_names_and_arguments(
    sample_graph: SampleGraph, baseline: tuple[int, int]
) -> None:
    tools = ToolExecutor(sample_graph.client, sample_graph.graph, EVALUATION)
    names = st.sampled_from(sorted(QUERIES)) | HOSTILE_TEXT
    arguments = st.one_of(
        *(_arguments(q) for q in QUERIES.values()),
        st.dictionaries(HOSTILE_TEXT, HOSTILE_VALUE, max_size=3),
    )

    @FUZZ
    @given(name=names, arguments=arguments)
    def check(name: str, arguments: dict[str, Any]) -> None:
        TALLY["parameters: tool calls (ToolExecutor.run)"] += 1
        try:
            outcome = tools.run(name, arguments)
        except RetrievalError:
            pass  # refused before the database: unknown query, bad parameters, no predicate
        except QueryError as e:  # the client refused what validation let through
            assert _unsendable(arguments) and "not valid Unicode" in str(e), e
        else:
            assert isinstance(outcome, ToolOutcome) and outcome.query == name
            assert isinstance(json.loads(outcome.as_text()), dict)  # what the model is sent
            assert all(isinstance(i, str) for i in outcome.returned_ids)
        _unchanged(sample_graph, baseline)

    check()


class _HostileModel:
    """A model whose every tool call carries the given name and arguments, then cites junk."""

    name = "hostile"

    def __init__(self, calls: Sequence[tuple[str, Mapping[str, Any]]], cited: Sequence[str]):
        self.calls = list(calls)
        self.cited = tuple(cited)

    def next_step(
        self, question: Question, tools: Sequence[ToolSpec], history: Sequence[Exchange]
    ) -> ToolRequest | DraftAnswer:
        if len(history) < len(self.calls):
            name, arguments = self.calls[len(history)]
            return ToolRequest(name, arguments)
        return DraftAnswer("It breaks everything [[" + "]] [[".join(self.cited) + "]]", self.cited)


def test_the_engine_withstands_a_model_sending_hostile_tool_calls(
    sample_graph: SampleGraph, baseline: tuple[int, int]
) -> None:
    tool_names = sorted(q.name for q in QUERIES.values() if not q.internal)
    call = st.tuples(st.sampled_from(tool_names) | HOSTILE_TEXT, HOSTILE_VALUE)
    calls = st.lists(
        call.map(lambda c: (c[0], c[1] if isinstance(c[1], dict) else {"entity_id": c[1]})),
        min_size=1,
        max_size=3,
    )

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(question=HOSTILE_TEXT, calls=calls, cited=st.lists(HOSTILE_TEXT, max_size=2))
    def check(question: str, calls: list[tuple[str, dict[str, Any]]], cited: list[str]) -> None:
        TALLY["parameters: investigations by a hostile model"] += 1
        TALLY["parameters: hostile model tool calls"] += len(calls)
        engine = Engine(
            sample_graph.client, sample_graph.graph, POLICY, _HostileModel(calls, cited)
        )
        answer = engine.ask(question)  # always an answer, even for a question it cannot search
        assert answer.status in (ABSTAINED, ERROR, AMBIGUOUS), answer.to_dict()
        assert not answer.citations
        if answer.status == ERROR:  # an error is the model's fault, never the database's
            reason = answer.reason or ""
            assert "GraphUnavailable" not in reason and "QueryTimeout" not in reason, reason
            # unsendable text is refused by parameter validation, before the client
            assert "QueryError" not in reason, reason
            if "cannot be searched" in reason:
                assert _CONTROL.search(question[:500]) or _unsendable([question]), reason
        _unchanged(sample_graph, baseline)

    check()


def test_values_round_trip_exactly_or_are_refused_before_sending(
    sample_graph: SampleGraph,
) -> None:
    """The client's own encoding: what it sends comes back identical, or it refuses to send."""
    client = sample_graph.client

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(value=HOSTILE_VALUE, key=HOSTILE_TEXT)
    def check(value: Any, key: str) -> None:
        TALLY["parameters: client encoding round trips"] += 1
        name = f"k{key}"
        try:
            result = client.read(sample_graph.graph, "RETURN $v AS v", {"v": value, name: 1})
        except QueryError as e:
            assert _unsendable(value) or _unsendable_name(name), f"refused {value!r}: {e}"
            TALLY["parameters: client encoding refused before sending"] += 1
            return
        assert not _unsendable(value) and not _unsendable_name(name)
        assert _same(result.scalar(), value), (value, result.scalar())

    check()


# --- helpers ----------------------------------------------------------------------------------


def _well_formed(result: QueryResult) -> None:
    assert isinstance(result, QueryResult)
    assert all(isinstance(c, str) and c for c in result.columns)
    assert all(len(row) == len(result.columns) for row in result.rows)


def _is_hostile(arguments: Mapping[str, Any]) -> bool:
    """Every string argument is made of fuzz (no real id can appear by chance)."""
    strings = [v for v in arguments.values() if isinstance(v, str)]
    return bool(strings) and all(
        any(f in v for f in CYPHER_FRAGMENTS) or not v.isascii() for v in strings
    )


def _passes_validation(text: str) -> bool:
    return not _CONTROL.search(text) and not _unsendable_text(text)


def _unsendable(value: Any) -> bool:
    if isinstance(value, str):
        return _unsendable_text(value)
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int):
        return not -(2**63) <= value < 2**63
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, list | tuple):
        return any(_unsendable(v) for v in value)
    if isinstance(value, dict):
        return any(_unsendable_name(k) or _unsendable(v) for k, v in value.items())
    return True


def _unsendable_name(text: str) -> bool:
    return text == "" or "`" in text or _unsendable_text(text)


def _unsendable_text(text: str) -> bool:
    if "\x00" in text:
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _same(got: Any, sent: Any) -> bool:
    """Equal, except that FalkorDB replies with doubles rounded to 15 significant digits."""
    if isinstance(sent, float) and isinstance(got, float):
        return got == float(f"{sent:.15g}") or math.isclose(got, sent, rel_tol=1e-14)
    if isinstance(sent, list):
        return isinstance(got, list) and len(got) == len(sent) and all(map(_same, got, sent))
    if isinstance(sent, dict):
        return (
            isinstance(got, dict)
            and got.keys() == sent.keys()
            and all(_same(got[k], sent[k]) for k in sent)
        )
    return bool(got == sent and type(got) is type(sent))
