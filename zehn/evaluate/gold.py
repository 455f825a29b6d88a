"""Gold labels of a corpus folder: ``gold/relations.yaml`` and ``gold/questions.yaml``.

Names in gold are catalog names; where one name has several kinds
("Redwood Inference") an optional ``subject_kind`` / ``object_kind`` says
which. Without it, any entity of that name matches.

Every relation and question has a language, ``en`` or ``zh`` (Chinese or mixed
Chinese–English): a question's optional ``language`` field, otherwise detected
from its text (a relation's from its quote), so evaluations report both apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from zehn.engine.answer import Status
from zehn.errors import ZehnError
from zehn.evidence.grade import INFERRED
from zehn.reading.catalog import Catalog, load_yaml
from zehn.reading.lang import LANGUAGES, detect_language
from zehn.reading.model import entity_id
from zehn.reading.vocabulary import GradeLabel

GRADES: tuple[str, ...] = tuple(GradeLabel)
# what a gold question may expect: an error is never the right answer
STATUSES: tuple[str, ...] = (Status.ANSWERED, Status.ABSTAINED, Status.AMBIGUOUS)


class GoldError(ZehnError):
    """A gold file is missing, malformed or refers to unknown entities."""


@dataclass(frozen=True)
class GoldRelation:
    subject: str
    predicate: str
    object: str
    sentence: str
    quote: str
    grade: str
    subject_kind: str | None = None
    object_kind: str | None = None

    @property
    def stated(self) -> bool:
        """The sentence states the predicate (asserted, or negated/hedged)."""
        return self.grade != INFERRED

    @property
    def language(self) -> str:
        """``zh`` when the quoted sentence has Chinese in it, else ``en``."""
        return detect_language(self.quote)


def load_relations(path: Path) -> tuple[GoldRelation, ...]:
    entries = _entries(path, "relations")
    relations = []
    for index, entry in enumerate(entries, start=1):
        try:
            relation = GoldRelation(
                subject=str(entry["subject"]),
                predicate=str(entry["predicate"]),
                object=str(entry["object"]),
                sentence=str(entry["sentence"]),
                quote=str(entry["quote"]),
                grade=str(entry["grade"]),
                subject_kind=entry.get("subject_kind"),
                object_kind=entry.get("object_kind"),
            )
        except (KeyError, TypeError, AttributeError) as e:
            raise GoldError(f"{path}: relation {index} lacks {e}") from e
        if relation.grade not in GRADES:
            raise GoldError(f"{path}: relation {index} has grade {relation.grade!r}")
        relations.append(relation)
    return tuple(relations)


def entity_ids(catalog: Catalog | None, name: str, kind: str | None) -> frozenset[str]:
    """Entity ids a gold name may stand for (all kinds of that name unless one is given)."""
    if kind is not None:
        return frozenset({entity_id(kind, name)})
    if catalog is None:
        return frozenset()
    return frozenset(e.id for e in catalog.entities if e.name == name)


def _entries(path: Path, key: str) -> list[Mapping[str, Any]]:
    try:
        data = load_yaml(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise GoldError(f"{path}: cannot read gold file: {e}") from e
    entries = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
        raise GoldError(f"{path}: expected a `{key}:` list of mappings")
    return entries


@dataclass(frozen=True)
class GoldQuestion:
    id: str
    question: str
    status: str
    entities: tuple[str, ...]
    citations: tuple[str, ...]  # sentence ids a correct answer cites
    language: str = "en"  # "en" or "zh": given in the file, else detected from the question


def load_questions(path: Path) -> tuple[GoldQuestion, ...]:
    questions = []
    for index, entry in enumerate(_entries(path, "questions"), start=1):
        try:
            questions.append(
                GoldQuestion(
                    id=str(entry.get("id") or f"q{index:02d}"),
                    question=str(entry["question"]),
                    status=str(entry["status"]),
                    entities=tuple(str(e) for e in entry.get("entities") or ()),
                    citations=tuple(str(c["sentence"]) for c in entry.get("citations") or ()),
                    language=str(entry.get("language") or detect_language(str(entry["question"]))),
                )
            )
        except (KeyError, TypeError) as e:
            raise GoldError(f"{path}: question {index} lacks {e}") from e
        if questions[-1].status not in STATUSES:
            raise GoldError(f"{path}: question {index} has status {questions[-1].status!r}")
        if questions[-1].language not in LANGUAGES:
            raise GoldError(f"{path}: question {index} has language {questions[-1].language!r}")
    return tuple(questions)
