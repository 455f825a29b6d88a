"""One table of negation, modality and hedging words, read by extraction, grader and staleness."""

from __future__ import annotations

import pytest

from zehn.evidence import grade, staleness
from zehn.reading import modality
from zehn.reading.relations import purpose
from zehn.reading.relations import reader as relations


def test_extraction_the_grader_and_staleness_read_the_same_patterns() -> None:
    assert relations.NEGATION is modality.NEGATION is purpose.NEGATION
    assert relations.MODAL is modality.MODAL is staleness.MODAL
    assert grade.SPECULATIVE is modality.SPECULATIVE
    assert staleness.CORE_NEGATION is modality.CORE_NEGATION


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("The quarn service doesn't call brisk.", True),
        ("Quarn no longer writes to brisk.", True),
        ("Quarn 不再调用 Brisk。", True),
        ("Quarn calls brisk.", False),
        ("Quarn 调用 Brisk。", False),
    ],
)
def test_negation_in_both_languages(text: str, negated: bool) -> None:
    assert bool(modality.NEGATION.search(text)) is negated


@pytest.mark.parametrize(
    ("text", "speculative"),
    [
        ("If quarn moved, brisk would break.", True),
        ("如果 Quarn 迁移，Brisk 可能失败。", True),
        ("Quarn might call brisk.", True),
        ("Quarn calls brisk.", False),
        ("Quarn 将数据写入 Brisk。", False),
    ],
)
def test_what_the_grader_reads_as_speculation(text: str, speculative: bool) -> None:
    assert bool(modality.SPECULATIVE.search(text)) is speculative


def test_will_is_modal_but_the_object_marker_is_not() -> None:
    assert modality.MODAL.search("Quarn 将在下周迁移。")
    assert not modality.MODAL.search("Quarn 将数据写入 Brisk。")
    assert modality.MODAL.search("Quarn plans to call brisk.")
