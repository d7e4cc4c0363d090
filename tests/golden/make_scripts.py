"""Writes the golden scripts: a seeded simulated game, with questions, mistakes and undo
mixed in where a real table would make them. Run once; the .script files are then frozen
and reviewed like code (`python tests/golden/make_scripts.py`)."""

from __future__ import annotations

from pathlib import Path

from companion.games.hanamikoji.rules import RuleSet
from companion.games.hanamikoji.simulate import table_script

HERE = Path(__file__).parent

EXTRAS = {
    "en": {1: ["board"], 3: ["score", "banana"], 5: ["actions", "unseen"],
           8: ["undo"], 12: ["repeat", "help"], 20: ["take flute"], 30: ["score"]},
    "fr": {1: ["plateau"], 3: ["score", "banane"], 5: ["actions", "non vues"],
           8: ["annuler"], 12: ["répéter", "aide"], 20: ["prendre flûte"], 30: ["score"]},
}


def script(seed: int, lang: str, rules: RuleSet = RuleSet.IELLO) -> list[str]:
    lines = table_script(seed, rules, lang)
    out: list[str] = []
    for i, line in enumerate(lines):
        out.append(line)
        for extra in EXTRAS[lang].get(i, []):
            out.append(extra)
            if extra in ("undo", "annuler"):
                out.append(line)  # the player plays the undone step again
    return out


if __name__ == "__main__":
    (HERE / "hanamikoji_en.script").write_text("\n".join(script(4, "en")) + "\n", "utf-8")
    (HERE / "hanamikoji_fr.script").write_text("\n".join(script(9, "fr")) + "\n", "utf-8")
    (HERE / "hanamikoji_classic_en.script").write_text(
        "\n".join(table_script(7, RuleSet.CLASSIC, "en")) + "\n", "utf-8")
