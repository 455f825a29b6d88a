"""The CYPHER parameter header, checked and written in one pass.

Checking every parameter value (``zehn.store.client.checked_params``) and then letting the
falkordb client write each one as Cypher text walked a big UNWIND batch twice, one Python
call per value each time: a sixth of a medium build. ``fast_header`` writes exactly the
text falkordb's ``Graph._build_params_header`` writes for the checked values, checking as it
goes: plain ``str``, ``int``, ``float``, ``bool``, ``None``, ``list``, ``tuple`` and ``dict``
with ``str`` keys. NUL and unpaired surrogates are looked for once, in the whole text. For
anything else (another type, a value out of range, a bad name, a character the header
cannot carry) it raises ``NotFast`` and the caller takes the careful path, which names the
offending parameter.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class NotFast(Exception):
    """The one-pass writer does not vouch for these parameters: check them one by one."""


def fast_header(params: Mapping[str, Any]) -> str:
    """``CYPHER `name`=value …`` for ``params`` (non-empty), or ``NotFast``."""
    parts = ["CYPHER "]
    for key, value in params.items():
        parts.append(f"`{_name(key)}`={_value(value)} ")
    text = "".join(parts)
    if "\x00" in text:
        raise NotFast
    try:
        text.encode("utf-8")  # an unpaired surrogate anywhere, in a value or a name
    except UnicodeEncodeError as e:
        raise NotFast from e
    return text


def _name(key: object) -> str:
    if type(key) is not str or not key or "`" in key:
        raise NotFast
    return key


def _value(value: Any) -> str:
    """falkordb's ``stringify_param_value`` for the types the checks accept unchanged."""
    kind = type(value)
    if kind is str:  # the commonest value: written here rather than through _quoted
        text: str = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{text}"'
    if kind is dict:
        fields = []
        for k, v in value.items():
            if type(k) is not str or not k or "`" in k:
                raise NotFast
            fields.append(f"`{k}`:{_value(v)}")
        return "{" + ",".join(fields) + "}"
    if kind is list or kind is tuple:
        return "[" + ",".join([_value(v) for v in value]) + "]"
    if kind is int:
        if not INT64_MIN <= value <= INT64_MAX:
            raise NotFast
        return str(value)
    if value is None:
        return "null"
    if kind is bool:
        return str(value)
    if kind is float:
        if not math.isfinite(value):
            raise NotFast
        return str(value)
    if isinstance(value, str):  # a StrEnum (a predicate, a kind): written as its text
        return _quoted(value)
    raise NotFast


def _quoted(text: str) -> str:
    """falkordb's ``quote_string``: backslashes and double quotes escaped, nothing else."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
