"""`companion play --web` with real parts: the CLI in a subprocess, pages over real
websockets. Commands from a page are the session's like typed ones; private Messages reach
only their seat's pages; tokens guard every page; bad clients do not stop the game."""

from __future__ import annotations

import json
import random
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("websockets", reason="the web extra (websockets) is not installed")

from companion.games.hanamikoji.actions import Deal, Discard, Secret  # noqa: E402
from companion.games.hanamikoji.simulate import random_game, table_line  # noqa: E402
from tests.webplay import Page, Play, ws_url  # noqa: E402

HIDDEN_PATH = "(the game log's file, on the companion's computer)"
pytestmark = pytest.mark.filterwarnings("ignore:connect.. must be used:DeprecationWarning")


@pytest.fixture
def play(tmp_path: Path):
    table = Play(tmp_path)
    yield table
    table.quit()


def game_moves(seed: int, naming: frozenset[int] = frozenset({0, 1})) -> list[tuple[int, str]]:
    """A whole seeded game as a table types it, each line with the seat that decides it
    (the one to act, to answer, to reveal); the seats in `naming` name their Secret and
    Discard cards, the others keep them unnamed."""
    moves = []
    for state, action in random_game(seed):
        if isinstance(action, Deal):
            continue
        if isinstance(action, (Secret, Discard)) and state.to_move not in naming:
            line = type(action)(None).text()
        elif isinstance(action, (Secret, Discard)):
            line = action.text()
        else:
            line = str(table_line(action))
        moves.append((state.to_move, line))
    return moves


def game_lines(seed: int, naming: frozenset[int] = frozenset({0, 1})) -> list[str]:
    """The lines of `game_moves`, as typed at the terminal (which may give any of them)."""
    return [line for _, line in game_moves(seed, naming)]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_page_command_is_validated_logged_and_announced_like_a_typed_one(play: Play) -> None:
    ana, ben, watcher = Page(play.seats[0]), Page(play.seats[1]), Page(play.watch)
    for page in (ana, ben, watcher):
        page.wait_view()
    ana.send("gift flute fan fan")
    play.wait_for(lambda: any("offers a gift" in line for line in play.lines))
    ben.send("banana")  # Ben decides now: refused like a typed line, assertively
    play.wait_for(lambda: any("banana" in line for line in play.lines))
    play.type("undo")  # the terminal undoes the page's step: one session, one log
    play.wait_for(lambda: any(line.startswith("Undone") for line in play.lines))
    play.quit()
    for page in (ana, ben, watcher):  # every frame read: the server closes them last
        assert page.closed.wait(10)
    said = [line for f in watcher.of("say") for line in f["lines"]]
    # every line, the game log's path in words: it names the computer's user and folders
    printed = [line.replace(str(play.db), HIDDEN_PATH) for line in play.said()]
    assert str(play.db) in " ".join(play.said())  # the terminal says it ("--resume --db …")
    assert not any(str(play.db) in f or str(play.db.parent) in f
                   for page in (ana, ben, watcher) for f in page.frames)
    assert said == printed[printed.index(said[0]):]  # in order, every line, once
    refusal = next(f for f in watcher.of("say") if any("banana" in t for t in f["lines"]))
    assert refusal["assertive"] is True
    heard = [line for f in map(json.loads, ana.frames) if f["type"] in ("past", "say")
             for line in f["lines"]]
    assert heard == printed  # a page joining late hears what was said before, in order
    first = ana.of("view")[0]
    assert [c["line"] for c in first["choices"]][:4] == ["secret", "discard", "gift",
                                                          "competition"]
    geishas = first["board"][1]["grid"]
    assert geishas["rows"][0] == ["Ayane", "flute (purple, 2)", "grapes", "0", "0",
                                  "marker in the middle"]


def test_a_watcher_page_cannot_give_commands_and_bad_messages_change_nothing(
        play: Play) -> None:
    watcher, ana = Page(play.watch), Page(play.seats[0])
    watcher.wait_view()
    ana.wait_view()
    watcher.send("gift flute fan fan")
    for bad in ("not json", json.dumps({"line": 3}), json.dumps(["gift"]), json.dumps({})):
        ana.ws.send(bad)
    ana.ws.send(b"\x00\x01 binary")
    play.type("score")
    play.wait_for(lambda: any(line.startswith("Round 1. Ana: 0") for line in play.lines))
    play.wait_for(lambda: len(ana.of("notice")) == 5 and watcher.of("notice"))
    assert not any("offers" in line for line in play.lines)
    assert [f["lines"] for f in watcher.of("notice")] == [["Watchers cannot give commands."]]
    assert {f["lines"][0] for f in ana.of("notice")} == {
        "That message could not be read; nothing changed."}
    assert not ana.closed.is_set()


def start_in_history(url: str) -> bool:
    """Whether a page joining now finds the first prompt in its history."""
    probe = Page(url)
    try:
        probe.wait_view()
        return any("draw a card" in line for f in probe.of("past") for line in f["lines"])
    finally:
        probe.close()


def run_game(tmp_path: Path, seed: int, naming: frozenset[int]) -> list[list[str]]:
    """A whole game typed at the terminal with a watcher's, Ana's and Ben's pages open
    from the start: the frames each received, in order."""
    folder = tmp_path / "".join(map(str, sorted(naming))) / "game"
    folder.mkdir(parents=True)
    play = Play(folder)
    try:
        play.wait_for(lambda: any(line.startswith("Round 1") for line in play.lines))
        # The terminal prints a batch before the pages' history takes it: the pages join
        # once a page joining finds the whole start in its history, so that the three
        # games' frames begin alike however loaded the machine is.
        play.wait_for(lambda: start_in_history(play.watch))
        pages = [Page(play.watch), Page(play.seats[0]), Page(play.seats[1])]
        for page in pages:
            page.wait_view()
        for line in game_lines(seed, naming):
            play.type(line)
        play.wait_for(lambda: any("wins" in x or "winner" in x for x in play.lines), 60)
    finally:
        play.quit()
    for page in pages:
        assert page.closed.wait(10)
    return [page.frames for page in pages]


@pytest.mark.parametrize("seed", [3, 11])
def test_watchers_and_the_other_seat_get_the_same_bytes_whether_cards_are_named(
        tmp_path: Path, seed: int) -> None:
    watch, ana, ben = 0, 1, 2
    nobody = run_game(tmp_path, seed, frozenset())
    ana_names = run_game(tmp_path, seed, frozenset({0}))
    ben_names = run_game(tmp_path, seed, frozenset({1}))
    assert len(nobody[watch]) > 20
    assert ana_names[watch] == nobody[watch] == ben_names[watch]
    assert ana_names[ben] == nobody[ben]  # Ana's named cards: not a byte to Ben's page
    assert ben_names[ana] == nobody[ana]
    # ... while each player's own page did get them
    assert ana_names[ana] != nobody[ana] and ben_names[ben] != nobody[ben]
    assert any("Your Secret" in f for f in ana_names[ana])
    assert not any("Your Secret" in f for f in nobody[ana])


def test_wrong_missing_or_other_seat_tokens_get_nothing_private(play: Play) -> None:
    base = play.watch.rsplit("/s/", 1)[0]
    ana, ben = Page(play.seats[0]), Page(play.seats[1])
    ana.wait_view()
    ben.wait_view()
    ana.send("secret tea")
    play.wait_for(lambda: any("plays Secret" in line for line in play.lines))
    for url in (base + "/", base + "/s/", base + "/s/wrong-token",
                base + "/s/" + "A" * 22, play.seats[0] + "x"):
        status, body = get(url)
        assert status in (403, 404), url
        assert "Ana" not in body and "tea" not in body
    status, body = get(play.seats[0])
    assert status == 200 and "tea" not in body  # the page itself holds no game data
    with pytest.raises(Exception):  # noqa: B017 - a refused websocket handshake
        Page(base + "/s/wrong-token")
    play.type("score")
    play.wait_for(lambda: any(line.startswith("Round 1.") for line in play.lines))

    def private() -> set[str]:  # on Ana's page, not printed (the terminal's reader may lag)
        return {line for f in ana.of("say") for line in f["lines"]} - set(play.said())

    play.wait_for(lambda: bool(private()) and all("tea set" in line for line in private()))
    ana_private = private()
    assert ana_private and all("tea set" in line for line in ana_private)
    assert any("Your Secret: tea set" in f for f in ana.frames)
    for line in [*ana_private, "Your Secret"]:  # Ben's page: nothing of Ana's Secret
        assert not any(line in f for f in ben.frames)
    play.quit()
    assert any("refused" in line for line in play.errors)  # the server says it refused


def test_fifty_pages_coming_and_going_a_silent_one_and_a_huge_message(play: Play) -> None:
    rng = random.Random(5)
    silent = Page.__new__(Page)  # connected, never reads a frame
    from websockets.sync.client import connect

    silent.ws = connect(ws_url(play.seats[1]), max_queue=1)
    huge = Page(play.seats[0])
    huge.wait_view()
    huge.ws.send(json.dumps({"line": "x" * (1 << 20)}))  # 1 MB: that connection is closed
    assert huge.closed.wait(10)
    rss = []
    pages: list[Page] = []
    lines = game_lines(7)
    for i, line in enumerate(lines):
        while len(pages) < 50 and rng.random() < 0.8:
            pages.append(Page(rng.choice([*play.seats, play.watch])))
        for page in rng.sample(pages, k=rng.randint(0, len(pages) // 3)):
            page.close()
            pages.remove(page)
        play.type(line)
        for _ in range(20):
            play.type("board")  # many announcements for the page that never reads
        if i % 10 == 0:
            rss.append(_rss(play.proc.pid))
    play.wait_for(lambda: any("wins" in x or "winner" in x for x in play.lines), 120)
    # A page joining now hears the end: in its "past", or just after as a "say" when the
    # server has not been given the printed line yet (it is printed first).
    steady = Page(play.watch)
    steady.wait_view()
    steady.wait_heard("wins" if any("wins" in x for x in play.lines) else "winner", 30)
    assert max(rss) - rss[0] < 60_000, rss  # kB: bounded, whatever the silent page does
    assert play.proc.poll() is None
    with socket.create_connection(("127.0.0.1", int(play.watch.split(":")[2].split("/")[0]))):
        pass  # still listening
    for page in pages:
        page.close()


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def test_play_without_web_imports_no_web_module(tmp_path: Path) -> None:
    """Start-up is unchanged without --web: neither the page server nor its stack loads."""
    import subprocess
    import sys

    script = tmp_path / "lines.txt"
    script.write_text("score\n")
    code = (
        "import sys\n"
        "from companion.cli import main\n"
        f"main(['play', 'hanamikoji', '--no-speech', '--db', {str(tmp_path / 'g.db')!r}, "
        f"'--script', {str(script)!r}])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('starlette', 'uvicorn', 'websockets') or m.startswith('companion.web')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[1])
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_page_that_never_reads_is_let_go_and_the_others_get_everything(
        caplog: pytest.LogCaptureFixture) -> None:
    """More than the socket buffers hold (20 MB) goes to a page that reads nothing: once
    its queue is full it is disconnected, and a reading page still gets every frame."""
    from websockets.sync.client import connect

    from companion.games.registry import load_game
    from companion.inputs.hub import InputHub
    from companion.narrate.catalogue import Catalogue
    from companion.narrate.message import Message
    from companion.session import Session
    from companion.web.server import WATCH, WebTable

    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})
    table = WebTable(session, Catalogue("en", games=("hanamikoji",)), InputHub(), port=0)
    table.start()
    try:
        silent = connect(ws_url(table.url(1)), max_queue=1)
        reader = Page(table.url(WATCH))  # 20 MB would outlast a ping: Page sends none
        reader.wait_view()
        rng = random.Random(1)
        for i in range(400):  # random letters: compression cannot shrink them
            noise = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=50_000))
            table.publish([(Message("info", "x"), f"{noise} {i}")])
            # The reading page is kept under 100 frames behind (a page that reads), so
            # only the silent one can fill its 256 places, however slow this machine is.
            lag_end = time.monotonic() + 180
            while len(reader.frames) < i - 100:  # its frames: lines and boards
                assert time.monotonic() < lag_end, "the reading page stopped getting frames"
                time.sleep(0.01)
        end = time.monotonic() + 180  # a bound against hanging, not a timing
        while not any(f.endswith(' 399"], "assertive": false}') for f in reader.frames):
            assert time.monotonic() < end, "the reading page did not get everything"
            time.sleep(0.05)
        assert len(reader.of("say")) == 400
        # Let go once it has taken nothing for STALL seconds, even after the burst ended
        end = time.monotonic() + 60
        while not any("stopped reading" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < end, "the silent page was never let go"
            time.sleep(0.05)
        silent.close_socket()
    finally:
        table.close()


def test_a_player_with_an_earbud_hears_only_their_own_address_there() -> None:
    """The join codes are printed for the table; a seat's address is said only in that
    seat's earbud, never on the shared speaker or to another seat."""
    import io

    from companion.games.registry import load_game
    from companion.inputs.hub import InputHub
    from companion.narrate.catalogue import Catalogue
    from companion.output import Output
    from companion.session import Session
    from companion.web.play import attach_web

    class Speaker:
        private_channels = ("player:1",)  # Ben has an earbud, Ana has none

        def __init__(self) -> None:
            self.said: list[tuple[str | None, str]] = []

        def say(self, text: str, priority: object = 0, kind: object = None,
                channel: str | None = None) -> None:
            self.said.append((channel, text))

    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})
    speaker, printed = Speaker(), io.StringIO()
    out = Output(Catalogue("en", games=("hanamikoji",)), stream=printed, speaker=speaker)
    table = attach_web(InputHub(), session, out, "127.0.0.1", 0)
    try:
        ben_url = table.url(1)
        private = [(c, t) for c, t in speaker.said if c is not None]
        assert private == [("player:1", f"Your own page, for you alone: {ben_url}")]
        shared = " ".join(t for c, t in speaker.said if c is None)
        assert "/s/" not in shared  # no token is spoken to the table
        assert ben_url in printed.getvalue()  # the printed join codes stay
    finally:
        table.close()
