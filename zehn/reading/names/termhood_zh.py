"""Chinese noun terms that end in a kind's head noun: 结算服务, 购物车数据库, risk-model 服务.

Chinese writes a component's name and its kind as one word (支付服务, "the payment service"),
so the name's start is where segmentation says the noun begins: ``jieba`` (a maintained
segmenter with parts of speech) cuts the characters before the head, function words
(prepositions, pronouns, numbers) end the name, and a verb that opens it is the sentence's
verb, not part of the name (调用 in 调用支付服务). A term stated as a whole argument of its
sentence — its subject, or the object of a preposition — names a component even once; said
elsewhere it only confirms a name found otherwise. A name made of general-language words
alone (其他服务, 所有服务) is none. The rows below are this language's data; the mechanism
is the English "the X service" one (``zehn.reading.names.clues``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from zehn.reading.lexicon import CJK_HEADS, names_a_thing
from zehn.reading.names.termhood import is_general
from zehn.reading.scripts import HAN_SPAN_COMPAT
from zehn.reading.vocabulary import EntityKind

_CJK = HAN_SPAN_COMPAT
MAX_NAME_CHARS = 4  # 购物车, 风控, 注册: a component's Chinese name before its head
# parts of speech that end a name read backwards: prepositions, conjunctions, particles,
# pronouns, adverbs, numbers, measure words, directions, times, punctuation
_FUNCTION_POS = ("p", "c", "u", "r", "d", "m", "q", "f", "t", "x", "y", "e", "o", "ad", "b")
_VERB_POS = ("v", "vn", "vd")
# words that say where or how a thing runs rather than name it (远程服务 "a remote service")
DESCRIBING = frozenset(
    "远程 本地 后台 后端 前端 分布式 默认 外部 内部 目标 相关 底层 上游 下游".split()
)
# after a whole argument: a verb, a preposition, an adverb or a conjunction follows
_AFTER_ARGUMENT_POS = ("v", "vn", "vd", "p", "d", "c", "ad")
_HEAD = re.compile("|".join(sorted(CJK_HEADS, key=len, reverse=True)))
_LATIN_BEFORE = re.compile(r"(?<![\w.-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+)[ ]?$")
_RUN_BEFORE = re.compile(rf"[{_CJK}]*$")
_BOUNDARY = re.compile(rf"(?:^|[^{_CJK}A-Za-z0-9])$")


@lru_cache(maxsize=16384)
def _tags(text: str) -> tuple[tuple[str, str], ...]:
    return tuple((w.word, w.flag) for w in _segmenter().cut(text))


@lru_cache(maxsize=1)
def _segmenter() -> Any:
    """``jieba.posseg``, imported on the first Chinese sentence: its import (its dictionaries
    of parts of speech) is a quarter of a second every command would pay for English text."""
    import jieba  # type: ignore[import-untyped]
    import jieba.posseg as pseg  # type: ignore[import-untyped]

    jieba.setLogLevel(logging.WARNING)
    return pseg


def _function(flag: str) -> bool:
    return flag.startswith(_FUNCTION_POS)


def _name_before(run: str) -> tuple[str, bool, bool] | None:
    """The name ending ``run`` (the characters before a head), whether it is verbs only, and
    whether what stands before it in ``run`` lets it be a whole argument (a preposition, or a
    verb whose object it is)."""
    tokens = list(_tags(run))
    taken: list[tuple[str, str]] = []
    while tokens and not _function(tokens[-1][1]):
        if sum(len(w) for w, _ in taken) + len(tokens[-1][0]) > MAX_NAME_CHARS:
            break
        taken.insert(0, tokens.pop())
    dropped_verb = False
    while len(taken) > 1 and taken[0][1].startswith(_VERB_POS):
        tokens.append(taken.pop(0))
        dropped_verb = True
    name = "".join(w for w, _ in taken)
    if len(name) < 2 or is_general(name, "zh") or name in DESCRIBING:
        return None
    opens = dropped_verb or bool(tokens and tokens[-1][1].startswith(("p", "c", "x")))
    verbs_only = all(f.startswith((*_VERB_POS, "a", "j")) for _, f in taken)
    return name, verbs_only, opens


def _argument_after(text: str) -> bool:
    """What follows a head lets the term end there: the sentence's end, punctuation, a verb or
    a preposition (结算服务*通过*, 购物车数据库*读取*), not a noun that continues it (服务*时*)."""
    rest = text.lstrip(" ")
    if not rest or not re.match(rf"[{_CJK}A-Za-z0-9]", rest):
        return True
    return any(
        bool(tags) and tags[0][1].startswith(_AFTER_ARGUMENT_POS)
        for tags in (_tags(rest[:6]), _tags(rest[:2]))  # 读取 in 读取数据, cut as one noun
    )


def _starts(text: str, index: int) -> bool:
    """A term may begin at ``index``: the sentence's start, or after punctuation or a space."""
    return _BOUNDARY.search(text[:index]) is not None


def chinese_terms(text: str) -> Iterator[tuple[str, str, str, bool]]:
    """(name, head, kind, clear) for each term of ``text`` that ends in a Chinese head noun:
    ("结算服务", "服务", service, True) … ``clear`` when it is stated as a whole argument."""
    previous = 0
    for match in _HEAD.finditer(text):
        noun, before = match.group(), text[previous : match.start()]
        previous = match.end()
        head = CJK_HEADS[noun]
        if head.kind == EntityKind.TEAM:
            continue
        after = _argument_after(text[match.end() :])
        if latin := _LATIN_BEFORE.search(before):
            if names_a_thing(latin.group(1)):
                yield latin.group(1), noun, head.kind, after
            continue
        run = _RUN_BEFORE.search(before).group()  # type: ignore[union-attr]
        if head.part_of_name:  # 注册中心, 配置中心: the head is the term
            opened = _function(_tags(run)[-1][1]) if run else _starts(text, match.start())
            yield noun, noun, head.kind, after and opened
            continue
        found = _name_before(run) if run else None
        if found is None:
            continue
        name, verbs_only, opens = found
        at_start = len(name) == len(run) and _starts(text, match.start() - len(run))
        # a verb before 服务 is most often what is done to services (暴露服务, 引用服务)
        clear = after and not verbs_only and (at_start or opens)
        yield name + noun, noun, head.kind, clear


def bound_to_head(text: str, name: str, head: str) -> bool:
    """The corpus ``text`` uses the words before ``head`` mostly with it (账本 in 账本服务):
    a name; words it uses before many nouns (远程服务, 远程调用, 远程地址) describe."""
    bare = name[: -len(head)] if name.endswith(head) and name != head else ""
    return not bare or text.count(name) * 2 >= text.count(bare)
