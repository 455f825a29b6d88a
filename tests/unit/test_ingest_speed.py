"""The ingest shortcuts read and write exactly what the long way does.

The cue prefilter (``zehn.reading.relations.cue_words``) may only skip a cue that cannot match; the
one-pass parameter header (``zehn.store.header``) must write the very text the falkordb
client writes for the checked parameters, and refuse what the checks refuse. All sentences
here are invented.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

import pytest
from falkordb.helpers import stringify_param_value
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from zehn.errors import QueryError
from zehn.reading.names import near_names
from zehn.reading.names.near_names import FUZZY_CUTOFF
from zehn.reading.relations.cue_words import CuePrefilter, cue_words
from zehn.reading.relations.cues import CUES
from zehn.reading.relations.reader import _LATIN_CUES, _cue_hits
from zehn.store.client import checked_params, params_header
from zehn.store.header import NotFast, fast_header

PREFILTER = CuePrefilter(_LATIN_CUES)
FIRST_WORDS = sorted({w for c in _LATIN_CUES for w in cue_words(c.pattern) or ()})

INVENTED = [
    "The quillmap service depends on blob-vault for its snapshots.",
    "QUILLMAP DEPENDS ON BLOB-VAULT.",
    "Ledger-7 Is Called By the pixel router every minute.",
    "The archive is periodically read by tally-worker.",
    "tally-worker reads and writes to the ember store.",
    "Pixel Forge owns the ember store; its own runner is separate.",
    "The hub sits in between orbit-api and the lantern queue.",
    "A cache, e.g. Frostbin or Mistbox, backs the orbit-api.",
    "orbit-api talks to lantern via the relay, i.e. through ferry-9.",
    "svc_uses blob2reads x-calls (uses) [reads] {writes} 'feeds' \"consumes from\" queue.",
    "uses",
    "Uses.",
    "nothing here at all",
    "",
    "The loader is built on top of kestrel and is backed by moss-db.",
    "wren-api has read access to the ledger and needs access to moss-db.",
    "The gateway acts as a reverse proxy for wren-api and kestrel.",
    # not ASCII: read with every Latin cue (case folding has special cases there)
    "Der Dienst uses the café queue — it ınvokes ledger-7 and uſes moss-db.",
    "ledger-7 KALLS nothing; the Kelvin sign \u212a is not a k here, reads from x.",
    "「wren-api」 calls moss-db.",
]


def _matching(text: str) -> set[int]:
    return {i for i, cue in enumerate(_LATIN_CUES) if cue.pattern.search(text)}


def _kept(text: str) -> set[int]:
    return {_LATIN_CUES.index(cue) for cue in PREFILTER.possible(text)}


def test_every_latin_cue_has_first_words() -> None:
    """Otherwise the prefilter would silently run that cue on every sentence."""
    unreadable = [c.pattern.pattern for c in _LATIN_CUES if cue_words(c.pattern) is None]
    assert unreadable == []
    depends = next(c for c in _LATIN_CUES if "depends" in c.pattern.pattern)
    assert {"depend", "depends", "depended", "relies", "rely"} <= (
        cue_words(depends.pattern) or set()
    )


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        (r"\b(?:reads?)\b", {"read", "reads"}),
        (r"\b(?:e\.g\.|for\s+example)", {"e", "for"}),
        (r"\b(?:utili[sz]es?)\b", {"utilise", "utilises", "utilize", "utilizes"}),
        (r"\b(?:(?:is|are)\s+(?:\w+ly\s+)?called)\b", {"is", "are"}),
        (r"own", None),  # no boundary first: it matches inside "known"
        (r"\b\w+ing\b", None),  # any word
        (r"\b(?:call)", None),  # may end inside a word: "caller"
        (r"\b(?:[a-z0-9]+)\b", None),
        (r"\b(?:calls?\w*)\b", None),
    ],
)
def test_first_words_are_read_from_the_pattern_or_not_at_all(
    pattern: str, words: set[str] | None
) -> None:
    found = cue_words(re.compile(pattern, re.IGNORECASE))
    assert (None if found is None else set(found)) == words


@pytest.mark.parametrize("text", INVENTED)
def test_the_prefilter_keeps_every_cue_that_matches(text: str) -> None:
    assert _matching(text) <= _kept(text)
    assert _cue_hits(text, []) == _cue_hits(text, [], CUES)


def test_the_prefilter_skips_cues_that_cannot_match() -> None:
    text = "The quillmap service depends on blob-vault."
    kept = PREFILTER.possible(text)
    assert 0 < len(kept) < len(_LATIN_CUES) // 4
    assert len(PREFILTER.possible("Der Dienst uses the café queue.")) == len(_LATIN_CUES)


_EXTRA_WORDS = ["on", "to", "by", "from", "and", "the", "access", "called", "between", "its"]
_EXTRA_WORDS += ["ledger-7", "moss_db", "x2", "responsible", "for", "example", "means", "of"]
_WORDS = st.sampled_from([*FIRST_WORDS, *_EXTRA_WORDS])
_MARKS = st.sampled_from(["", " ", "  ", ", ", ". ", "-", "_", "'", "`", "(", ")", "\n", "2"])


@st.composite
def _sentences(draw: st.DrawFn) -> str:
    """Cue words in every case, glued by spaces, punctuation, underscores and digits."""
    parts = []
    for _ in range(draw(st.integers(1, 8))):
        word = draw(_WORDS)
        case = draw(st.sampled_from(["lower", "upper", "title", "same"]))
        word = {"lower": word.lower(), "upper": word.upper(), "title": word.title()}.get(case, word)
        parts.append(word + draw(_MARKS))
    return draw(_MARKS) + "".join(parts)


@settings(max_examples=400, deadline=None)
@given(text=_sentences())
def test_generated_sentences_lose_no_cue(text: str) -> None:
    assert _matching(text) <= _kept(text), text
    assert _cue_hits(text, []) == _cue_hits(text, [], CUES)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60))
def test_arbitrary_text_loses_no_cue(text: str) -> None:
    assert _matching(text) <= _kept(text)


# --- the parameter header ---------------------------------------------------------------


class _Kind(StrEnum):
    SERVICE = "service"
    QUOTED = 'a "quoted" \\ kind'


def _falkordb_header(params: Mapping[str, Any]) -> str:
    """What the falkordb client's own ``_build_params_header`` writes for the checked
    values (the old path)."""
    safe = checked_params(params)
    return "CYPHER " + "".join(f"`{k}`={stringify_param_value(v)} " for k, v in safe.items())


_TEXT = st.text(max_size=12) | st.sampled_from(['"', "\\", '\\"', "'}) //", "\n", "中文", ""])
_VALUES = st.recursive(
    _TEXT
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.none()
    | st.sampled_from(list(_Kind)),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(_TEXT, inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=500, deadline=None)
@given(params=st.dictionaries(_TEXT, _VALUES, min_size=1, max_size=3))
def test_the_header_is_the_falkordb_text_or_a_refusal(params: dict[str, Any]) -> None:
    try:
        expected: str | None = _falkordb_header(params)
    except QueryError:
        expected = None
    if expected is None:
        with pytest.raises(QueryError):
            params_header(params)
        with pytest.raises(NotFast):
            fast_header(params)
    else:
        assert params_header(params) == expected
        with contextlib.suppress(NotFast):  # else the careful path wrote it (compared above)
            assert fast_header(params) == expected


def test_a_refused_value_is_named_by_its_place_in_a_batch() -> None:
    rows = [{"text": "fine"}, {"text": "bad\x00value"}]
    with pytest.raises(QueryError, match=r"rows\[1\]\.text.*NUL"):
        params_header({"rows": rows})
    with pytest.raises(QueryError, match="64-bit"):
        params_header({"rows": [{"n": 2**63}]})
    with pytest.raises(QueryError, match="unusable name"):
        params_header({"rows": [{"": 1}]})
    with pytest.raises(QueryError, match="unpaired surrogate"):
        params_header({"name": "\ud800"})
    with pytest.raises(QueryError, match="mapping"):
        params_header(["not", "a", "mapping"])  # type: ignore[arg-type]


def test_ordinary_rows_take_the_one_pass_path_and_others_the_careful_one() -> None:
    rows = {"rows": [{"id": "service:quill", "start": 3, "hedged": False, "kind": _Kind.SERVICE}]}
    assert fast_header(rows) == _falkordb_header(rows)
    unusual = {"rows": range(3)}  # a Sequence that is not a list: checked value by value
    with pytest.raises(NotFast):
        fast_header(unusual)
    assert params_header(unusual) == "CYPHER `rows`=[0,1,2] "
    assert params_header({}) == ""


# --- near misses of code-like names ------------------------------------------------------


def _names(draw_seed: int, count: int) -> list[str]:
    rng = random.Random(draw_seed)
    stems = ["quill", "ember", "moss", "wren", "tally", "orbit", "frost"]
    return [
        f"{rng.choice(stems)}-{rng.choice(['api', 'db', 'q'])}{rng.randrange(40)}"
        for _ in range(count)
    ]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    count=st.sampled_from([3, 199, 200, 1_000]),
    word=st.sampled_from(["quill-api7", "ember-db12", "moss-q3", "wren-ap1", "orbt-q30", "x-y"]),
)
def test_a_bucket_scored_at_once_gives_what_extract_one_gives(
    seed: int, count: int, word: str
) -> None:
    """Duplicates and near-duplicates in the bucket make ties: the first name wins in both."""
    names = _names(seed, count)
    hit = process.extractOne(word, names, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
    expected = None if hit is None else (float(hit[1]), int(hit[2]))
    assert near_names._best(word, names) == expected
