"""Small helpers of the investigation loop: namesakes, the ambiguity text, printable params."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from zehn.engine.answer import Identity
from zehn.reading.lang import KIND_ZH, ZH
from zehn.reading.model import Entity


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
