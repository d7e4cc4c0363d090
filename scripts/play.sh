#!/usr/bin/env bash
# One command for a newcomer: set up, then start a spoken game on this keyboard.
# Extra arguments go to `companion play` (e.g. --lang en --players Ana Ben).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/companion play "$@"
