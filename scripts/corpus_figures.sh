#!/usr/bin/env bash
# Rules figures on each shared corpus and on the sample, side by side (about 10 s).
# Usage: scripts/corpus_figures.sh [OUTDIR]   (JSON rows land in OUTDIR, default a temp dir)
set -u
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
for gold in data/gold/*/; do
  c=$(basename "$gold")
  ( ZEHN_HOME=$(mktemp -d) timeout 900 .venv/bin/zehn compare --gold "$gold" --strategies rules \
      --json >"$out/$c.json" 2>"$out/$c.err" ) &
done
( ZEHN_HOME=$(mktemp -d) timeout 900 .venv/bin/zehn compare --corpus data/sample --strategies rules \
    --json >"$out/sample.json" 2>"$out/sample.err" ) &
wait
.venv/bin/python - "$out" <<'PY'
import json, sys
from pathlib import Path
for path in sorted(Path(sys.argv[1]).glob("*.json")):
    try:
        (row,) = json.loads(path.read_text())
    except (ValueError, TypeError) as error:
        print(f"{path.stem:15} no figures ({error}); see {path.with_suffix('.err')}")
        continue
    p, r = row.get("precision"), row.get("recall")
    extra = ""
    if path.stem == "sample":
        extra = f"  en {row.get('en_precision'):.3f}/{row.get('en_recall'):.3f} zh {row.get('zh_precision')}/{row.get('zh_recall'):.3f} zh_edges {row.get('zh_edges')}"
    print(f"{path.stem:15} edges {row.get('edges'):>4} in scope {row.get('edges_in_scope', '-')!s:>4} "
          f"entities {row.get('entities')!s:>5}  P {p if p is None else round(p, 3)}  R {r if r is None else round(r, 3)}{extra}")
PY
