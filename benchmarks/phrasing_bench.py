"""How the voice reading meets what players say around a command, not the command alone:
the hint asked for, a question asked as a question ("quel est le score", "tu peux
répéter"), courtesy ("le thé, s'il te plaît"), a competition's pairs set against each other,
the Secret named in the past ("mon secret était l'éventail"), and table talk built of the
same words ("tu peux prendre le thé": a suggestion, never a move); and at game over, a new
game and quit, and what a table says when a game ends ("bien joué", "гарна гра"); the hint
asked with "give me" ("donne-moi un conseil", "dame una pista"), beside table talk so made;
quit said in play, beside table talk that sounds like it; a need said ("I need a hint",
"necesito una pista") and help asked ("aide-moi"), beside table talk so made; the Secret
said in the past at the reveal ("c'était le thé"), beside table talk so made; questions as
a newcomer says them ("combien de points", "otra vez"), beside table talk so made; help
offered to someone at the table ("aide-le", "ayúdalo"), beside help asked.

Each phrasing is spoken by the listener voices of `--voice-set` (voice_bench.py), each voice
at its own rate and pitch, mixed with white, pink and babble noise at each SNR, decoded by
Whisper in its context as play does, and decided by the policy. Prints right / refused /
wrong per SNR (wrong: asked about or applied; those applied without a question apart),
for phrasings and table talk apart (right for table talk: refused). The truths are written
here, so the same script measures the code before a change.

    .venv/bin/python benchmarks/phrasing_bench.py --lang fr --voice-set tune
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import voice_bench as vb  # noqa: E402

from companion.games.hanamikoji.data import Item  # noqa: E402
from companion.games.hanamikoji.voice.context import Context  # noqa: E402
from companion.games.hanamikoji.voice.hooks import HanamikojiRecognizer  # noqa: E402
from companion.voice.policy import Accept, Refuse, decide  # noqa: E402

GIFT = Context.answer_gift([Item.FLUTE, Item.UMBRELLA, Item.TEA])
PAIRS = Context.answer_competition([Item.FLUTE, Item.FAN], [Item.SCROLL, Item.UMBRELLA])
ACTION, REVEAL, OVER = Context.action(), Context.reveal(), Context.over()
# (what is said, where, the command it means; None: table talk, to be refused)
PHRASINGS: dict[str, tuple[tuple[str, Context, str | None], ...]] = {
    "en": (
        ("what's the score", ACTION, "score"), ("what is the score", GIFT, "score"),
        ("can you repeat", GIFT, "repeat"), ("repeat, please", ACTION, "repeat"),
        ("what are the actions", ACTION, "actions"), ("a hint", ACTION, "hint"),
        ("the tea, please", GIFT, "take tea"),
        ("can you take the tea", GIFT, None), ("what time is it", ACTION, None),
        ("pass me the salt, please", PAIRS, None),
        ("new game", OVER, "new game"), ("play again", OVER, "new game"),
        ("quit", OVER, "quit"), ("goodbye", OVER, "quit"),
        ("what's the score", OVER, "score"),
        ("good game", OVER, None), ("well played", OVER, None)),
    "fr": (
        ("conseil", ACTION, "hint"), ("un conseil", GIFT, "hint"),
        ("un indice", ACTION, "hint"),
        ("quel est le score", ACTION, "score"), ("tu peux répéter", GIFT, "repeat"),
        ("quelles sont les actions", ACTION, "actions"),
        ("répète s'il te plaît", ACTION, "repeat"), ("le score, s'il vous plaît", REVEAL, "score"),
        ("le thé, s'il te plaît", GIFT, "take tea"), ("je garde l'ombrelle", GIFT, "take umbrella"),
        ("échange flûte et thé contre rose et lune", ACTION,
         "competition flute tea / scroll flower"),
        ("mon secret était l'éventail", REVEAL, "reveal fan"),
        ("tu peux prendre le thé", GIFT, None), ("quelle heure est-il", ACTION, None),
        ("c'est bon, c'est bon", REVEAL, None),
        ("est-ce que tu as fini", PAIRS, None),
        ("nouvelle partie", OVER, "new game"), ("une nouvelle partie", OVER, "new game"),
        ("quitter", OVER, "quit"), ("au revoir", OVER, "quit"),
        ("quel est le score", OVER, "score"),
        ("bien joué", OVER, None), ("c'était une belle partie", OVER, None)),
    "es": (
        ("consejo", ACTION, "hint"), ("una pista", GIFT, "hint"), ("un consejo", ACTION, "hint"),
        ("cuál es la puntuación", ACTION, "score"), ("puedes repetir", GIFT, "repeat"),
        ("qué acciones", ACTION, "actions"),
        ("repite, por favor", ACTION, "repeat"), ("la puntuación, por favor", REVEAL, "score"),
        ("el té, por favor", GIFT, "take tea"),
        ("competición flauta y té contra flor y luna", ACTION,
         "competition flute tea / scroll flower"),
        ("mi secreto era el abanico", REVEAL, "reveal fan"),
        ("puedes coger el té", GIFT, None), ("qué hora es", ACTION, None),
        ("pásame la sal, por favor", PAIRS, None),
        ("nueva partida", OVER, "new game"), ("otra partida", OVER, "new game"),
        ("salir", OVER, "quit"), ("adiós", OVER, "quit"),
        ("cuál es la puntuación", OVER, "score"),
        ("bien jugado", OVER, None), ("qué buena partida", OVER, None)),
    "uk": (
        ("порада", ACTION, "hint"), ("який рахунок", ACTION, "score"),
        ("можеш повторити", GIFT, "repeat"), ("які дії", ACTION, "actions"),
        ("повтори, будь ласка", ACTION, "repeat"), ("рахунок, будь ласка", REVEAL, "score"),
        ("можеш взяти флейту", GIFT, None), ("котра година", ACTION, None),
        ("передай сіль, будь ласка", PAIRS, None),
        ("нова гра", OVER, "new game"), ("нову гру", OVER, "new game"),
        ("вийти", OVER, "quit"), ("до побачення", OVER, "quit"),
        ("який рахунок", OVER, "score"),
        ("гарна гра", OVER, None), ("добре зіграно", OVER, None)),
}
# The hint asked for with "give me", and table talk made of "give me" (a part of its own,
# after the rows above: their audio stays as it was drawn).
HINTS: dict[str, tuple[tuple[str, Context, str | None], ...]] = {
    "en": (("give me a hint", ACTION, "hint"), ("give me a hint", GIFT, "hint"),
           ("give me a second", ACTION, None), ("give me the salt", PAIRS, None),
           ("give me a minute", GIFT, None), ("give me a hand", REVEAL, None)),
    "fr": (("donne-moi un conseil", ACTION, "hint"), ("donne-moi un indice", GIFT, "hint"),
           ("donne-moi une seconde", ACTION, None), ("donne-moi le sel", PAIRS, None),
           ("donne-moi un coup de main", REVEAL, None)),
    "es": (("dame una pista", ACTION, "hint"), ("dame un consejo", GIFT, "hint"),
           ("dame un segundo", ACTION, None), ("dame la sal", PAIRS, None),
           ("dame una mano", REVEAL, None)),
    "uk": (("дай пораду", ACTION, "hint"), ("дай підказку", GIFT, "hint"),
           ("підкажи", ACTION, "hint"), ("дай секунду", ACTION, None),
           ("дай сіль", PAIRS, None), ("дай хвилинку", GIFT, None)),
}

# Quit said in play (read, always asked), and table talk near it (after the rows above).
QUITS: dict[str, tuple[tuple[str, Context, str | None], ...]] = {
    "en": (("quit", ACTION, "quit"), ("exit", GIFT, "quit"), ("goodbye", PAIRS, "quit"),
           ("I have to go", ACTION, None), ("it's quiet here", GIFT, None),
           ("quite a hand", REVEAL, None)),
    "fr": (("quitter", ACTION, "quit"), ("au revoir", GIFT, "quit"),
           ("je veux quitter", REVEAL, "quit"), ("qui a gagné", ACTION, None),
           ("c'est quitte", GIFT, None), ("il faut que je parte", PAIRS, None)),
    "es": (("salir", ACTION, "quit"), ("adiós", GIFT, "quit"), ("salir", PAIRS, "quit"),
           ("pásame la sal", ACTION, None), ("sal y pimienta", GIFT, None),
           ("me tengo que ir", REVEAL, None)),
    "uk": (("вийти", ACTION, "quit"), ("до побачення", GIFT, "quit"),
           ("вийти", PAIRS, "quit"), ("мені треба йти", ACTION, None),
           ("вишня", GIFT, None), ("побачимо", REVEAL, None)),
}
# A need said ("I need a hint") and help asked as a person asks it ("aide-moi"), beside
# table talk made of the same words (after the rows above).
NEEDS: dict[str, tuple[tuple[str, Context, str | None], ...]] = {
    "en": (("I need a hint", ACTION, "hint"), ("can I have a hint", GIFT, "hint"),
           ("help me", PAIRS, "help"), ("I need a minute", ACTION, None),
           ("I need the tea", GIFT, None), ("help yourself", REVEAL, None)),
    "fr": (("j'ai besoin d'un conseil", ACTION, "hint"), ("aide-moi", GIFT, "help"),
           ("aidez-moi", PAIRS, "help"), ("j'ai besoin d'une minute", ACTION, None),
           ("j'ai besoin du thé", GIFT, None), ("aide-toi", REVEAL, None)),
    "es": (("necesito una pista", ACTION, "hint"), ("ayúdame", GIFT, "help"),
           ("necesito un consejo", PAIRS, "hint"), ("necesito un minuto", ACTION, None),
           ("necesito el té", GIFT, None), ("ayúdale", REVEAL, None)),
    "uk": (("мені потрібна порада", ACTION, "hint"), ("допоможи", GIFT, "help"),
           ("потрібна підказка", PAIRS, "hint"), ("мені потрібна хвилинка", ACTION, None),
           ("мені потрібен чай", GIFT, None), ("допоможемо", REVEAL, None)),
}
# The Secret said in the past at the reveal ("c'était le thé", "it was the tea", "це був
# чай"), beside table talk so made (after the rows above).
SECRET_WAS: dict[str, tuple[tuple[str, Context, str | None], ...]] = {
    "en": (("it was the tea", REVEAL, "reveal tea"), ("my secret was the fan", REVEAL,
           "reveal fan"), ("it was a good move", REVEAL, None), ("was it me", REVEAL, None)),
    "fr": (("c'était le thé", REVEAL, "reveal tea"), ("c'était l'éventail", REVEAL,
           "reveal fan"), ("c'était bien joué", REVEAL, None), ("c'était pas mal", REVEAL,
           None)),
    "es": (("era el té", REVEAL, "reveal tea"), ("era la flauta", REVEAL, "reveal flute"),
           ("era broma", REVEAL, None), ("era mi turno", REVEAL, None)),
    "uk": (("це був чай", REVEAL, "reveal tea"), ("це була флейта", REVEAL, "reveal flute"),
           ("це було віяло", REVEAL, "reveal fan"), ("це був гарний хід", REVEAL, None),
           ("це було смішно", REVEAL, None)),
}
# Questions as a newcomer says them ("combien de points", "otra vez"), beside table talk
# made of the same words (after the rows above).
NEWCOMER: dict[str, tuple[tuple[str, Context, str | None], ...]] = {
    "en": (("how many points", ACTION, "score"), ("who's winning", GIFT, "score"),
           ("say that again", PAIRS, "repeat"), ("what should I do", ACTION, "actions"),
           ("how do I play", REVEAL, "rules"), ("how many cards left", ACTION, None),
           ("say hello", GIFT, None), ("I don't know how to play", PAIRS, None)),
    "fr": (("combien de points", ACTION, "score"), ("qui gagne", GIFT, "score"),
           ("encore une fois", PAIRS, "repeat"), ("qu'est-ce que je peux faire", ACTION,
                                                  "actions"),
           ("comment on joue", REVEAL, "rules"), ("combien de cartes", ACTION, None),
           ("qui a gagné hier", GIFT, None), ("comment ça va", PAIRS, None)),
    "es": (("cuántos puntos", ACTION, "score"), ("quién gana", GIFT, "score"),
           ("dilo otra vez", PAIRS, "repeat"), ("qué hago", ACTION, "actions"),
           ("cómo se juega", REVEAL, "rules"), ("cuántas cartas", ACTION, None),
           ("quién es", GIFT, None), ("cómo estás", PAIRS, None)),
    "uk": (("скільки балів", ACTION, "score"), ("хто виграє", GIFT, "score"),
           ("скажи ще раз", PAIRS, "repeat"), ("що мені робити", ACTION, "actions"),
           ("як грати", REVEAL, "rules"), ("скільки карт", ACTION, None),
           ("хто там", GIFT, None), ("як справи", PAIRS, None)),
}
# Help offered to someone at the table ("aide-le", "ayúdalo", "help him"), beside help
# asked in the same contexts (after the rows above).
OFFERED: dict[str, tuple[tuple[str, Context, str | None], ...]] = {
    "en": (("help him", REVEAL, None), ("help them", GIFT, None),
           ("help each other", ACTION, None), ("help", REVEAL, "help"), ("help", GIFT, "help")),
    "fr": (("aide-le", REVEAL, None), ("aide-la", GIFT, None), ("aidez-le", REVEAL, None),
           ("aidez-les", GIFT, None), ("aide-lui", ACTION, None), ("aide", REVEAL, "help"),
           ("aide-moi", REVEAL, "help")),
    "es": (("ayúdalo", REVEAL, None), ("ayúdala", ACTION, None), ("ayúdate", GIFT, None),
           ("ayúdelo", REVEAL, None), ("ayuda", REVEAL, "help"), ("ayuda", GIFT, "help")),
    "uk": (("допоможи йому", REVEAL, None), ("допоможу", GIFT, None),
           ("допоможуть", ACTION, None), ("допомога", REVEAL, "help"),
           ("допоможи", REVEAL, "help")),
}
PARTS = {"hint": HINTS, "quit": QUITS, "need": NEEDS, "was": SECRET_WAS,
         "newcomer": NEWCOMER, "offered": OFFERED}  # the parts after the first rows, in order


def part(ctx: Context, extra: str) -> str:
    """Which part of the bench a row is in."""
    return extra or ("over" if ctx.kind == "over" else "moves")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=sorted(PHRASINGS), default="fr")
    parser.add_argument("--voice-set", choices=("tune", "report"), default="tune")
    parser.add_argument("--snrs", type=int, nargs="+", default=[40, 20, 10])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--verbose", action="store_true", help="print every decode")
    parser.add_argument("--part", choices=("all", "moves", "over", *PARTS), default="all",
                        help="the phrasings said in play (moves), at game over, the hint "
                             "asked with 'give me', quit in play, a need said, the Secret "
                             "said in the past (was), questions as a newcomer says them, "
                             "help offered at the table, or all")
    args = parser.parse_args()

    from companion.voice.whisper import WhisperRecognizer

    recognizer = HanamikojiRecognizer(WhisperRecognizer(None, lang=args.lang))
    rng = random.Random(args.seed)
    nrng = np.random.default_rng(args.seed)
    babble = vb.Babble(rng)
    counts: dict[tuple[str, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    rows = [(*row, "") for row in PHRASINGS[args.lang]] + [
        (*row, name) for name, rows in PARTS.items() for row in rows[args.lang]]
    for text, ctx, truth, extra in rows:
        if args.part not in ("all", part(ctx, extra)):
            continue
        for voice in vb.engine_voices("listener", args.lang, args.voice_set):
            speech = vb.synth(text, voice, rng.randint(130, 190), rng.randint(25, 75))
            for snr in args.snrs:
                for noise in vb.NOISES:
                    rec = recognizer.recognize(vb.mix(speech, noise, snr, nrng, babble), ctx)
                    decision = decide(rec, answering=ctx.kind == "confirm")
                    command = None if isinstance(decision, Refuse) else rec.command
                    if truth is None:  # table talk: right when refused
                        outcome = "right" if command is None else "wrong"
                    else:
                        outcome = ("refused" if command is None else
                                   "right" if command == truth else "wrong")
                    # the game over's rows apart: the rows of play stay comparable
                    group = ("" if part(ctx, extra) == "moves" else part(ctx, extra) + " "
                             ) + ("said" if truth is not None else "table talk")
                    counts[(group, snr)][outcome] += 1
                    # applied without a question (a question is answered at once)
                    counts[(group, snr)]["applied"] += (
                        outcome == "wrong" and isinstance(decision, Accept))
                    if args.verbose:
                        print(f"{snr:2} {noise:6} {voice:12} {text!r}: {outcome} "
                              f"({command}, {rec.confidence:.2f}, {rec.transcript!r})")
    print(f"{args.lang}, {args.voice_set} voices: right / refused / wrong (table talk: "
          "right is refused)")
    for (group, snr), c in sorted(counts.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
        n = c["right"] + c["refused"] + c["wrong"]
        print(f"{group:15} {snr:2} dB  n={n:3}  " + "  ".join(
            f"{k} {100 * c[k] / n:5.1f}%" for k in ("right", "refused", "wrong"))
            + f"  (wrong applied unasked {100 * c['applied'] / n:4.1f}%)")


if __name__ == "__main__":
    main()
