"""A game at the table: whose turn, what is expected, questions, undo, history.

The session turns one input line into Messages. It owns no device: lines come from any
input, Messages go to any output. Every accepted step is written to the store before the
Messages announcing it are returned, so nothing announced can be lost. A log that cannot be
written is said once, and play goes on (see companion.store.GameRecord).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.errors import CompanionError, ConfirmFirst, IllegalAction, check_readable
from companion.games.protocol import Game
from companion.games.registry import resume_command
from companion.narrate.message import Message, Priority
from companion.normalize import tokens
from companion.phrases import shared_command
from companion.shared_commands import (
    Adjust,
    Ask,
    Cancel,
    Explain,
    NewGame,
    Query,
    Quit,
    Reply,
    Undo,
)
from companion.store import GameRecord, GameStore, WriteReport

# Said whole every time: answers to questions, refusals, the companion's own questions,
# settings and what concerns the log (the rest is said short once heard in a game).
WHOLE_EVENTS = frozenset({
    "error", "confirm", "repeat", "help", "score", "board", "actions", "unseen", "turn",
    "hint", "quit", "storage", "setting", "notice", "info", "resumed", "undo", "game_over",
})


class Session:
    def __init__(
        self,
        game: Game,
        config: dict[str, Any],
        store: GameStore | None = None,
        game_id: int | None = None,
        steps: Sequence[str] = (),
        state: Any = None,
        resume: str | None = None,
    ) -> None:
        """`steps`: the texts of a saved game's accepted steps, replayed; `state`: a position
        to play from instead of a new game's (tests, practice); `resume`: the command that
        continues this game, said on quitting (default: the game's plain resume command)."""
        self._game = game
        self._config = config
        self._names: list[str] = list(config["players"])
        self._lang: str = config.get("lang", "en")
        self._store = store
        self._resume_command = resume or resume_command(game.name)  # said on quitting
        self._initial = game.new_state(config) if state is None else state
        self._state = self._initial
        self._log: list[Any] = []  # accepted actions, in order
        self._traces: list[Any] = []  # what each step's input told beyond it (Game.fold)
        self._trace: Any = None  # the trace of the step being carried out now
        self._pending: Any = None  # the half-entered action, whatever its input
        self._confirming: Any = None  # a command awaiting yes or no
        self._asked_by: Any = None  # the command whose question that is (again means yes)
        self._question: Message | None = None  # how that question was put, said again
        self._history: list[list[Message]] = []
        self._cursor: int | None = None  # position while stepping back through history
        self._last_step: list[Message] = []  # the narration of the last accepted step
        # What the table has heard in this game (a prompt per player): said short again
        self._heard: set[str] = set()
        if steps:  # a resumed game: back and forward step through its narration again
            self._announce(game.start(self._state, self._names) + self._prompt())
        for text in steps:
            self._accept(game.parse(text))
        resumed = tuple(steps) if game_id is not None else ()
        self._record = GameRecord(store, game.name, config, game_id, resumed)
        self._notes = self._said(self._record.opened())
        if game_id is None:
            self._notes += self._write("new")
        elif resumed and game.is_over(self._state):
            # Found unfinished, yet over: its end was not marked (logs written before the
            # last step and the mark were one transaction). Marked now, said once.
            self._notes += [Message("storage", "storage_repaired", data={"code": "repaired"})]
            self._notes += self._write("finish")

    # -- what the edges may read -------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game being played."""
        return self._game

    @property
    def state(self) -> Any:
        """The game's state now (read only: it changes through commands)."""
        return self._state

    @property
    def config(self) -> dict[str, Any]:
        """The game's settings as saved with it (players, rules, a practice seed; a copy)."""
        return dict(self._config)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._names)

    @property
    def lang(self) -> str:
        return self._lang

    @property
    def pending(self) -> Any:
        """The half-entered action (a keypad "3", scanned cards, objectives named in
        parts), whatever input it came from; None when there is none. It is the game's
        value (Game.pending and Game.fold make it), dropped with every applied step, undo,
        cancel and new game."""
        return self._pending

    @property
    def proposed(self) -> Any:
        """The command a yes would carry out, while a question waits for one; else None."""
        return self._confirming

    @property
    def awaiting_answer(self) -> bool:
        """Whether the companion asked a yes-or-no question that is not answered yet."""
        return self._confirming is not None

    @property
    def log(self) -> tuple[tuple[Any, int], ...]:
        """The accepted steps in order, each (action, the player who made it)."""
        return tuple(self._log)

    @property
    def step(self) -> int:
        """How many steps are accepted: the index the next one will have."""
        return len(self._log)

    @property
    def game_id(self) -> int | None:
        return self._record.game_id

    # -- what the edges may ask ---------------------------------------------------------
    def interpret(self, line: str) -> Any:
        """The command a line means now (CompanionError if none), without carrying it out.
        An over-long or undecodable line is refused before anything reads it. The commands
        every game shares (questions, undo, yes, no, cancel, quit) are read here first, so
        that no game can lose them, except the words a game says it reads itself
        (`own_words`); the game reads the rest."""
        check_readable(line)
        own = getattr(self._game, "own_words", ())
        words = " ".join(token.word for token in tokens(line))
        shared = None if words in own else shared_command(line)
        if shared is not None:
            return shared
        return self._game.interpret(line, self._state, self._pending, self._lang)

    def begins(self, command: Any) -> bool:
        """Whether `command` only begins an action now (kept until its last cards come,
        nothing applied: its announcement says the cards so far)."""
        try:
            return self._game.pending(command, self._state) is not None
        except CompanionError:
            return False

    def private_cards(self, seat: int) -> dict[str, tuple[Any, ...]]:
        """What the companion was told of `seat`'s hidden cards, by place: for that
        player's private channel only (a hint, their own page), never the table."""
        return self._game.private_cards(self._state, seat)

    def enter(self, part: Any) -> list[Message]:
        """One part of an action from an input not read as words (a scanned card, Enter
        while scanned cards wait): the game folds it into the pending action
        (`Game.fold`), and the session keeps, says or carries out what that gives (see
        `companion.games.protocol.Fold`)."""
        from companion.games.protocol import SAME, Fold, Moment

        steps = tuple((a, actor, t) for (a, actor), t in zip(self._log, self._traces,
                                                              strict=True))
        folder = getattr(self._game, "fold", None)  # optional: see the Game protocol
        now = Moment(self._state, self.names, steps, self._pending)
        fold = folder(now, part) if folder is not None else Fold(command=part)
        said = list(fold.said)
        if fold.pending is not SAME:
            self._pending = fold.pending
        if fold.command is None:
            if fold.trace is not SAME and self._traces:
                self._traces[-1] = fold.trace
            return said + (self._announce(self._prompt()) if fold.prompt else [])
        before = len(self._log)
        self._trace = None if fold.trace is SAME else fold.trace
        try:
            messages = self.execute(fold.command)
        finally:
            self._trace = None
        if len(self._log) == before and fold.again:  # refused: the reason, then the rest
            messages = messages[:1] + list(fold.again) + messages[1:]
        return said + messages

    # -- a seat's own device (its web page): it acts for that seat only ----------------
    def deciding(self) -> frozenset[int]:
        """The seats that decide now: the game's actor (the one to act, to answer an offer,
        to reveal); every seat when the table decides together (a negative actor: a
        set-up step, a deal, a game over)."""
        actor = self._game.actor(self._state)
        if actor >= 0 and not self._game.is_over(self._state):
            return frozenset({actor})
        return frozenset(range(len(self._names)))

    def refusal_for(self, seat: int, command: Any) -> CompanionError | None:
        """Why `command`, given from `seat`'s own device, may not be applied now, or None.
        Questions are always allowed (a hint only to the seat deciding: it is said on that
        seat's private channel); anything else only from a seat that decides now; `undo`
        only of the step that seat made last; and never a command that tells another seat's
        hidden cards."""
        deciding = self.deciding()
        decider = self._names[min(deciding)]
        if isinstance(command, Ask):
            if command.query is Query.HINT and seat not in deciding:
                return IllegalAction("seat_hint_other", f"a hint is for {decider}",
                                     player=decider)
            return None
        if isinstance(command, Reply) and self._confirming is not None:
            return self.refusal_for(seat, self._confirming)  # a yes does what was asked
        if isinstance(command, Undo) and self._pending is None and self._confirming is None:
            if not self._log:
                return None  # "nothing to undo" changes nothing
            _, actor = self._log[-1]
            if actor < 0 or actor == seat:
                return None
            return IllegalAction("seat_undo_other", f"only {self._names[actor]} may undo",
                                 player=self._names[actor])
        if seat not in deciding:
            return IllegalAction("seat_not_deciding", f"{decider} decides now",
                                 player=decider)
        return self._tells_another(seat, command)

    def _tells_another(self, seat: int, command: Any) -> CompanionError | None:
        """A step from `seat` may not add to what another seat is told it holds (a Secret
        named for someone else); the rules' own refusals are said as for anyone."""
        if isinstance(command, (Ask, Undo, Reply, Cancel, Adjust, Quit, NewGame)):
            return None
        if self.begins(command):
            return None  # a half-entered action: its cards are checked when it is whole
        try:
            after, _ = self._game.apply(self._state, command)
        except (CompanionError, LookupError, AssertionError, AttributeError, TypeError):
            return None
        for other in range(len(self._names)):
            if other == seat:
                continue
            before = self._game.private_cards(self._state, other)
            for place, cards in self._game.private_cards(after, other).items():
                if not _within(cards, before.get(place, ())):
                    name = self._names[other]
                    return IllegalAction("seat_private_other", f"only {name} may tell that",
                                         player=name)
        return None

    def handle_from(self, seat: int, line: str) -> list[Message]:
        """A line from `seat`'s own device (its web page): carried out as a typed line when
        that seat may give it now (`refusal_for`); otherwise refused on that seat's
        private channel alone, and nothing changes."""
        try:
            command = self.interpret(line)
        except CompanionError as error:
            if seat in self.deciding():
                return self._refuse(error)
            return [self._refusal(error, private_to=seat)]
        refused = self.refusal_for(seat, command)
        if refused is not None:
            return [self._refusal(refused, private_to=seat)]
        return self.execute(command)

    # -- lines in, messages out -------------------------------------------------------
    def start(self) -> list[Message]:
        notes, self._notes = self._notes, []
        return self._announce(self._game.start(self._state, self._names) + notes + self._prompt())

    def resume(self) -> list[Message]:
        """Where the game stands. The last step is said again: it was written before it was
        announced, and whether it was heard before the companion stopped cannot be known."""
        self._heard.clear()  # a resumed game is heard in full again, once
        intro = [Message("resumed", "resumed", {"steps": len(self._log), "n": len(self._log)})]
        if self._last_step:
            intro += [Message("repeat", "last_step")]
            intro += [replace(m, event="repeat") for m in self._last_step]
        notes, self._notes = self._notes, []
        status = self._game.status(self._state, self._names)
        return self._announce(intro + status + notes + self._prompt())

    def quit(self) -> list[Message]:
        """Said when play stops (quit, end of input, Ctrl-C): whether the game is saved and
        how to go on with it."""
        self._record.retry()  # the disk may have been freed meanwhile: the answer says so
        if self._record.backlog:
            return [Message("quit", "quit_unsaved", {"n": self._record.unsaved})]
        if self._record.store is None:
            return [Message("quit", "quit_not_kept")]
        if self._game.is_over(self._state):
            return [Message("quit", "quit_over")]
        return [Message("quit", "quit_saved", {"command": self._resume_command})]

    def handle(self, line: str) -> list[Message]:
        """A typed line (or a keypad line the game reads as words)."""
        from companion.rulebook.moment import question

        try:
            check_readable(line)  # before anything reads it
        except CompanionError as error:
            return self._refuse(error)
        asked = question(line)  # "rules gift": a rulebook section, the game unchanged
        if asked is not None:
            return self._announce(self._rules(asked))
        try:
            command = self.interpret(line)
        except CompanionError as error:
            return self._suggest(error) or self._refuse(error)
        return self.execute(command)

    def _suggest(self, error: CompanionError, tries: int = 3) -> list[Message]:
        """A slip ("secrte") that a known word would make a command: asked as a question
        ("Did you mean secret?"), which only a yes carries out. A told card is not said
        (the line's public text is)."""
        corrected = error.params.get("corrected") if error.key == "unknown_word" else None
        for _ in range(tries):  # several slips in one line: each word guessed in turn
            if not corrected:
                return []
            try:
                command = self.interpret(corrected)
            except CompanionError as again:
                corrected = again.params.get("corrected") if again.key == "unknown_word" else None
                continue
            public = self._game.public_text(command) if hasattr(command, "text") else ""
            said = corrected if public == command.text() else public
            self._confirming, self._asked_by = command, None
            self._question = Message("confirm", "did_you_mean",
                                     {"word": error.params.get("word", ""), "line": said},
                                     {"code": "did_you_mean", "command": public},
                                     Priority.PROMPT)
            return self._announce([self._question])
        return []

    def execute(self, command: Any) -> list[Message]:
        """Carry out a command value: typed lines, keys, scans and voice all end here."""
        if self._confirming is not None and command == self._asked_by:
            command = Reply(True)  # the same command again (one key on a keypad) is a yes
        if self._confirming is not None and not isinstance(command, (Reply, Ask, Explain)):
            self._confirming = None  # a new command replaces an unanswered question
        try:
            return self._execute(command)
        except ConfirmFirst as question:
            return self._ask_first(question, command)
        except CompanionError as error:
            return self._refuse(error)

    def _ask_first(self, question: ConfirmFirst, command: Any) -> list[Message]:
        """The rules cannot tell whether a command is allowed: ask, and a yes applies it."""
        self._confirming = question.command
        self._asked_by = command
        data = {"code": question.key, "command": question.command.text()}
        self._question = Message("confirm", f"error.{question.key}", dict(question.params),
                                 data, Priority.PROMPT, game=question.game)
        return self._announce([self._question])

    def propose(self, command: Any, private_to: int | None = None) -> list[Message]:
        """Ask for a yes before applying `command` (used when voice is unsure); on
        `private_to`'s channel alone when it was heard in a context holding what that
        player told privately (a misheard gift read back from their own hand)."""
        self._confirming, self._asked_by = command, None
        self._question = Message("confirm", "confirm", {"command": self._proposal(command)},
                                 {"command": self._game.public_text(command)},
                                 Priority.PROMPT, private_to=private_to)
        return self._announce([self._question])

    def _proposal(self, command: Any) -> Any:
        """What a yes would do, in the table's words: an undo names the step it would take
        back (a bare "Undo. Yes or no?" was English in every language and said nothing), a
        setting the change it would make."""
        if isinstance(command, Undo):
            if self._pending is not None or not self._log:
                return Message("confirm", "undo_last")
            action, actor = self._log[-1]
            return Message("confirm", "undo_what",
                           {"what": self._game.describe(action, actor, self._names)})
        if isinstance(command, Adjust):  # "speak louder. Yes or no?" in the table's language
            return Message("confirm", f"ask_{command.setting.value}")
        if isinstance(command, Quit | NewGame):  # heard by voice: always asked
            return Message("confirm", "ask_quit" if isinstance(command, Quit) else "ask_new_game")
        try:
            return self._game.describe(command, self._game.actor(self._state), self._names)
        except (AssertionError, AttributeError, TypeError):
            return command.text()  # a query or a half-entered offer: its text is clear

    def _execute(self, command: Any) -> list[Message]:
        if isinstance(command, Ask):
            return self._ask(command.query)
        if isinstance(command, Explain):  # "position 3": answered by the game, if it can
            explain = getattr(self._game, "explain", None)
            answer = explain(command.subject, self._state, self._names) if explain else []
            return self._announce(answer or self._prompt())
        if isinstance(command, Undo):
            return self._undo()
        if isinstance(command, Quit):
            return self._announce(self.quit())
        if isinstance(command, NewGame):
            return self._new_game()
        if isinstance(command, Cancel):
            if self._pending is None and self._confirming is None:
                return self._announce([Message("info", "nothing_to_cancel")] + self._prompt())
            self._pending = self._confirming = None
            return self._announce([Message("info", "cancelled")] + self._prompt())
        if isinstance(command, Reply):
            if self._confirming is None:
                return self._announce([Message("info", "no_question")] + self._prompt())
            proposed, self._confirming = self._confirming, None
            if command.yes:
                return self._execute(proposed)
            return self._announce([Message("info", "not_applied")] + self._prompt())
        if isinstance(command, Adjust):
            return [Message("setting", f"setting_{command.setting.value}",
                            data={"setting": command.setting.value})]
        pending = self._game.pending(command, self._state)
        if pending is not None:
            self._pending = pending
            return self._announce(self._prompt())
        return self._act(command)

    def _act(self, action: Any) -> list[Message]:
        actor = self._game.actor(self._state)
        state, events = self._game.apply(self._state, action)
        # Written before anything is announced; a step that ends the game is written with
        # the mark that it is over, in one transaction.
        notes = self._write("last" if self._game.is_over(state) else "append", action.text())
        self._state = state
        self._log.append((action, actor))
        self._traces.append(self._trace)
        self._pending = None
        self._last_step = self._game.narrate(events, state, self._names)
        return self._announce(self._last_step + notes + self._prompt())

    def _accept(self, action: Any) -> None:
        """A step from the log: applied, and its narration kept for back, forward, resume."""
        actor = self._game.actor(self._state)
        self._state, events = self._game.apply(self._state, action)
        self._log.append((action, actor))
        self._traces.append(None)  # what a scan told is not in the log
        self._last_step = self._game.narrate(events, self._state, self._names)
        self._announce(self._last_step + self._prompt())

    def _new_game(self) -> list[Message]:
        """After game over, the next game with the same players and settings."""
        if not self._game.is_over(self._state):
            raise IllegalAction("new_game_later", "a new game starts once this one is over")
        computer = self._config.get("practice")
        if isinstance(computer, dict) and "seed" in computer:
            # against the computer, the companion deals: the next game is another deal
            seed = random.Random(f"{computer['seed']}:next game").randrange(10**6)
            self._config = {**self._config, "practice": {**computer, "seed": seed}}
            self._record.config = self._config
        self._initial = self._state = self._game.new_state(self._config)
        self._log, self._pending, self._confirming, self._last_step = [], None, None, []
        self._traces = []
        self._heard.clear()
        self._notes += self._write("new")
        return self.start()

    def _write(self, op: str, text: str = "") -> list[Message]:
        return self._said(self._record.write(op, text))

    def _said(self, report: WriteReport) -> list[Message]:
        """A log problem, said once, with what to do; or that the log is complete again;
        or that it was lost or found damaged, and where the game is written now."""
        said: list[Message] = []
        if report.damage is not None:
            damage = report.damage
            key = "storage_damaged" if damage.steps is not None else "storage_damaged_nothing"
            said.append(Message("storage", key, {"path": damage.path, "where": damage.where,
                                                 "n": damage.steps or 0},
                                {"code": "damaged", "where": damage.where}))
            self._moved(damage.path, damage.where)
        if report.rewritten is not None:
            path, where, n = report.rewritten
            said.append(Message("storage", "storage_rewritten",
                                {"path": path, "where": where, "n": n},
                                {"code": "rewritten", "where": where}))
            self._moved(path, where)
        return said + self._said_problem(report)

    def _moved(self, path: str, where: str) -> None:
        """The game is written to another file now: `quit` names it in the resume command."""
        if path == where:
            return
        import shlex

        old, new = shlex.quote(path), shlex.quote(where)
        if f"--db {old}" in self._resume_command:
            self._resume_command = self._resume_command.replace(f"--db {old}", f"--db {new}")
        else:
            self._resume_command += f" --db {new}"

    def _said_problem(self, report: WriteReport) -> list[Message]:
        if report.problem is not None:
            return [Message("storage", f"storage_{report.problem.cause}",
                            {"path": report.problem.path},
                            {"code": report.problem.cause, "reason": str(report.problem)})]
        if report.caught_up is not None:
            n = report.caught_up
            key = "storage_saved_again" if n else "storage_writable_again"
            return [Message("storage", key, {"n": n}, {"code": "saved"})]
        return []

    def _undo(self) -> list[Message]:
        if self._pending is not None:
            self._pending = None
            return self._announce([Message("info", "cancelled")] + self._prompt())
        if not self._log:
            return self._announce([Message("info", "nothing_to_undo")] + self._prompt())
        notes = self._write("undo")
        action, actor = self._log.pop()
        self._traces.pop()
        state = self._initial
        for earlier, _ in self._log:
            state, _ = self._game.apply(state, earlier)
        self._state = state
        what = self._game.describe(action, actor, self._names)
        return self._announce(
            [Message("undo", "undone", {"what": what},
                     {"command": self._game.public_text(action)})]
            + notes + self._prompt()
        )

    def _ask(self, query: Query) -> list[Message]:
        if query is Query.REPEAT:
            return self._replay(len(self._history) - 1 if self._cursor is None else self._cursor)
        if query in (Query.BACK, Query.FORWARD):
            here = len(self._history) - 1 if self._cursor is None else self._cursor
            step = -1 if query is Query.BACK else 1
            self._cursor = max(0, min(len(self._history) - 1, here + step))
            return self._replay(self._cursor)
        if query is Query.WHAT:
            return self._announce(self._prompt())
        if query is Query.HINT:
            return self._announce(self._hint())
        if query is Query.HELP:  # the help, then what is expected now in full
            answer = self._game.query(query, self._state, self._names)
            return self._announce(answer + self._prompt(), whole=True)
        if query is Query.RULES:
            return self._announce(self._rules())
        return self._announce(self._game.query(query, self._state, self._names))

    def _hint(self) -> list[Message]:
        """A suggested move for the player who decides now (the one to act, or to answer an
        offer), from the game's practice hook. The game works it out from what that seat
        may know (its own told cards, `private_cards`, and the table); it is said on that
        player's private channel only, and a table without one hears only where hints go."""
        hooks = self._game.practice()
        seat = self._game.actor(self._state)
        if hooks is None:
            return [Message("hint", "hint_unavailable", {"game": self._game.name.capitalize()})]
        if seat < 0 or self._game.is_over(self._state):
            return [Message("hint", "hint_no_decision")]
        elsewhere = Message("hint", "hint_needs_channel", {"player": self._names[seat]})
        return [m if m.private_to is None or m.otherwise is not None
                else replace(m, otherwise=elsewhere)
                for m in hooks.hint(self._state, seat)]

    def _rules(self, words: str | None = None) -> list[Message]:
        """The rulebook on what is asked for now (or on `words`), then the prompt again:
        nothing in the game changes."""
        from companion.rulebook.moment import explain

        prompt = self._prompt()
        return (explain(self._game.name, self._lang, prompt, words)
                + [Message("info", "rules.back_to_game")] + prompt)

    # -- helpers ----------------------------------------------------------------------
    def _prompt(self) -> list[Message]:
        """What is expected now: the question waiting for a yes or no (on the channel it
        was asked on), else the game's prompt."""
        if self._confirming is not None and self._question is not None:
            return [self._question]
        return self._game.prompt(self._state, self._names, self._pending)

    def refuse(self, error: CompanionError) -> list[Message]:
        """Say why an input (typed, scanned or heard) changes nothing, then what is expected."""
        return self._refuse(error)

    def _refuse(self, error: CompanionError) -> list[Message]:
        return self._announce([self._refusal(error)] + self._prompt())

    @staticmethod
    def _refusal(error: CompanionError, private_to: int | None = None) -> Message:
        data = {"code": error.key, "reason": str(error)}
        return Message("error", f"error.{error.key}", dict(error.params), data,
                       Priority.REFUSAL, private_to=private_to, game=error.game)

    def _again(self, message: Message) -> Message:
        """The message marked `short` if the table heard it before in this game (every
        player at the table hears each prompt, whoever it is for); answers to questions,
        refusals and the companion's questions stay whole."""
        if message.private_to is not None or message.event in WHOLE_EVENTS or message.short:
            return message
        heard = message.key
        if heard in self._heard:
            return replace(message, short=True)
        self._heard.add(heard)
        return message

    def _announce(self, messages: list[Message], whole: bool = False) -> list[Message]:
        """Keep the public part for back and repeat; `whole`: said in full (help)."""
        if not whole:
            messages = [self._again(m) for m in messages]
        public = [m for m in messages if m.private_to is None]
        if public:
            self._history.append(public)
            self._cursor = None
        return messages

    def _replay(self, index: int) -> list[Message]:
        """An announcement said again in full. One that is not the latest is marked as
        earlier, with how far back it is, and its questions are left out: they are not
        waiting any more (what is expected now is the latest announcement's)."""
        if not self._history or index < 0:
            return [Message("repeat", "nothing_to_repeat")]
        back = len(self._history) - 1 - index
        said = [replace(m, event="repeat", short=False) for m in self._history[index]
                if not (back and m.priority is Priority.PROMPT)]
        if not back:
            return said
        return [Message("repeat", "earlier", {"n": back}), *said]


def _within(cards: Sequence[Any], before: Sequence[Any]) -> bool:
    """Whether every card of `cards` was already among `before` (copies counted)."""
    left = list(before)
    for card in cards:
        if card not in left:
            return False
        left.remove(card)
    return True
