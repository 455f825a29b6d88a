"""Script ranges live in ``zehn.reading.scripts``: each site keeps its own range, none is written twice."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO
from zehn.corpus import model
from zehn.reading import scripts

# the modules that read their ranges from zehn.reading.scripts
ADOPTERS = [
    "zehn/reading/split.py", "zehn/reading/lang.py", "zehn/reading/relations/cues.py",
    "zehn/reading/relations/cues_zh.py", "zehn/reading/relations/reader.py", "zehn/reading/relations/reader_zh.py",
    "zehn/reading/relations/phrases.py", "zehn/reading/references/reader.py", "zehn/reading/references/forms.py",
    "zehn/reading/references/title_refs.py", "zehn/reading/references/agents_zh.py", "zehn/reading/questions/asking.py",
    "zehn/reading/questions/asking_zh.py", "zehn/engine/spelling.py", "zehn/models/admit.py",
    "zehn/queries/terms.py",
]  # fmt: skip
_LITERAL_RANGE = re.compile(r"\\u(?:3400|4e00|9fff|f900)|[\u3400-\u9fff]-[\u3400-\u9fff]")


@pytest.mark.parametrize("path", ADOPTERS)
def test_no_range_is_written_outside_scripts(path: str) -> None:
    assert not _LITERAL_RANGE.search((REPO / path).read_text(encoding="utf-8"))


def test_the_corpus_layer_keeps_the_same_chinese_characters() -> None:
    assert scripts.CJK_CHARS.encode().decode("unicode_escape") == model._CJK_CHARS


@pytest.mark.parametrize(
    ("ch", "cjk", "span"),
    [
        ("中", True, True),
        ("\u3400", True, True),  # Extension A
        ("\u4dc0", False, True),  # a Yijing hexagram: inside the span, not an ideograph
        ("\uf900", True, False),  # a compatibility ideograph
        ("a", False, False),
        ("。", False, False),
        ("\u9fff", True, True),
        ("\ua000", False, False),
    ],
)
def test_each_range_keeps_its_characters(ch: str, cjk: bool, span: bool) -> None:
    assert scripts.is_cjk(ch) is cjk
    assert scripts.in_han_span(ch) is span
    assert bool(re.fullmatch(f"[{scripts.HAN_SPAN}]", ch)) is span


def test_has_cjk() -> None:
    assert scripts.has_cjk("orbit-api 调用 moss-db")
    assert not scripts.has_cjk("orbit-api calls moss-db")
    assert not scripts.has_cjk("café ䷀")  # not ASCII, still no ideograph


def test_the_corpus_layer_keeps_the_same_ideograph_blocks_as_the_reader() -> None:
    # zehn.corpus sits below zehn.reading and cannot import it: its copy must not drift
    from zehn.corpus import model

    assert model._CJK_CHARS.encode("unicode_escape").decode() == scripts.CJK_CHARS
