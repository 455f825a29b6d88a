"""``zehn catalog suggest``: the discovered catalog for an analyst to curate — each entity
with its kind, aliases (each with its reason), how often it binds and the first sentence
that names it. ``zehn ingest … --catalog FILE`` then uses the curated one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from zehn.corpus.loaders import iter_source_files, load_file
from zehn.corpus.model import Sentence, SourceText
from zehn.errors import CorpusError, SourceError
from zehn.reading.model import Entity
from zehn.reading.names.catalog import catalog_yaml
from zehn.reading.names.subjects import bind_corpus
from zehn.reading.split import chunk_sentences, split_sentences


@dataclass(frozen=True)
class Suggestion:
    """A discovered entity with how often it binds and the first sentence that names it."""

    entity: Entity
    mentions: int
    first_sentence: Sentence | None

    def to_entry(self) -> dict[str, object]:
        """The catalog entry (``zehn.reading.names.catalog`` reads name, kind, aliases; the rest
        documents the suggestion for the analyst who curates it)."""
        entry: dict[str, object] = {
            "name": self.entity.name,
            "kind": str(self.entity.kind),
            "aliases": list(self.entity.aliases),
            "origin": "discovered",
            "mentions": self.mentions,
        }
        if self.first_sentence is not None:
            entry["first_sentence"] = {
                "id": self.first_sentence.id,
                "text": " ".join(self.first_sentence.text.split()),
            }
        entry["reasons"] = [f"{form}: {reason}" for form, reason in self.entity.evidence]
        return entry


def suggest_catalog(documents: Sequence[SourceText]) -> list[Suggestion]:
    """The discovered entities of ``documents`` as catalog suggestions, most mentioned first."""
    entities, bound = bind_corpus(documents, None)
    counts: Counter[str] = Counter()
    first: dict[str, Sentence] = {}
    for sentence, mentions in bound:
        for mention in mentions:
            if mention.entity_id is not None:
                counts[mention.entity_id] += 1
                first.setdefault(mention.entity_id, sentence)
    suggestions = [Suggestion(e, counts[e.id], first.get(e.id)) for e in entities if counts[e.id]]
    suggestions.sort(key=lambda s: (-s.mentions, s.entity.name.lower()))
    return suggestions


@dataclass(frozen=True)
class CatalogSuggestion:
    """What ``zehn catalog suggest`` reports: the suggested entries and what was read."""

    path: str
    documents: int
    suggestions: tuple[Suggestion, ...]
    skipped: tuple[tuple[str, str], ...] = ()

    def entries(self) -> list[dict[str, object]]:
        return [s.to_entry() for s in self.suggestions]

    def to_yaml(self) -> str:
        """The catalog file an analyst curates and ``zehn ingest --catalog`` reads."""
        header = (
            f"Entities discovered in {self.path} by `zehn catalog suggest` "
            f"({len(self.suggestions)} from {self.documents} documents).\n"
            "Curate it, then `zehn ingest ... --catalog FILE`: name, kind and aliases are read;\n"
            "mentions, first_sentence and reasons are notes. origin: discovered keeps names\n"
            "that are ordinary words (cart, email) bound only where the text marks them;\n"
            "delete it from an entry to bind that entry's names everywhere."
        )
        return catalog_yaml(self.entries(), header)

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "documents": self.documents,
            "entities": len(self.suggestions),
            "skipped": [{"path": p, "reason": r} for p, r in self.skipped],
            "catalog": self.entries(),
        }


def suggest_for_path(path: Path, sources: Path | None = None) -> CatalogSuggestion:
    """Discovery over the files under ``sources`` (default ``path``), without a graph."""
    documents, skipped = read_sources(sources or path)
    suggestions = tuple(suggest_catalog(documents)) if documents else ()
    return CatalogSuggestion(str(path), len(documents), suggestions, tuple(skipped))


def read_sources(root: Path) -> tuple[list[SourceText], list[tuple[str, str]]]:
    """The documents under ``root`` split and chunked as an ingest stores them, read without a
    graph; and each file that could not be read, with the reason."""
    root = Path(root)
    if not root.exists():
        raise CorpusError(f"{root}: no such file or directory")
    base = root if root.is_dir() else root.parent
    documents: list[SourceText] = []
    skipped: list[tuple[str, str]] = []
    for file in iter_source_files(root):
        try:
            loaded = load_file(file, base)
        except SourceError as e:
            skipped.append((str(file), e.reason))
            continue
        for doc in loaded:
            chunks, sentences = chunk_sentences(doc.id, split_sentences(doc.id, doc.text))
            documents.append(
                SourceText(doc.id, doc.title, doc.text, tuple(chunks), tuple(sentences))
            )
    return documents, skipped
