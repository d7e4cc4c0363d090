"""The command a player types to run the companion again, as sentences name it.

`scripts/play.sh` runs the companion from its virtual environment; the set-up also puts a
`companion` command in ~/.local/bin. A shell that does not find `companion` on its PATH
(a terminal opened before ~/.local/bin existed, another platform) is given the path of the
command that runs this very companion instead, so "to go on: ... --resume" always works.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path


def command() -> str:
    """`companion` when the player's PATH finds it, else the full path of this one."""
    if shutil.which("companion"):
        return "companion"
    script = Path(sys.executable).with_name("companion")
    if script.is_file():
        return shlex.quote(str(script))
    return f"{shlex.quote(sys.executable)} -m companion"
