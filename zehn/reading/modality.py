"""Negation, modality and hedging: one table of words per language, one set of patterns.

Extraction records a relation's negation and hedging on its edge
(``zehn.reading.relations.reader``), the grader calls a speculative sentence an inferred
assumption (``zehn.evidence.grade``), and staleness tells "no longer calls X" from "will stop
calling X" (``zehn.evidence.staleness``): all three read the words below, so a word added for
one language counts everywhere. The rows are regular-expression fragments (a look-ahead keeps
将 "will" apart from 将 the object marker); the patterns are built from them once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class ModalityWords:
    """One language's rows. English rows are whole words; Chinese rows need no boundaries."""

    negation: tuple[str, ...]  # "X does not call Y", "X 不再调用 Y"
    modal: tuple[str, ...]  # may, will, plans to: what is possible or planned, not stated
    conditional: tuple[str, ...]  # a clause that opens a condition or a proposal
    epistemic: tuple[str, ...]  # the writer's belief: "I think", "probably"
    speculative: tuple[str, ...]  # a hop the grader reads as an assumption ("might", "可能")
    conditional_openers: tuple[str, ...]  # a sentence opening with one is speculative


EN = ModalityWords(
    negation=("not", r"no\s+longer", "never", "cannot", "stopped", "no"),
    modal=(
        "will", "would", "might", "may", "could", "should", "can", r"plans?\s+to",
        r"planning\s+to", r"going\s+to", r"wants?\s+to", r"intends?\s+to", "ever",
    ),
    conditional=(
        "if", "whether", "unless", "assuming", "suppose", "once", "considering", "proposed?",
        "proposal", r"later\s+phase", "plan", r"as\s+far\s+as\s+i\s+know", r"it\s+is\s+possible",
        "someone", "somebody",
    ),
    epistemic=(
        r"i\s+think", r"i\s+believe", r"i\s+suspect", r"i\s+guess", "possibly", "probably",
        "maybe", "perhaps", "apparently", "reportedly", "rumou?red", r"told\s+me",
    ),
    speculative=("might", "would", "could", "may"),
    conditional_openers=("if",),
)  # fmt: skip
# "doesn't", "can't": the negation is a suffix of the verb
EN_NEGATION_SUFFIX = "n't"
# what staleness reads near a verb ("not", "never", "no"): "no longer" is its own signal there
EN_CORE_NEGATION = ("not", "never", "no")

ZH = ModalityWords(
    # not 不 opening a word that negates nothing: 不断/不停 (continuously), 不时, 不同, 不少,
    # 不久, 不仅/不但 (not only), 不过 (however), 不论/不管 (whatever)
    negation=(
        "不再", "没有", "没", "并不", "并未", "从不", "从未", "未",
        "不(?!断|停|时|同|少|久|仅|但|过|论|管)", "停止", "无需",
    ),
    modal=(
        "将会", "将要", r"将(?=\s*$|\s*(?:在|于|从|会|要|开始|逐步|全面|正式))", "会", "可能",
        "也许", "或许", "计划", "打算", "准备", "想要", "希望", "应该", "可以", "是否", "如果",
        "假如",
    ),
    conditional=(
        "如果", "假如", "假设", "要是", "倘若", "万一", "是否", "一旦", "除非", "提议", "建议",
        "提案", "计划", "方案", "据我所知", "有人",
    ),
    epistemic=(
        "我认为", "我觉得", "我猜", "我怀疑", "我估计", "也许", "或许", "大概", "可能", "据说",
        "听说", "好像", "似乎", "据我所知", "有人说", "传言",
    ),
    speculative=("可能", "也许", "或许", "会不会"),
    conditional_openers=("如果", "假如", "假设", "要是", "倘若"),
)  # fmt: skip


def _words(rows: tuple[str, ...]) -> str:
    return r"\b(?:" + "|".join(rows) + r")\b"


def _either(english: str, chinese: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(english + "|" + "|".join(chinese), re.IGNORECASE)


NEGATION = _either(_words(EN.negation) + "|" + EN_NEGATION_SUFFIX + r"\b", ZH.negation)
MODAL = _either(_words(EN.modal), ZH.modal)
CONDITIONAL_PREFIX = _either(_words(EN.conditional), ZH.conditional)
EPISTEMIC = _either(_words(EN.epistemic), ZH.epistemic)
# English only: staleness reads "not"/"never"/"no" in a window of English words
CORE_NEGATION = re.compile(
    _words(EN_CORE_NEGATION) + "|" + EN_NEGATION_SUFFIX + r"\b", re.IGNORECASE
)
SPECULATIVE = re.compile(
    r"^\s*(?:" + "|".join(EN.conditional_openers) + r")\b"
    + "|" + _words(EN.speculative)
    + r"|^\s*(?:" + "|".join(ZH.conditional_openers) + ")"
    + "|" + "|".join(ZH.speculative),
    re.IGNORECASE,
)  # fmt: skip
