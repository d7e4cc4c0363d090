#!/usr/bin/env bash
# One command for a newcomer: set up, then start a spoken game on this keyboard.
# Extra arguments go to `companion play` (e.g. --lang en --players Ana Ben).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The first game on this machine asks the language once (a keypad digit answers), unless
# --lang names one; the answer is remembered. --no-speech and --speech-out apply to it too.
case " $* " in *" --lang "*|*" --lang="*) ;; *) .venv/bin/python -m companion.language "$@" || true ;; esac
exec .venv/bin/companion play "$@"
