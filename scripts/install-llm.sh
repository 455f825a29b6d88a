#!/usr/bin/env bash
# The llm strategy's dependencies, into the active environment (venv or conda env).
# graphrag-sdk is installed without its own dependencies: they pull GLiNER and several GB of
# torch that the strategy never uses (its entity step is a catalog lookup). The light ones it
# does import come from zehn's `llm` extra.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python}"
"$PYTHON" -m pip install -e '.[llm]'
"$PYTHON" -m pip install --no-deps 'graphrag-sdk==1.4.0'
"$PYTHON" -c "import zehn.extract.llm" && echo "the llm strategy can run (zehn ingest PATH --graph NAME --strategy llm)"
