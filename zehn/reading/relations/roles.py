"""Relations stated as a role list: "the clients of X are A, B and C", "X 的消费者包括 A 和 B".

A role noun names how its members relate to X: a client or caller calls X, a consumer or
subscriber consumes from it, a producer or publisher publishes to it, a user uses it, a
dependent depends on it, and X depends on each of its dependencies. One edge per member,
all citing the sentence. The role nouns are data rows per language; the mechanism is one:
the role phrase ends right before X, a copula or "include" follows X, then the list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from zehn.corpus.model import Sentence
from zehn.reading.modality import MODAL, NEGATION
from zehn.reading.model import Edge
from zehn.reading.relations.phrases import Local, list_from, plain
from zehn.reading.vocabulary import Predicate

__all__ = ["role_edges"]


class Role(NamedTuple):
    """A role noun's predicate, and whether its members are the subjects (``True``: "the
    clients of X" call X) or the objects ("the dependencies of X": X depends on them)."""

    predicate: Predicate
    members_act: bool = True


_CALLS, _USES = Role(Predicate.CALLS), Role(Predicate.USES)
_CONSUMES, _PUBLISHES = Role(Predicate.CONSUMES_FROM), Role(Predicate.PUBLISHES_TO)
ROLES_EN: dict[str, Role] = {
    "client": _CALLS,
    "caller": _CALLS,
    "consumer": _CONSUMES,
    "subscriber": _CONSUMES,
    "producer": _PUBLISHES,
    "publisher": _PUBLISHES,
    "user": _USES,
    "dependent": Role(Predicate.DEPENDS_ON),
    "dependency": Role(Predicate.DEPENDS_ON, members_act=False),
}
ROLES_ZH: dict[str, Role] = {
    "客户端": _CALLS,
    "调用方": _CALLS,
    "调用者": _CALLS,
    "消费者": _CONSUMES,
    "订阅者": _CONSUMES,
    "生产者": _PUBLISHES,
    "发布者": _PUBLISHES,
    "使用方": _USES,
    "使用者": _USES,
    "依赖方": Role(Predicate.DEPENDS_ON),
}
_EN_PLURAL = {"dependency": "dependencies"}
_EN_ROLE = "|".join(
    rf"{noun}s?" if noun not in _EN_PLURAL else rf"{noun}|{_EN_PLURAL[noun]}" for noun in ROLES_EN
)
# "the (only | two | known) clients of " right before X
_EN_OPENING = re.compile(
    rf"\b(?:the\s+)?(?:only\s+|main\s+|known\s+|\w+\s+)?(?P<role>{_EN_ROLE})\s+of\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_EN_LINK = re.compile(r"^\s*(?:are|is|were|include|includes|comprise)\s*:?\s*$", re.IGNORECASE)
_ZH_LINK = re.compile(
    rf"^\s*的\s*(?P<role>{'|'.join(ROLES_ZH)})\s*(?:有|包括|包含|是|为)\s*[:：]?\s*$"
)


def role_edges(sentence: Sentence, local: Sequence[Local], strategy: str) -> list[Edge]:
    """Edges a role list states (see the module docstring)."""
    text = sentence.text
    named = [m for m in local if m.start != m.end and m.mention.entity_id]
    for i, owner in enumerate(named[:-1]):
        role = _role(text, owner, named[i + 1])
        if role is None:
            continue
        members, _ = list_from(text, named[i + 1 :])
        return [_edge(sentence, owner, member, role, strategy) for member in members]
    return []


def _role(text: str, owner: Local, first: Local) -> Role | None:
    """The role an owner's list is introduced by, or None."""
    between = plain(text[owner.end : first.start])
    zh = _ZH_LINK.match(between)
    if zh is not None:
        return ROLES_ZH[zh["role"]]
    opening = _EN_OPENING.search(plain(text[: owner.start]))
    if opening is None or not _EN_LINK.match(between):
        return None
    noun = opening["role"].lower()
    singular = next((n for n, p in _EN_PLURAL.items() if p == noun), noun.removesuffix("s"))
    return ROLES_EN.get(singular)


def _edge(sentence: Sentence, owner: Local, member: Local, role: Role, strategy: str) -> Edge:
    subject, obj = (member, owner) if role.members_act else (owner, member)
    text = sentence.text
    return Edge.stated_by(
        sentence,
        subject.mention.entity_id or "",
        role.predicate,
        obj.mention.entity_id or "",
        fact=text,
        strategy=strategy,
        negated=bool(NEGATION.search(text[: member.start])),
        hedged=bool(MODAL.search(text[: member.start])),
        cue=text[owner.end : member.start].strip(" *_`,"),
        subject_span=(subject.mention.start, subject.mention.end),
        object_span=(obj.mention.start, obj.mention.end),
    )
