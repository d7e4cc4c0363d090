"""A yes or a no is applied only when it is clearly one (issue 25, part 3).

A yes answers "… Yes or no?" by applying the move asked about, and an answer is never
itself asked about, so a stray word taken for one does harm at once. Measured on real
voices (Google Speech Commands, docs/voice.md "Real voices"): Whisper's limited beam may
write only the context's words, so in the yes/no context "down" comes out as "no" and
"cat" as "yes", and the calibrated confidence of a one-word answer sits near its
threshold for the real answers and the stray words alike. What tells them apart is the
free transcript decoded beside the limited beam (no prompt, no limit): it writes "Down."
and "Cat." for those, and "Yes." / "No." for the real answers. So a yes or no stands only
when that transcript, read in the same grammar, is the same answer with a close fit and
is short.

In noise the transcript is not enough: real Speech Commands "cat" at 10 dB was written
"Yeah." by both decodes, and a French "non" in babble "Oui, oui." by every hypothesis. So
a yes or no also needs the audio itself to say it (`heard_as`): the model's likelihood of
the answer's own word, given the audio (teacher forcing, as the rescoring's), must be
likely enough and well above the other answer's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.shared_words import ANSWER_ALSO, ANSWER_WORD
from companion.voice.mapper import words_of
from companion.voice.sphinx import ANSWERS, Recognition, noisy_yes

# The free transcript read as the answer at least this closely (the text mapper's fit,
# 1 for the word itself): "Now." for "no" fits 0.13, "Down." 0.
ANSWER_FIT = 0.5
# More words than this in the free transcript is a sentence, not an answer ("yes, go on"
# is three); a loop on one word ("Bird. Bird. Bird…") is counted by its words.
MAX_ANSWER_WORDS = 3

# A calibrated confidence is its model's probability lowered by a shrink (calibration.py);
# Ukrainian's, 0.65, is below the policy's 0.8, so no Ukrainian yes or no was ever taken,
# not even when every hypothesis and the free transcript wrote "Ні." (docs/voice.md). In
# a language whose ceiling is below AGREED, an answer both decodes write as the word
# itself (`agreed`) is given AGREED. English's ceiling (0.85) takes its answers as
# calibrated (real voices: 8 of 9 as recorded).
AGREED = 0.85

Reading = Callable[[str], "tuple[float, str, str] | None"]
# The model's mean log-probability per token of each sentence, given the audio.
Likelihood = Callable[[Sequence[str]], list[float]]

# The answer's own word must be at least this likely (nats per token, its likelier
# spelling) and this much likelier than the other answer's word. A wrong yes applies a
# move, a wrong no only declines one: a yes needs the wider lead. Chosen on the tuning
# halves (Speech Commands speakers 0-7; MBROLA fr1, fr3, fr5, Pico es-ES and RHVoice
# anatol, natalia, seeds 11 and 77): real "cat" in noise, written "Yeah.", scored " Yes."
# at -2.5 to -3.2, real yes written "Yeah." -1.3 to -2.1; a French "non" written "Oui." led
# by 0.5, real answers by 2 to 5 (espeak-ng's Ukrainian "ні" by 1.7). docs/voice.md.
OWN_FLOOR = -2.3
OWN_LEAD = {"yes": 2.0, "no": 1.5}

# A yes whose audio is checked (`heard_as`, Whisper's French and Spanish) needs this
# loudness margin (dB), not sphinx.YES_MIN_MARGIN's 12: that floor was set before the
# check, when 4 of 4 "non"/"no" heard as yes stood at 7.9-11.6 dB, and it refused most
# real yeses at 10 dB. Chosen on the tuning sets (docs/voice.md, "A yes in noise"):
# French answers right at 10 / 6 dB 12 / 1 -> 26 / 9 of 72, no answer taken for the
# other; real stray words taken for a yes 0 -> 1 of 148 at 10 and at 6 dB (without any
# floor 0 -> 1 and 2: 1.4%).
CHECKED_YES_MARGIN = 9.0


def clearly_answer(command: str, free_text: str | None, reading: Reading,
                   words: Callable[[str], list[str]]) -> bool:
    """Whether `command` (a yes or a no) is what `free_text` (the transcript written with
    no grammar) says: read in the context's grammar as the same answer, closely, in a few
    words. Any other command is not this module's concern (True)."""
    if command not in ANSWERS:
        return True
    if free_text is None:
        return False  # nothing to check against: an answer needs its check
    if not 0 < len(words(free_text)) <= MAX_ANSWER_WORDS:
        return False
    found = reading(free_text)
    return found is not None and found[1] == command and found[0] >= ANSWER_FIT


def spellings(word: str) -> list[str]:
    """The sentences one word is scored as: capitalised and not, with a full stop (the
    stop weighs as much as the word in a mean per token, and a word alone is seldom
    written bare: real "cat" at 10 dB scored " Yes" -4.7, " Yes." -2.7)."""
    return [f" {word[:1].upper()}{word[1:]}.", f" {word.lower()}."]


def answer_words(command: str, lang: str, said: str = "") -> tuple[list[str], list[str]]:
    """(the answer's own words, the other answer's words) to score: its word in `lang`, and
    the other way of saying it (ANSWER_ALSO) that the player `said` (the grammar's words
    read); against the other answer's word and every other way of saying that one (a
    "correcto" must be likelier than "incorrecto")."""
    def word(answer: str) -> str:
        return ANSWER_WORD[answer].get(lang, ANSWER_WORD[answer]["en"])

    other = "no" if command == "yes" else "yes"
    heard = words_of(said, english=False)  # as the grammar writes them: "d accord", "si"
    own = [word(command), *(w for w in ANSWER_ALSO[command].get(lang, ())
                            if heard and words_of(w, english=False) == heard)]
    return own, [word(other), *ANSWER_ALSO[other].get(lang, ())]


def answer_scores(command: str, lang: str, likelihood: Likelihood, said: str = ""
                  ) -> tuple[float, float]:
    """The likeliest spelling's mean log-probability per token, given the audio, of each
    side of `answer_words`: (the answer's own words, the other answer's).

    A long rival's mean stays near -2 nats on most audio (" D'accord.": its later tokens
    follow from its first), so against a no it works as a floor near -0.6. That floor keeps
    real "nine" and "no" out of a French "non" and refuses some clear "non"s; scoring long
    rivals on the answer's own length lost the first for the second (docs/voice.md, "A fair
    rival, tried")."""
    own, other = answer_words(command, lang, said)
    texts = [text for word in own for text in spellings(word)]
    logs = likelihood(texts + [text for word in other for text in spellings(word)])
    return max(logs[:len(texts)]), max(logs[len(texts):])


def heard_as(command: str, lang: str, likelihood: Likelihood, said: str = "") -> bool:
    """Whether the audio itself says `command` (a yes or a no), as the player `said` it
    (the grammar's words read: "d accord"): its own word at least OWN_FLOOR likely and its
    OWN_LEAD likelier than the other answer's. Any other command is not this module's
    concern (True)."""
    if command not in ANSWERS:
        return True
    own, other = answer_scores(command, lang, likelihood, said)
    return own >= OWN_FLOOR and own - other >= OWN_LEAD[command]


def screened(heard: Recognition, free_text: str | None, reading: Reading,
             words: Callable[[str], list[str]], lang: str = "en",
             likelihood: Likelihood | None = None) -> Recognition:
    """`heard`, or refused (no command) when it is a yes or no the free transcript does not
    clearly say or, given the model's `likelihood` of sentences for this audio, the audio
    does not (`heard_as`)."""
    command = heard.command
    if command is None or command not in ANSWERS:
        return heard
    if clearly_answer(command, free_text, reading, words) and (
            likelihood is None or heard_as(command, lang, likelihood, heard.words)):
        return heard
    return Recognition(None, heard.confidence, heard.words, heard.margin, heard.private_to)


def agreed(command: str, free_text: str | None, best_text: str, reading: Reading,
           words: Callable[[str], list[str]]) -> bool:
    """Whether `command` is a yes or no that both decodes write as the answer's own word:
    the free transcript and the limited beam's best hypothesis each read as it with a fit
    of 1, in a few words ("Ні." and " ні,"; not "Ніж." nor "Мені.")."""
    if command not in ANSWERS or free_text is None:
        return False
    for text in (free_text, best_text):
        if not 0 < len(words(text)) <= MAX_ANSWER_WORDS:
            return False
        found = reading(text)
        if found is None or found[1] != command or found[0] < 1.0:
            return False
    return True


def raised(command: str, confidence: float, ceiling: float, free_text: str | None,
           best_text: str, reading: Reading, words: Callable[[str], list[str]],
           pcm: bytes = b"") -> float:
    """`confidence`, or AGREED for an answer both decodes write alike (`agreed`) where the
    language's calibrated `ceiling` is below AGREED. AGREED is no calibrated figure: a yes
    in `pcm` too noisy to believe without one (sphinx.noisy_yes at its 12 dB, as measured
    here; not French and Spanish's lower CHECKED_YES_MARGIN) keeps its confidence (real
    Speech Commands "cat" and "go" at 10 dB were written "Так." by both decodes)."""
    if ceiling < AGREED and agreed(command, free_text, best_text, reading, words) \
            and noisy_yes(command, pcm) is None:
        return max(confidence, AGREED)
    return confidence
