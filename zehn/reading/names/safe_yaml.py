"""Safe YAML built straight from libyaml's parse events, for the plain documents catalogs are.

``yaml.load(text, CSafeLoader)`` parses in C but composes a node per scalar and constructs
every value in Python: a 50k-entity catalog took 2.6 s. A catalog holds only mappings, lists
and strings (``null``, ``true`` at most), so :func:`load_yaml` builds those from the events
directly and resolves each plain scalar with the safe loader's own implicit resolvers. Anything
else it does not reproduce itself — a number, a date, a tag, an anchor or alias, a merge key,
a mapping or list as a key, a second document, a parse error — makes it load the text again
the ordinary way, so the result (or the error) is exactly the safe loader's.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import (
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)

# libyaml's loader where installed: the same parser makes the events of the fast path
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_EVENTS: Any = getattr(yaml, "CBaseLoader", None)

_STR = "tag:yaml.org,2002:str"
_NULL = "tag:yaml.org,2002:null"
_BOOL = "tag:yaml.org,2002:bool"
# deeper than this, the safe loader's own (recursive) composer decides what happens
MAX_DEPTH = 64


class _Unsure(Exception):
    """The events hold something the fast path does not build itself."""


def load_yaml(text: str) -> Any:
    """Safe YAML (catalogs, gold labels): what ``yaml.load(text, CSafeLoader)`` returns, or
    the error it raises."""
    if _fast_path_fits():
        try:
            return _from_events(text)
        except (_Unsure, yaml.YAMLError):
            pass  # the ordinary load below gives the answer, or the error, of record
    return yaml.load(text, Loader=_LOADER)


def _fast_path_fits() -> bool:
    """Whether the loader is the stock one this module reproduces (nobody added resolvers,
    path resolvers or constructors for the three kinds of scalar it builds)."""
    constructors = _LOADER.yaml_constructors
    return (
        _EVENTS is not None
        and None not in _LOADER.yaml_implicit_resolvers
        and not _LOADER.yaml_path_resolvers
        and constructors.get(_STR) is yaml.SafeLoader.construct_yaml_str
        and constructors.get(_NULL) is yaml.SafeLoader.construct_yaml_null
        and constructors.get(_BOOL) is yaml.SafeLoader.construct_yaml_bool
    )


def _from_events(text: str) -> Any:
    """Build the document from the parser's events; ``_Unsure`` where it cannot."""
    parser = _EVENTS(text)
    try:
        return _build(parser.get_event)
    finally:
        parser.dispose()


_NO_KEY = object()


def _build(get: Any) -> Any:
    if type(get()) is not StreamStartEvent:
        raise _Unsure("stream")
    event = get()
    if type(event) is StreamEndEvent:
        return None
    if type(event) is not DocumentStartEvent:
        raise _Unsure("document")
    resolvers_by_first = _LOADER.yaml_implicit_resolvers
    bool_values = _LOADER.bool_values
    root: Any = _NO_KEY
    stack: list[Any] = []  # open lists and dicts, innermost last
    keys: list[Any] = []  # per open container: a dict's key waiting for its value
    parent: Any = None  # the innermost open container
    while True:
        event = get()
        kind = type(event)
        if kind is ScalarEvent:
            if event.anchor is not None or event.tag is not None:
                raise _Unsure("anchor or tag")
            item = event.value
            if event.implicit[0]:  # plain: typed as the safe loader's resolvers type it
                for tag, pattern in resolvers_by_first.get(item[:1], ()):
                    if pattern.match(item):
                        if tag == _NULL:
                            item = None
                        elif tag == _BOOL:
                            item = bool_values[item.lower()]
                        else:  # int, float, timestamp, merge, value: not built here
                            raise _Unsure(tag)
                        break
            # (quoted and block scalars are strings)
            if parent is None:
                root = item
            elif type(parent) is list:
                parent.append(item)
            elif keys[-1] is _NO_KEY:
                keys[-1] = item
            else:
                parent[keys[-1]] = item
                keys[-1] = _NO_KEY
            continue
        if kind is MappingStartEvent or kind is SequenceStartEvent:
            if event.anchor is not None or event.tag is not None:
                raise _Unsure("anchor or tag")
            if len(stack) >= MAX_DEPTH:
                raise _Unsure("depth")
            item = {} if kind is MappingStartEvent else []
            if parent is None:
                root = item
            elif type(parent) is list:
                parent.append(item)
            elif keys[-1] is _NO_KEY:
                raise _Unsure("a mapping or list as a key")
            else:
                parent[keys[-1]] = item
                keys[-1] = _NO_KEY
            stack.append(item)
            keys.append(_NO_KEY)
            parent = item
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            stack.pop()
            if keys.pop() is not _NO_KEY:
                raise _Unsure("a key without a value")
            parent = stack[-1] if stack else None
        elif kind is DocumentEndEvent:
            break
        else:  # an alias, or anything unforeseen
            raise _Unsure(kind.__name__)
    if stack or root is _NO_KEY or type(get()) is not StreamEndEvent:
        raise _Unsure("not one whole document")
    return root
