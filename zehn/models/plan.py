"""What the offline model planned for one question: the intent, the calls, and the names
and filters its draft is held to."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from zehn.models.base import ToolRequest
from zehn.models.chinese import PHRASES, Phrases
from zehn.reading.lang import EN
from zehn.reading.vocabulary import GradeLabel

SUPPORTED = GradeLabel.SUPPORTED
MAX_FOCI = 3  # entities walked or looked up at once ("if A and B go down")
MAX_CITED = 3  # sentences cited for one hop, and paths shown for one entity reached


@dataclass(frozen=True)
class Plan:
    intent: str
    calls: tuple[ToolRequest, ...]
    focus: str | None = None
    other: str | None = None
    kinds: tuple[str, ...] = ()
    attribute: str | None = None
    language: str = EN
    namesakes: Mapping[str, str] = field(default_factory=dict)  # Question.namesakes
    predicates: tuple[str, ...] = ()  # the asked relation(s)
    passive: bool = False
    about: tuple[str, ...] = ()  # the entities a lookup is about (the focus, carried ones)
    condition: tuple[str, ...] = ()  # taken down by the question's condition: never an answer
    concerning: tuple[str, ...] = ()  # an impact asked about these only
    changed: tuple[str, ...] = ()  # what an impact question changes or takes down
    context: tuple[str, ...] = ()  # a setting: answers come from documents that mention it
    protocol: str | None = None  # "over gRPC": answers stated with that protocol only
    condition_names: tuple[str, ...] = ()  # how the question writes the condition's names
    words: frozenset[str] = frozenset()  # the question's own words, names left out
    names: tuple[str, ...] = ()  # the names as the question writes them
    parts: tuple[str, ...] = ()  # entities named after the focus ("Grafana Server")
    named: tuple[str, ...] = ()  # other names a lookup asks with ("… read Dag files from?")
    behind: bool = False  # "if the database behind X goes down": X's store changes

    also: tuple[str, ...] = ()  # more objects a yes/no asks about ("… call A and B?")

    @property
    def phrases(self) -> Phrases:
        return PHRASES[self.language]
