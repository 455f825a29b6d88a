"""The binder's one-pass split of a sentence gives the tokens, offsets and gaps the regular
expression gives token by token. Texts are invented (and drawn at random)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from zehn.reading.names.binding import _TOKEN, _contiguous, _Split, tokens

_PIECES = st.sampled_from(
    ["order", "Router", "v2", "-", "_", " ", "  ", "\n", "\t", ".", "/", "'s", "’", "服务",
     "库存", "\u2010", "\u2011", "\u2013", "ΑΣ", "İ", "\u212a", "é", "x\u0301", "🙂", "\x1f",
     "a-b", "__", "--", "\u00a0"]
)  # fmt: skip
_TEXTS = st.one_of(st.lists(_PIECES, max_size=30).map("".join), st.text(max_size=40))


def _reference(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_the_split_gives_the_tokens_of_the_pattern(text: str) -> None:
    expected = _reference(text)
    assert [tuple(t) for t in tokens(text)] == expected
    assert [(t.text, t.start, t.end) for t in tokens(text)] == expected
    split = _Split(text)
    assert split.words == [word for word, _, _ in expected]
    assert split.lowered == [word.lower() for word, _, _ in expected]
    offsets = split.locate()
    assert [(offsets[2 * i + 1], offsets[2 * i + 2]) for i in range(len(expected))] == [
        (start, end) for _, start, end in expected
    ]
    assert [tuple(split.token(i)) for i in range(len(expected))] == expected


@settings(max_examples=400, deadline=None)
@given(_TEXTS, st.integers(0, 45))
def test_windows_and_offsets_read_as_the_token_by_token_rules(text: str, offset: int) -> None:
    toks = tokens(text)
    split = _Split(text)
    for i in range(len(toks)):
        for n in range(1, min(5, len(toks) - i) + 1):
            assert split.contiguous(i, n) == _contiguous(text, toks[i : i + n]), (i, n)
    after = [t for t in toks if t.start >= offset]
    assert split.first_from(offset) == len(toks) - len(after)


def test_names_split_across_lines_or_far_apart_are_not_contiguous() -> None:
    split = _Split("order  service\norder - service order__service order   service")
    assert [split.contiguous(i, 2) for i in range(0, 8, 2)] == [True, False, True, False]
    assert split.contiguous(1, 2) is False  # "service\norder"
