"""Entity binding: find catalog names and aliases in a sentence, with spans and reasons.

Matching is token based (so it scales to large catalogs and needs no word
boundaries between CJK characters): a kept Aho-Corasick matcher over the names'
lowercased tokens (``zehn.reading.names.matcher``) finds where names start in one pass, and
only those positions are checked. It is separator-insensitive ("search api" =
"search-api") and case-insensitive, except for single capitalised aliases
such as "Search" or "Web", which must match case and are not trusted at the
start of a sentence. A name shared by several entities ("Redwood Inference":
team, service, customer) binds only when a kind cue next to it decides
("… team", "… Ltd.", "the … service"); otherwise the mention is ambiguous and
keeps every candidate. Near-miss code-like names ("orgin-mapper") bind by
fuzzy match only when one catalog name is clearly closest.

A discovered name that is also ordinary English ("cart", "email", "fraud detection") binds
only where the text marks it as the component: its kind word next to it ("the cart
service"), code or emphasis markup (`` `cart` ``, ``*scheduler*``, a link's text), a line
of its own (a heading or a label), Title Case inside a sentence ("Fraud Detection"), an
identifier spelling ("fraud-detection"), "the" before a name that is itself a kind word
("the scheduler"). The marks are read from the sentence alone, so the grader re-reading a
sentence binds it the same way. Two marks come from the page instead (``subjects``): the page
being about the name, and the page marking the name elsewhere (``page_binding``); a mention
bound by them is ``page_level`` and an edge resting on it records why, as a reference does.
Catalog names are trusted as they are.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import accumulate, pairwise
from types import MappingProxyType
from typing import NamedTuple, Protocol

from zehn.corpus.model import Sentence
from zehn.reading.lexicon import (
    OWNER_FACES,
    head_of,
    is_ordinary,
    number_stem,
    number_variants,
)
from zehn.reading.model import Entity, Mention
from zehn.reading.names.marks import PAGE_MARKED, PAGE_SUBJECT, in_chinese, mark_of
from zehn.reading.names.matcher import TokenMatcher
from zehn.reading.names.near_names import CodeLikeNames
from zehn.reading.scripts import HAN_SPAN_COMPAT
from zehn.reading.vocabulary import EntityKind

MAX_FORM_TOKENS = 8
# Marks a sentence does not hold: its page is about the name, or marks it elsewhere.
_PAGE_MARKS = frozenset((PAGE_SUBJECT, PAGE_MARKED))
NO_SUBJECTS: Mapping[str, str] = MappingProxyType({})
_TOKEN = re.compile(rf"[A-Za-z0-9]+|[{HAN_SPAN_COMPAT}]|[^\sA-Za-z0-9_\-\u2010-\u2015]")
# the same tokens with what lies between them: [gap, token, gap, token, …, gap], split in C
_SPLIT = re.compile(f"({_TOKEN.pattern})")
_GAP_CHARS = " -_\u2010\u2011"  # what may separate the tokens of one name (at most two)
_JOINER = re.compile(r"[-_][A-Za-z0-9]")
# As in _TOKEN, a CJK character is a word of its own: a name needs no boundary at a CJK edge.
_CJK_CHARS = HAN_SPAN_COMPAT
_CJK_CHAR = re.compile(f"[{_CJK_CHARS}]")
_LATIN_WORD = rf"[^\W{_CJK_CHARS}]|-"  # continues a Latin word: not CJK, not a separator
_CODE_LIKE = re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")
# "Celery's result backend", "**Celery's broker**": the possessive after a name
_POSSESSIVE = re.compile(r"['’]s\s+(?:the\s+)?(?=[A-Za-z])")
_LAST_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]+$")
_LAST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\n")
# Kind cues next to a shared name; Chinese ones need no word boundary ("红木推理团队").
_KIND_CUES_AFTER: dict[str, re.Pattern[str]] = {
    EntityKind.TEAM: re.compile(
        r"^\s*(?:(?:team|on-call|engineers?|folks)\b|团队|小组|值班)", re.I
    ),
    EntityKind.SERVICE: re.compile(
        r"^\s*(?:(?:service|endpoints?|api|pods?|cluster|deployment)\b|服务|接口|集群)", re.I
    ),
    EntityKind.CUSTOMER: re.compile(
        r"^\s*(?:(?:ltd|limited|inc|account|contract|renewal)\b|有限公司|公司|合同|续约)", re.I
    ),
}
_KIND_CUES_BEFORE: dict[str, re.Pattern[str]] = {
    EntityKind.TEAM: re.compile(r"\b(?:team|teams)\s+(?:at\s+|of\s+)?$", re.I),
    EntityKind.SERVICE: re.compile(r"\bservice\s+$", re.I),
    EntityKind.CUSTOMER: re.compile(r"(?:\b(?:customer|client|account)\s+|客户\s*)$", re.I),
}


class NameCatalog(Protocol):
    """The names of a whole graph, for a binder that holds only some of its entities: the
    two readings that depend on every name (a possessed kind word names the one entity with
    that last word; a near miss binds to the clearly closest code-like name)."""

    def with_head(self, noun: str) -> list[Entity]:
        """Up to two entities whose name's last word (singular, lower case) is ``noun``."""
        ...

    def closest_code_like(self, word: str) -> tuple[str, str, float] | None:
        """(form, entity id, score) of the code-like name ``word`` is a near miss of."""
        ...


class _Form(NamedTuple):
    entity_id: str
    text: str
    case_sensitive: bool
    marked_only: bool  # a discovered ordinary word: binds only where marked
    words: tuple[str, ...]  # its tokens as written (a case-sensitive form matches them)
    lower: str


class _Token(NamedTuple):
    text: str
    start: int
    end: int


class _Split:
    """A text's tokens, split once per sentence: their words (as written and lower-cased) and,
    once a name starts somewhere (``locate``), their offsets."""

    __slots__ = ("lowered", "offsets", "parts", "words")

    def __init__(self, text: str) -> None:
        self.parts = _SPLIT.split(text)
        self.words: list[str] = self.parts[1::2]
        self.lowered = list(map(str.lower, self.words))
        # the offset of each part: token i starts at offsets[2i + 1] and ends at offsets[2i + 2]
        self.offsets: list[int] = []

    def locate(self) -> list[int]:
        """``offsets``, computed on the first call."""
        if not self.offsets:
            self.offsets = list(accumulate(map(len, self.parts), initial=0))
        return self.offsets

    def token(self, i: int) -> _Token:
        offsets = self.locate()
        return _Token(self.words[i], offsets[2 * i + 1], offsets[2 * i + 2])

    def first_from(self, offset: int) -> int:
        """The first token that starts at or after ``offset``."""
        return bisect_left(self.locate()[1::2], offset, hi=len(self.words))

    def contiguous(self, i: int, n: int) -> bool:
        """As ``_contiguous``: tokens ``i`` … ``i + n − 1`` are separated by nothing, spaces,
        '-' or '_' (at most two characters, no line break)."""
        for gap in self.parts[2 * i + 2 : 2 * (i + n) - 1 : 2]:
            if len(gap) > 2 or gap.strip(_GAP_CHARS):
                return False
        return True


# the last tuple of entities mapped by id, and its map: a corpus asks once per document
_LAST_BY_ID: list[tuple[tuple[Entity, ...], dict[str, Entity]]] = []


def entities_by_id(entities: Sequence[Entity]) -> dict[str, Entity]:
    """``{e.id: e for e in entities}``, kept for the last tuple asked (read it, never change
    it): building it for each of 900 documents over 10k entities cost seconds a build."""
    if not isinstance(entities, tuple):
        return {e.id: e for e in entities}
    if not _LAST_BY_ID or _LAST_BY_ID[0][0] is not entities:
        _LAST_BY_ID[:] = [(entities, {e.id: e for e in entities})]
    return _LAST_BY_ID[0][1]


def tokens(text: str) -> list[_Token]:
    """The tokens of ``text`` with their offsets (as ``_TOKEN.finditer``, built in C)."""
    parts = _SPLIT.split(text)
    offsets = list(accumulate(map(len, parts), initial=0))
    return list(map(_Token._make, zip(parts[1::2], offsets[1:-1:2], offsets[2::2], strict=True)))


def _is_weak(form: str, entity: Entity, words: Sequence[object] | None = None) -> bool:
    """A single capitalised word that may also be a plain word ("Search", "Web", "Cart").

    A catalog entity's own name is trusted in any case; a discovered one is not, unless the
    word is no English word ("Triggerer" is the triggerer however it is written).
    """
    words = tokens(form) if words is None else words
    own_name = form.lower() == entity.name.lower() and entity.origin == "catalog"
    if entity.origin != "catalog" and form.isalpha() and not is_ordinary(form):
        return False
    return len(words) == 1 and form[:1].isupper() and not own_name


def _last_word(name: str) -> str:
    """The last word of a name, singular and lowercase ("QueueBroker" -> "broker")."""
    words = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)
    return number_stem(words[-1].lower()) if words else ""


def _with_number_variants(forms: Iterable[str]) -> list[str]:
    """Each form, then the same form with its last word in the other number ("Dag bundle" and
    "Dag bundles", "workers" and "worker"): a name is the same thing in either number."""
    out = list(dict.fromkeys(forms))
    for form in list(out):
        if form[-1:] not in _LAST_CHARS:
            continue  # no letter at the end (nor a line break, before which ``$`` matches)
        match = _LAST_WORD.search(form)
        if match is None:
            continue
        for variant in number_variants(match.group()):
            changed = form[: match.start()] + variant
            if changed.lower() not in (f.lower() for f in out):
                out.append(changed)
    return out


# a word boundary inside one CamelCase identifier: "Store|API", "Query|Tracker", "HTTP|Server"
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _with_spaced_words(forms: Iterable[str]) -> list[str]:
    """Each form, then a one-word CamelCase form written as its words ("StoreAPI" and "Store
    API", "QueryTracker" and "Query Tracker"): prose writes an identifier's words apart."""
    out = list(dict.fromkeys(forms))
    for form in list(out):
        if form.isalnum() and form.isascii():
            spaced = _CAMEL_BOUNDARY.sub(" ", form)
            if spaced != form and spaced.lower() not in (f.lower() for f in out):
                out.append(spaced)
    return out


def binding_forms(entity: Entity) -> list[str]:
    """Every form the binder files an entity under: its name and aliases, each CamelCase one
    also in words, each in either number (the name index stores the same: ``name_keys``)."""
    return _with_number_variants(_with_spaced_words((entity.name, *entity.aliases)))


class Binder:
    """Binds mentions in sentences to entities; build once per catalog."""

    def __init__(self, entities: Sequence[Entity], catalog: NameCatalog | None = None) -> None:
        """``catalog``: where the names of a whole graph are looked up when ``entities`` are
        only those that can occur in the text to bind (the engine's name index); None: the
        entities are the whole catalog."""
        self.entities = {e.id: e for e in entities}
        self._forms: dict[tuple[str, ...], list[_Form]] = defaultdict(list)
        # first token -> most tokens of a form starting with it: most positions try nothing
        self._longest: dict[str, int] = {}
        # the keys with a form that must match case, or must be marked: most have neither
        self._cased: set[tuple[str, ...]] = set()
        self._marked: set[tuple[str, ...]] = set()
        code_like: list[tuple[str, str]] = []  # (form, entity id) in entity order
        longest = self._longest
        for entity in entities:
            for form in binding_forms(entity):
                words = _TOKEN.findall(form)
                if not words or len(words) > MAX_FORM_TOKENS:
                    continue
                marked_only = entity.origin != "catalog" and all(is_ordinary(w) for w in words)
                lower = form.lower()
                weak = _is_weak(form, entity, words)
                key = tuple([word.lower() for word in words])
                bucket = self._forms[key]
                if longest.get(key[0], 0) < len(words):
                    longest[key[0]] = len(words)
                if all(f.entity_id != entity.id or f.lower != lower for f in bucket):
                    bucket.append(_Form(entity.id, form, weak, marked_only, tuple(words), lower))
                    if weak:
                        self._cased.add(key)
                    if marked_only:
                        self._marked.add(key)
                if _CODE_LIKE.fullmatch(form):
                    code_like.append((form, entity.id))
        self._catalog = catalog
        self._code_names = CodeLikeNames(code_like)
        # kept with the binder: every name in a sentence found in one pass, not per token
        self._matcher = TokenMatcher(self._forms)

    def names_in(self, text: str) -> set[str]:
        """The ids of the entities whose name or alias occurs in ``text``, as written anywhere
        (no mark checked, nothing bound): one cheap pass, to count where a name is used."""
        split = _Split(text)
        found: set[str] = set()
        for at, counts in self._matcher.starts(split.lowered).items():
            for n in counts:
                found.update(f.entity_id for f in self._forms[tuple(split.lowered[at : at + n])])
        return found

    def bind(self, sentence: Sentence, subjects: Mapping[str, str] = NO_SUBJECTS) -> list[Mention]:
        """Mentions in ``sentence`` (document offsets), longest match first, non-overlapping.

        ``subjects`` are the entities the sentence's page is about or marks elsewhere, each
        with that page mark (``PAGE_SUBJECT``, ``PAGE_MARKED``): their ordinary-word names
        bind there after a definite word or a preposition.
        """
        text = sentence.text
        mentions: list[Mention] = []
        taken: list[tuple[int, int]] = []
        split = _Split(text)
        starts = self._matcher.starts(split.lowered)
        offsets = split.locate() if starts else []
        i = 0  # the first token not yet inside a mention: longest match first, left to right
        for at in sorted(starts):
            if at < i:
                continue
            found = self._longest_at(text, split, at, subjects, counts=starts[at])
            if found is None:
                continue
            n, forms, mark = found
            start, end = offsets[2 * at + 1], offsets[2 * (at + n)]
            mentions.append(self._mention(sentence, start, end, forms, mark))
            taken.append((start, end))
            i = at + n
        mentions.extend(self._fuzzy(sentence, taken))
        if not mentions:
            return mentions
        mentions.sort(key=_mention_start)
        return self._possessed(sentence, split, mentions, subjects)

    def _possessed(
        self,
        sentence: Sentence,
        split: _Split,
        mentions: list[Mention],
        subjects: Mapping[str, str],
    ) -> list[Mention]:
        """A possessor is no mention of its own: "Celery's result backend" names the result
        backend, not Celery. The noun phrase after "'s" binds where it is a name (an
        ordinary-word name is marked by its possessor); the possessor is dropped then, so a
        relation with the possessed thing is never read as one with its owner. What an owner
        exposes or keeps ("Y's API", "Y's data": ``OWNER_FACES``) is the owner itself."""
        text, out = sentence.text, []
        for mention in mentions:
            end = mention.end - sentence.start
            possessive = _POSSESSIVE.match(text, end)
            if possessive is None or not mention.entity_id:
                out.append(mention)
                continue
            after = possessive.end()
            if any(m.start - sentence.start == after for m in mentions):
                continue  # the possessed thing is bound already
            at = split.first_from(after)  # the first token of what is possessed
            if at == len(split.words):
                continue
            found = self._longest_at(text, split, at, subjects, possessor=True)
            if found is None and _owner_face(split.words[at : at + 3]):
                out.append(mention)  # "Y's API": Y's own face, so Y is the end
            elif found is not None:
                n, forms, _mark = found
                start, stop = split.offsets[2 * at + 1], split.offsets[2 * (at + n)]
                out.append(self._mention(sentence, start, stop, forms, "its possessor"))
            elif (only := self._only_with_head(split.words[at])) is not None:
                out.append(self._head_mention(sentence, split.token(at), only))
        return sorted(out, key=_mention_start)

    def _only_with_head(self, word: str) -> Entity | None:
        """The one entity whose name ends with the kind word ``word`` ("broker": QueueBroker),
        or None when there are none or several."""
        head = head_of(word)
        if head is None:
            return None
        if self._catalog is not None:
            found = self._catalog.with_head(head.noun)
        else:
            found = [e for e in self.entities.values() if _last_word(e.name) == head.noun]
        if len(found) != 1:
            return None
        self.entities.setdefault(found[0].id, found[0])
        return found[0]

    def _head_mention(self, sentence: Sentence, token: _Token, entity: Entity) -> Mention:
        """ "Celery's broker": the possessed kind word names the one entity with that head."""
        return Mention(
            sentence_id=sentence.id,
            start=sentence.start + token.start,
            end=sentence.start + token.end,
            surface=token.text,
            candidates=(entity.id,),
            reason=f"the kind word {token.text!r} after a possessive: the only {entity.name!r}",
        )

    def _longest_at(
        self,
        text: str,
        split: _Split,
        i: int,
        subjects: Mapping[str, str] = NO_SUBJECTS,
        *,
        possessor: bool = False,
        counts: Sequence[int] | None = None,
    ) -> tuple[int, list[_Form], str] | None:
        """The longest usable name starting at token ``i`` of ``split`` (the tokens of
        ``text``): (tokens, forms, mark), or None.

        ``counts`` are the token counts of the names the matcher found starting there
        (longest first); without them every length up to the longest name is probed.
        """
        lowered = split.lowered
        longest = self._longest.get(lowered[i], 0)
        if not longest:
            return None
        offsets = split.offsets or split.locate()
        start = offsets[2 * i + 1]
        if (
            start > 0
            and _JOINER.match(text, start - 1)
            and (start >= 2 and text[start - 2].isalnum())
        ):
            return None  # inside a longer identifier such as "new-search-api"
        lengths = counts if counts is not None else range(min(longest, len(lowered) - i), 0, -1)
        parts = split.parts
        for n in lengths:
            if n == 2:  # the usual many-token name: one gap, checked here
                gap = parts[2 * i + 2]
                if len(gap) > 2 or gap.strip(_GAP_CHARS):
                    continue
            elif n > 2 and not split.contiguous(i, n):
                continue
            key = tuple(lowered[i : i + n])
            forms = self._forms.get(key)
            if not forms:
                continue
            end = offsets[2 * (i + n)]
            if _JOINER.match(text, end):
                continue  # "search-api-v2" is not "search-api"
            if _in_path(text, start, end):
                continue  # ".../opentelemetry-demo/pull/1" names a URL, not the entity
            usable = forms
            if key in self._cased:
                # Chinese text writes Latin script for terms only, in either case ("由 master
                # 分发"), and its capitals open no sentence ("Master 负责 …")
                chinese = in_chinese(text, start, end)
                written = tuple(split.words[i : i + n])
                usable = [f for f in forms if not f.case_sensitive or f.words == written or chinese]
                if usable and start == 0 and all(f.case_sensitive for f in usable) and not chinese:
                    continue  # "Search results …": a capitalised word opening a sentence
            mark = ""
            if key in self._marked and any(f.marked_only for f in usable):
                ids = [f.entity_id for f in usable]
                mark = mark_of(text, start, end, self._kinds(usable), subjects, ids)
                mark = mark or ("its possessor" if possessor else "")
                usable = [f for f in usable if not f.marked_only or mark]
            if usable:
                return n, usable, mark
        return None

    def _kinds(self, forms: list[_Form]) -> set[str]:
        return {self.entities[f.entity_id].kind for f in forms}

    def _mention(
        self, sentence: Sentence, start: int, end: int, forms: list[_Form], mark: str = ""
    ) -> Mention:
        surface = sentence.text[start:end]
        if len(forms) == 1:
            ids: tuple[str, ...] = (forms[0].entity_id,)
        else:
            lower = surface.lower()
            exact = [f for f in forms if f.lower == lower]
            if exact and len({f.entity_id for f in exact}) < len({f.entity_id for f in forms}):
                forms = exact  # "redwood-inference" as written is the service's own alias
            ids = tuple(dict.fromkeys([f.entity_id for f in forms]))
        reason = _form_reason(surface, forms[0], self.entities[forms[0].entity_id])
        if mark and forms[0].marked_only:
            reason = f"{reason}, marked by {mark}"
        if len(ids) > 1:
            decided = self._decide_by_cue(sentence.text, start, end, ids)
            if decided is not None:
                ids, reason = (decided[0],), decided[1]
            else:
                kinds = ", ".join(sorted(self.entities[i].kind for i in ids))
                reason = f"ambiguous: {surface!r} names a {kinds}; no cue decides"
        return Mention(
            sentence_id=sentence.id,
            start=sentence.start + start,
            end=sentence.start + end,
            surface=surface,
            candidates=ids,
            reason=reason,
            page_level=mark in _PAGE_MARKS and forms[0].marked_only,
        )

    def _decide_by_cue(
        self, text: str, start: int, end: int, ids: tuple[str, ...]
    ) -> tuple[str, str] | None:
        after, before = text[end : end + 30], text[max(0, start - 30) : start]
        hits: list[tuple[str, str]] = []
        for entity_id in ids:
            kind = self.entities[entity_id].kind
            cue_after, cue_before = _KIND_CUES_AFTER.get(kind), _KIND_CUES_BEFORE.get(kind)
            if cue_after is not None and (match := cue_after.match(after)):
                hits.append((entity_id, f"cue {match.group().strip()!r} after the name"))
            elif cue_before is not None and (match := cue_before.search(before)):
                hits.append((entity_id, f"cue {match.group().strip()!r} before the name"))
        return hits[0] if len(hits) == 1 else None

    def _fuzzy(self, sentence: Sentence, taken: list[tuple[int, int]]) -> list[Mention]:
        """Near misses of code-like names outside the names ``taken`` (in text order)."""
        if self._catalog is None and not self._code_names:
            return []
        closest = self._catalog.closest_code_like if self._catalog else self._code_names.closest
        found: list[Mention] = []
        # ``taken`` is in text order and disjoint, as the matches are: one pass over both
        after, count = 0, len(taken)
        for match in _CODE_LIKE.finditer(sentence.text):
            start, end = match.span()
            while after < count and taken[after][1] <= start:
                after += 1
            if after < count and taken[after][0] < end:
                continue  # inside a bound name
            best = closest(match.group())
            if best is None:
                continue
            form, entity_id, score = best
            found.append(
                Mention(
                    sentence_id=sentence.id,
                    start=sentence.start + start,
                    end=sentence.start + end,
                    surface=match.group(),
                    candidates=(entity_id,),
                    reason=f"fuzzy {score:.0f} to {form!r}",
                )
            )
        return found


def _contiguous(text: str, window: list[_Token]) -> bool:
    """Tokens of one name are separated by nothing, spaces, '-' or '_' (not by a line break)."""
    for left, right in pairwise(window):
        gap = text[left.end : right.start]
        if len(gap) > 2 or "\n" in gap or any(c not in " -_\u2010\u2011" for c in gap):
            return False
    return True


def _in_path(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    if "/" in (before, after) and in_chinese(text, start, end):
        return False  # "Master/Worker注册": names joined by a slash inside Chinese text, a list
    return (before in "/.\\" and before != "") or after == "/" or _qualified_part(text, start, end)


def _qualified_part(text: str, start: int, end: int) -> bool:
    """Part of a qualified identifier or markup: "dubbo.properties", "<dubbo:registry>",
    "xmlns:dubbo", 'group="dubbo"' name a file, a property, a tag or a value, not the component."""
    follows = text[end : end + 2]
    dotted = (
        len(follows) == 2 and follows[0] in ".:" and follows[1].isascii() and follows[1].isalpha()
    )
    before = text[max(0, start - 2) : start]
    tagged = before[-1:] == "<" or before == '="' or (before[-1:] == ":" and before[:1].isalpha())
    return dotted or tagged


def sentence_marked(mention: Mention) -> bool:
    """True when an ordinary-word name was bound by a mark its own sentence holds (markup, its
    kind word, a capital mid-sentence …), not by its page."""
    return ", marked by " in mention.reason and not mention.page_level


def _mention_start(mention: Mention) -> int:
    return mention.start


def _form_reason(surface: str, form: _Form, entity: Entity) -> str:
    if form.text == entity.name:
        return "name" if surface == entity.name else f"name ({surface!r})"
    return f"alias {form.text!r}"


def find_name(text: str, name: str) -> tuple[int, int] | None:
    """The first case-insensitive occurrence of ``name`` in ``text`` as a whole name.

    Binding's rule without its tokens: a Latin letter, digit, ``_`` or ``-`` next
    to a Latin edge of the name continues a word ("cart" is not in "cartography"),
    while a CJK character is a word of its own ("信息流构建服务" is in
    "信息流构建服务调用推荐排序服务"), since CJK text has no spaces to wait for.
    """
    match = _name_pattern(name).search(text) if name else None
    return match.span() if match else None


@lru_cache(maxsize=4096)
def _name_pattern(name: str) -> re.Pattern[str]:
    before = "" if _CJK_CHAR.match(name[0]) else f"(?<!{_LATIN_WORD})"
    after = "" if _CJK_CHAR.match(name[-1]) else f"(?!{_LATIN_WORD})"
    return re.compile(before + re.escape(name) + after, re.IGNORECASE)


def _owner_face(words: Sequence[str]) -> bool:
    """Whether a possessed phrase is what its owner exposes or keeps ("API", "reload
    endpoint", "HTTP and remote-read APIs"): one of its first three words is in the list."""
    return any(w.lower() in OWNER_FACES for w in words)
