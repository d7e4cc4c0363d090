"""The words every game shares, in every language, lowercase (the one-word tables folded,
without accents; the phrases spelled as the language writes them, which the phrase tables
fold as they fold a line): the questions, the speech and verbosity settings, undo, yes, no
and cancel. A game's lexicon
takes them as they are or leaves out those it needs for something else (a game may say a
card's value in "points"); the interpreters read them with
`companion.phrases.PhraseTable.put_meta`.
"""

from __future__ import annotations

from companion.shared_commands import Query, Setting

# The hint asked for in a sentence ("un conseil": "un" alone is card one; "дай пораду"),
# spelled. "Give me" only before the hint, as one phrase: alone it was read in table talk
# ("donne-moi une seconde" as a pair, a card or a yes; see ASKING).
HINT_ASKED: dict[str, tuple[str, ...]] = {
    "en": ("a hint", "give me a hint"),
    "fr": ("un conseil", "un indice", "donne-moi un conseil", "donne-moi un indice"),
    "es": ("una pista", "un consejo", "dame una pista", "dame un consejo"),
    "uk": ("пораду", "дай пораду", "дай підказку"),
}
# Help asked for as a person asks it ("aide-moi", "ayúdame"): refused before, typed or said.
HELP_ASKED: dict[str, tuple[str, ...]] = {
    "en": ("help me",), "fr": ("aide-moi", "aidez-moi"), "es": ("ayúdame", "ayúdeme"),
    "uk": ("допоможи", "допоможіть"),
}
# Help asked for the table ("aide-nous", "help us"): the help, typed ("I did not understand
# 'nous'" before). Not heard by voice: its bags and grammars stay as measured.
HELP_FOR_US: dict[str, tuple[str, ...]] = {
    "en": ("help us",), "fr": ("aide-nous", "aidez-nous"), "es": ("ayúdanos", "ayúdenos"),
    "uk": ("допоможи нам", "допоможіть нам"),
}
# Help offered or promised to someone at the table, not asked of the companion ("aide-le",
# "help yourself" to the crisps, "ayúdale", "допоможемо"): table talk, refused typed
# (`phrases`: "aide-le" was help, its "le" dropped as an article) and by voice (the voice
# readings, and a transcript holding one is never answered with the help: voice/whisper.py).
HELP_OFFERED: dict[str, tuple[str, ...]] = {
    "en": ("help yourself", "help him", "help her", "help them", "help each other"),
    "fr": ("aide-le", "aide-la", "aide-les", "aide-lui", "aide-leur", "aide-toi", "aidez-le",
           "aidez-la", "aidez-les", "aidez-lui", "aidez-leur", "aidez-vous", "je t'aide",
           "je vais t'aider", "je vais l'aider", "on va l'aider"),
    "es": ("ayúdale", "ayúdalo", "ayúdala", "ayúdales", "ayúdalos", "ayúdalas", "ayúdate",
           "ayúdele", "ayúdelo", "ayúdela", "ayúdeles", "ayúdelos", "ayúdelas", "te ayudo"),
    "uk": ("допоможемо", "допоможу", "допоможе", "допоможуть", "допомогти", "допоможи йому",
           "допоможи їй", "допоможи їм"),
}
# A question said as a newcomer says it ("whose turn is it", "combien de points", "otra vez",
# "як грати"): refused before, typed and said ("I did not understand 'combien'"). The voice
# readings take those of the questions they offer, read only (`questions_heard`).
QUESTIONS_SAID: dict[Query, dict[str, tuple[str, ...]]] = {
    Query.SCORE: {"en": ("how many points", "who is winning", "who's winning", "whos winning"),
                  "fr": ("combien de points", "qui gagne", "on en est où"),
                  "es": ("cuántos puntos", "quién gana", "quién va ganando"),
                  "uk": ("скільки балів", "хто виграє", "хто перемагає")},
    Query.REPEAT: {"en": ("say again", "say that again", "one more time", "come again"),
                   "fr": ("redis", "redire", "redis-le", "encore une fois"),
                   "es": ("repítelo", "dilo otra vez"),
                   "uk": ("повтори ще раз", "скажи ще раз")},
    Query.ACTIONS: {"en": ("what should i do", "what do i do"),
                    "fr": ("qu'est-ce que je peux faire", "qu'est-ce que je fais",
                           "je fais quoi", "que dois-je faire"),
                    "es": ("qué hago", "qué debo hacer"),
                    "uk": ("що робити", "що мені робити")},
    Query.RULES: {"en": ("how do i play", "how to play", "how does it work"),
                  "fr": ("comment on joue", "comment jouer", "comment ça marche"),
                  "es": ("cómo se juega", "cómo funciona"),
                  "uk": ("як грати", "як це працює")},
    Query.TURN: {"en": ("whose turn is it", "is it my turn"),
                 "fr": ("c'est à qui", "à qui le tour", "à qui de jouer"),
                 "es": ("a quién le toca", "de quién es el turno"),
                 "uk": ("чия черга", "чий хід")},
}


def _said(query: Query) -> tuple[str, ...]:
    return tuple(p for said in QUESTIONS_SAID.get(query, {}).values() for p in said)


QUERY_WORDS: dict[Query, tuple[str, ...]] = {
    Query.SCORE: ("score", "scores", "points", "/", "puntuacion", "puntos", "рахунок"),
    Query.BOARD: ("board", "plateau", "table", ".", "tablero", "стіл"),
    Query.ACTIONS: ("actions", "tokens", "jetons", "actions left", "acciones", "que acciones",
                    "дії",
                    # what a newcomer asks (issue 28)
                    "what can i do", "what can i play", "que puis je faire", "que faire",
                    "que puedo hacer", "що я можу зробити", "що можна зробити"),
    Query.REPEAT: (
        "repeat",
        "again",
        "repeter",
        "repete",
        "encore",
        "*",
        "repetir",
        "repite",
        "повтори",
        "повторити",
        # prompted by Hanamikoji's voice lexicons: not in QUESTIONS_SAID (read only there)
        "otra vez",
        "ще раз",
    ),
    Query.HELP: ("help", "aide", "?", "+", "ayuda", "довідка", "допомога",
                 *(w for said in HELP_ASKED.values() for w in said),
                 *(w for said in HELP_FOR_US.values() for w in said)),
    Query.UNSEEN: ("unseen", "non vues", "cartes non vues", "remaining", "sin ver", "не бачили"),
    Query.TURN: ("turn", "whose turn", "tour", "a qui", "turno", "хід"),
    Query.WHAT: ("what", "now", "quoi", "what now"),
    Query.BACK: ("back", "previous", "precedent", "avant", "atras", "anterior", "назад",
                 "попереднє"),
    Query.FORWARD: ("forward", "next", "suivant", "apres", "adelante", "siguiente", "вперед",
                    "наступне"),
    # a hint; on a keypad, plus (help) then dot
    Query.HINT: ("hint", "conseil", "indice", "pista", "consejo", "порада", "підказка", "підкажи",
                 "+ .",
                 *(w for said in HINT_ASKED.values() for w in said)),
    Query.RULES: ("rules", "rule", "regles", "regle", "reglas", "regla", "правила", "правило"),
}
# ... and each question as a newcomer says it (QUESTIONS_SAID)
QUERY_WORDS.update({q: (*words, *_said(q)) for q, words in QUERY_WORDS.items()})
SETTING_WORDS: dict[Setting, tuple[str, ...]] = {
    Setting.FASTER: ("faster", "plus vite", "mas rapido", "швидше"),
    Setting.SLOWER: ("slower", "moins vite", "plus lent", "mas lento", "повільніше"),
    Setting.LOUDER: ("louder", "plus fort", "mas alto", "голосніше"),
    Setting.QUIETER: ("quieter", "softer", "moins fort", "mas bajo", "тихіше"),
    Setting.BRIEF: ("brief", "bref", "breve", "коротко"),
    Setting.NORMAL: ("normal",),
    Setting.DETAILED: ("detailed", "detaille", "detallado", "докладно"),
}
# "verbosity brief" says what "brief" does: the setting's name, then its value (issue 28)
VERBOSITY_WORDS = ("verbosity", "verbose", "verbosite", "verbosidad", "докладність")
for _setting in (Setting.BRIEF, Setting.NORMAL, Setting.DETAILED):
    SETTING_WORDS[_setting] += tuple(f"{name} {word}" for name in VERBOSITY_WORDS
                                     for word in SETTING_WORDS[_setting])
UNDO_WORDS = ("undo", "annuler", "annule", "-", "deshacer", "скасувати",
              # as a newcomer says it (the voice readings had "deshaz" and "скасуй")
              "take it back", "annule ça", "deshaz", "deshazlo", "скасуй", "скасуй це")
# Yes and no as each language writes them, one word each: what a recognizer listens for
# when a question is asked (inputs/reading_voice.py) and what the audio is scored on
# (voice/yesno.py).
ANSWER_WORD: dict[str, dict[str, str]] = {
    "yes": {"en": "yes", "fr": "oui", "es": "sí", "uk": "так"},
    "no": {"en": "no", "fr": "non", "es": "no", "uk": "ні"}}
# ... and said otherwise, in words long and unlike the other answer's: each is scored as the
# answer's own word where the player said it (voice/yesno.py: only the word above was,
# so a clear "d'accord", "vale" or "правильно" was refused, the audio not saying "oui").
# Not the short sound-alikes ("yeah", "ouais", "ага"): a stray "cat" is written "Yeah.".
ANSWER_ALSO: dict[str, dict[str, tuple[str, ...]]] = {
    "yes": {"en": ("confirm", "correct"), "fr": ("d'accord", "confirme"),
            "es": ("vale", "de acuerdo", "claro", "confirmo", "correcto"),
            "uk": ("добре", "правильно", "вірно", "підтверджую")},
    "no": {"en": ("cancel", "wrong"), "fr": (), "es": ("incorrecto",),
           "uk": ("неправильно",)}}
YES_WORDS = ("yes", "oui", "ok", "d accord", "si", "vale", "так")
NO_WORDS = ("no", "n", "non", "ні")
CANCEL_WORDS = ("cancel", "0", "zero", "abandon", "cancelar", "відміна")
# Ending a game, as each language says it (spelled: the voice readings offer them at game
# over, where the game-over line names them, "Dites nouvelle partie ... ou quitter"). With an
# article ("une nouvelle partie"): alone, "une" is card one, and the whole was refused.
ENDING_SAID: dict[str, dict[str, tuple[str, ...]]] = {
    "new game": {"en": ("new game", "another game", "play again", "a new game"),
                 "fr": ("nouvelle partie", "une nouvelle partie", "rejouer", "on rejoue"),
                 "es": ("nueva partida", "una nueva partida", "otra partida"),
                 "uk": ("нова гра", "нову гру")},
    # Goodbye too (SIGN_OFFS, last): said at game over, it was read as "rejouer" ("au
    # revoir").
    "quit": {"en": ("quit", "exit", "goodbye"), "fr": ("quitter", "au revoir"),
             "es": ("salir", "adiós"), "uk": ("вийти", "до побачення")},
}
# The goodbyes of "quit": in play, said to a person leaving as much as to stop, the voice
# reading is not offered them (companion.voice.shared_words.quit_unprompted).
SIGN_OFFS: dict[str, tuple[str, ...]] = {
    "en": ("goodbye",), "fr": ("au revoir",), "es": ("adiós",), "uk": ("до побачення",)}
# ... typed too, in any language, and on the keypad: slash star plus, and the dot twice (no
# minus: on a keypad read with --keypad each symbol acts at once, and minus is undo).
QUIT_WORDS = (*(w for said in ENDING_SAID["quit"].values() for w in said), "/ * +")
NEW_GAME_WORDS = (*(w for said in ENDING_SAID["new game"].values() for w in said), ". .")

# How a question is asked around its word, and courtesy around any command, as each
# language spells them (the voice readings offer them spelled; the phrase tables fold
# them): "quel est le score", "can you repeat", "cuál es la puntuación", "який рахунок";
# "le thé, s'il te plaît". An asking phrase is read with one question, setting or undo
# alone (companion.phrases), so "tu peux prendre le thé", to a neighbour, is never a move.
# Not "give me" ("donne-moi", "dame"): offered to the voice reading, table talk ("donne-moi
# une seconde", "dame la sal, por favor") was read as a pair, a card or a yes. A need said
# ("I need a hint", "j'ai besoin d'un conseil", "necesito una pista", "мені потрібна
# порада") asks too: with a move it is refused ("I need the tea" is talk, not a take).
ASKING: dict[str, tuple[str, ...]] = {
    # "whats": typed so, and how English transcripts are read (apostrophes dropped)
    "en": ("what is", "what's", "whats", "what are", "can you", "could you", "i need",
           "can i have"),
    # "qu'elle est": how Whisper writes "quel est" for MBROLA fr1 ("Qu'elle est le score ?")
    "fr": ("quel", "quelle", "quels", "quelles", "quel est", "quelle est", "quels sont",
           "quelles sont", "qu'elle est", "tu peux", "peux-tu", "pouvez-vous", "est-ce que",
           "parle", "j'ai besoin de", "j'ai besoin d'"),
    # Not "qué" alone: Whisper writes it before other words ("¿Qué terminado?" for Momiji's
    # "he terminado", which was then refused as a question's words around a move).
    "es": ("cuál es", "cuáles son", "puedes", "puede", "cómo va", "habla", "necesito"),
    # "можешь": how Whisper writes "можеш" freely (" Можешь взяти флейту.")
    "uk": ("який", "яка", "які", "яке", "можеш", "можешь", "можете", "говори", "говоріть",
           "потрібна", "мені потрібна"),
}
COURTESY: dict[str, tuple[str, ...]] = {
    "en": ("please",), "fr": ("s'il te plaît", "s'il vous plaît"), "es": ("por favor",),
    "uk": ("будь ласка",),
}

# `hand`, a practice word (a game against the computer says the player's hand), by language:
# typed in any language, heard by voice in the game's (companion.computer, issue 29).
HAND_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("hand", "my hand"), "fr": ("main", "ma main"), "es": ("mano", "mi mano"),
    "uk": ("рука", "карти", "мої карти"),
}
