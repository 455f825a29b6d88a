"""The question as the graph spells its names ("the product catalog" -> "the product-catalog"),
read once per investigation from the graph's entities (``zehn.reading.asking_names``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from zehn.engine.tools import ToolExecutor
from zehn.errors import RetrievalError, StoreError
from zehn.reading.asking_names import respelled

MAX_PARTS = 6


def spelled(question: str, tools: ToolExecutor) -> str:
    """``question`` with loosely written names respelled; unchanged when the graph cannot be
    read here (the investigation then fails, or not, on its own first query)."""
    try:
        entities = tools.snapshot().entities.values()
    except (StoreError, RetrievalError):
        return question
    return respelled(question, entities)


def named_parts(entity_ids: Sequence[str], tools: ToolExecutor) -> list[dict[str, str]]:
    """Entities named after a question's entity with one word more or less ("Grafana" and
    "Grafana Server", "Redis 注册中心" and "Redis"): the part of it that a diagram or a page
    names on its own. Offered to the model as hints, never bound as the question's names."""
    try:
        entities = tools.snapshot().entities
    except (StoreError, RetrievalError):
        return []
    found: list[dict[str, str]] = []
    for entity_id in entity_ids:
        entity = entities.get(entity_id)
        if entity is None:
            continue
        for other in entities.values():
            if other.id != entity_id and _one_word_apart(entity.name, other.name):
                found.append({"id": other.id, "name": other.name, "of": entity_id})
    return found[:MAX_PARTS]


def _one_word_apart(a: str, b: str) -> bool:
    short, long = sorted((a.strip(), b.strip()), key=len)
    if len(short) < (3 if short.isascii() else 2) or not long.lower().startswith(short.lower()):
        return False
    rest = long[len(short) :]
    return re.fullmatch(r"[\s-]+(?:[A-Za-z]+|[\u3400-\u9fff]{2,6})", rest) is not None
