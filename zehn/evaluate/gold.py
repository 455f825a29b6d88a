"""Gold labels: a sample corpus folder's ``gold/`` or a real corpus's gold folder.

Two formats load into one ``GoldSet``:

- **sample** (``data/sample/gold/relations.yaml``): names are catalog names;
  where one name has several kinds ("Redwood Inference") an optional
  ``subject_kind`` / ``object_kind`` says which, without it any entity of that
  name matches. Relations are matched by sentence id.
- **corpus** (``data/gold/<corpus>/relations.yaml``), for documentation nobody
  here wrote: a top-level ``corpus:`` (the corpus root, relative to the project
  root), ``scope:`` (files labelled exhaustively, relative to the corpus root),
  ``entities:`` (name, kind, aliases) and relations that also carry their
  ``file``, optional ``alternatives`` (other predicates a fair reader could
  take the sentence to state), ``reference`` and ``note``. Relations are
  matched by document, quote and entity names (``zehn.evaluate.matching``), so
  that the figures survive changes to how sentences are cut.

Every relation and question has a language, ``en`` or ``zh`` (Chinese or mixed
Chinese–English): a question's optional ``language`` field, otherwise detected
from its text (a relation's from its quote), so evaluations report both apart.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml

from zehn.engine.answer import Status
from zehn.errors import ZehnError
from zehn.evidence.grade import INFERRED
from zehn.reading.lang import LANGUAGES, detect_language
from zehn.reading.model import entity_id
from zehn.reading.names.catalog import Catalog, load_yaml
from zehn.reading.vocabulary import ENTITY_KINDS, PREDICATES, GradeLabel

GRADES: tuple[str, ...] = tuple(GradeLabel)
# what a gold question may expect: an error is never the right answer
STATUSES: tuple[str, ...] = (Status.ANSWERED, Status.ABSTAINED, Status.AMBIGUOUS)
RELATIONS_FILE = "relations.yaml"
GoldFormat = Literal["sample", "corpus", "reviewed"]
# a reviewed gold's verdicts (``zehn audit export-gold``): a rejected edge is a negative
VERDICTS = ("correct", "rejected")
_SEPARATORS = re.compile(r"[\s\-_.]+")


class GoldError(ZehnError):
    """A gold file is missing, malformed or refers to unknown entities."""


def normalise_name(text: str) -> str:
    """The form names are compared in: NFKC, case-folded, separators (space - _ .) removed.

    "Checkout Service", "checkout-service" and "checkout_service" are one name;
    nothing cleverer (no stemming, no article stripping), so a match is easy to explain.
    """
    return _SEPARATORS.sub("", unicodedata.normalize("NFKC", text).casefold())


def name_forms(names: Iterable[str]) -> frozenset[str]:
    """Normalised forms of a name and its aliases (empty forms dropped)."""
    return frozenset(form for form in map(normalise_name, names) if form)


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
    file: str | None = None  # corpus format: the file, relative to the corpus root
    alternatives: tuple[str, ...] = ()  # other predicates a fair reader could take it to state
    reference: str | None = None
    note: str | None = None
    verdict: str = "correct"  # a reviewed gold: "rejected" marks an edge reviewers found wrong

    @property
    def stated(self) -> bool:
        """The sentence states the predicate (asserted, or negated/hedged); a relation
        reviewers rejected states nothing."""
        return self.grade != INFERRED and self.verdict == "correct"

    @property
    def language(self) -> str:
        """``zh`` when the quoted sentence has Chinese in it, else ``en``."""
        return detect_language(self.quote)

    @property
    def predicates(self) -> frozenset[str]:
        """The predicate and its alternatives: any of them counts as extracting it."""
        return frozenset({self.predicate, *self.alternatives})


@dataclass(frozen=True)
class GoldEntity:
    """An entity of a corpus gold: its name, kind and the surface forms it goes by."""

    name: str
    kind: str
    aliases: tuple[str, ...] = ()

    @property
    def forms(self) -> frozenset[str]:
        return name_forms((self.name, *self.aliases))


@dataclass(frozen=True)
class GoldSet:
    """One gold folder, either format: what ``zehn compare`` scores a corpus against."""

    path: Path  # the relations.yaml it was read from
    format: GoldFormat
    relations: tuple[GoldRelation, ...]
    entities: tuple[GoldEntity, ...] = ()
    scope: tuple[str, ...] = ()  # corpus format: files labelled exhaustively
    corpus_root: Path | None = None  # where the labelled corpus is (None: not known)

    @property
    def name(self) -> str:
        """The gold folder's name (its corpus's for a ``<corpus>/gold`` folder)."""
        folder = self.path.parent
        return folder.parent.name if folder.name == "gold" else folder.name

    @property
    def stated(self) -> tuple[GoldRelation, ...]:
        return tuple(r for r in self.relations if r.stated)

    def forms(self, name: str, kind: str | None) -> frozenset[str]:
        """Normalised forms a gold name goes by (every kind of that name unless one is given);
        a name the gold does not list goes by itself."""
        found = [e for e in self.entities if e.name == name and kind in (None, e.kind)]
        return frozenset().union(*(e.forms for e in found)) if found else name_forms([name])


def load_gold(path: Path, *, project_root: Path | None = None) -> GoldSet:
    """A gold folder (or its ``relations.yaml``), either format.

    A corpus gold's ``corpus:`` is resolved against ``project_root``: by default
    the nearest folder above the gold holding a ``pyproject.toml``, else the
    working directory. A sample gold (``<corpus>/gold``) knows its corpus when
    the folder above it has ``sources/``.
    """
    path = Path(path)
    file = path / RELATIONS_FILE if path.is_dir() else path
    data = read_gold_file(file)
    relations = _relations(file, data)
    if "reviewed" in data:  # reviewers' verdicts on one graph's edges (zehn.review.audit_gold)
        root = _corpus_root(file, data.get("corpus"), project_root)
        return GoldSet(file, "reviewed", relations, corpus_root=root)
    if "corpus" not in data and "scope" not in data:
        corpus = file.parent.parent if file.parent.name == "gold" else None
        root = corpus if corpus is not None and (corpus / "sources").is_dir() else None
        return GoldSet(file, "sample", relations, corpus_root=root)
    scope = data.get("scope")
    if not isinstance(scope, list) or not scope:
        raise GoldError(f"{file}: a corpus gold needs a non-empty `scope:` list of files")
    entities = _entities(file, data.get("entities"))
    gold = GoldSet(
        file,
        "corpus",
        relations,
        entities,
        tuple(str(s) for s in scope),
        _corpus_root(file, data.get("corpus"), project_root),
    )
    _check_corpus_relations(gold)
    return gold


def load_relations(path: Path) -> tuple[GoldRelation, ...]:
    """The relations of a ``relations.yaml``, either format."""
    return _relations(Path(path), read_gold_file(Path(path)))


def read_gold_file(path: Path) -> Any:
    """A gold YAML file, parsed safely; a clear GoldError when it cannot be read."""
    try:
        return load_yaml(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise GoldError(f"{path}: cannot read gold file: {e}") from e


def _relations(path: Path, data: Any) -> tuple[GoldRelation, ...]:
    relations = []
    for index, entry in enumerate(_listed(path, data, "relations"), start=1):
        try:
            alternatives = entry.get("alternatives") or ()
            relation = GoldRelation(
                subject=str(entry["subject"]),
                predicate=str(entry["predicate"]),
                object=str(entry["object"]),
                sentence=str(entry["sentence"]),
                quote=str(entry["quote"]),
                grade=str(entry["grade"]),
                subject_kind=entry.get("subject_kind"),
                object_kind=entry.get("object_kind"),
                file=None if entry.get("file") is None else str(entry["file"]),
                alternatives=tuple(str(a) for a in alternatives),
                reference=entry.get("reference"),
                note=entry.get("note"),
                verdict=str(entry.get("verdict") or "correct"),
            )
        except (KeyError, TypeError, AttributeError) as e:
            raise GoldError(f"{path}: relation {index} lacks {e}") from e
        if relation.grade not in GRADES:
            raise GoldError(f"{path}: relation {index} has grade {relation.grade!r}")
        if relation.verdict not in VERDICTS:
            raise GoldError(f"{path}: relation {index} has verdict {relation.verdict!r}")
        relations.append(relation)
    return tuple(relations)


def _entities(path: Path, entries: Any) -> tuple[GoldEntity, ...]:
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
        raise GoldError(f"{path}: a corpus gold needs an `entities:` list of mappings")
    entities = []
    for index, entry in enumerate(entries, start=1):
        try:
            aliases = tuple(str(a) for a in entry.get("aliases") or ())
            entity = GoldEntity(str(entry["name"]), str(entry["kind"]), aliases)
        except (KeyError, TypeError) as e:
            raise GoldError(f"{path}: entity {index} lacks {e}") from e
        if entity.kind not in ENTITY_KINDS:
            raise GoldError(f"{path}: entity {entity.name!r} has kind {entity.kind!r}")
        entities.append(entity)
    return tuple(entities)


def _check_corpus_relations(gold: GoldSet) -> None:
    """What a corpus gold's relations must agree with: its scope, entities and vocabulary."""
    known = {(e.name, e.kind) for e in gold.entities}
    for index, r in enumerate(gold.relations, start=1):
        where = f"{gold.path}: relation {index} ({r.subject} {r.predicate} {r.object})"
        if r.file not in gold.scope:
            raise GoldError(f"{where}: file {r.file!r} is not in scope")
        unknown = sorted(r.predicates - set(PREDICATES))
        if unknown:
            raise GoldError(f"{where}: unknown predicate {', '.join(unknown)}")
        for name, kind in ((r.subject, r.subject_kind), (r.object, r.object_kind)):
            if not any(n == name and kind in (None, k) for n, k in known):
                raise GoldError(f"{where}: {name!r} ({kind}) is not among the entities")


def _corpus_root(path: Path, corpus: Any, project_root: Path | None) -> Path | None:
    if corpus is None:
        return None
    root = Path(str(corpus))
    if root.is_absolute():
        return root
    base = project_root or _project_root(path)
    return (base / root).resolve()


def _project_root(path: Path) -> Path:
    for folder in Path(path).resolve().parents:
        if (folder / "pyproject.toml").is_file():
            return folder
    return Path.cwd()


def _listed(path: Path, data: Any, key: str) -> list[Mapping[str, Any]]:
    entries = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
        raise GoldError(f"{path}: expected a `{key}:` list of mappings")
    return entries


def _entries(path: Path, key: str) -> list[Mapping[str, Any]]:
    return _listed(path, read_gold_file(path), key)


def entity_ids(catalog: Catalog | None, name: str, kind: str | None) -> frozenset[str]:
    """Entity ids a gold name may stand for (all kinds of that name unless one is given)."""
    if kind is not None:
        return frozenset({entity_id(kind, name)})
    if catalog is None:
        return frozenset()
    return frozenset(e.id for e in catalog.entities if e.name == name)


@dataclass(frozen=True)
class GoldQuestion:
    id: str
    question: str
    status: str
    entities: tuple[str, ...]
    citations: tuple[str, ...]  # sentence ids a correct answer cites
    language: str = "en"  # "en" or "zh": given in the file, else detected from the question
    # (file, verbatim quote) of each citation, where the gold gives them (a corpus gold): the
    # ids are resolved again by quote against the graph scored (``zehn.evaluate.citations``)
    quotes: tuple[tuple[str, str], ...] = ()


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
                    quotes=tuple(
                        (str(c["file"]), str(c["quote"]))
                        for c in entry.get("citations") or ()
                        if c.get("file") and c.get("quote")
                    ),
                )
            )
        except (KeyError, TypeError) as e:
            raise GoldError(f"{path}: question {index} lacks {e}") from e
        if questions[-1].status not in STATUSES:
            raise GoldError(f"{path}: question {index} has status {questions[-1].status!r}")
        if questions[-1].language not in LANGUAGES:
            raise GoldError(f"{path}: question {index} has language {questions[-1].language!r}")
    return tuple(questions)
