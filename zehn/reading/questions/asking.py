"""What a question asks, read from a lexicon rather than from whole-question templates.

Engineers word the same question many ways ("If the cache goes down …", "Would renaming X
break anything?", "Which store does billing write invoices to?"). The reader looks for the
words that carry the asked relation — impact, dependencies, callers, a path, a yes/no
relation, an attribute the graph does not model — and for a target kind ("which
database"). Names are bound elsewhere (``zehn.reading.names.binding``); this module only needs
where they sit in the text, so that the words *around* a name decide its role.

Multi-part questions ("…, and who owns them?") are split by :func:`split_parts`; each part
is read on its own. Chinese questions go through ``zehn.reading.questions.asking_zh``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from zehn.reading.questions.scenario import FAILURE_EN
from zehn.reading.questions.wording import WHAT_IS
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
    focus: tuple[str, ...] = ()  # the names asked about, as written ("if A and B go down")
    condition: tuple[str, ...] = ()  # names a condition takes away ("if X is down, where …")
    concerning: tuple[str, ...] = ()  # impact on these only ("what happens to X when Y …")
    context: tuple[str, ...] = ()  # names of a setting ("in a Celery deployment, …")
    protocol: str | None = None  # "who talks to X over gRPC?": hops stated with gRPC only
    behind: bool = False  # "the database behind X": what X is built on is what changes

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
    r"is\s+unreachable|has\s+an?\s+(?:outage|incident)|" + FAILURE_EN.pattern
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
    # "route" is a noun here; "Does X route traffic to Y?" (after the name) is a verb: a call
    r"\b(?:trace|path|(?<!Entity\s)route|flow|chain)\b"
    r"|\bhow\s+does\s+.+\s+(?:reach|get\s+to|flow\s+to)\b"
    r"|\bfrom\s+\S.*\s+(?:to|into)\s+\S|\bend[- ]to[- ]end\b",
    re.IGNORECASE,
)
_DOWN_RE = re.compile(rf"\b(?:{_DOWN}|tak\w+\s+down|shut\w*\s+down)\b", re.IGNORECASE)
_AUX = r"(?:does|do|did|is|are|was|were|can|could|will|would|has|have|should)"
_CONDITION_CLAUSE = re.compile(
    r"^\s*(?:if|when|while|once|suppose|assuming|after|in\s+case)\b[^,;?]{3,120}?,", re.IGNORECASE
)
_CONTEXT_CLAUSE = re.compile(
    r"^\s*(?:in|with|under|using|for|when\s+using|if\s+using|on)\s+[^,;?]{2,80}?,", re.IGNORECASE
)
# a main clause that asks for the effect of its condition ("…, which services stop working?")
_ASKS_EFFECT = re.compile(
    r"\b(?:affected|impacted|break|breaks|broken|stop\w*|fail\w*|happens?|at\s+risk|"
    r"still\s+work\w*|keep\w*\s+working|down|unavailable)\b",
    re.IGNORECASE,
)
_BEHIND = re.compile(r"\b(?:behind|underneath|under|beneath)\s+(?:the\s+)?Entity\b", re.I)
_THE_KIND_BEHIND = re.compile(
    r"\bthe\s+(?:[\w-]+\s+)?([\w-]+)\s+(?:behind|underneath|under|beneath)\s+(?:the\s+)?Entity\b",
    re.IGNORECASE,
)
_BUILT_ON = (Predicate.USES, Predicate.DEPENDS_ON, Predicate.READS_FROM, Predicate.WRITES_TO)
_YES_NO = re.compile(r"^\s*(?:does|do|did|is|are|can|could|will|would|has|have)\b", re.IGNORECASE)
_WH = r"(?:what|which|who|where|whom)"

# verbs of a relation -> predicate; the pattern matches the verb's inflected forms
_VERBS: tuple[tuple[str, Predicate], ...] = (
    (r"read\w*|load\w*|fetch\w*|retriev\w*|quer(?:y|ies|ied)|look\w*\s+up|pull\w*|gets?|got|"
     r"obtain\w*", Predicate.READS_FROM),
    (r"writ\w*|wrote|stor\w*|sav\w*|persist\w*|insert\w*|record\w*|put\w*", Predicate.WRITES_TO),
    (r"publish\w*|emit\w*|produc\w*|sends?\s+events?", Predicate.PUBLISHES_TO),
    (r"consum\w*|subscrib\w*|listen\w*", Predicate.CONSUMES_FROM),
    (r"call\w*|talk\w*|reach\w*|invok\w*|request\w*|connect\w*|send\w*|sent|hit\w*|contact\w*|"
     r"rout(?:e|es|ed|ing)|prox(?:y|ies|ied|ying)", Predicate.CALLS),
    (r"feed\w*|fed|push\w*|forward\w*|export\w*|report\w*|notif\w*", Predicate.FEEDS),
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
_OVER = re.compile(
    r"\b(?:over|via|using|through)\s+(grpc|http|https|tcp|udp|rest|websockets?|amqp)\b", re.I
)


def read_question(text: str, names: Sequence[str] = ()) -> Asked:
    """Read one English question (one part of a multi-part question). ``names`` are the
    entity names bound in it, as written: they are read as names, never as words
    ("query-planner" asks nothing about queries). The names the question asks about come
    first in ``focus``: the subject of "does X …", the names of an impact's condition."""
    names = [n for n in dict.fromkeys(names) if n]
    condition = _CONDITION_CLAUSE.match(text)
    if condition and names:
        main = text[condition.end() :]
        inside = [n for n in names if _named_in(n, condition.group(0))]
        rest = [n for n in names if n not in inside]
        if inside and rest and not _ASKS_EFFECT.search(main):
            # "If the cache is down, where does checkout read from?": a lookup in the main
            # clause; what the condition takes away is not an answer
            asked = read_question(main, rest)
            if asked.intent not in (Intent.IMPACT, Intent.UNKNOWN):
                down = _DOWN_RE.search(condition.group(0)) is not None
                # "when X is down, …" takes X away; "when using X, …" sets the scene
                return replace(
                    asked,
                    condition=tuple(inside) if down else (),
                    context=() if down else (*asked.context, *inside),
                )
    asked = _read(text, names)
    focus, concerning = _roles(asked, text, names)
    setting = _CONTEXT_CLAUSE.match(text)
    context = tuple(n for n in names if setting and _named_in(n, setting.group(0)))
    if len(context) == len(names):
        context = ()  # the setting is all the question names: it is what is asked about
    over = _OVER.search(text)
    protocol = over.group(1).lower() if over and asked.intent != Intent.ATTRIBUTE else None
    return replace(asked, focus=focus, concerning=concerning, context=context, protocol=protocol)


def _named_in(name: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE) is not None


def _roles(
    asked: Asked, text: str, names: Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Which names the question asks about (``focus``, first) and, for an impact, which it
    asks the impact on (``concerning``)."""
    if not names:
        return (), ()
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    where = sorted(
        (m.start(), m.group(0))
        for n in names
        for m in re.finditer(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text, re.IGNORECASE)
    )
    surfaces = {n.lower(): n for n in names}
    order = list(dict.fromkeys(surfaces.get(w.lower(), w) for _, w in where)) or list(names)
    context = _CONTEXT_CLAUSE.match(text)
    if context:  # "In a Celery deployment, what does the web server read from?"
        inside = [n for n in order if _named_in(n, context.group(0))]
        if len(inside) < len(order):
            order = [n for n in order if n not in inside] + inside
    if asked.intent == Intent.IMPACT:
        changed = _changed(text, alternatives)
        if changed:
            focus = [n for n in order if any(n.lower() == c.lower() for c in changed)]
            others = [n for n in order if n not in focus]
            concerning = tuple(n for n in others if _named_in(n, text)) if focus else ()
            return tuple(focus + others), concerning
        return tuple(order), ()
    if asked.intent in (Intent.LOOKUP_OUT, Intent.UPSTREAM, Intent.YES_NO, Intent.ATTRIBUTE):
        subject = re.search(
            rf"\b{_AUX}\s+(?:(?:the|an?|its|their)\s+)?({alternatives})(?![\w-])", text, re.I
        )
        if subject:
            first = next((n for n in order if n.lower() == subject.group(1).lower()), None)
            if first is not None:
                order = [first, *(n for n in order if n != first)]
    return tuple(order), ()


def _changed(text: str, alternatives: str) -> list[str]:
    """The names an impact question changes or takes down: those between the condition word
    and the change ("if A and B go down"), else the one right after the change ("renaming
    X")."""
    for verb in re.finditer(rf"\b(?:{_CHANGE}|{_DOWN})\b", text, re.IGNORECASE):
        head = text[: verb.start()]
        openers = list(
            re.finditer(r"\b(?:if|when|after|once|suppose|would|will|could)\b", head, re.I)
        )
        opener = openers[-1] if openers else None
        if opener is not None:
            between = head[opener.end() :]
            found = re.findall(rf"(?<![\w-])({alternatives})(?![\w-])", between, re.IGNORECASE)
            if found:
                return found
        after = re.match(
            rf"\s+(?:(?:the|an?|our|its)\s+)?({alternatives})(?![\w-])", text[verb.end() :], re.I
        )
        if after:
            return [after.group(1)]
    return []


def _read(text: str, names: Sequence[str]) -> Asked:
    text = _masked(text, names)
    kinds = _target_kinds(text)
    attribute = _attribute(text)
    if attribute is not None:
        return Asked(Intent.ATTRIBUTE, (), kinds, attribute, f"asks for a {attribute}")
    if (what := WHAT_IS.match(text)) and _only_a_name(what["x"], bool(names)):
        return Asked(Intent.WHAT_IS, why="what is")
    verbs = _predicates(text)
    if kinds and _BEHIND.search(text) and not _IMPACT.search(text):
        # "Which database is behind Entity?": what Entity is built on, of that kind
        return Asked(Intent.LOOKUP_OUT, _BUILT_ON, kinds, why="what it is built on")
    if _PATH.search(text) and not _IMPACT.search(text):
        return Asked(Intent.PATH, verbs, kinds, why="asks for a path")
    if _YES_NO.match(text) and verbs and not _IMPACT.search(text):
        passive = _PASSIVE.search(text) is not None
        return Asked(Intent.YES_NO, verbs[:1], kinds, why="a yes/no relation", passive=passive)
    if impact := _IMPACT.search(text):
        outage = _OUTAGE.search(impact.group(0)) is not None
        why = f"impact: {impact.group(0).strip()!r}"
        if behind := _THE_KIND_BEHIND.search(text):
            # "If the database behind Entity goes down …": the impact of what Entity is
            # built on, found first; never the impact of Entity itself
            built_on = _kinds_of(behind.group(1))
            return Asked(Intent.IMPACT, _BUILT_ON, built_on, why=why, outage=outage, behind=True)
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
        return _kinds_of(match.group(1))
    return ()


def _kinds_of(word: str) -> tuple[EntityKind, ...]:
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
