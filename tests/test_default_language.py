"""The default language is the one docs/playing.md names, for a system language the
companion does not speak (a real subprocess, so the real locale lookup runs)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES = {"French": "fr", "English": "en", "Spanish": "es", "Ukrainian": "uk"}


def system_language(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE", "LC_CTYPE")}
    code = "from companion.cli import system_language; print(system_language())"
    return subprocess.run([sys.executable, "-c", code], env=clean | env, cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.strip()


def test_the_documented_default_is_the_codes():
    text = (ROOT / "docs" / "playing.md").read_text("utf-8")
    said = re.findall(r"default language is the system's .*? else (\w+)", text, re.S)
    assert len(said) == 1, "said once"
    assert system_language(LANG="de_DE.UTF-8") == NAMES[said[0]]
    assert system_language(LANG="C") == NAMES[said[0]]
    assert system_language(LANG="uk_UA.UTF-8") == "uk"
