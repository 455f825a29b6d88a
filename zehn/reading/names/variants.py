"""Forms of one component that look like names of their own: numbered instances in a
diagram (``TiKV1``, ``TiKV2``: the component TiKV, drawn twice) and identifiers with a
deployment suffix (``ledger-prod``, ``ledger_dev``: the ledger where it runs). Each is an
alias of the component, with its reason; the suffixes are a data row per language-neutral
convention, the folding one mechanism.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace

from zehn.reading.model import Entity
from zehn.reading.names.clues import name_key

# where a deployment runs, written after the component's identifier
DEPLOYMENT_SUFFIXES = frozenset("prod production dev devel local staging stage test qa".split())
_NUMBERED = re.compile(r"^(?P<base>[A-Za-z][A-Za-z-]*[A-Za-z])[-_ ]?(?P<n>\d{1,2})$")
_SUFFIXED = re.compile(r"^(?P<base>[A-Za-z][\w]*?[A-Za-z0-9])[-_](?P<suffix>[a-z]+)$")
MIN_INSTANCES = 2  # a lone "X1" may be a version; two numbered ones are instances


def instance_of(name: str) -> tuple[str, str] | None:
    """(the component's name, why) when ``name`` is a numbered instance or a deployment
    variant of it: "TiKV2" -> ("TiKV", "numbered instance 'TiKV2'"), else None."""
    if match := _NUMBERED.match(name):
        return match["base"], f"numbered instance {name!r}"
    match = _SUFFIXED.match(name)
    if match and match["suffix"].lower() in DEPLOYMENT_SUFFIXES:
        return match["base"], f"deployment variant {name!r}"
    return None


def fold_instances(entities: list[Entity]) -> list[Entity]:
    """Each numbered instance or deployment variant folded into its component: the entity
    named by its base where there is one; else, when two or more share a base, one entity
    named by that base. A lone "X1" with no X stays as it is."""
    by_key = {name_key(e.name): e for e in entities}
    groups: dict[str, list[tuple[Entity, str]]] = defaultdict(list)
    bases: dict[str, str] = {}
    for entity in entities:
        found = instance_of(entity.name)
        if found is not None and name_key(found[0]) != name_key(entity.name):
            groups[name_key(found[0])].append((entity, found[1]))
            bases.setdefault(name_key(found[0]), found[0])
    merged: dict[str, Entity] = {}
    gone: set[str] = set()
    for key, members in groups.items():
        owner = by_key.get(key)
        if owner is None and len(members) < MIN_INSTANCES:
            continue
        if owner is None:
            first = members[0][0]
            owner = replace(first, name=bases[key], aliases=(), evidence=())
        forms = [f for e, _ in members for f in (e.name, *e.aliases)]
        notes = [(e.name, why) for e, why in members]
        merged[key] = replace(
            owner,
            aliases=tuple(dict.fromkeys((*owner.aliases, *forms))),
            evidence=(*owner.evidence, *notes),
        )
        gone.update(e.id for e, _ in members)
    out = [merged.pop(name_key(e.name), e) for e in entities if e.id not in gone]
    return out + list(merged.values())
