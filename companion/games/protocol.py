"""What the core may ask of a game: the `Game` protocol and its optional hooks.

The session, the inputs, the narration and the outputs know a game only through these
types; everything a game owns (rules, words, catalogues, keys, scans, voice grammar,
label tables, simulator) lives in its own folder under companion/games/ (or in its own
package, found through the `companion.games` entry-point group, see registry.py).

Hooks are methods that import the game's module for that capability only when asked, so
that `companion play` without a reader or a microphone never loads scan or voice code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import random

    from companion.cards.payload import CardRef
    from companion.cards.registry import CardRegistry
    from companion.inputs.scan_echo import Origin
    from companion.narrate.message import Message
    from companion.shared_commands import Query

State = Any  # a game's own frozen state value; the core only passes it back to the game


@runtime_checkable
class Action(Protocol):
    """A frozen value whose canonical text parses back to the same value."""

    def text(self) -> str: ...


class Game(Protocol):
    """A game as the session plays it. `State` values are opaque to the core."""

    name: str
    players: tuple[int, int]  # fewest and most players
    rule_sets: tuple[str, ...]  # the first one is the default

    # -- rules (pure) -------------------------------------------------------------------
    def new_state(self, config: Mapping[str, Any]) -> State: ...
    def parse(self, text: str) -> Action: ...
    def legal_actions(self, state: State) -> Sequence[Action]: ...
    def apply(self, state: State, action: Action) -> tuple[State, Sequence[Any]]: ...
    def is_over(self, state: State) -> bool: ...
    def actor(self, state: State) -> int: ...

    # -- words in -----------------------------------------------------------------------
    def interpret(self, line: str, state: State, pending: Any, lang: str) -> Any: ...
    def pending(self, command: Any, state: State) -> Any | None: ...

    # -- words out ----------------------------------------------------------------------
    def start(self, state: State, names: Sequence[str]) -> list[Message]: ...
    def prompt(self, state: State, names: Sequence[str], pending: Any) -> list[Message]: ...
    def narrate(self, events: Sequence[Any], state: State,
                names: Sequence[str]) -> list[Message]: ...
    def query(self, q: Query, state: State, names: Sequence[str]) -> list[Message]: ...
    def describe(self, action: Any, actor: int, names: Sequence[str]) -> Message: ...
    def status(self, state: State, names: Sequence[str]) -> list[Message]: ...
    def private_cards(self, state: State, seat: int) -> dict[str, tuple[Any, ...]]:
        """What the companion was told of a seat's hidden cards, by place ("hand",
        "secret", …): for that player's own channel only."""
        ...

    def public_text(self, action: Action) -> str:
        """The action's text as the table saw it (a Secret without its card), for --json."""
        ...
    def locales(self) -> Traversable | None: ...
    # Optional, looked up by the session: `explain(subject, state, names)` answers
    # "position 3" / "what is 3" (shared_commands.Explain) with Messages; without it, or
    # with no answer, the prompt is said. `fold(now: Moment, part) -> Fold`: a part of an
    # action from an input not read as words (a scanned card; Enter while scanned cards
    # wait), given by the game's own device hooks through `session.enter`, folded into
    # `now.pending`, the half-entered action; without it, the part is a command.
    # `own_words`: whole lines (folded, as companion.normalize.fold leaves them) the game
    # reads itself although they are shared commands elsewhere (Momiji's "zero" is a card
    # value and an objective, not cancel); without it, every shared command is the core's.

    # -- optional hooks (None: the game has no such capability) -------------------------
    def devices(self) -> DeviceHooks | None: ...
    def voice(self) -> VoiceHooks | None: ...
    def cards(self) -> CardHooks | None: ...
    def simulator(self) -> Simulator | None: ...
    def web(self) -> WebHooks | None: ...
    def practice(self) -> PracticeHooks | None: ...


class _Same:
    def __repr__(self) -> str:
        return "SAME"


SAME: Any = _Same()  # a Fold field that leaves the session's value as it is


@dataclass(frozen=True)
class Moment:
    """What a game's `fold` reads: the state, the players' names, the accepted steps as
    (action, the player who made it, its trace: what the input told beyond the action,
    such as which copy of a card was scanned; None when typed), and the pending action."""

    state: State
    names: tuple[str, ...]
    steps: tuple[tuple[Any, int, Any], ...]
    pending: Any


@dataclass(frozen=True)
class Fold:
    """What the session does with one folded part, in this order: say `said` as it is
    (a read-back, a refusal, private ones on their player's channel); keep `pending` as
    the half-entered action (SAME: unchanged; None: none); then carry out `command` as if
    typed (whole: an action, or a beginning the game keeps through `pending(command)`),
    keeping `trace` with the step it makes; `again` is said after the reason when the
    command is refused. With no command, `trace` (unless SAME) replaces the last step's,
    and `prompt` says what is expected now after `said`."""

    said: tuple[Message, ...] = ()
    pending: Any = SAME
    command: Any = None
    trace: Any = SAME
    again: tuple[Message, ...] = ()
    prompt: bool = False


# (session, scanned value or keyed line, card registry, Origin of the reader and time)
Handler = Callable[[Any, str, "CardRegistry | None", "Origin | None"], "list[Message]"]
# (session, keypad symbol, card registry)
SymbolHandler = Callable[[Any, str, "CardRegistry | None"], "list[Message]"]


def typed_line(session: Any, text: str, registry: Any = None, origin: Any = None
               ) -> list[Message]:
    """A scanned value or keyed line read as typed words (the session's line)."""
    return list(session.handle(text))


def shared_symbol(session: Any, symbol: str, registry: Any = None) -> list[Message]:
    """A keypad symbol's shared command (repeat, score, board, undo, help, 0 to cancel)."""
    from companion.shared_commands import KEYPAD_SYMBOLS

    return list(session.execute(KEYPAD_SYMBOLS[symbol]))


@dataclass(frozen=True)
class DeviceHooks:
    """What a game does with card readers and keypads; the event and key buffering around
    it is the core's (companion/inputs/devices.py). A game gives only what differs from
    reading everything as typed words.

    `scan` takes a scanned value, `line` a finished keyed or typed line (both with the card
    registry and the Origin of the device and time they came from; see docs/plugins.md for
    which lines reach it), `symbol` a keypad symbol acting at once (* / . - + and 0, see
    `KEYPAD_SYMBOLS`); `zero_acts` says whether a 0 on an empty line is a symbol (cancel)
    or a digit. A line or scan that adds to an action reaches the session as a part for
    `Game.fold` (`session.enter`), so the half-entered action is the session's pending one.
    """

    scan: Handler = typed_line
    line: Handler = typed_line
    symbol: SymbolHandler = shared_symbol
    zero_acts: bool = True


class VoiceHooks(Protocol):
    """What to listen for now and how heard words become a command of the game.

    The voice engine (companion/voice/) knows no game: `make_recognizer` wraps an engine
    (a SphinxRecognizer, built with `pronunciations`, the game's words its dictionary
    lacks) into an object whose `recognize(pcm, context)` decodes against the game's
    grammar for `context`; `context_for` is the context the session is in now (given
    `private(seat)`, whether a seat has a private channel: only then may a context use what
    that seat told privately, and it names the seat as its `private_to`, so that an unsure
    command heard in it is asked about on that seat's channel alone), and
    `listen_context` one named by `companion listen --context` (one of `listen_contexts`,
    those a recording can be heard in alone; ValueError for one that needs a game in
    progress). `parse_command` reads a recognized canonical text as a command;
    `enrolment_prompts` are the commands a player reads to make a voice profile ([] when
    the game has none). `languages`: those its spoken words exist in (optional; English
    when absent). `enrolment_words(lang)` (optional): the words and short phrases a player
    says alone in the game's contexts (a card, a number, yes, no…), in `lang`, said two or
    three times each to enrol their own voice (`companion voice-enroll --words`).
    """

    pronunciations: Mapping[str, Sequence[str]]
    listen_contexts: tuple[str, ...]

    def context_for(self, session: Any,
                    private: Callable[[int], bool] | None = None) -> Any: ...
    def make_recognizer(self, engine: Any) -> Any: ...
    def parse_command(self, text: str) -> Any: ...
    def listen_context(self, kind: str) -> Any: ...
    def enrolment_prompts(self, count: int, seed: int = 0) -> list[str]: ...


@dataclass(frozen=True)
class Sheet:
    """One printed A4 page of labels: the kinds of piece it holds and its wording.

    `heading` and `note` are per label language ("en", "fr"); a heading is a template
    with {game}, {n} and {version}, and a sheet without one gets the core's ("one per
    card or token"). `advice` is the line the CLI prints after writing the sheet.
    """

    kinds: tuple[str, ...]
    heading: Mapping[str, str] = field(default_factory=dict)
    note: Mapping[str, str] = field(default_factory=dict)
    advice: str = ""


class CardHooks(Protocol):
    """The game's physical pieces as QR labels and card-registry entries
    (companion/cards/ does the rest: payloads, label sheets, enrolment).

    `code` is the game's field in a label payload (e.g. "HK"); `pieces` maps each kind of
    piece to its names and how many copies a box holds, in label order; `valued` names the
    kinds whose last payload field is a face value (with the values allowed) instead of a
    copy number. `sheets` are the label pages by name, the first printed by default.
    `enrolment` lists the kinds a reader's tags are enrolled for, in the order they are
    asked (empty: printed labels only). `sticker_plan(lang, item_points)`, when the game
    has one, is the volunteer's checklist of tactile stickers for one copy.

    Optional (the sticker quiz and the guided game use them when present): `feel(ref)`,
    the piece's stickers as a companion.cards.feel.Feel (None when the rules do not say),
    `key(ref)`, what a player keys for the piece in play, and `named(ref)`, the piece
    said without its copy number.
    """

    code: str
    pieces: Mapping[str, Mapping[str, int]]
    valued: Mapping[str, range]
    sheets: Mapping[str, Sheet]
    enrolment: tuple[str, ...]

    @property
    def sticker_plan(self) -> Callable[[str, bool], list[str]] | None: ...

    def caption(self, ref: CardRef, lang: str) -> tuple[str, str, str]:
        """Three short label lines: the card, its kind and number, its sticker."""
        ...

    def said(self, ref: CardRef) -> Message:
        """The piece in words, copy included: "fan (red, 2), copy 2"."""
        ...

    def ask(self, ref: CardRef) -> Message:
        """The enrolment prompt for the piece: "Scan a fan (red, 2) card (1 of 2)"."""
        ...

    def said_copies(self, refs: Sequence[CardRef]) -> Message:
        """Copies of one piece (same kind and name) said together: "fan, copies 1 and 2"."""
        ...


class Simulator(Protocol):
    """Seeded random games: what players at a table would type, for tests and benchmarks.

    `table_script` plays a whole seeded game with full information inside and gives its
    lines (canonical texts; nobody types a deal); `players` and `rules` default to the
    game's minimum and first rule set. `random_action` is one random legal action, or None
    when the state waits for a chance step the game does not enumerate (a deal, a reveal).
    """

    def table_script(
        self, seed: int, players: int | None = None, rules: str | None = None
    ) -> list[str]: ...
    def random_action(self, state: State, rng: random.Random) -> Action | None: ...


@dataclass(frozen=True)
class Grid:
    """A table of the board: a caption, column headings, rows whose first cell heads the
    row. Every cell is a Message, so that the page says it in the page's language."""

    caption: Message
    columns: tuple[Message, ...]
    rows: tuple[tuple[Message, ...], ...]


@dataclass(frozen=True)
class Section:
    """One part of the board as the web page shows it: a heading, then a list, a table or
    both. `private` marks a seat's own part (its told hidden cards)."""

    heading: Message
    items: tuple[Message, ...] = ()
    grid: Grid | None = None
    private: bool = False


@dataclass(frozen=True)
class Choice:
    """A large button on the page: its label, and the command line it sends (the same
    line a player could type)."""

    label: Message
    line: str


class WebHooks(Protocol):
    """The board as structured sections and the buttons for what may be done now.

    `board(state, names, seat)` is the public board, followed, for a seat (not None), by
    that seat's private sections, made from what the companion was told; nothing in the
    public sections may depend on a hidden card. `choices(state, names, pending)` are the
    commands that may be given now, as a table would give them (a hand the companion does
    not know is not guessed: the action, then the cards, or the command field).
    """

    def board(self, state: State, names: Sequence[str], seat: int | None) -> list[Section]: ...
    def choices(self, state: State, names: Sequence[str], pending: Any) -> list[Choice]: ...
class PracticeHooks(Protocol):
    """A game against the computer (`companion practice`): the companion deals and plays
    the other seat. `chance` is the chance step due now (a deal) or None; `decide` the
    opponent's action for `seat`, seeded by `config` and the step number (reproducible,
    and seeing only what that seat may know); `word` reads a practice word ("hand") or
    gives None; `resolve` rewrites cards named by place ("card 3"); `hand` and `hint` are
    Messages private to `seat`. The session asks `hint` for the shared command `hint`, at
    a table as in practice, for the seat deciding now: the game works it out from what
    that seat may know only (its own told cards and the table), or says what it lacks."""

    levels: tuple[str, ...]

    def config(self) -> Mapping[str, Any]:
        """What the game adds to a new practice game's settings (Hanamikoji: the hands are
        known, since the companion deals them)."""
        ...
    def chance(self, state: State, config: Mapping[str, Any]) -> Action | None: ...
    def decide(self, state: State, seat: int, config: Mapping[str, Any],
               step: int) -> Action: ...
    def word(self, line: str) -> str | None: ...
    def resolve(self, line: str, state: State, seat: int) -> str: ...
    def hand(self, state: State, seat: int) -> list[Message]: ...
    def hint(self, state: State, seat: int) -> list[Message]: ...
    def drawn(self, state: State, seat: int) -> list[Message]:
        """The card `seat` draws at its turn, private to it ([] when none)."""
        ...
    def help(self) -> list[Message]:
        """What practice adds to the help (e.g. how cards are named by place)."""
        ...
    def reword(self, message: Message) -> Message:
        """A table's instruction the companion carries out itself, said as done."""
        ...
