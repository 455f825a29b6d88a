"""Names written in code marks right before the kind of thing they name.

A name set in code (`` `x_y` ``) is an identifier: a setting, a function, a table, a queue. The
noun right after it says which: "the `notify_x` RabbitMQ queue", "the `a_b` and `c_d` queues",
"`t_x_command` 表" name a queue or a table by that name; "`x` 微服务" names a service (a bare
Latin name before 服务 is usually a service built with it, "Dubbo 服务", and is not read here).
Such a statement is as clear as "the X service" stated once. ``zehn.reading.names.clues`` turns
each into a clue.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from zehn.reading.lexicon import CJK_HEADS
from zehn.reading.vocabulary import EntityKind

__all__ = ["code_services", "typed_code_names"]

# the kinds of store a noun after a code name says it is
_STORE_NOUNS: dict[str, str] = {
    "queue": EntityKind.TOPIC, "topic": EntityKind.TOPIC, "队列": EntityKind.TOPIC,
    "主题": EntityKind.TOPIC, "table": EntityKind.DATASTORE, "表": EntityKind.DATASTORE,
    "bucket": EntityKind.DATASTORE,
}  # fmt: skip
_CODE_NAME = r"`[a-z][a-z0-9]*(?:_[a-z0-9]+)+`"
_TYPED_CODE_NAMES = re.compile(
    rf"((?:{_CODE_NAME}\s*(?:,|and/or|and|or|、|和|或)\s*)*{_CODE_NAME})\s*"
    rf"(?:[A-Z][A-Za-z0-9]+\s+)?({'|'.join(_STORE_NOUNS)})(?:s\b|\b|(?=[^A-Za-z]))"
)
_CODE_SERVICE = re.compile(r"`([a-z][a-z0-9_.-]*)`\s*(微服务|服务)")


def typed_code_names(text: str) -> Iterator[tuple[str, str, str]]:
    """(name, kind, why) for "the `x_y` RabbitMQ queue", "the `a_b` and `c_d` queues",
    "`x_y` 表": snake_case names in code marks before a store noun."""
    for match in _TYPED_CODE_NAMES.finditer(text):
        names, noun = match.groups()
        for name in re.findall(r"`([^`]+)`", names):
            yield name, _STORE_NOUNS[noun], f"code name {name!r} before the kind word {noun!r}"


def code_services(text: str) -> Iterator[tuple[str, str, str, str]]:
    """(name, kind, why, written) for "`x` 微服务": the name with its head, and the form as
    written (code marks included) so that it binds where it is written that way."""
    for match in _CODE_SERVICE.finditer(text):
        name, noun = match.groups()
        why = f"code name {name!r} before the head {noun!r}"
        yield f"{name} {noun}", CJK_HEADS[noun].kind, why, match.group()
