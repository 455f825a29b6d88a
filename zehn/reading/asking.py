"""What a question asks, read from a lexicon rather than from whole-question templates.

Engineers word the same question many ways ("If the cache goes down …", "Would renaming X
break anything?", "Which store does billing write invoices to?"). The reader looks for the
words that carry the asked relation — impact, dependencies, callers, a path, a yes/no
relation, an attribute the graph does not model — and for a target kind ("which
database"). Names are bound elsewhere (``zehn.reading.binding``); this module only needs
where they sit in the text, so that the words *around* a name decide its role.

Multi-part questions ("…, and who owns them?") are split by :func:`split_parts`; each part
is read on its own. Chinese questions go through ``zehn.reading.asking_zh``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from zehn.reading.questions import WHAT_IS
from zehn.reading.vocabulary import EntityKind, Predicate


class Intent(StrEnum):
    """The kind of answer a question wants."""

    IMPACT = "impact"  # what breaks if X changes (downstream walk)
    UPSTREAM = "upstream"  # what X depends on (upstream walk)
    LOOKUP_OUT = "lookup_out"  # X --predicate--> ?
    LOOKUP_IN = "lookup_in"  # ? --predicate--> X
    YES_NO = "yes_no"  # does X <predicate> Y?
    PATH = "path"  # how does X reach Y?
    WHAT_IS = "what_is"
    ATTRIBUTE = "attribute"  # a port, URL, version … the graph does not model
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Asked:
    """One question (or one part of a multi-part question), as read."""

    intent: Intent
    predicates: tuple[Predicate, ...] = ()
    target_kinds: tuple[EntityKind, ...] = ()
    attribute: str | None = None
    why: str = ""  # the words that decided the intent, for the trace
    passive: bool = False  # "is X owned by Y?": the relation runs from the second name
    outage: bool = False  # impact worded as running software fails: "goes down", "restart"

    def fits(self, kind: str) -> bool:
        """Whether an entity of ``kind`` can be the question's focus: a team does not go
        down, a customer is not restarted, a service owns no team."""
        if self.intent == Intent.IMPACT and self.outage:
            return kind not in (EntityKind.TEAM, EntityKind.CUSTOMER)
        if self.intent == Intent.LOOKUP_IN and Predicate.OWNS in self.predicates:
            return kind != EntityKind.TEAM
        if self.intent == Intent.LOOKUP_OUT and Predicate.OWNS in self.predicates:
            return kind == EntityKind.TEAM
        return True


# --- the lexicon -----------------------------------------------------------------------------

_CHANGE = (
    r"chang\w*|modif\w*|renam\w*|mov(?:e|es|ed|ing)|upgrad\w*|restart\w*|deprecat\w*|"
    r"remov\w*|replac\w*|migrat\w*|touch\w*|delet\w*|shut\w*\s+down|tak\w+\s+down|"
    r"turn\w*\s+off|disabl\w*|break\w*|broke|redeploy\w*|roll\w*\s+back"
)
_DOWN = (
    r"go(?:es)?\s+down|went\s+down|is\s+down|are\s+down|(?:is|are|becomes?)\s+unavailable|"
    r"unavailable|outage|fail(?:s|ed|ing)?|crash\w*|dies|is\s+slow|stops?\s+working|"
    r"is\s+unreachable|has\s+an?\s+(?:outage|incident)"
)
_OUTAGE = re.compile(rf"\b(?:{_DOWN}|restart\w*|shut\w*\s+down|tak\w+\s+down)\b", re.IGNORECASE)
_IMPACT = re.compile(
    rf"\b(?:if|when|after|once|suppose|what\s+happens\s+(?:if|when)|would|will|could)\b.{{0,80}}?"
    rf"\b(?:{_CHANGE}|{_DOWN})\b"
    r"|\bwhat\s+(?:breaks|would\s+break|could\s+break|might\s+break|will\s+break)\b"
    r"|\b(?:is|are|gets?|would\s+be)\s+(?:affected|impacted)\b|\bblast\s+radius\b"
    r"|\bimpact\s+of\b|\bstop\s+working\b|\bbreak\s+anything\b|\bwho\s+depends\s+on\b"
    r"|\bwhat\s+depends\s+on\b|\bwhich\s+\w+(?:\s+\w+)?\s+depends?\s+on\b",
    re.IGNORECASE,
)
_UPSTREAM = re.compile(
    r"\b(?:what|which\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:does|do|did|would)\s+.+?\s+"
    r"(?:depend|rely|need|require)\w*\b"
    r"|\b(?:dependencies|prerequisites|upstreams?)\s+of\b|\bdepends?\s+on\s+what\b"
    r"|\bwhat\s+is\s+.+\s+dependent\s+on\b",
    re.IGNORECASE,
)
_PATH = re.compile(
    r"\b(?:trace|path|route|flow|chain)\b|\bhow\s+does\s+.+\s+(?:reach|get\s+to|flow\s+to)\b"
    r"|\bfrom\s+\S.*\s+(?:to|into)\s+\S|\bend[- ]to[- ]end\b",
    re.IGNORECASE,
)
_YES_NO = re.compile(r"^\s*(?:does|do|did|is|are|can|could|will|would|has|have)\b", re.IGNORECASE)
_WH = r"(?:what|which|who|where|whom)"

# verbs of a relation -> predicate; the pattern matches the verb's inflected forms
_VERBS: tuple[tuple[str, Predicate], ...] = (
    (r"read\w*|load\w*|fetch\w*|retriev\w*|quer(?:y|ies|ied)|look\w*\s+up|pull\w*",
     Predicate.READS_FROM),
    (r"writ\w*|wrote|stor\w*|sav\w*|persist\w*|insert\w*|record\w*|put\w*", Predicate.WRITES_TO),
    (r"publish\w*|emit\w*|produc\w*|sends?\s+events?", Predicate.PUBLISHES_TO),
    (r"consum\w*|subscrib\w*|listen\w*", Predicate.CONSUMES_FROM),
    (r"call\w*|talk\w*|reach\w*|invok\w*|request\w*|connect\w*|send\w*|sent|hit\w*|contact\w*",
     Predicate.CALLS),
    (r"feed\w*|fed|push\w*|forward\w*|export\w*", Predicate.FEEDS),
    (r"depend\w*|rel(?:y|ies|ied)\s+on|need\w*|requir\w*", Predicate.DEPENDS_ON),
    (r"us(?:e|es|ed|ing)", Predicate.USES),
    (r"own\w*|maintain\w*|responsible\s+for|run\s+by|on[- ]call", Predicate.OWNS),
    (r"affect\w*|impact\w*", Predicate.AFFECTS),
)  # fmt: skip
_VERB = re.compile(
    "|".join(rf"(?<![\w-])(?:{pattern})(?![\w-])" for pattern, _ in _VERBS), re.IGNORECASE
)

_KINDS: tuple[tuple[str, tuple[EntityKind, ...]], ...] = (
    (r"databases?|dbs?|datastores?|data\s+stores?|stores?|storage|caches?|tables?|buckets?",
     (EntityKind.DATASTORE,)),
    (r"queues?|topics?|streams?|brokers?|channels?", (EntityKind.TOPIC, EntityKind.COMPONENT)),
    (r"services?|apis?|microservices?|apps?|applications?", (EntityKind.SERVICE,)),
    (r"teams?|owners?|squads?", (EntityKind.TEAM,)),
    (r"customers?|accounts?", (EntityKind.CUSTOMER,)),
    (r"pipelines?|jobs?|dags?", (EntityKind.PIPELINE,)),
    (r"components?", (EntityKind.COMPONENT,)),
)  # fmt: skip
_WHICH_KIND = re.compile(
    r"\b(?:which|what)\s+(?:other\s+)?(?:[\w-]+\s+)?("
    + "|".join(pattern for pattern, _ in _KINDS)
    + r")(?![\w-])",
    re.IGNORECASE,
)
_PASSIVE = re.compile(
    r"\b(?:is|are|was|were|be|been)\s+(?:\S+\s+){0,3}?(?:\w+ed|\w+en|read|written|run|fed|sent)\s+by\b",
    re.IGNORECASE,
)

_ATTRIBUTES: tuple[tuple[str, str], ...] = (
    (r"ports?|listen\w*\s+on", "port"),
    (r"urls?|endpoints?\s+address|hostnames?|host\s+names?|addresses|address|domains?",
     "address"),
    (r"environment\s+variables?|env\s+vars?|env\s+variables?", "environment variable"),
    (r"config(?:uration)?\s+(?:values?|settings?|options?|keys?|files?)|settings?|flags?",
     "configuration"),
    (r"versions?", "version"),
    (r"timeouts?|time\s+outs?|how\s+long|latenc\w+|deadlines?|ttl|expir\w+", "timing"),
    (r"how\s+often|interval|frequency|schedule[sd]?|every\s+how", "timing"),
    (r"retr(?:y|ies|ied)|backoff|idempoten\w+|at[- ]least[- ]once|exactly[- ]once|"
     r"guarantee\w*|durab\w+|consisten\w+", "failure semantics"),
    (r"ids?|identifiers?|uuids?|keys?\s+format", "identifier"),
    (r"memory|cpu|replicas?|instances?\s+count|how\s+many\s+(?:instances|replicas|pods)",
     "resources"),
    (r"protocol|format|schema|encoding|language\s+is\s+it\s+written|written\s+in",
     "protocol or format"),
)  # fmt: skip
_ATTRIBUTE = re.compile(
    r"\b(?:what|which|how|is\s+there\s+an?)\b[^?]{0,40}?(?<![\w-])("
    + "|".join(pattern for pattern, _ in _ATTRIBUTES)
    + r")(?![\w-])",
    re.IGNORECASE,
)
_OVER = re.compile(r"\bover\s+(?:grpc|http|https|tcp|udp|rest|websockets?|amqp|kafka)\b", re.I)


def read_question(text: str, names: Sequence[str] = ()) -> Asked:
    """Read one English question (one part of a multi-part question). ``names`` are the
    entity names bound in it, as written: they are read as names, never as words
    ("query-planner" asks nothing about queries)."""
    text = _masked(text, names)
    kinds = _target_kinds(text)
    attribute = _attribute(text)
    if attribute is not None:
        return Asked(Intent.ATTRIBUTE, (), kinds, attribute, f"asks for a {attribute}")
    if (what := WHAT_IS.match(text)) and _only_a_name(what["x"], bool(names)):
        return Asked(Intent.WHAT_IS, why="what is")
    verbs = _predicates(text)
    if _PATH.search(text) and not _IMPACT.search(text):
        return Asked(Intent.PATH, verbs, kinds, why="asks for a path")
    if _YES_NO.match(text) and verbs and not _IMPACT.search(text):
        passive = _PASSIVE.search(text) is not None
        return Asked(Intent.YES_NO, verbs[:1], kinds, why="a yes/no relation", passive=passive)
    if impact := _IMPACT.search(text):
        outage = _OUTAGE.search(impact.group(0)) is not None
        why = f"impact: {impact.group(0).strip()!r}"
        return Asked(Intent.IMPACT, (), kinds, why=why, outage=outage)
    if upstream := _UPSTREAM.search(text):
        return Asked(Intent.UPSTREAM, (), kinds, why=f"dependencies: {upstream.group(0)!r}")
    if verbs:
        return Asked(_direction(text), verbs, kinds, why="asks for direct relations")
    return Asked(Intent.UNKNOWN, (), kinds)


def _only_a_name(x: str, named: bool) -> bool:
    """ "What is X?" asks what X is only when X is the name ("what is affected …" is not)."""
    if not named:
        return _PASSIVE.search(x) is None
    return (
        re.fullmatch(r"(?:the\s+|an?\s+)?Entity(?:\s+\w+)?", x.strip(), re.IGNORECASE) is not None
    )


def _masked(text: str, names: Sequence[str]) -> str:
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(re.escape(name), "Entity", text, flags=re.IGNORECASE)
    return text


def _predicates(text: str) -> tuple[Predicate, ...]:
    found: list[Predicate] = []
    for match in _VERB.finditer(text):
        word = match.group(0)
        for pattern, predicate in _VERBS:
            if re.fullmatch(pattern, word, re.IGNORECASE):
                found.append(predicate)
                break
    return tuple(dict.fromkeys(found))


def _direction(text: str) -> Intent:
    """``who calls X?`` asks for sources (in); ``what does X call?`` for targets (out);
    ``which tables are written by X?`` for X's targets, ``what is X read by?`` its sources."""
    stripped = text.strip()
    if _PASSIVE.search(stripped):
        return Intent.LOOKUP_IN if re.search(r"\bby\s*\??$", stripped) else Intent.LOOKUP_OUT
    if _ASKS_SOURCES.match(stripped) and not _ASKS_TARGETS.match(stripped):
        return Intent.LOOKUP_IN
    return Intent.LOOKUP_OUT


_ASKS_SOURCES = re.compile(rf"^(?:and\s+)?{_WH}\s+(?:[\w-]+\s+){{0,2}}?(?:{_VERB.pattern})", re.I)
_ASKS_TARGETS = re.compile(rf"^(?:and\s+)?{_WH}\s+(?:[\w-]+\s+)?(?:does|do|did)\b", re.I)


def _target_kinds(text: str) -> tuple[EntityKind, ...]:
    if match := _WHICH_KIND.search(text):
        word = match.group(1)
        for pattern, kinds in _KINDS:
            if re.fullmatch(pattern, word, re.IGNORECASE):
                return kinds
    return ()


def _attribute(text: str) -> str | None:
    if _OVER.search(text) and not re.search(r"\bwhich\s+protocol\b", text, re.I):
        return None  # "who talks to X over gRPC?" asks for callers; the protocol is a filter
    if match := _ATTRIBUTE.search(text):
        word = match.group(1)
        for pattern, name in _ATTRIBUTES:
            if re.fullmatch(pattern, word, re.IGNORECASE):
                return name
    return None


_SPLIT = re.compile(
    r"\s*(?:,\s*and|;\s*and|;|,?\s+and\s+(?=(?:what|which|who|whom|where|how|does|do|is|are|can)\b)"
    r"|\?\s+(?=\S))\s*",
    re.IGNORECASE,
)


def split_parts(text: str) -> list[str]:
    """The parts of a multi-part question, each still a question ("If X goes down, which
    pages stop working, and who owns them?" → two parts). A question without a second
    wh-clause stays whole; a part that only refers back ("them", "it") keeps the names of
    the first part through :func:`carry_names`, done by the caller."""
    pieces = [p.strip(" ,;") for p in _SPLIT.split(text.strip()) if p and p.strip(" ,;?")]
    parts = [p for p in pieces if p]
    if len(parts) < 2 or not all(_looks_like_question(p) for p in parts[1:]):
        return [text.strip()]
    head = parts[0]
    if _CONDITION.match(head) and not re.search(rf"\b{_WH}\b", head, re.I):
        # "If X goes down, which pages stop working, …": the condition belongs to the
        # first question, not a part of its own
        head = f"{head}, {parts[1]}"
        parts = [head, *parts[2:]]
    return [p if p.endswith("?") else f"{p}?" for p in parts]


_CONDITION = re.compile(r"^\s*(?:if|when|once|suppose|after)\b", re.IGNORECASE)


def _looks_like_question(part: str) -> bool:
    return re.match(rf"^(?:{_WH}|how|does|do|is|are|can)\b", part.strip(), re.I) is not None


REFERS_BACK = re.compile(r"\b(?:them|they|those|these|it|its|their)\b", re.IGNORECASE)
"""A part that names nothing itself but refers back ("and who owns them?")."""
