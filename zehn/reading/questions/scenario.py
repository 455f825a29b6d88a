"""A question framed by a scenario, read as the condition it states.

Real questions set a scene before they ask: "RabbitMQ is going down for maintenance tonight.
What stops working while it's gone?", "Our X is unreachable. What happens to Y?", "PD 挂了的话，
Y 还能打开吗？", "DM-worker 宕机了，谁会发现？". The scene is a condition the question's reader
already knows how to read when it is written as one ("If X is down, what stops working?",
"X 宕机后，…"), so a scene that states a failure or a change is set aside by writing it as
that condition, where its question asks what the failure breaks; nothing else of the
question changes.

The words that make a scene a failure are data rows per language (``zehn.reading.failure``); so are
the words by which a Chinese clause asks for a failure's consequence (``CONSEQUENCE_ZH``).
"""

from __future__ import annotations

import re

from zehn.reading.failure import FAILURE_WORDS, words_pattern
from zehn.reading.lang import ZH

# A main clause that asks what a failure breaks ("What stops working?", "还能打开吗"); one that
# asks who acts on it ("who takes over?", "谁来接管", "怎么处理") asks for a stated
# consequence, not for what is at risk: its scene stays as written.
EFFECT_WORDS: dict[str, tuple[str, ...]] = {
    "en": (
        "stop working", "stops working", "happens", "happen", "affected", "impacted", "break",
        "breaks", "broken", "still work", "still works", "keep working", "lose", "loses",
        "at risk",
    ),
    "zh": (
        "影响", "停止工作", "不能工作", "无法工作", "会坏", "出问题", "不可用", "波及", "还能",
        "还会", "会怎样", "会怎么样",
    ),
}  # fmt: skip
CONSEQUENCE_ZH = EFFECT_WORDS["zh"]


_FAILURE_EN = re.compile(rf"\b(?:{words_pattern(FAILURE_WORDS['en'])})\b", re.IGNORECASE)
FAILURE_EN = re.compile(words_pattern(FAILURE_WORDS["en"]), re.IGNORECASE)  # inside \b…\b
FAILURE_ZH = re.compile(words_pattern(FAILURE_WORDS["zh"]), re.IGNORECASE)
# the scene: one statement before the question sentence (no question mark in it)
_SCENE_EN = re.compile(r"^\s*([^?.!]{3,200}?)[.!]\s+(\S[^.!]*\?)\s*$", re.DOTALL)
_ALREADY_A_CONDITION = re.compile(r"^\s*(?:if|when|while|once|suppose|assuming|after)\b", re.I)
# a Chinese scene ends with 了 (or 的话, read as it is) before the question's comma
_SCENE_ZH = re.compile(r"^([^，,。？?]{1,60}?)了\s*[，,。]\s*(\S.*)$", re.DOTALL)
_EFFECT = {
    "en": re.compile(rf"\b(?:{words_pattern(EFFECT_WORDS['en'])})\b", re.IGNORECASE),
    "zh": re.compile(words_pattern(EFFECT_WORDS["zh"])),
}


def as_condition(text: str, language: str) -> str:
    """``text`` with a leading scene of failure or change written as the question's condition;
    unchanged when it has none."""
    if language == ZH:
        scene = _SCENE_ZH.match(text)
        if scene and FAILURE_ZH.search(scene.group(1)) and _EFFECT["zh"].search(scene.group(2)):
            return f"{scene.group(1)}后，{scene.group(2)}"  # "X 宕机了，谁…" -> "X 宕机后，谁…"
        return text
    scene = _SCENE_EN.match(text)
    if scene is None or _ALREADY_A_CONDITION.match(scene.group(1)):
        return text
    if not _FAILURE_EN.search(scene.group(1)) or not _EFFECT["en"].search(scene.group(2)):
        return text
    return f"If {scene.group(1).strip()}, {scene.group(2)}"
