"""Clues that a name names a component, gathered from one document's own structure.

Each clue is one piece of evidence (a page title, a file path, a table row, "the X
service", a CamelCase or kebab-case identifier, a changelog tag, a proper name next to a
kind word) with the kind it gives, if any, and the reason an analyst reads. ``discover``
weighs the clues of the whole corpus; nothing here decides alone what is an entity.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from zehn.corpus.model import SourceText
from zehn.reading.lexicon import (
    CJK_HEADS,
    CONTEXT_KINDS,
    HEADS,
    MODIFIERS,
    NOT_NAMES,
    Head,
    head_of,
    is_ordinary,
    names_a_thing,
    number_stem,
    store_kind,
)
from zehn.reading.names.code_names import code_services, typed_code_names
from zehn.reading.names.termhood import is_general
from zehn.reading.names.termhood_zh import chinese_terms
from zehn.reading.outline import code_spans, headings, inside, path_parts
from zehn.reading.scripts import CJK_CHARS, HAN_SPAN_COMPAT, has_cjk
from zehn.reading.vocabulary import EntityKind

STRONG = 1  # one clue is enough
REPEATED = 2  # needs a second clue of the same name, in another document or of another source
FREQUENT = 3  # needs three ("the metadata database": a lowercase compound)
CORROBORATED = 0  # only counts with a clue of another source
EVIDENCE = -1  # never counts: an alias and a reason for an entity found otherwise

_CJK = HAN_SPAN_COMPAT
_HAS_CJK = re.compile(f"[{_CJK}]")
_HEAD_WORD = re.compile(
    r"\b(" + "|".join(sorted({*HEADS, *(h + "s" for h in HEADS), "proxies", "registries",
                              "caches", "databases"}, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)  # fmt: skip
_CJK_HEAD = re.compile(r"([A-Za-z][\w.-]*(?:[ ][A-Z][\w.-]*)?)[ ]?(" + "|".join(CJK_HEADS) + r")")
_CAMEL = re.compile(r"(?<![\w./$@#-])(?:[A-Z][a-z0-9]+){1,4}[A-Z][a-z0-9]+(?![\w(/-]|\.\w)")
_EMPHASIS_MARKS = re.compile(r"[*`]+")
_STRONG_EMPHASIS = re.compile(r"(?<![*\w])\*\*")
_CAMEL_HUMP = re.compile(r"[A-Z][a-z0-9]*")
_CODE_LIKE = re.compile(r"(?<![\w./@:#$-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w/-]|\.\w|::)")
_TAG = re.compile(r"^\s*(?:[-*+•]\s+)?\[([a-z][a-z0-9_-]{1,40})\](?![(\[:])")
_PROPER = re.compile(r"(?<![\w./@$-])[A-Z][A-Za-z0-9]*[A-Z0-9]?[a-z0-9]*(?![\w/-]|\.\w)")
_NEXT_CAPITAL = re.compile(r"[ -][A-Z][a-z]")
_ROLE_BEFORE = re.compile(r":[\w-]+:`[^`]*$")
# a template's slot around an identifier: "<file-path>", "{{ name }}", "${name}", "{name}"
_SLOTS = (("<", ">"), ("{", "}"))
_EMPHASIS = re.compile(r"(?<![*\w])\*{1,2}([A-Za-z][\w-]*(?: [A-Za-z][\w-]*){0,2})\*{1,2}(?![*\w])")
# words that may follow a head that ends its noun phrase ("the Kafka broker *for* …")
_CLOSERS = frozenset(
    """is are was were be has have had can will would should may might must does do did to for
    with and or that which who in on of as by from at into via when while if so but than then
    also only itself""".split()
)
# after a subject "The X service": a finite verb ("calls", "depends", "replied") or a modal
_FINITE_VERB = re.compile(r"[a-z]{2,}(?:s|ed)")
_MODALS = frozenset("can cannot will would should may might must never always also then".split())
# after a complement "the X service": a preposition begins the next phrase ("… over gRPC")
_PREPOSITIONS = frozenset(
    """over before after through using about under across until since within without per
    whenever unless because""".split()
)
_LINE_MARKER = re.compile(r"[-*+•>#|]+|\[[^\]]*\]:?|\d{1,3}[.)]")
_INLINE_CODE = re.compile(r"(`+)[^`\n]+?\1")
_NAME_TOKEN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_+#-]*[A-Za-z0-9+#])?(?:\.[A-Za-z0-9]+)*")
_NAME_WORD = re.compile(r"^[`*_\[(\"“]*(.+?)[`*_\])\"”]*$")
_STOP = frozenset(
    """the a an this that these those our your their its his her each every all any other some
    of to for in on with by from and or as is are was were be been at into via than then if
    when while which who whom whose where new old legacy same own main single separate
    dedicated default custom local remote external internal existing underlying whole entire
    real actual mock fake dummy sample example simple basic specific particular given
    following previous next upstream downstream respective corresponding several many few
    both either neither one two three more most less per between across within without under
    over after before among against along around behind beyond during except inside outside
    since until upon toward towards not no can could will would should may might must do does
    such""".split()
)
GENERIC_CAPS = frozenset(
    """The A An This That Each Every Our Your New Add Added Adds Update Updated Updates Fix
    Fixed Fixes Change Changed Changes Create Created Remove Removed Configure Configured Use
    Used Uses Bump Bumped Move Moved Set Make Enable Enabled Disable Disabled Implement
    Implemented Refactor Refactored Upgrade Upgraded Replace Replaced Migrate Migrated
    Introduce See Deploy Run Start Stop Both All Any Some Other When If""".split()
)
_CONTEXT_BEFORE = re.compile(
    r"\b(" + "|".join(sorted(CONTEXT_KINDS, key=len, reverse=True)) + r")s?\b(?:\s*\(\s*|,?\s+"
    r"(?:usually|typically|often|such as|like|e\.g\.,?|for example,?|including|called|"
    r"named|either|i\.e\.,?)\s+)(?:[A-Z]\w*(?:,\s*|\s+or\s+|\s+and\s+))*$",
    re.IGNORECASE,
)
_CONTEXT_AFTER = re.compile(
    r"^(?:\s+(?:is|as|was|acts as|serves as)\s+(?:a|an|the|our|its)|\s*,\s+(?:a|an))\s+"
    r"(?:[\w-]+\s+){0,3}?("
    + "|".join(sorted(CONTEXT_KINDS, key=len, reverse=True))
    + r")\b|^\s*(?:是|作为)[^，。；\n]{0,14}?("
    + "|".join(sorted((k for k in CONTEXT_KINDS if not k.isascii()), key=len, reverse=True))
    + r")",
    re.IGNORECASE,
)

# the same in Chinese text, where a kind word has no word boundary: "关系型数据库包括 X 以及 Y",
# "数据库：X", "X、Y 等数据库"
_ZH_KIND_WORDS = "|".join(
    sorted((k for k in CONTEXT_KINDS if not k.isascii()), key=len, reverse=True)
)
_ZH_JOIN = r"\s*(?:、|，|,|和|或者|或|以及|及|与)\s*"
_ZH_LISTED = r"\[?[A-Za-z][A-Za-z0-9_.-]*\]?(?:\([^)\s]*\))?"
_CONTEXT_BEFORE_ZH = re.compile(
    rf"({_ZH_KIND_WORDS})(?:包括|包含|例如|比如|诸如|如|像|[：:（(])\s*(?:{_ZH_LISTED}{_ZH_JOIN})*\[?$"
)
# the kind word ends there: not the first word of a longer noun ("X 缓存文件" is a file)
_CONTEXT_AFTER_ZH = re.compile(
    rf"^(?:{_ZH_JOIN}{_ZH_LISTED})*\s*等?\s*({_ZH_KIND_WORDS})(?=[^{CJK_CHARS}]|[中的里上]|$)"
)


@dataclass(frozen=True)
class Clue:
    """One piece of evidence: ``name`` (as written, head dropped where it is not part of the
    name), the kind it gives (None: none), how much it counts alone, and why."""

    name: str
    kind: str | None
    source: str
    reason: str
    doc_id: str
    alone: int = STRONG
    written: str = ""  # the form as written when it differs from ``name`` ("Cart Service")
    default_kind: str | None = None  # a kind that holds only if nothing else gives one
    bare: str = ""  # a phrase's name words without the head ("Airflow" in "Airflow scheduler")
    head: str = ""  # a phrase's head noun, singular ("scheduler")
    closed: bool = True  # the head ends the noun ("the Kafka broker." not "Kafka broker metrics")
    uses: int = 1  # how many uses the clue stands for (a proper name's count in the corpus)


def prose_clues(document: SourceText) -> Iterator[Clue]:
    """The clues of ``document``'s sentences outside code: "the X service", identifiers,
    emphasised terms, changelog tags."""
    code = code_spans(document.text)
    heading_starts = {h.start for h in headings(document)}
    stem_title = _file_name_title(document)
    for sentence in document.sentences:
        if inside(code, sentence.start):
            continue
        text = sentence.text
        if sentence.start == 0 and stem_title and text.strip() == stem_title:
            # the file name a loader used for a title: a page about the name, which confirms
            # a name found otherwise ("Dag bundles" on dag-bundles.rst) but is no name alone
            why = f"file name {stem_title!r}"
            yield Clue(stem_title, None, "path", why, document.doc_id, CORROBORATED)
            continue
        heading = sentence.start in heading_starts
        yield from _phrases(document.doc_id, text, heading)
        yield from _cjk_phrases(document.doc_id, text, heading)
        for name, kind, why, written in code_services(text):
            yield Clue(name, kind, "code-like", why, document.doc_id, STRONG, written)
        yield from _chinese_terms(document.doc_id, text, heading)
        yield from _identifiers(document.doc_id, _links_masked(text))
        for name, kind, why in typed_code_names(text):
            yield Clue(name, kind, "code-like", why, document.doc_id, STRONG)
        yield from _emphasised(document.doc_id, text)
        if match := _TAG.match(text):
            tag = match.group(1)
            why = f"changelog tag [{tag}]"
            yield Clue(tag, None, "tag", why, document.doc_id, EVIDENCE)


# where a link points, not what the text names: "](#warm-standby)", "][reverse-proxy]",
# "<https://…>", a bare URL (a reference's definition line keeps its label: it is written once)
_LINK_TARGET = re.compile(r"\]\([^)\s]*\)|\]\[[^\]\n]*\]|<?\b(?:https?|ftp)://[^\s>)]+>?")


def _links_masked(text: str) -> str:
    """``text`` with link targets and URLs blanked (same length): an anchor or a reference
    label (``#warm-standby``, ``[reverse-proxy]``) is a section's slug, not a name."""
    return _LINK_TARGET.sub(lambda m: " " * len(m.group()), text)


def _file_name_title(document: SourceText) -> str:
    """The title when a loader fell back to the file name for it ("dag-serialization"), else
    ''. Such a title is the path, not a name the page gives."""
    parts = path_parts(document.doc_id)
    title = document.title.strip()
    return title if parts and title.lower().replace("_", "-") == parts[-1] else ""


def proper_uses(document: SourceText) -> Iterator[tuple[str, tuple[str, str] | None]]:
    """Each proper name in prose (not ordinary English, not a language or protocol), with the
    kind a nearby kind word gives it and that word ("a database, usually PostgreSQL")."""
    code = code_spans(document.text)
    for sentence in document.sentences:
        if inside(code, sentence.start):
            continue
        text = sentence.text
        for match in _PROPER.finditer(text):
            word = match.group()
            if len(word) < 3 or is_ordinary(word) or word.lower() in NOT_NAMES:
                continue
            if match.start() == 0 and word.isalpha() and not any(c.isupper() for c in word[1:]):
                continue  # a capital opening a sentence says nothing
            if _NEXT_CAPITAL.match(text, match.end()):
                continue  # "Google Cloud Storage": part of a longer name
            yield word, _context_kind(text, match.start(), match.end())


def _context_kind(text: str, start: int, end: int) -> tuple[str, str] | None:
    # emphasis and code marks are not words: "a broker (**RabbitMQ**, **Redis** …)"
    window = _EMPHASIS_MARKS.sub("", text[max(0, start - 60) : start])
    before = _CONTEXT_BEFORE.search(window)
    word = before.group(1) if before else None
    if word is None and (
        after := _CONTEXT_AFTER.match(_EMPHASIS_MARKS.sub("", text[end : end + 60]))
    ):
        word = after.group(1) or after.group(2)
    if word is None and has_cjk(text):
        before_zh = _CONTEXT_BEFORE_ZH.search(window)
        after_zh = _CONTEXT_AFTER_ZH.match(_EMPHASIS_MARKS.sub("", text[end : end + 60]))
        found = before_zh or after_zh
        word = found.group(1) if found else None
    kind = CONTEXT_KINDS.get(word.lower()) if word else None
    return (kind, word) if kind and word else None


def _phrases(doc_id: str, text: str, heading: bool) -> Iterator[Clue]:
    """ "the checkout service", "the Kafka broker", "a Valkey caching service", "the API server",
    "the accounting and fraud detection services"."""
    tokens = [(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    code = [m.span() for m in _INLINE_CODE.finditer(text)]
    for index, (token, start, end) in enumerate(tokens):
        match = _HEAD_WORD.fullmatch(token.strip("`*_\"“”'").rstrip(".,;:)!?"))
        if match is None or index == 0:
            continue
        head = head_of(match.group())
        if head is None or any(s < start and end <= e for s, e in code):
            continue  # a head inside inline code ("`airflow db migrate`") is a command
        plural = match.group().lower() != head.noun
        after = tokens[index + 1][0] if index + 1 < len(tokens) else ""
        closed = token[-1:] in ".,;:)!?" or not after or _bare(after).lower() in _CLOSERS
        clear = not plural and _clear_argument(tokens, index, closed)
        for clue in _names_before(doc_id, tokens, index, head, plural, heading, clear):
            yield clue if closed else replace(clue, closed=False)


def _clear_argument(tokens: list[tuple[str, int, int]], index: int, closed: bool) -> bool:
    """ "the X service" as a whole argument of its sentence: "The X service calls …" (its
    subject, a verb after it) or "… reads from the X service." (a complement, its noun phrase
    ending there). Stated once that way, X names a component."""
    if index < 2 or _bare(tokens[index - 2][0]).lower() != "the":
        return False
    after = _bare(tokens[index + 1][0]).lower() if index + 1 < len(tokens) else ""
    if index == 2 and tokens[0][0] == "The":
        return closed or after in _MODALS or bool(_FINITE_VERB.fullmatch(after))
    return closed or after in _PREPOSITIONS


def _names_before(
    doc_id: str,
    tokens: list[tuple[str, int, int]],
    index: int,
    head: Head,
    plural: bool,
    heading: bool,
    clear: bool = False,
) -> Iterator[Clue]:
    kind = head.kind
    i = index - 1
    modifier = MODIFIERS.get(_bare(tokens[i][0]).lower())
    head_written = _bare(tokens[index][0])
    if modifier is not None and not head.part_of_name:
        kind, head_written, i = modifier, f"{_bare(tokens[i][0])} {head_written}", i - 1
    conjuncts: list[list[str]] = []
    while i >= 0 and len(conjuncts) < 4:
        words = _name_words(tokens, i, first=not conjuncts)
        if not words:
            break
        conjuncts.append(words)
        i -= len(words)
        if not plural or i < 0:
            break
        joiner = tokens[i][0]
        if _bare(joiner).lower() in ("and", "or"):
            i -= 1
        elif not joiner.endswith(","):
            break
    opens = all(_LINE_MARKER.fullmatch(t[0]) for t in tokens[: i + 1])  # "* [cart] Enrich DB …"
    before = _bare(tokens[i][0]).lower() if i >= 0 and not opens else ""
    phrase = _Phrase(doc_id, head, kind, head_written, plural, len(conjuncts) > 1, heading,
                     before, opens, clear and len(conjuncts) == 1)  # fmt: skip
    for words in conjuncts:
        clue = phrase.clue(words)
        if clue is not None:
            yield clue


def _name_words(tokens: list[tuple[str, int, int]], i: int, *, first: bool) -> list[str]:
    """Up to three name words ending at token ``i``, read backwards."""
    words: list[str] = []
    while i >= 0 and len(words) < 3:
        raw = tokens[i][0]
        word = _bare(raw)
        if raw.rstrip(")").endswith((",", ".", ";", ":")) and (words or first):
            break
        if not _NAME_TOKEN.fullmatch(word) or word.lower() in _STOP or word in GENERIC_CAPS:
            break
        if "-" in word and (
            not names_a_thing(word.lower())
            or (bool(words or not first) and all(is_ordinary(p) for p in word.split("-")))
        ):
            break  # "most-privileged API Server": a hyphenated English modifier
        if word.isdigit():
            break
        if words and word.islower() and is_ordinary(word) and not is_ordinary(words[0]):
            break  # "have Sui Generis Database", "run airflow db": a verb before a name
        words.insert(0, word)
        i -= 1
    return words


@dataclass(frozen=True)
class _Phrase:
    """What the words before one head share: the head, the kind, and the context."""

    doc_id: str
    head: Head
    kind: str
    head_written: str
    plural: bool
    coordinated: bool
    heading: bool
    before: str
    opens: bool
    clear: bool = False  # "the X service" whole, as its sentence's subject or complement

    def clue(self, words: list[str]) -> Clue | None:
        name = " ".join(words)
        if name.lower() in NOT_NAMES or words[-1].lower() in NOT_NAMES:
            return None
        shape = _shape(words)
        if shape is None or (self.plural and not self.coordinated and shape == "proper"):
            return None  # "Multiple Executors": a name is singular
        ordinary = all(is_ordinary(w) for w in words)
        kind, head = self.kind, self.head
        if head.after_words_only and not ordinary:
            return None  # "Prometheus storage": Prometheus's own, not a name
        identifier = len(words) == 1 and "-" in name and shape == "proper"
        keeps_head = not (identifier and kind in _TYPED_BY_HEAD) and (
            head.part_of_name
            or (ordinary and kind not in (EntityKind.SERVICE, EntityKind.TEAM))
            or words[-1].lower() == "web"  # "Web Service", "Amazon Web Services"
        )
        full = f"{name} {self.head_written}"
        entity_name = full if keeps_head else name
        why = f"{'heading' if self.heading else 'phrase'} {full!r}"
        alone = self._alone(shape, ordinary, keeps_head, words)
        if alone is None:
            return None
        return Clue(entity_name, kind, "phrase", why, self.doc_id, alone,
                    "" if entity_name == full else full, bare=name, head=head.noun)  # fmt: skip

    def _alone(self, shape: str, ordinary: bool, keeps_head: bool, words: list[str]) -> int | None:
        if self.kind == EntityKind.TEAM:
            return STRONG if shape == "proper" and not (ordinary and self.opens) else None
        if self.clear and len(words) == 1 and _names_by_itself(words[0], shape):
            return STRONG  # "The ledger service consumes …", "… from the risk-model service."
        if shape == "lower":
            if self.before != "the" or len(words) > 2:
                return None
            return FREQUENT if keeps_head else CORROBORATED
        if shape == "lower-proper":
            return REPEATED
        if self.heading or self.opens:  # Title Case there says nothing about a name
            return STRONG if any(_spelled_as_name(w) for w in words) else REPEATED
        return STRONG if self.head_written.split()[-1][:1].isupper() else REPEATED


# heads whose kind an identifier before them takes, the head not part of its name
# ("the billing-events topic" is billing-events, a topic)
_TYPED_BY_HEAD = frozenset({EntityKind.SERVICE, EntityKind.DATASTORE, EntityKind.TOPIC})
# English words that describe the thing a head names rather than name it ("the remote service",
# "the external database"): their endings, then a few that have none of them
_DESCRIBING = re.compile(r"(?:al|ive|ous|able|ible|ful|less|ic|ary|est)$")
_DESCRIBING_WORDS = frozenset("remote web target source parent child legacy primary".split())


def _names_by_itself(word: str, shape: str) -> bool:
    """A word a clear "the X service" names X by: a lowercase noun that general language does
    not use all the time (``termhood``), not a describing word; or an identifier
    ("risk-model")."""
    if shape == "proper":
        return "-" in word and word[:1].islower()
    if shape not in ("lower", "lower-proper") or word in _DESCRIBING_WORDS:
        return False
    return not is_general(word) and (shape == "lower-proper" or not _DESCRIBING.search(word))


def _ends_phrase(text: str, end: int) -> bool:
    """Whether a name ending at ``end`` ends its noun phrase: punctuation, markup, the end, or a
    function word follows ("payment-gateway." "fraud-check and", not "in-process transport")."""
    after = text[end:].lstrip("`*_ \t\n")
    if not after or not after[0].isalnum():
        return True
    word = re.match(r"\w+", after)
    return word is not None and word.group().lower() in _CLOSERS


def _spelled_as_name(word: str) -> bool:
    """Written as only a name is: "OpAMP", "MySQL", "k6", "flagd-ui" (not "Experimental")."""
    return any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word) or "-" in word


def _shape(words: list[str]) -> str | None:
    """ "proper" (every word capitalised, CamelCase, an acronym or an identifier), "lower"
    (plain lowercase words), "lower-proper" (one lowercase word that is not English:
    "flagd"), or None (mixed: "Triggerer instances per")."""
    if all(w[:1].isupper() or w[:1].isdigit() or "-" in w or not w.isalpha() for w in words):
        return "proper"
    if all(w.islower() and w.isalpha() for w in words):
        if len(words) == 1 and not is_ordinary(words[0]):
            return "lower-proper"
        return "lower" if all(is_ordinary(w) for w in words) else None
    return None


def _cjk_phrases(doc_id: str, text: str, heading: bool) -> Iterator[Clue]:
    """ "Redis 注册中心", "Zookeeper 注册中心": a Latin name before a Chinese head. A head that
    only says what the name is ("Dubbo 缓存") needs repeating; "服务" after a Latin name is
    usually "a service built with it" ("Dubbo 服务") and is not read."""
    if not has_cjk(text):  # every head is Chinese: an English sentence has none to find
        return
    for match in _CJK_HEAD.finditer(text):
        name, noun = match.group(1), match.group(2)
        head = CJK_HEADS[noun]
        if head.kind == EntityKind.SERVICE or name.lower() in NOT_NAMES:
            continue
        if is_ordinary(name.split()[-1]):
            continue
        full = f"{name} {noun}"
        entity_name = full if head.part_of_name else name
        why = f"{'heading' if heading else 'phrase'} {full!r}"
        alone = STRONG if heading and head.part_of_name else REPEATED
        yield Clue(entity_name, head.kind, "phrase", why, doc_id, alone,
                   "" if entity_name == full else full, bare=name, head=noun,
                   closed=False)  # fmt: skip


def _chinese_terms(doc_id: str, text: str, heading: bool) -> Iterator[Clue]:
    """ "结算服务", "购物车数据库", "risk-model 服务" (``names.termhood_zh``): stated as
    a whole argument of the sentence, a name; said otherwise, a confirmation."""
    if not _HAS_CJK.search(text):
        return
    for name, noun, kind, clear in chinese_terms(text):
        written = name if noun in name else f"{name} {noun}"
        why = f"{'heading' if heading else 'phrase'} {written!r}"
        alone = STRONG if clear else CORROBORATED
        yield Clue(name, kind, "phrase", why, doc_id, alone,
                   "" if written == name else written, head=noun, closed=clear)  # fmt: skip


def _emphasised(doc_id: str, text: str) -> Iterator[Clue]:
    """A term set in emphasis where a page introduces it ("A *Dag processor*, which …"): a
    name that is not English counts when repeated; an English one only confirms another."""
    for match in _EMPHASIS.finditer(text):
        term = match.group(1)
        words = term.split()
        if term.lower() in NOT_NAMES or any(w.lower() in _STOP for w in words) or len(words) > 2:
            continue
        english = all(is_ordinary(p) for w in words for p in w.split("-"))
        alone = CORROBORATED if english or _ACTIVITY.search(words[-1]) else REPEATED
        why = f"emphasised term {match.group()!r}"
        typed = None if english else _context_kind(text, match.start(), match.end())
        if typed is not None:  # "a broker (**RabbitMQ**, **Redis** …)": named and typed
            kind, word = typed
            why = f"{why} next to the kind word {word!r}"
            yield Clue(term, kind, "emphasis", why, doc_id, STRONG)
            continue
        yield Clue(term, None, "emphasis", why, doc_id, alone, default_kind=store_kind(term))


# A noun made from a verb names an activity or a feature, not a component ("Dag
# Serialization", "fine-tuning"): emphasised, it only confirms a name found otherwise.
_ACTIVITY = re.compile(r"[a-z](?:[st]ion|ment|ing|ance|ence)s?$", re.IGNORECASE)


def _identifiers(doc_id: str, text: str) -> Iterator[Clue]:
    for match in _CAMEL.finditer(text):
        word = match.group()
        humps = _CAMEL_HUMP.findall(word)
        head = head_of(humps[-1])
        if len(humps) < 2 or word.lower() in NOT_NAMES:
            continue
        if head is None:
            closed = text[match.end() :].startswith("**")
            # a list item's bold label: the sentence starts after "- **", so only "**" closes it
            label = closed and not text[: match.start()].strip()
            if label or (closed and _STRONG_EMPHASIS.match(text, match.start() - 2)):
                # "**SchedulerProcess** sends …": a CamelCase actor set in bold, as a name; as
                # the label a list item defines ("- **X**主要负责 …"), a name even once
                why = f"identifier {word!r} {'as a bold label' if label else 'in bold'}"
                yield Clue(word, None, "camel", why, doc_id, STRONG if label else REPEATED)
            continue
        name = word if head.part_of_name or head.kind != EntityKind.SERVICE else "".join(humps[:-1])
        written = "" if name == word else word
        yield Clue(name, head.kind, "camel", f"identifier {word!r}", doc_id, REPEATED, written)
    for match in _CODE_LIKE.finditer(text):
        word = match.group()
        if not names_a_thing(word) or _ROLE_BEFORE.search(text, 0, match.start()):
            continue  # ":ref:`workload-isolation`" names a section, not a component
        artifact = _ARTIFACT_AFTER.match(text, match.end())
        if artifact:
            why = f"{word!r} is a {artifact.group(1)}"
            yield Clue(word, None, "artifact", why, doc_id, EVIDENCE)
            continue
        parts = word.split("-")
        head = head_of(parts[-1])
        kind = head.kind if head is not None and head.kind != EntityKind.TEAM else None
        name = word
        if (
            head is not None
            and head.kind == EntityKind.SERVICE
            and not head.part_of_name
            and len(parts) > 1
        ):
            name = "-".join(parts[:-1])
        why = f"identifier {word!r}"
        closed = _ends_phrase(text, match.end())
        written = "" if name == word else word
        if _in_slot(text, match.start(), match.end()):
            continue  # "<file-path>", "{{ release-name }}": a template's slot, filled by a value
        alone = REPEATED
        if (
            head is None
            and text[match.start() - 1 : match.start()] != "`"
            and (_ACTIVITY.search(parts[-1]) or number_stem(parts[-1]) != parts[-1])
        ):  # "fine-tuning", "allow-lists": an activity or a plural, no component's name
            alone = CORROBORATED
        yield Clue(name, kind, "code-like", why, doc_id, alone, written, closed=closed)


def _in_slot(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` fills a template's slot (``<file-path>``, ``{{ name }}``)."""
    before, after = text[max(0, start - 3) : start].rstrip(), text[end : end + 3].lstrip()
    return any(before.endswith(o) and after.startswith(c) for o, c in _SLOTS)


# nouns after an identifier that make it an artifact, not a component ("the `xk6-otel` extension")
_ARTIFACT_AFTER = re.compile(
    r"[`*]*\s+(library|libraries|package|packages|crate|crates|module|wrapper|extension|plugin|"
    r"gem|dependency|file|command|flag|option|variable|image|script|tool|attribute|function|"
    r"method|class|field|parameter|argument|directory|folder|repository|repo)\b"
)


def _bare(token: str) -> str:
    """A token without the markup and punctuation around it ("`cart`," -> "cart")."""
    match = _NAME_WORD.match(token.strip(".,;:!?"))
    return match.group(1).strip(".,;:!?") if match else token


def name_key(name: str) -> str:
    """What variants of one name share: case, spaces, separators and CamelCase humps dropped,
    and a trailing "service" ("Billing Service", "billing-service", "BillingService",
    "billingservice" and "billing" are all "billing"); a plural is its singular ("Dag
    bundles" and "dag-bundle" are one name, see ``number_stem``)."""
    letters = number_stem("".join(re.findall(rf"[A-Za-z0-9{_CJK}]+", name)).lower())
    for suffix in ("service", "svc", "服务"):
        if (
            letters.endswith(suffix)
            and len(letters) - len(suffix) >= 2
            and letters[-3:] != "微服务"
        ):
            return letters[: -len(suffix)]
    return letters
