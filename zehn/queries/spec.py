"""A named query is data: description, typed and bounded parameters, read-only Cypher.

Parameters are validated here, before anything reaches the database: types,
bounds, enums, lengths, and no control characters (a NUL cannot even be
encoded by the client). Depth selects one of fixed Cypher variants; values are
never formatted into Cypher text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from zehn.errors import InvalidParameters

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
MAX_STRING = 500
MAX_LIST = 500

PolicyBinding = Literal["impact", "predicates"]
"""Which policy parameters the engine fills in (a model never chooses them): ``impact`` binds
``$reverse``/``$forward`` (the policy's impact predicates by direction); ``predicates`` binds
``$predicates`` (the one asked for, if the graph has it, else the policy's traversable ones)
and ``$direction`` (default both), and notes a predicate the policy blocks."""
MentionsOf = Literal["param", "rows"]
"""Whose mentions the returned sentences are: the ``entity_id`` parameter's (``param``), or
each row's ``id``'s, listed in the row's ``evidence`` (``rows``)."""


@dataclass(frozen=True)
class ParamSpec:
    name: str
    type: str  # "string" | "integer" | "string_list" | "node_list" (internal node ids)
    description: str
    required: bool = True
    minimum: int | None = None
    maximum: int | None = None
    max_length: int = MAX_STRING
    enum: tuple[str, ...] = ()
    default: Any = None
    max_items: int = MAX_LIST  # a string_list's length (larger lists are sent in batches)

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"description": self.description}
        if self.type == "integer":
            schema.update(type="integer", minimum=self.minimum, maximum=self.maximum)
        elif self.type == "string_list":
            schema.update(type="array", items={"type": "string"}, maxItems=self.max_items)
        elif self.type == "node_list":
            schema.update(type="array", items={"type": "integer"}, maxItems=self.max_items)
        else:
            schema.update(type="string", maxLength=self.max_length)
            if self.enum:
                schema["enum"] = list(self.enum)
        return {k: v for k, v in schema.items() if v is not None}

    def check(self, query: str, value: Any) -> Any:
        where = f"{query}.{self.name}"
        if self.type == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidParameters(f"{where} must be an integer, not {value!r}")
            low = self.minimum if self.minimum is not None else value
            high = self.maximum if self.maximum is not None else value
            if not low <= value <= high:
                raise InvalidParameters(f"{where} must be between {low} and {high}, not {value}")
            return value
        if self.type == "node_list":  # the server's own node ids, within one walk
            if not isinstance(value, list | tuple) or len(value) > self.max_items:
                raise InvalidParameters(
                    f"{where} must be a list of at most {self.max_items} node ids"
                )
            if not all(type(v) is int and 0 <= v < 2**63 for v in value):
                raise InvalidParameters(f"{where} must hold node ids (integers >= 0)")
            return list(value)
        if self.type == "string_list":
            if not isinstance(value, list | tuple) or len(value) > self.max_items:
                raise InvalidParameters(
                    f"{where} must be a list of at most {self.max_items} strings"
                )
            if all(type(v) is str for v in value) and _plain(value, self.max_length):
                return list(value)  # checked at once: a frontier walk sends thousands
            return [_string(where, v, self.max_length) for v in value]
        text = _string(where, value, self.max_length)
        if self.enum and text not in self.enum:
            raise InvalidParameters(f"{where} must be one of {', '.join(self.enum)}, not {text!r}")
        return text


def _plain(values: list[str] | tuple[str, ...], max_length: int) -> bool:
    """Every value non-blank, short enough, without control characters, valid UTF-8."""
    joined = "\n".join(values)
    if not values or _CONTROL.search(joined) or max(map(len, values)) > max_length:
        return False
    if any(not v.strip() for v in values):
        return False
    try:
        joined.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def sendable(value: str, max_length: int = MAX_STRING) -> bool:
    """Whether a string parameter passes the checks of ``_string`` (a look-up key taken from
    a user's text is dropped, not refused, when it cannot be sent: no name has it)."""
    if not value.strip() or len(value) > max_length or _CONTROL.search(value):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _string(where: str, value: Any, max_length: int) -> str:
    if not isinstance(value, str):
        raise InvalidParameters(f"{where} must be a string, not {type(value).__name__}")
    if not value.strip():
        raise InvalidParameters(f"{where} must not be empty")
    if len(value) > max_length:
        raise InvalidParameters(f"{where} is longer than {max_length} characters")
    if _CONTROL.search(value):
        raise InvalidParameters(f"{where} contains control characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidParameters(f"{where} is not valid Unicode (unpaired surrogate)") from None
    return value


@dataclass(frozen=True)
class NamedQuery:
    """One whitelisted query; ``variants`` maps depth to Cypher when depth matters."""

    name: str
    description: str
    params: tuple[ParamSpec, ...]
    cypher: str = ""
    variants: Mapping[int, str] = field(default_factory=dict)
    internal: bool = False  # run by the engine itself, not offered to models as a tool
    returns_paths: bool = False
    # (list parameter, row field): rows belong to one item each, so the engine can keep
    # them per graph revision and ask only for items it has not seen (zehn.engine.snapshot)
    per_item: tuple[str, str] | None = None
    # answered from the graph snapshot's catalog (GraphSnapshot.find_entities) when the graph
    # has a revision: the question's names are looked up once per revision, not per question
    from_snapshot: bool = False
    policy_binding: PolicyBinding | None = None
    # for "what is X?": a mention of X is evidence, so the engine collects these sentences
    mentions_of: MentionsOf | None = None
    # the parameter whose words the engine turns into ``$query`` for the full-text index
    # (zehn.queries.terms): a model passes words, never index syntax
    fulltext: str | None = None
    # a frontier walk (zehn.engine.frontier) through the internal queries "<frontier>_layer"
    # (each reached entity once per depth) and "<frontier>_parents" (the edges to the
    # entities shown); the nearest entities are shown as paths, the rest counted
    frontier: str | None = None

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Checked parameters (defaults filled); unknown or missing ones are refused."""
        if not isinstance(arguments, Mapping):
            raise InvalidParameters(f"{self.name}: arguments must be an object")
        known = {p.name for p in self.params}
        extra = sorted(set(arguments) - known)
        if extra:
            raise InvalidParameters(f"{self.name}: unknown parameters {', '.join(map(str, extra))}")
        checked: dict[str, Any] = {}
        for spec in self.params:
            if spec.name not in arguments or arguments[spec.name] is None:
                if spec.required:
                    raise InvalidParameters(f"{self.name}: missing parameter {spec.name!r}")
                checked[spec.name] = spec.default
                continue
            checked[spec.name] = spec.check(self.name, arguments[spec.name])
        return checked

    def text_for(self, params: Mapping[str, Any]) -> str:
        if self.variants:
            return self.variants[int(params["depth"])]
        return self.cypher

    def tool_schema(self) -> dict[str, Any]:
        """JSON schema of the parameters, as a model's tool definition needs it."""
        return {
            "type": "object",
            "properties": {p.name: p.json_schema() for p in self.params},
            "required": [p.name for p in self.params if p.required],
            "additionalProperties": False,
        }
