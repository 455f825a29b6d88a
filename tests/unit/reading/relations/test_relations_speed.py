"""The shortcuts of reading a sentence's relations find exactly what the long way finds.

Cues are tried only where their first words (or first characters) stand; a pattern of many
alternatives is searched behind a look-ahead for its first characters; a sentence with one
mention is not read. Each must give what the plain regular expressions and the full reading
give. All sentences here are invented.
"""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zehn.corpus.model import Sentence
from zehn.reading.modality import CONDITIONAL_PREFIX, EPISTEMIC, MODAL, NEGATION
from zehn.reading.model import Mention
from zehn.reading.relations import phrases, subjects
from zehn.reading.relations import reader as relations
from zehn.reading.relations import reader_zh as relations_zh
from zehn.reading.relations.cue_words import CuePrefilter, first_chars, with_first_chars
from zehn.reading.relations.cues import (
    CJK,
    CUES,
    ZH_PREPOSITION_BEFORE,
)
from zehn.reading.relations.reader import purpose_edges, requirement_edges, sentence_edges

PREFILTER = CuePrefilter(CUES)
LATIN = CuePrefilter([c for c in CUES if not c.cjk])

INVENTED = [
    "The quillmap service depends on blob-vault for its snapshots.",
    "Ledger-7 is called by the pixel router, is read by tally-worker and is backed by moss.",
    "It is what it is: the archive is periodically read by tally-worker.",
    "tally-worker reads and writes to the ember store, reads reads reads.",
    "Pixel Forge owns the ember store; its own runner is separate from their own.",
    "The hub sits in between orbit-api and the lantern queue.",
    "A cache, e.g. Frostbin or Mistbox, backs the orbit-api.",
    "If wren-api is proposed, I think kestrel will probably call moss-db.",
    "Der Dienst uses the café queue — it ınvokes ledger-7 and uſes moss-db.",
    "ledger-7 KALLS nothing; the Kelvin sign \u212a is not a k here, reads from x.",
    "「wren-api」 calls moss-db，并且 orbit-api 从 lantern 读取数据。",
    "据说 quill-api 被 wren-gateway 调用，然后向 ember-topic 发布事件。",
    "我认为 tally 依赖于 moss-db，如果 kestrel 需要的话。",
    "`calls` in code and https://example.test/reads?uses=1 do not count, uses does.",
    "",
]


def _finditer(prefilter: CuePrefilter, text: str) -> list[tuple[int, tuple[int, int]]]:
    return [
        (i, m.span()) for i, cue in enumerate(prefilter.cues) for m in cue.pattern.finditer(text)
    ]


def _matches(prefilter: CuePrefilter, text: str) -> list[tuple[int, tuple[int, int]]]:
    index = {id(cue): i for i, cue in enumerate(prefilter.cues)}
    return [(index[id(cue)], m.span()) for cue, m in prefilter.matches(text)]


@pytest.mark.parametrize("text", INVENTED)
def test_cues_tried_at_their_first_words_match_what_finditer_finds(text: str) -> None:
    for prefilter in (PREFILTER, LATIN):
        assert _matches(prefilter, text) == _finditer(prefilter, text)
    assert relations._cue_hits(text, []) == relations._cue_hits(text, [], CUES)


_WORDS = st.sampled_from(
    "is are was be been gets reads read writes calls by from to on the its own via uses"
    " 被 调用 从 读取 向 发布 依赖于 由 负责 Kafka ledger-7 café ı ſ \u212a".split()
)
_MARKS = st.sampled_from(["", " ", "  ", ", ", ". ", "-", "_", "'", "`", "(", "，", "\n", "2"])


@st.composite
def _texts(draw: st.DrawFn) -> str:
    parts = [draw(_WORDS) + draw(_MARKS) for _ in range(draw(st.integers(0, 10)))]
    return "".join(p.upper() if draw(st.booleans()) else p for p in parts)


@settings(max_examples=300, deadline=None)
@given(text=_texts() | st.text(max_size=40))
def test_generated_text_loses_and_gains_no_cue_match(text: str) -> None:
    assert _matches(PREFILTER, text) == _finditer(PREFILTER, text)
    assert _matches(LATIN, text) == _finditer(LATIN, text)


def test_a_cue_is_tried_only_where_it_can_start() -> None:
    calls = "The quillmap service depends on blob-vault."
    assert [m.group() for _, m in LATIN.matches(calls)] == ["depends on"]
    words = LATIN._by_word
    assert len(words["is"]) >= 10 and "is" in LATIN._gates  # one match before twenty cues
    assert LATIN._gates["is"].match("is a queue") is None


@pytest.mark.parametrize(
    ("pattern", "chars"),
    [
        (r"被|由(?!于)", {"被", "由"}),
        (r"(?:(?<![因认])为(?!了)|给)(?=\S)", {"为", "给"}),
        (r"x?y", {"x", "y"}),
        (r"\b(?:ab)+c", {"a"}),
        (r"[^a]b", None),  # any character but one
        (r"a*", None),  # may match nothing
        (r"(?i:ab)c", None),  # a case of its own
        (r"calls", None),  # case folding is on
    ],
)
def test_first_characters_are_read_from_the_pattern_or_not_at_all(
    pattern: str, chars: set[str] | None
) -> None:
    flags = re.IGNORECASE if pattern == "calls" else 0
    found = first_chars(re.compile(pattern, flags))
    assert (None if found is None else set(found)) == chars


@pytest.mark.parametrize("pattern", [EPISTEMIC, CONDITIONAL_PREFIX, MODAL, NEGATION])
def test_a_look_ahead_for_first_characters_finds_the_same_matches(
    pattern: re.Pattern[str],
) -> None:
    fast = with_first_chars(pattern)
    assert fast.pattern != pattern.pattern and fast.flags == pattern.flags
    for text in [*INVENTED, "PROBABLY NOT", "Perhaps ıf so", "ſomeone said so", "一旦 如果"]:
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in pattern.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(text=_texts() | st.text(max_size=40))
def test_generated_text_is_searched_alike_behind_the_look_ahead(text: str) -> None:
    for pattern in (EPISTEMIC, CONDITIONAL_PREFIX):
        fast = with_first_chars(pattern)
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in pattern.finditer(text)]


def test_the_look_ahead_holds_every_character_case_folding_matches() -> None:
    """Under re.IGNORECASE a letter also matches İ, ı, ſ or the Kelvin sign: the look-ahead
    must keep every character that a first letter of the pattern matches."""
    everything = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    for pattern in (EPISTEMIC, CONDITIONAL_PREFIX):
        ahead = re.compile(
            with_first_chars(pattern).pattern[3:].split("]", 1)[0] + "]", pattern.flags
        )
        kept = set(ahead.findall(everything))
        for char in first_chars(re.compile(pattern.pattern)) or ():
            literal = re.compile(re.escape(char), pattern.flags)
            assert set(literal.findall(everything)) <= kept, char


def test_chinese_prepositions_are_only_looked_for_in_chinese_text() -> None:
    """``relations`` asks ``after_preposition`` only when the text before a name holds a
    Chinese character: every form it looks for starts with one."""
    for pattern in (ZH_PREPOSITION_BEFORE, relations_zh._OTHER_PREPOSITIONS):
        chars = first_chars(pattern)
        assert chars and all(CJK.match(c) for c in chars)


def _sentence(text: str) -> Sentence:
    return Sentence(doc_id="d", text=text, start=0, end=len(text))


def _mention(sentence: Sentence, surface: str, *ids: str) -> Mention:
    start = sentence.text.index(surface)
    return Mention(sentence.id, start, start + len(surface), surface, ids, "catalog")


def _read_the_long_way(sentence: Sentence, mentions: tuple[Mention, ...]) -> list[object]:
    """What every reading of the sentence states, without the one-mention shortcut."""
    text = sentence.text
    local = relations._local(sentence, mentions)
    clause = relations._Clause()
    found: list[object] = []
    for hit in relations._cue_hits(text, local):
        statement = relations._read(text, local, hit, clause)
        if statement is not None:
            found.extend(statement.pairs)
    found.extend(purpose_edges(sentence, local, "rules"))
    found.extend(requirement_edges(sentence, local, "rules"))
    return found


ONE_MENTION = [
    ("tally-worker reads from the archive and writes to the cache.", "tally-worker"),
    ("The archive is read by tally-worker.", "tally-worker"),
    ("It connects the hub with the lantern queue via the relay.", "hub"),
    ("For this to work, you need to set up a broker (kestrel).", "kestrel"),
    ("The bucket is set up for tally-worker to read from.", "tally-worker"),
    ("tally-worker, which stores blobs in it, calls it too.", "tally-worker"),
]


@pytest.mark.parametrize(("text", "surface"), ONE_MENTION)
@pytest.mark.parametrize("ids", [("service:tally",), ("service:tally", "service:other")])
def test_a_sentence_with_one_mention_states_nothing_either_way(
    text: str, surface: str, ids: tuple[str, ...]
) -> None:
    sentence = _sentence(text)
    mentions = (_mention(sentence, surface, *ids),)
    assert _read_the_long_way(sentence, mentions) == []
    assert sentence_edges(sentence, mentions, "rules") == ([], 0)


def test_two_mentions_are_read() -> None:
    text = "tally-worker reads from the archive."
    sentence = _sentence(text)
    both = (
        _mention(sentence, "tally-worker", "service:tally"),
        _mention(sentence, "archive", "datastore:a"),
    )
    edges, _ = sentence_edges(sentence, both, "rules")
    assert [(e.subject, e.rel_type, e.object) for e in edges] == [
        ("service:tally", "READS_FROM", "datastore:a")
    ]


def test_the_kept_readings_of_gaps_are_bounded() -> None:
    """Gap readings are kept (``lru_cache``): never without a bound."""
    cached = [
        phrases.separates,
        phrases.breaks,
        phrases._again,
        phrases._object_gap,
        subjects._subject_gap,
        relations._negated,
        relations._modal,
    ]
    assert all(f.cache_info().maxsize == phrases.GAP_CACHE for f in cached)
