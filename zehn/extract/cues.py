"""The cue lexicon of the ``rules`` strategy: how each predicate is phrased.

A cue is a verb phrase; ``tail`` is a preposition that may follow a short
filler ("publishes an invoice.created event **to** billing-events"), after
which the object is read. Passive cues swap subject and object ("search-api
is called by web-frontend" means web-frontend CALLS search-api).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Cue:
    pattern: re.Pattern[str]
    predicates: tuple[str, ...]
    tail: re.Pattern[str] | None = None
    passive: bool = False


def _cue(verb: str, *predicates: str, tail: str | None = None, passive: bool = False) -> Cue:
    return Cue(
        re.compile(rf"\b(?:{verb})\b", re.IGNORECASE),
        predicates,
        re.compile(rf"\b(?:{tail})\b", re.IGNORECASE) if tail else None,
        passive,
    )


_BE = r"(?:is|are|was|were|be|been|being|gets|get)\s+(?:\w+ly\s+|also\s+|only\s+|still\s+)?"

CUES: tuple[Cue, ...] = (
    # passive voice first: "X is called by Y" -> Y CALLS X
    _cue(_BE + r"(?:called|invoked|requested|queried)\s+(?:by|from)", "CALLS", passive=True),
    _cue(_BE + r"fed\s+by", "FEEDS", passive=True),
    _cue(_BE + r"(?:affected|impacted)\s+by", "AFFECTS", passive=True),
    _cue(_BE + r"used\s+by", "USES", passive=True),
    _cue(r"(?:" + _BE + r")?owned\s+by|" + _BE + r"maintained\s+by", "OWNS", passive=True),
    _cue(_BE + r"(?:read|polled)\s+by", "READS_FROM", passive=True),
    _cue(_BE + r"consumed\s+by", "CONSUMES_FROM", passive=True),
    _cue(_BE + r"depended\s+on\s+by", "DEPENDS_ON", passive=True),
    # active voice
    _cue(r"reads?\s+and\s+writes?", "READS_FROM", "WRITES_TO", tail=r"in|to|from|into"),
    _cue(r"depends?\s+on|depended\s+on|depending\s+on|relies\s+on|rely\s+on", "DEPENDS_ON",
         tail=r"from"),
    _cue(r"(?:is|are)\s+blocked\s+on|requires?|needs?", "DEPENDS_ON", tail=r"from"),
    _cue(r"(?:moves?|moved|moving|migrates?|migrated)\s+to", "DEPENDS_ON"),
    _cue(r"calls?|called|calling|invokes?|invoked", "CALLS"),
    _cue(r"sends?\s+(?:an?\s+)?requests?|requests?", "CALLS", tail=r"to|from"),
    _cue(r"feeds?|feeding", "FEEDS", tail=r"to|into"),
    _cue(r"affects?|affected|affecting|impacts?", "AFFECTS"),
    _cue(r"uses?|using|go(?:es)?\s+through|move\s+off", "USES"),
    _cue(r"reads?|reading|polls?|polling|pulls?|fetch(?:es)?", "READS_FROM", tail=r"from"),
    _cue(r"writes?|writing|persists?|stores?", "WRITES_TO", tail=r"to|into|in"),
    _cue(r"publish(?:es|ed|ing)?|emits?|produces?", "PUBLISHES_TO", tail=r"to|on|into"),
    _cue(r"consumes?|consuming|subscribes?\s+to", "CONSUMES_FROM", tail=r"from"),
    _cue(r"owns?|maintains?|(?:is|are)\s+responsible\s+for", "OWNS"),
)  # fmt: skip

# Words that may stand between a subject and its verb without breaking the link.
SUBJECT_GLUE = frozenset(
    """also now still directly already only today currently no longer not does do did
    doesn't don't didn't never will would might may could should can cannot must which that
    who then ever actually really typically usually always mostly partly heavily both all
    therefore again once first is are was were be been has have had to going plans plan
    planned start starts started soon eventually later probably possibly too itself
    in turn""".split()
)
# Words that may stand between a verb (or its tail) and the object.
OBJECT_GLUE = frozenset("the a an its their our both directly only also all every each".split())
LIST_SEPARATOR = re.compile(
    r"^\s*(?:,\s*(?:and|or)?|and|or|&|as\s+well\s+as|plus)\s*(?:the\s+)?$", re.IGNORECASE
)
COORDINATION = re.compile(r"(?:,\s*)?\b(?:and|but)\s*$", re.IGNORECASE)
INSTEAD_OF = re.compile(r"^\s*instead\s+of\s*$", re.IGNORECASE)
FILLER_MAX_WORDS = 4

NEGATION = re.compile(r"\b(?:not|no\s+longer|never|cannot|stopped|no)\b|n't\b", re.IGNORECASE)
MODAL = re.compile(
    r"\b(?:will|would|might|may|could|should|can|plans?\s+to|planning\s+to|going\s+to|"
    r"wants?\s+to|intends?\s+to|ever)\b",
    re.IGNORECASE,
)
CONDITIONAL_PREFIX = re.compile(
    r"\b(?:if|whether|unless|assuming|suppose|once|considering|proposed?|proposal|later\s+phase|"
    r"plan|as\s+far\s+as\s+i\s+know|it\s+is\s+possible|someone|somebody)\b",
    re.IGNORECASE,
)
EPISTEMIC = re.compile(
    r"\b(?:i\s+think|i\s+believe|i\s+suspect|i\s+guess|possibly|probably|maybe|perhaps|"
    r"apparently|reportedly|rumou?red|told\s+me)\b",
    re.IGNORECASE,
)
