"""Entity discovery for corpora without a catalog.

Conservative on purpose: code-like identifiers used at least twice
("origin-mapper", "product-catalog") become services, and capitalised names
followed by "service" or "team" ("Checkout Service", "the Search team")
become services or teams. Everything found is marked ``origin="discovered"``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from zehn.extract.base import SourceText
from zehn.extract.model import Entity

MIN_CODE_LIKE_USES = 2
_CODE_LIKE = re.compile(r"(?<![\w./@:#-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w/-]|\.\w)")
_NAMED = re.compile(
    r"\b((?:[A-Z][A-Za-z0-9]+[ -]){0,2}[A-Z][A-Za-z0-9]+)[ -](Service|service|Team|team)\b"
)
_NOT_NAMES = frozenset(
    """built-in read-only on-call follow-up re-index re-indexed e-mail opt-in opt-out
    end-to-end real-time long-running short-lived up-to-date well-known so-called
    non-blocking high-level low-level open-source third-party cross-cutting
    multi-tenant single-tenant""".split()
)
_GENERIC = frozenset({"The", "A", "An", "This", "That", "Each", "Every", "Our", "Your", "New"})


def discover_entities(documents: Sequence[SourceText]) -> tuple[Entity, ...]:
    """Entities named in ``documents``, most frequent first, deduplicated by (kind, name)."""
    code_like: Counter[str] = Counter()
    named: Counter[tuple[str, str]] = Counter()
    for document in documents:
        for sentence in document.sentences:
            code_like.update(
                m.group() for m in _CODE_LIKE.finditer(sentence.text)
                if m.group() not in _NOT_NAMES
            )  # fmt: skip
            for match in _NAMED.finditer(sentence.text):
                name = " ".join(w for w in match.group(1).split() if w not in _GENERIC)
                if name:
                    named[(name, match.group(2).lower())] += 1
    entities: dict[str, Entity] = {}
    for name, uses in code_like.most_common():
        if uses >= MIN_CODE_LIKE_USES:
            entity = Entity(name=name, kind="service", origin="discovered")
            entities.setdefault(entity.id, entity)
    for (name, kind), _ in named.most_common():
        entity = Entity(name=name, kind=kind, aliases=(f"{name} {kind}",), origin="discovered")
        entities.setdefault(entity.id, entity)
    return tuple(entities.values())
