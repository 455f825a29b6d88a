"""Small helpers of the investigation loop: namesakes, the ambiguity text, printable params,
what a "what is X?" question asks about."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from zehn.engine.answer import Identity
from zehn.reading.lang import KIND_ZH, ZH
from zehn.reading.model import Entity
from zehn.reading.questions.wording import WHAT_IS, WHAT_IS_ZH


def namesakes(entities: Iterable[Entity]) -> dict[str, str]:
    """Entity id -> kind of every entity whose name (any case) an entity of another kind has."""
    entities = list(entities)
    kinds: dict[str, set[str]] = {}
    for entity in entities:
        kinds.setdefault(entity.name.casefold(), set()).add(entity.kind)
    return {e.id: e.kind for e in entities if len(kinds[e.name.casefold()]) > 1}


def ambiguous_text(identities: Sequence[Identity], language: str = "en") -> str:
    if language == ZH:
        listed = "；".join(f"{i.name}（{KIND_ZH.get(i.kind, i.kind)}，{i.id}）" for i in identities)
        return f"您指的是哪一个？{listed}"
    listed = "; ".join(f"{i.name} ({i.kind}, {i.id})" for i in identities)
    return f"Which one do you mean? {listed}"


def printable(arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        str(k): (v if isinstance(v, int | float | bool) or v is None else str(v)[:200])
        for k, v in arguments.items()
    }


def what_is_target(question: str, found_rows: Sequence[Mapping[str, Any]]) -> set[str] | None:
    """For "what is X?" the ids of the found entities X may be (a mention of X is then
    evidence); None for any other question."""
    match = WHAT_IS.match(question) or WHAT_IS_ZH.match(question)
    if match is None:
        return None
    asked = (match["x"] or match.groupdict().get("y") or "").lower().removeprefix("the ").strip()
    return {
        str(r["id"])
        for r in found_rows
        if asked in {str(r["name"]).lower(), *(str(a).lower() for a in r.get("aliases") or ())}
    }
