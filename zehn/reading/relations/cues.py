"""The cue lexicon of the ``rules`` strategy: how each predicate is phrased.

A cue is a verb phrase, its verbs named by lemma: their forms come from
``zehn.reading.verbs`` (``lemminflect``), present forms by default, the past
where a row says so, participles after a form of *be* in a passive. ``tail`` is a
preposition that may follow a short filler ("publishes an invoice.created event **to**
billing-events"), after which the object is read. Passive cues swap subject and object
("search-api is called by web-frontend" means web-frontend CALLS search-api).

English forms and the one predicate each states (X is the mention before the
cue, Y the mention after it or after its tail, Z the agent after a later "by"). A verb
whose direct object is the relation's object is read in the passive too, its agent after
"by" the subject ("Y is fetched / monitored / orchestrated by X"): one row of ``_BY_AGENT``
per predicate, never a row per form.

======================================================  =================  ===================
form                                                    predicate          edge
======================================================  =================  ===================
X calls / invokes / requests Y; X sends / makes /      CALLS              X → Y
  issues (an HTTP) request to Y; X is / acts as a
  client of / to Y
X talks to / interacts with / communicates with /       CALLS              X → Y
  connects to Y; X calls out to Y
X listens to / on Y; X consumes / subscribes to Y       CONSUMES_FROM      X → Y
X proxies Y; X forwards / routes / relays / dispatches  CALLS              X → Y
  / redirects / submits / assigns / hands off … to Y
  (requests and work are handed on)
Y is called / invoked / requested by X;                 CALLS              X → Y
  Y is proxied / routed / forwarded / fronted by X
X queries Y                                             CALLS; READS_FROM  X → Y
Y is queried by X                                         when Y is a      X → Y
                                                          datastore
X sends / exports / pushes / uploads / streams … to Y   FEEDS; PUBLISHES_  X → Y
                                                          TO to a topic
X reads / retrieves / fetches / pulls / polls /         READS_FROM         X → Y
  scrapes / scans Y (or … from Y); X loads / downloads
  … from Y
X pulls / pops … from / out of / off Y; X takes …       READS_FROM;        X → Y
  out of / off Y                                          CONSUMES_FROM a
                                                          topic
Y is read / retrieved / fetched / pulled / polled /     READS_FROM         X → Y
  scraped / scanned / loaded by X
X is read / retrieved / fetched / loaded … from Y       READS_FROM         X → Y, or Z → Y
  [by Z]
X writes / stores / persists … Y (or … to/in/into/onto  WRITES_TO          X → Y
  Y); X saves / caches / dumps / flushes … to/in Y
Y is written / stored / persisted / saved by X          WRITES_TO          X → Y
X is written / stored / saved / cached … to/in Y        WRITES_TO          X → Y, or Z → Y
  [by Z]
X is sent / pushed / exported / uploaded … to Y         FEEDS; PUBLISHES_  X → Y, or Z → Y
  [by Z]                                                  TO to a topic
X depends / relies on Y; X requires / needs Y           DEPENDS_ON         X → Y
X is backed / powered by Y; X is built / based on Y;    DEPENDS_ON         X → Y (X stays
  X is exposed / served / reached / accessed                                 the subject: it
  through/via Y                                                              cannot work
                                                                             without Y)
X has / needs / requires (direct) access to Y           DEPENDS_ON         X → Y
X runs on top of Y; X is embedded / bundled in Y        DEPENDS_ON         X → Y
X is implemented / written in Y                         USES               X → Y
X uses / leverages / utilizes / employs Y               USES               X → Y
… X <cue> … via / through Y (a means of X's clause)     USES               X → Y (subject
                                                                             carried, never
                                                                             the mention
                                                                             before "via")
X connects A with/to B; X connects A and B;             middle (below)     A → X → B
  X sits / is between A and B
======================================================  =================  ===================

A middle component X (``form="middle"``) joins the first end A to the second
end B: when X is a topic, or the sentence describes it with a messaging noun
("a queue that connects A with B", "X, the message broker, sits between …"),
A PUBLISHES_TO X and B CONSUMES_FROM X; otherwise A CALLS X and X CALLS B.
"X is proxied/routed to Y" names no caller and makes no edge.

Chinese cues need no word boundaries. Chinese often puts a preposition before
the object and the verb after it ("indexer 从 event-bus 消费", "search-api 被
web-frontend 调用", "indexer 由 Search team 负责"): such a cue is the
preposition, with a look-ahead for its verb in the same clause; a mention right
after a preposition is never a subject (see ``ZH_PREPOSITION_BEFORE``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from zehn.reading.relations.cues_zh import ZH_CORE_CUES, ZH_PROSE_CUES
from zehn.reading.scripts import CJK as CJK  # re-exported: diagrams reads it here
from zehn.reading.verbs import PARTICIPLE, PAST, PRESENT, alternation
from zehn.reading.vocabulary import Predicate

Form = Literal["verb", "middle", "means", "instance"]
# (object kind, predicates) pairs that replace a cue's predicates for an object of that kind
ByKind = tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class Cue:
    pattern: re.Pattern[str]
    predicates: tuple[str, ...]
    tail: re.Pattern[str] | None = None
    passive: bool = False
    cjk: bool = False  # a Chinese cue: its tail may follow a filler without spaces
    # the object only after the tail ("loads … from X"): "X loads Y" is no read of Y
    tail_only: bool = False
    # "X is retrieved from Y by Z": the place Y is the object; the agent Z, when named after
    # "by", is the subject instead of X
    agent: bool = False
    by_kind: ByKind = ()  # replaces ``predicates`` for an object of that kind
    # "verb": subject before, object after; "middle": X connects A with B (see the table);
    # "means": "… via Z", whose subject is the subject of the clause it closes
    form: Form = "verb"

    def predicates_for(self, object_id: str) -> tuple[str, ...]:
        """The predicates this cue states for an object (``datastore:orders-db``): by its kind
        where the cue says so ("queries" a datastore reads from it), else the cue's own."""
        if not self.by_kind:
            return self.predicates
        kind = object_id.split(":", 1)[0]
        return next((p for k, p in self.by_kind if k == kind), self.predicates)


def _cue(
    verb: str,
    *predicates: Predicate,
    tail: str | None = None,
    passive: bool = False,
    tail_only: bool = False,
    agent: bool = False,
    by_kind: ByKind = (),
    form: Form = "verb",
) -> Cue:
    return Cue(
        re.compile(rf"\b(?:{verb})\b", re.IGNORECASE),
        predicates,
        re.compile(rf"\b(?:{tail})\b", re.IGNORECASE) if tail else None,
        passive,
        tail_only=tail_only,
        agent=agent,
        by_kind=by_kind,
        form=form,
    )


def _verbs(*lemmas: str, past: bool = False) -> str:
    """A cue's verbs by lemma: their present forms (and past ones where ``past``)."""
    return alternation(lemmas, PRESENT + PAST if past else PRESENT)


def _passive(*lemmas: str) -> str:
    """A passive ("is fetched", "are also stored"): a form of *be*, the verbs' participles."""
    return _BE + alternation(lemmas, PARTICIPLE)


CLAUSE_PUNCTUATION = "，。；！？,;"
_BE = r"(?:is|are|was|were|be|been|being|gets|get)\s+(?:\w+ly\s+|also\s+|only\s+|still\s+)?"

# "queries a datastore" reads from it; "sends … to a topic" publishes to it
_DATASTORE_READ = (("datastore", (Predicate.READS_FROM,)),)
_TOPIC_PUBLISH = (("topic", (Predicate.PUBLISHES_TO,)),)
# what is pulled out of a queue is consumed from it
_TOPIC_CONSUMED = (("topic", (Predicate.CONSUMES_FROM,)),)
# what is sent, pushed or uploaded to a store is written to it
_HANDED_ON = (*_TOPIC_PUBLISH, ("datastore", (Predicate.WRITES_TO,)))

# Voice decides the direction, not a row per form: each verb below states in the passive, with
# its agent after "by" (or "from"), what its active states — "Y is fetched by X" as "X fetches
# Y" — so a verb added to a row is read in both voices. (verbs, predicates, agent, by kind)
_BY_AGENT: tuple[tuple[tuple[str, ...], tuple[Predicate, ...], str, ByKind], ...] = (
    (("call", "invoke", "request"), (Predicate.CALLS,), "by|from", ()),
    (("query",), (Predicate.CALLS,), "by|from", _DATASTORE_READ),
    (("proxy", "route", "forward", "front", "load-balance", "load balance", "orchestrate",
      "notify"), (Predicate.CALLS,), "by", ()),
    (("feed",), (Predicate.FEEDS,), "by", ()),
    (("affect", "impact"), (Predicate.AFFECTS,), "by", ()),
    (("use", "leverage", "utilize", "utilise", "employ"), (Predicate.USES,), "by", ()),
    (("read", "poll", "scan", "scrape", "retrieve", "fetch", "pull", "load"),
     (Predicate.READS_FROM,), "by", ()),
    (("monitor", "observe", "watch"), (Predicate.READS_FROM,), "by",
     (("topic", (Predicate.CONSUMES_FROM,)),)),
    (("consume",), (Predicate.CONSUMES_FROM,), "by", ()),
    (("write", "persist", "store", "save"), (Predicate.WRITES_TO,), "by", ()),
)  # fmt: skip

CUES: tuple[Cue, ...] = (
    # passive voice first: "X is called by Y" -> Y CALLS X (one cue per row of _BY_AGENT)
    *(_cue(_passive(*lemmas) + rf"\s+(?:{agent})", *predicates, passive=True, by_kind=by_kind)
      for lemmas, predicates, agent, by_kind in _BY_AGENT),
    _cue(r"(?:" + _BE + r")?owned\s+by|" + _BE + r"maintained\s+by", Predicate.OWNS, passive=True),
    _cue(_passive("depend") + r"\s+on\s+by", Predicate.DEPENDS_ON, passive=True),
    # active voice
    _cue(r"reads?\s+and\s+writes?", Predicate.READS_FROM, Predicate.WRITES_TO,
         tail=r"in|to|from|into"),
    _cue(_verbs("depend", "rely", past=True) + r"\s+on", Predicate.DEPENDS_ON,
         tail=r"from"),
    _cue(r"(?:is|are)\s+blocked\s+on|" + _verbs("require", "need"), Predicate.DEPENDS_ON,
         tail=r"from"),
    _cue(_verbs("move", "migrate", past=True) + r"\s+to", Predicate.DEPENDS_ON),
    _cue(_verbs("call", "invoke", past=True), Predicate.CALLS),
    # a request or call made: "makes a second HTTP request to Y", "issues an authenticated
    # REST call to Y", "sends one more request to Y" (up to four words before the noun)
    _cue(_verbs("send", "make", "issue", "perform", past=True)
         + r"\s+(?:[\w-]+\s+){0,4}?(?:requests?|calls?)(?![\w-])|requests?",
         Predicate.CALLS, tail=r"to|from"),
    _cue(_verbs("feed"), Predicate.FEEDS, tail=r"to|into"),
    _cue(_verbs("affect", "impact", past=True), Predicate.AFFECTS),
    _cue(_verbs("use", "go through") + r"|move\s+off", Predicate.USES),
    # what is pulled out of a queue is consumed from it: "pull things out of Y", "pulls an
    # event off Y" (a topic is consumed from; anything else read from)
    _cue(_verbs("pull", "pop"), Predicate.READS_FROM, tail=r"from|out\s+of|off",
         by_kind=_TOPIC_CONSUMED),
    _cue(_verbs("take"), Predicate.READS_FROM, tail=r"out\s+of|off", tail_only=True,
         by_kind=_TOPIC_CONSUMED),
    _cue(_verbs("read", "poll", "fetch", "scan"), Predicate.READS_FROM,
         tail=r"from"),
    _cue(_verbs("write", "persist", "store"), Predicate.WRITES_TO, tail=r"to|into|in|onto"),
    _cue(_verbs("publish", past=True) + "|" + _verbs("emit", "produce"), Predicate.PUBLISHES_TO,
         tail=r"to|on|into"),
    _cue(_verbs("consume", "subscribe to"), Predicate.CONSUMES_FROM, tail=r"from"),
    # "own" after a possessive is an adjective ("its own runner"), not the verb
    _cue(r"owns|(?<!its\s)(?<!their\s)(?<!our\s)(?<!your\s)(?<!his\s)(?<!her\s)(?<!my\s)own"
         r"|maintains?|(?:is|are)\s+responsible\s+for", Predicate.OWNS),
    # --- the forms of real prose (the table above); after the first ones, whose order the
    # ``cooccurrence`` baseline reads its guess from
    # a passive with a place: "X is retrieved from Y [by Z]" -> X (or Z) READS_FROM Y
    _cue(_passive("read", "retrieve", "fetch", "pull", "load", "download", "poll") + r"\s+from",
         Predicate.READS_FROM, agent=True),
    _cue(_passive("write", "store", "persist", "save", "cache", "keep", "flush")
         + r"\s+(?:to|in|into|onto)",
         Predicate.WRITES_TO, agent=True),
    # "X is sent to Y [by Z]": X (or Z) FEEDS Y; a topic is published to
    _cue(_passive("send", "push", "export", "upload", "stream", "ship", "deliver")
         + r"\s+(?:to|into|onto)",
         Predicate.FEEDS, agent=True, by_kind=_HANDED_ON),
    # passive in form, but X stays the subject: "X is backed by Y" -> X DEPENDS_ON Y
    _cue(_BE + r"(?:backed|powered)\s+by|" + _BE + r"built\s+(?:on|upon)(?:\s+top\s+of)?"
         r"|" + _BE + r"based\s+on"
         r"|" + _BE + r"(?:exposed|served|reached|accessed)\s+(?:through|via)",
         Predicate.DEPENDS_ON),
    _cue(r"(?:has|have|had|having|gets?|got|needs?|requires?|requiring|needing)"
         r"(?:\s+to\s+(?:have|get))?\s+(?:\w+\s+)?access\s+to", Predicate.DEPENDS_ON),
    # where a component is deployed: "X can be run as a long running process in Y"
    _cue(_BE + r"(?:run|deployed|hosted)\s+as\s+(?:an?\s+)?(?:[\w-]+\s+){0,3}?(?:in|inside|on)",
         Predicate.DEPENDS_ON),
    _cue(_verbs("orchestrate"), Predicate.CALLS),
    _cue(_verbs("talk", "interact", "communicate", "connect", past=True) + r"\s+(?:to|with)|"
         + _verbs("call out to", "reach out to"), Predicate.CALLS),
    _cue(_verbs("proxy"), Predicate.CALLS, tail=r"to"),
    # a client of Y calls Y: "X is a client of Y", "X acts as the gRPC client to Y"
    _cue(r"(?:is|are|was|were|acts?\s+as|acting\s+as|serves?\s+as)\s+(?:an?\s+|the\s+)?"
         r"(?:[\w-]+\s+){0,2}?clients?\s+(?:of|to|for)", Predicate.CALLS),
    # what a component is made on: "X runs on top of Y"
    _cue(r"(?:runs?|running|sits?|sitting|is\s+layered)\s+on\s+top\s+of", Predicate.DEPENDS_ON),
    # what it is made with: "X is implemented in Y", "X is embedded in Y"
    _cue(_BE + r"(?:implemented|written)\s+(?:in|with)", Predicate.USES),
    _cue(_BE + r"(?:embedded|bundled)\s+(?:in|into|inside|within)", Predicate.DEPENDS_ON),
    # a role taken for what follows: "X is used as a reverse proxy for A, B and C", "X acts as
    # a gateway in front of A" — X handles their requests, as "A is proxied by X" says
    _cue(r"(?:" + _BE + r"used|acts?|acting|serves?|serving|works?)\s+as\s+an?\s+"
         r"(?:reverse\s+)?(?:proxy|gateway|load[- ]balancer)\s+(?:for|to|in\s+front\s+of)",
         Predicate.CALLS, tail=r"such\s+as|including"),  # "… for web UIs such as A, B"
    _cue(_verbs("forward", "route", "relay", "dispatch", "redirect", "submit", "assign",
                "hand off", "hand over"),
         Predicate.CALLS, tail=r"to", tail_only=True),
    _cue(_verbs("query", past=True), Predicate.CALLS, by_kind=_DATASTORE_READ),
    _cue(_verbs("send", "export", "push", "upload", "stream"),
         Predicate.FEEDS, tail=r"to|into|onto", tail_only=True, by_kind=_HANDED_ON),
    _cue(_verbs("leverage", "utilize", "utilise", "employ", "make use of", past=True),
         Predicate.USES),
    _cue(_verbs("retrieve", "scrape"), Predicate.READS_FROM, tail=r"from"),
    _cue(_verbs("load", "download", "parse", "extract"),
         Predicate.READS_FROM, tail=r"from", tail_only=True),
    _cue(_verbs("save", "cache", "dump", "flush", "serialize", "serialise", "back up", "insert"),
         Predicate.WRITES_TO, tail=r"to|into|in|onto",
         tail_only=True),
    _cue(_verbs("listen") + r"\s+(?:to|on)", Predicate.CONSUMES_FROM),
    # "X gets the state from Y" reads from Y (only with its "from": "X gets a request" is none)
    _cue(_verbs("get", "obtain"), Predicate.READS_FROM, tail=r"from", tail_only=True),
    _cue(_verbs("notify", past=True), Predicate.CALLS),
    # "X asks Y for the status": a call; a datastore asked is read from
    _cue(_verbs("ask", past=True), Predicate.CALLS, by_kind=_DATASTORE_READ),
    # "X monitors Y": it reads Y's state
    _cue(_verbs("monitor", "observe", "watch"), Predicate.READS_FROM,
         by_kind=(("topic", (Predicate.CONSUMES_FROM,)),)),
    # "X adds the job to the queue", "X puts the record into Y": handed on (by kind, below)
    _cue(_verbs("add", "put", "enqueue", "place"), Predicate.FEEDS,
         tail=r"to|into|onto|in", tail_only=True,
         by_kind=_HANDED_ON),
    # a middle component: "X connects A with B", "X sits between A and B"
    _cue(r"connects?|connecting|bridges?|bridging|sits?\s+(?:in\s+)?between"
         r"|(?:is|are)\s+(?:placed\s+|located\s+)?(?:in\s+)?between",
         Predicate.CALLS, Predicate.PUBLISHES_TO, Predicate.CONSUMES_FROM, form="middle"),
    # a kind and the products that usually are it: "a database, usually A or B" -> the
    # database DEPENDS_ON A and B (hedged: a choice or an example, not a fact)
    _cue(r"usually|typically|commonly|often|e\.g\.|for\s+example|for\s+instance|such\s+as",
         Predicate.DEPENDS_ON, form="instance"),
    # the means of the clause before: "X connects to Y through Z" -> X USES Z
    _cue(r"via|through|by\s+means\s+of|by\s+way\s+of", Predicate.USES, form="means"),
    # --- Chinese: data rows of ``cues_zh`` (the first forms, then those of real prose)
    *(Cue(re.compile(c.verb), c.predicates, re.compile(c.tail) if c.tail else None, c.passive,
          cjk=True, tail_only=c.tail_only) for c in (*ZH_CORE_CUES, *ZH_PROSE_CUES)),
)  # fmt: skip

# Words that may stand between a subject and its verb without breaking the link.
SUBJECT_GLUE = frozenset(
    """also now still directly already only today currently no longer not does do did
    doesn't don't didn't never will would might may could should can cannot must which that
    who then ever actually really typically usually always mostly partly heavily both all
    therefore again once first is are was were be been has have had to going plans plan
    planned start starts started soon eventually later probably possibly too itself
    in turn begin begins began continue continues continued""".split()
)
# "-ly" words that are not adverbs (an adverb may stand between subject and verb: "X
# periodically queries Y"); shorter "-ly" words (apply, reply, early) are never taken
NOT_ADVERBS = frozenset("supply family assembly anomaly monopoly butterfly friendly".split())
ADVERB_MIN_CHARS = 6
# Words that may stand between a verb (or its tail) and the object.
OBJECT_GLUE = frozenset(
    "the a an its their our both directly only also all every each one any some another".split()
)
LIST_SEPARATOR = re.compile(
    r"^\s*(?:,\s*(?:and|or)?|and|or|&|as\s+well\s+as|plus|、|和|与|及|以及|或|或者|跟|/"
    r"|[（(]\s*(?:或|或者|or))\s*"  # "Y（或 Z）", "Y (or Z)": an alternative in parentheses
    r"(?:the\s+)?$",
    re.IGNORECASE,
)
COORDINATION = re.compile(
    r"(?:,\s*)?\b(?:and|but)\s*$|[，,]?\s*(?:并且|并|而且|且|同时|但是|但|然后)\s*$", re.IGNORECASE
)
# "consumes from X instead of polling Y"; in Chinese the verb's own object may come first:
# "从 index-events 消费分段就绪消息，而不是轮询 indexer".
INSTEAD_OF = re.compile(
    r"^\s*instead\s+of\s*$|^[^，,。；！？]*[，,]?\s*(?:而不是|而非|不再)\s*$", re.IGNORECASE
)
# "stores the items in the user's shopping cart in Valkey": words between a verb and its tail
FILLER_MAX_WORDS = 8
# what ends a filler: a clause of its own starts ("reads a file that X writes to Y")
FILLER_BREAK = re.compile(
    r"[,;:.!?()\[\]]|\b(?:and|but|or|that|which|who|when|while|because|if|so|then|after|before"
    r"|until|unless|where|whereas|instead|rather)\b",
    re.IGNORECASE,
)
# Markup around names is not a word: "*scheduler* and *triggerer*", "[k6](https://k6.io/)",
# "``redis``", "`Flower <https://…>`__", "**Workers**". Removed from gaps before they are read.
# reStructuredText roles, link targets and directives are markup too: ":doc:`scheduler
# <../scheduler>`" reads "scheduler"; ".. note:: X calls Y" reads "X calls Y".
MARKUP = re.compile(
    r"\]\([^)\s]*\)|\s*<[a-z][\w+.-]*://[^>\s]*>|(?<![\w:]):[\w-]+(?::[\w-]+)?:(?=`)"
    r"|\.\.\s+[\w-]+::"
    r"|\s*<[^<>`\n]+>(?=`)|[*_`\[\]\"“”‘’]|(?<!\w)'|'(?!\w)"
)
# Where a cue never fires: code spans and URLs (a mention in a code span still counts).
CODE_SPAN = re.compile(r"`+[^`\n]+?`+")
URL = re.compile(r"\b[a-z][\w+.-]*://[^\s)>\]`]+|\]\([^)\s]*\)", re.IGNORECASE)
# A description of the subject between it and its verb: "X is a queue that connects …",
# "X is used as a message queue service to connect …", "X, a message broker, connects …".
_DETERMINER = r"(?:a|an|the|our|its|their|this|that)"
SUBJECT_DESCRIPTION = re.compile(
    rf"^\s*(?:,\s*(?:which|that|who)\s+)?(?:is|are|was|were|(?:acts?|serves?|works?)\s+as"
    rf"|(?:is|are)\s+used\s+as)\s+{_DETERMINER}\s+[\w\s/-]{{1,60}}?\s+(?:that|which|who|to)\b"
    rf"|^\s*,\s*{_DETERMINER}\s+[\w\s/-]{{1,60}}?\s*,(?:\s*(?:which|that|who)\b)?",
    re.IGNORECASE,
)
# An object named in apposition to a short noun phrase: "saved to the database (PostgreSQL)",
# "stores data in its cache, Valkey," (the name must close the apposition: ")" or "," / end).
OBJECT_APPOSITION = re.compile(
    rf"^\s*{_DETERMINER}\s+(?:[\w'-]+\s+){{0,2}}[\w-]+\s*(?P<open>[(,]|(?<=\s)[-–—])\s*"
    rf"(?:the\s+)?$",
    re.IGNORECASE,
)
# what must follow the name for it to close the apposition ("the main process - X about …")
APPOSITION_CLOSE = {
    "(": re.compile(r"^\s*\)"),
    ",": re.compile(r"^\s*(?:[,.;:)]|$)"),
    **dict.fromkeys("-–—", re.compile(r"")),
}
# The nouns that make a middle component a messaging one ("a queue that connects A with B").
MESSAGING = re.compile(
    r"\b(?:queues?|brokers?|topics?|bus|event\s+bus|streams?|messag(?:e|es|ing)|pub/?sub)\b",
    re.IGNORECASE,
)
# How the ends of a middle component are joined: "connects A with B", "connects A to B".
MIDDLE_JOIN = re.compile(r"^\s*(?:with|to|and)\s+(?:the\s+|a\s+|an\s+)?", re.IGNORECASE)
# A participle clause carries the subject of the clause before it: "X uses Y, retrieving …"
# (between the two: a comma, after at most a few words of the first clause).
PARTICIPLE_OPENING = re.compile(
    r"^[^,;:.!?()]{0,60},\s*(?:\w+ly\s+|then\s+|also\s+|thereby\s+)?$", re.IGNORECASE
)
# A series of verb phrases after the subject that opens the sentence: "X runs on one host,
# reads files from Y and …" (no clause of its own in between: no "when", "which" …).
SERIES_GAP = re.compile(
    r"^(?![^;:.!?()]*\b(?:which|that|who|when|while|because|if|although|since|where|after"
    r"|before|until|unless|whereas|whether)\b)[^;:.!?()]{0,120},\s*(?:and\s+)?"
    r"(?:then\s+|also\s+|\w+ly\s+)?$",
    re.IGNORECASE,
)
# A second verb of the opening subject after "and", maybe after a time clause of its own: "X
# processes the jobs and when it finds one, sends it to Y" (nothing else after "and": "X
# stores data and the worker reads …" has a subject of its own).
SERIES_AND = re.compile(
    r"^\s+(?![^;:.!?()]*\b(?:which|who|because|although|since|where|whereas|whether)\b)"
    r"[a-z][^;:.!?(),]{0,80}\s+and\s*,?\s+(?:(?:when|once|after|before|whenever"
    r"|as\s+soon\s+as)\b[^;:.!?()]{1,80},\s*)?(?:then\s+|also\s+)?$",
    re.IGNORECASE,
)
# A relative clause about the opening subject, whose later verbs are the subject's too: "X,
# which handles A, and submitting B to Y" (no clause of its own inside it).
RELATIVE_SERIES = re.compile(
    r"^\s*,\s*which\s+(?![^;:.!?()]*\b(?:which|that|who|when|while|because|if|although"
    r"|since|where|whereas|whether|by)\b)[a-z][^;:.!?()]{0,120}(?:,\s*(?:and\s+)?|\s+and\s+)$",
    re.IGNORECASE,
)
# The verb phrase between a subject and a participle that adds its means: "X starts a new
# process using Y" (short, lowercase, no clause or agent of its own, no punctuation).
VERB_PHRASE_GAP = re.compile(
    r"^\s+(?![^;:.!?(),]*\b(?:which|that|who|when|while|because|if|although|since|where"
    r"|after|before|until|unless|whereas|whether|and|or|but|by)\b)[a-z][^;:.!?(),]{0,50}\s$"
)
# A purpose after "uses": "X uses this interface to talk to Y" (X talks to Y); the subject of
# "uses" is the subject of the purpose (not so after "allows Y to", "asks Y to").
PURPOSE_GAP = re.compile(r"^[^,;:.!?()]{0,40}\bin\s+order\s+to\s+$|^[^,;:.!?()]{0,40}\bto\s+$")
# A time clause set off by commas between a subject and its verb: "X, when it becomes aware
# of a job, sends …" (its own mentions are read as usual; only the subject link skips it).
PARENTHETICAL = re.compile(
    r"^\s*,\s*(?:when|whenever|once|after|before|while|as\s+soon\s+as)\b[^,;:.!?()]{1,80},",
    re.IGNORECASE,
)
# Between a kind and its usual products: "a database, usually …", "a broker (such as …)".
INSTANCE_GAP = re.compile(r"^\s*[,(]\s*$")
# … and what ends the products named: the list closes ("…, usually A or B, which …").
INSTANCE_CLOSE = re.compile(r"^\s*(?:[,.;:)]|\.\.\.|$)")
# A definition: "X - process the tasks and run using Y", "X: reads jobs from Y". The name that
# opens the line is the subject of the verbs of its description, when the description starts
# with no subject of its own (no determiner: "X - Its logic is …", "X: a person that …") and
# holds no clause of its own.
DEFINITION_GAP = re.compile(
    r"^\s*(?:[-–—]|:)\s+(?!(?:a|an|the|this|these|that|those|its|their|our|it|they)\b)"
    r"(?![^;:.!?()]*\b(?:which|that|who|when|while|because|if|although|since|where|after"
    r"|before|until|unless|whereas|whether)\b)[^;:.!?()]{1,120}$",
    re.IGNORECASE,
)
# A label and its description's verb right after it: "X: connects to Y" (a statement in the third
# person; "x: consume events from Y", a change title in the imperative, states nothing yet).
LABEL_GAP = re.compile(r"^\s*(?:[-–—]|:)\s+$")
THIRD_PERSON = re.compile(r"[a-z]+(?<!s)s\b|[a-z]+ss?es\b", re.IGNORECASE)
# What opens a sentence before its subject: markup, list markers ("[10][12]", "3."; with
# the brackets read as markup, a bare number), a determiner.
SENTENCE_OPENING = re.compile(
    r"^[\W_]*(?:(?:\d{1,3}(?!\d)[.)]?|\[\d{1,3}\])[\W_]*)*(?:(?:the|a|an|our|their|its|this|each"
    r"|every)\s+[\W_]*)?$",
    re.IGNORECASE,
)
# What may stand between a clause and its "via"/"through" phrase: a short, unbroken filler.
MEANS_GAP = re.compile(r"^[^,;:.!?()]{0,60}$")

# Chinese words that may stand between a subject and its verb (adverbs, modals, negations,
# time phrases): "indexer 现在不再从 …", "billing 计划在 Q3 之前迁移到 …".
_ZH_GLUE_WORDS = """也 现在 目前 当前 如今 仍然 仍 依然 还是 还 已经 已 直接 间接 只 仅 仅仅 都 均
    亦 一直 今天 今后 以后 主要 同时 则 就 再 又 会 将会 将要 将 可能 也许 或许 大概 计划 打算 准备
    想要 希望 应该 可以 需要 不再 不 没有 没 并不 并没有 并未 从不 从未 未 不会 是否 正在 开始 曾经
    曾 原来 原先 以前 之前 过去 总是 通常 确实 实际上 其实 本身 始终 全部 全都 只会 还会 也会 实时
    同步 异步 默认 必须 最终 随后 然后 才 另外 先 每天 每小时 每分钟 每秒""".split()
ZH_SUBJECT_GLUE = re.compile(
    r"在[^，。；！？,;]{1,10}?(?:之前|之后|以前|以后|期间|前|后|时|内)"
    r"|(?:于|自|从)?\s*\d{4}\s*年(?:\s*\d{1,2}\s*月)?(?:\s*\d{1,2}\s*日)?(?:起|开始|以来)?"
    r"|(?:下|本|上)个?(?:周|月|季度)|明年|今年|去年|第[一二三四]季度"
    r"|(?:把|将)[^，。；！？,;]{1,8}$|"  # "web-frontend 把点击发布到 …": the 把 object is glue
    + "|".join(sorted(_ZH_GLUE_WORDS, key=len, reverse=True))
)
ZH_OBJECT_GLUE = re.compile(
    r"所有的|全部的|所有|全部|整个|每个|各个|这个|那个|一个|了|着|过|到|于|该|其"
    r"|上游的?|下游的?|底层的?|远端的?|对应的?|多个|具体的?"  # where or which one
)
# A mention right after one of these is the preposition's object, never the verb's subject.
ZH_PREPOSITION_BEFORE = re.compile(
    r"(?:从|向|(?<!以)往|(?<![因认作成以])为|(?<![交发送])给|被|(?<![理自])由|受到|(?<![接感承])受"
    r"|(?<![绝相面针])对|把|将|(?<![现正存实])在|经由|通过)\s*$"
)
# "会不会", "是不是", "有没有": a question form, not a negation.
ZH_A_NOT_A = re.compile(r"(\w)[不没]\1")
