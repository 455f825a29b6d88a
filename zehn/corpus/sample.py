"""Where the bundled sample corpus lives (a fictional company, Halyard Systems).

The sample ships in the repository's ``data/sample`` folder, so these paths
exist for an editable install (``pip install -e .``), which is how the README
installs ZEHN.
"""

from __future__ import annotations

from pathlib import Path

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "data" / "sample"
SAMPLE_SOURCES = SAMPLE_DIR / "sources"
SAMPLE_CATALOG = SAMPLE_DIR / "catalog.yaml"
SAMPLE_GOLD = SAMPLE_DIR / "gold"
SAMPLE_AUDIT_LABELS = SAMPLE_GOLD / "audit_labels.csv"  # hand labels of sample__rules/cooccurrence
SAMPLE_CORPUS = "sample"
SAMPLE_GRAPH = "sample__rules"
