#!/usr/bin/env bash
# One command for a contributor (and CI): set up, lint, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
