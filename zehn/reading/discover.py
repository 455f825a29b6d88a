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

from zehn.corpus.model import Progress, Sentence, SourceText
from zehn.reading.binding import Binder
from zehn.reading.catalog import Catalog
from zehn.reading.model import Entity, Mention
from zehn.reading.vocabulary import EntityKind

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
_GENERIC = frozenset(
    """The A An This That Each Every Our Your New Add Added Adds Update Updated Updates Fix
    Fixed Fixes Change Changed Changes Create Created Remove Removed Configure Configured Use
    Bump Bumped Move Moved Set Make Enable Enabled Disable Disabled Implement Implemented
    Refactor Refactored Upgrade Upgraded Replace Replaced Migrate Migrated Introduce See
    Deploy Run Start Stop""".split()
)
# Hyphenated words that describe rather than name ("web-based", "low-criticality").
_DESCRIPTIVE_PREFIXES = frozenset(
    "non no multi single pre post self auto semi high low real re co cross un unless your my "
    "start port run".split()
)
_DESCRIPTIVE_SUFFIXES = frozenset(
    "based side facing world free exclusive time line stopped criticality level like ready "
    "aware specific driven wide only disable enable forward instrumented instrumentation".split()
)


def discover_entities(documents: Sequence[SourceText]) -> tuple[Entity, ...]:
    """Entities named in ``documents``, most frequent first, deduplicated by (kind, name)."""
    code_like: Counter[str] = Counter()
    named: Counter[tuple[str, str]] = Counter()
    for document in documents:
        for sentence in document.sentences:
            code_like.update(
                m.group() for m in _CODE_LIKE.finditer(sentence.text) if _names_a_thing(m.group())
            )
            for match in _NAMED.finditer(sentence.text):
                words = match.group(1).split()
                while words and words[0] in _GENERIC:
                    words.pop(0)
                name = " ".join(words)
                if name:
                    named[(name, match.group(2).lower())] += 1
    entities: dict[str, Entity] = {}
    for name, uses in code_like.most_common():
        if uses >= MIN_CODE_LIKE_USES:
            entity = Entity(name=name, kind=EntityKind.SERVICE, origin="discovered")
            entities.setdefault(entity.id, entity)
    for (name, kind), _ in named.most_common():
        entity = Entity(name=name, kind=kind, aliases=(f"{name} {kind}",), origin="discovered")
        entities.setdefault(entity.id, entity)
    return tuple(entities.values())


def _names_a_thing(identifier: str) -> bool:
    """ "product-catalog" names a thing; "web-based", "gr-b" and "on-call" do not."""
    parts = identifier.split("-")
    return (
        identifier not in _NOT_NAMES
        and parts[0] not in _DESCRIPTIVE_PREFIXES
        and parts[-1] not in _DESCRIPTIVE_SUFFIXES
        and max(len(p) for p in parts) >= 4
        and min(len(p) for p in parts) >= 2
    )


def bind_corpus(
    documents: Sequence[SourceText], catalog: Catalog | None, progress: Progress | None = None
) -> tuple[tuple[Entity, ...], list[tuple[Sentence, list[Mention]]]]:
    """The entities (catalog, else discovered) and every sentence with its bound mentions."""
    entities = catalog.entities if catalog else discover_entities(documents)
    binder = Binder(entities)
    bound: list[tuple[Sentence, list[Mention]]] = []
    for document in documents:
        bound.extend((sentence, binder.bind(sentence)) for sentence in document.sentences)
        if progress:
            progress(1)
    return tuple(entities), bound
