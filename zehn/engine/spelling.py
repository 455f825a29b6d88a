"""The question as the graph spells its names ("the product catalog" -> "the product-catalog"),
read once per investigation from the graph's entities (``zehn.reading.questions.asking_names``).

Both lookups here used to scan every entity of the graph for every question (0.6 s and
0.2 s a question at 50k entities). The indexes they need are built once per graph revision
(kept with the snapshot) and a question looks up only its own words: the entities handed to
``respelled`` and checked by ``_one_word_apart`` are exactly those the full scan could pick,
in the same order, so the result is the same.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from zehn.engine.names import NameIndex
from zehn.engine.snapshot import GraphSnapshot
from zehn.engine.tools import ToolExecutor
from zehn.errors import RetrievalError, StoreError
from zehn.reading.model import Entity
from zehn.reading.questions.asking_names import MAX_WORDS, MIN_KEY, loose_key, respelled
from zehn.reading.scripts import HAN_SPAN, in_han_span

MAX_PARTS = 6
_WORD = re.compile(r"[A-Za-z0-9]+")  # as zehn.reading.questions.asking_names tokenises a question
_BREAK = re.compile(r"[\s-]+")


@dataclass(frozen=True)
class _Index:
    """Per graph revision: loose key -> entities, and the lower-cased names, sorted."""

    order: dict[str, int]  # entity id -> position in the snapshot's entity order
    loose: dict[str, list[Entity]]
    names: list[tuple[str, str]]  # (lower-cased name, entity id), sorted
    by_name: dict[str, list[str]]  # lower-cased stripped name -> entity ids


_INDEXES: WeakKeyDictionary[GraphSnapshot, _Index] = WeakKeyDictionary()


def _index(snapshot: GraphSnapshot) -> _Index:
    found = _INDEXES.get(snapshot)
    if found is None:
        entities = snapshot.entities
        loose: dict[str, list[Entity]] = {}
        by_name: dict[str, list[str]] = {}
        for entity in entities.values():
            for key in dict.fromkeys(loose_key(form) for form in (entity.name, *entity.aliases)):
                if len(key) >= MIN_KEY:
                    loose.setdefault(key, []).append(entity)
            by_name.setdefault(entity.name.strip().lower(), []).append(entity.id)
        names = sorted((e.name.strip().lower(), e.id) for e in entities.values())
        order = {entity_id: n for n, entity_id in enumerate(entities)}
        found = _INDEXES[snapshot] = _Index(order, loose, names, by_name)
    return found


def spelled(question: str, tools: ToolExecutor) -> str:
    """``question`` with loosely written names respelled; unchanged when the graph cannot be
    read here (the investigation then fails, or not, on its own first query)."""
    words = list(_WORD.finditer(question))
    keys = {
        loose_key(question[words[i].start() : words[j].end()])
        for i in range(len(words))
        for j in range(i + 1, min(len(words), i + MAX_WORDS))
    }
    try:
        snapshot = tools.snapshot()
        names = snapshot.index
        if names is not None:  # the name index: only the entities of these keys are read
            return respelled(question, names.loose(keys))
        index = _index(snapshot)
    except (StoreError, RetrievalError):
        return question
    candidates = {e.id: e for key in keys for e in index.loose.get(key, ())}
    ordered = sorted(candidates.values(), key=lambda e: index.order[e.id])
    return respelled(question, ordered)


def named_parts(entity_ids: Sequence[str], tools: ToolExecutor) -> list[dict[str, str]]:
    """Entities named after a question's entity with one word more or less ("Grafana" and
    "Grafana Server", "Redis 注册中心" and "Redis"): the part of it that a diagram or a page
    names on its own. Offered to the model as hints, never bound as the question's names."""
    try:
        snapshot = tools.snapshot()
        names = snapshot.index
        entity: Callable[[str], Entity | None]
        if names is not None:
            entity, candidates, order = names.entity, _indexed_candidates(names), names.order
        else:
            index = _index(snapshot)
            entity = snapshot.entities.get
            candidates = functools.partial(_one_word_candidates, index=index)
            order = index.order
        found: list[dict[str, str]] = []
        for entity_id in entity_ids:
            asked = entity(entity_id)
            if asked is None:
                continue
            for other_id in sorted(candidates(asked.name), key=order.__getitem__):
                other = entity(other_id)
                if (
                    other is not None
                    and other.id != entity_id
                    and _one_word_apart(asked.name, other.name)
                ):
                    found.append({"id": other.id, "name": other.name, "of": entity_id})
    except (StoreError, RetrievalError):
        return []
    return found[:MAX_PARTS]


def _indexed_candidates(names: NameIndex) -> Callable[[str], set[str]]:
    """``_one_word_candidates`` through the name index: names starting with this one (a
    range scan) and the leading parts of this one (exact look-ups)."""

    def candidates(name: str) -> set[str]:
        lowered = name.strip().lower()
        found = set(names.named_from(lowered))
        found.update(names.named([lowered[:cut].strip() for cut in _cuts(lowered)]))
        return found

    return candidates


def _one_word_candidates(name: str, index: _Index) -> set[str]:
    """Every entity whose name could be one word more (it starts with this name) or one word
    less (a leading part of this name) than ``name``: a superset of ``_one_word_apart``."""
    lowered = name.strip().lower()
    start = bisect.bisect_left(index.names, (lowered, ""))
    found: set[str] = set()
    for other, other_id in index.names[start:]:
        if not other.startswith(lowered):
            break
        found.add(other_id)
    for cut in _cuts(lowered):
        found.update(index.by_name.get(lowered[:cut].strip(), ()))
    return found


def _cuts(lowered: str) -> list[int]:
    """Where a leading part of a name ends: before a space or a dash, or a CJK character."""
    return [m.start() for m in _BREAK.finditer(lowered)] + [
        i for i, ch in enumerate(lowered) if in_han_span(ch)
    ]


def _one_word_apart(a: str, b: str) -> bool:
    short, long = sorted((a.strip(), b.strip()), key=len)
    if len(short) < (3 if short.isascii() else 2) or not long.lower().startswith(short.lower()):
        return False
    rest = long[len(short) :]
    return re.fullmatch(rf"[\s-]+(?:[A-Za-z]+|[{HAN_SPAN}]{{2,6}})", rest) is not None
