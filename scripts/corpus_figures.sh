#!/usr/bin/env bash
# Rules figures on each shared corpus and on the sample, side by side (about 10 s).
# Usage: scripts/corpus_figures.sh [OUTDIR]   (JSON rows land in OUTDIR, default a temp dir)
set -u
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
# each run gets its own home and managed server, stopped (and the home removed) afterwards
run() {
  local name=$1; shift
  local home; home=$(mktemp -d)
  ZEHN_HOME=$home timeout 900 .venv/bin/zehn compare "$@" --strategies rules --json \
    >"$out/$name.json" 2>"$out/$name.err"
  ZEHN_HOME=$home .venv/bin/zehn server stop >/dev/null 2>&1
  rm -rf "$home"
}
for gold in data/gold/*/; do
  run "$(basename "$gold")" --gold "$gold" &
done
run sample --corpus data/sample &
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
