"""Helpers for writing gold relations on a real corpus (never copied into the project).

    python scripts/gold_tool.py sentences ../shared/corpora/otel-demo/docs FILE [FILE ...]
        every sentence of FILE as ZEHN loads and splits it: "<sentence id>\t<text>" (white space
        folded: quotes are compared that way)
    python scripts/gold_tool.py check data/gold/otel-demo
        every relation's quote is found verbatim in its file's loaded text; names, kinds,
        predicates and grades are from the vocabulary; scope files exist

A gold quote is the sentence as ZEHN loads it (Markdown markup stripped, for example), which is
why it is copied from the ``sentences`` listing rather than from the raw file.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from zehn.corpus.loaders import load_file
from zehn.reading.split import split_sentences
from zehn.reading.vocabulary import EntityKind, GradeLabel, Predicate

REPO = Path(__file__).resolve().parents[1]


def _collapse(text: str) -> str:
    """Quotes are compared with runs of white space (wrapped lines) folded to one space."""
    return " ".join(text.split())


def _loaded_text(root: Path, file: str) -> str:
    return _collapse("\n\n".join(doc.text for doc in load_file(root / file, root)))


def sentences(root: Path, files: list[str]) -> None:
    for file in files:
        for doc in load_file(root / file, root):
            print(f"# {file} -> {doc.id} ({doc.title})")
            for sentence in split_sentences(doc.id, doc.text):
                print(f"{sentence.id}\t{_collapse(sentence.text)}")


def check(gold_dir: Path) -> int:
    data = yaml.safe_load((gold_dir / "relations.yaml").read_text(encoding="utf-8"))
    root = (REPO / data["corpus"]).resolve()
    problems: list[str] = []
    entities = {(e["name"], e["kind"]) for e in data.get("entities", [])}
    for e in data.get("entities", []):
        if e["kind"] not in set(EntityKind):
            problems.append(f"entity {e['name']}: unknown kind {e['kind']}")
    for file in data.get("scope", []):
        if not (root / file).is_file():
            problems.append(f"scope file missing: {file}")
    texts: dict[str, str] = {}
    for i, r in enumerate(data.get("relations", [])):
        where = f"relation {i} ({r.get('subject')} {r.get('predicate')} {r.get('object')})"
        for side in ("subject", "object"):
            if (r[side], r[f"{side}_kind"]) not in entities:
                problems.append(f"{where}: {side} {r[side]}/{r[f'{side}_kind']} not in entities")
        for p in [r["predicate"], *r.get("alternatives", [])]:
            if p not in set(Predicate):
                problems.append(f"{where}: unknown predicate {p}")
        if r["grade"] not in set(GradeLabel):
            problems.append(f"{where}: unknown grade {r['grade']}")
        if r["file"] not in data.get("scope", []):
            problems.append(f"{where}: file {r['file']} is not in scope")
        if r["file"] not in texts:
            texts[r["file"]] = _loaded_text(root, r["file"])
        if _collapse(r["quote"]) not in texts[r["file"]]:
            problems.append(f"{where}: quote not found verbatim in {r['file']}")
    for p in problems:
        print(p)
    relations = data.get("relations", [])
    scope = data.get("scope", [])
    print(f"{len(relations)} relations, {len(entities)} entities, {len(scope)} files")
    return 1 if problems else 0


def main(argv: list[str]) -> int:
    if len(argv) >= 3 and argv[0] == "sentences":
        sentences(Path(argv[1]), argv[2:])
        return 0
    if len(argv) == 2 and argv[0] == "check":
        return check(Path(argv[1]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
