"""Discovery gives the same entities, aliases and reasons whatever Python's hash seed: a
catalog suggestion or a figure that changes from one run to the next cannot be reviewed."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    from zehn.corpus.model import SourceText
    from zehn.reading.names.discover import discover_entities
    from zehn.reading.split import chunk_sentences, split_sentences

    def source(doc_id, text):
        chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
        return SourceText(doc_id, doc_id, text, tuple(chunks), tuple(sentences))

    documents = [  # a plural identifier and a phrase: forms given equally often
        source("doc/a", "The Tern Audit service keeps records. It runs as `tern-audits`, "
               "next to `tern-audits` and `tern-audits`.\\n"),
        source("doc/b", "Ask the Plover Review service. The Plover Review service answers.\\n"),
    ]
    for entity in discover_entities(documents):
        print(entity.id, entity.name, entity.aliases, entity.evidence)
    """
)


def _discovered(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True
    ).stdout


def test_discovery_does_not_depend_on_the_hash_seed() -> None:
    runs = {_discovered(seed) for seed in ("1", "2", "3", "4", "5")}
    assert len(runs) == 1, runs
    assert "Tern Audit service" in next(iter(runs))  # the tied forms were discovered
