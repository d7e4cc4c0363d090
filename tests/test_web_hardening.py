"""`play --web` as a public service (issue 26): each seat's page acts for its own seat,
other sites and host names are refused, no announcement is lost to a page joining, a page
sending junk or reading nothing cannot hold the table, bad frames get a plain answer, a busy
port is said plainly, and a resumed game keeps its pages' addresses."""

from __future__ import annotations

import base64
import http.client
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("websockets", reason="the web extra (websockets) is not installed")

from websockets.frames import Frame, Opcode  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from companion.games.registry import load_game  # noqa: E402
from companion.inputs.hub import InputHub  # noqa: E402
from companion.narrate.catalogue import Catalogue  # noqa: E402
from companion.narrate.message import Message  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.store import GameStore  # noqa: E402
from companion.web.server import BURST, RATE, WATCH, WebTable  # noqa: E402
from tests.webplay import ROOT, Page, Play, ws_url  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore:connect.. must be used:DeprecationWarning"),
              pytest.mark.timeout(300)]


@pytest.fixture
def play(tmp_path: Path):
    table = Play(tmp_path)
    yield table
    table.quit()


def address(url: str) -> tuple[str, int, str]:
    """(host, port, path) of a page's URL."""
    rest = url.split("://", 1)[1]
    where, _, path = rest.partition("/")
    host, _, port = where.rpartition(":")
    return host, int(port), "/" + path


def get(url: str, host: str | None = None) -> tuple[int, dict[str, str], str]:
    """A GET, optionally naming another Host: status, headers (lower case), body."""
    where, port, path = address(url)
    conn = http.client.HTTPConnection(where, port, timeout=10)
    conn.request("GET", path, headers={"Host": host} if host else {})
    reply = conn.getresponse()
    headers = {k.lower(): v for k, v in reply.getheaders()}
    body = reply.read().decode("utf-8", "replace")
    conn.close()
    return reply.status, headers, body


def handshake(url: str, host: str) -> str:
    """The first line of the server's answer to a websocket handshake naming `host`."""
    where, port, path = address(url)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET {path}/ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n")
    with socket.create_connection((where, port), timeout=10) as sock:
        sock.sendall(request.encode())
        return sock.recv(4096).decode("latin-1").split("\r\n", 1)[0]


# -- 1. a seat's page acts for its own seat only -------------------------------------------

def test_bens_page_cannot_play_anas_move_and_is_told_why_on_his_page_alone(play: Play) -> None:
    ana, ben, watcher = Page(play.seats[0]), Page(play.seats[1]), Page(play.watch)
    for page in (ana, ben, watcher):
        page.wait_view()
    before = {id(page): len(page.frames) for page in (ana, watcher)}
    ben.send("secret tea")  # Ana's turn: Ben's page may not play it, nor name her Secret
    end = time.monotonic() + 10
    while not any(f["assertive"] for f in ben.of("say")):
        assert time.monotonic() < end, ben.frames
        time.sleep(0.01)
    refusal = [f for f in ben.of("say") if f["assertive"]][-1]
    assert refusal["lines"] == ["Ana decides now: from your page you may ask questions, "
                                "not act for Ana. Nothing changed."]
    ana.send("score")  # a question from any page: answered, and a marker for the others
    play.wait_for(lambda: any(line.startswith("Round 1. Ana: 0") for line in play.lines))
    time.sleep(0.2)
    assert not any("plays Secret" in line or "decides now" in line for line in play.said())
    for page in (ana, watcher):  # the refusal reached Ben's page only; Ana's has no Secret
        new = page.frames[before[id(page)]:]
        assert not any("decides now" in f or "Your Secret" in f for f in new)
    ana.send("secret tea")  # Ana's own page: her move
    play.wait_for(lambda: any("plays Secret" in line for line in play.lines))
    ben.send("undo")  # Ben's turn, but the last step is Ana's: only she may undo it
    end = time.monotonic() + 10
    while not any("only Ana may undo it" in f for f in ben.frames):
        assert time.monotonic() < end, ben.frames[-3:]
        time.sleep(0.01)
    assert not any(line.startswith("Undone") for line in play.lines)


# -- 5. hardened like a public service ------------------------------------------------------

def test_security_headers_no_banner_and_only_our_host_and_origin(play: Play) -> None:
    base = play.watch.rsplit("/s/", 1)[0]
    for url in (play.seats[0], base + "/static/page.js", play.watch + "/qr.svg", base + "/"):
        status, headers, _ = get(url)
        assert status in (200, 403), url
        csp = headers["content-security-policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
        assert "'unsafe-inline'" not in csp and "http:" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert "server" not in headers  # no banner naming the server and its version
    # A name that is not this computer's address (DNS rebinding): refused, no game data
    status, _, body = get(play.seats[0], host="evil.example")
    assert status == 403 and "Ana" not in body
    assert handshake(play.seats[0], "evil.example").split()[1] == "403"
    host, port, _ = address(play.seats[0])
    assert handshake(play.seats[0], f"{host}:{port}").split()[1] == "101"
    assert get(play.seats[0], host=f"localhost:{port}")[0] == 200
    # A page of another site may not open a seat's connection; our own page may
    with pytest.raises(Exception):  # noqa: B017 - the refused handshake
        connect(ws_url(play.seats[0]), origin="http://evil.example", open_timeout=10)
    own = connect(ws_url(play.seats[0]), origin=f"http://{host}:{port}", open_timeout=10)
    assert json.loads(own.recv(timeout=10))["type"] == "hello"
    own.close()
    play.quit()
    assert any("another site" in line for line in play.errors)
    assert any("another host name" in line for line in play.errors)


def test_junk_commands_from_one_page_do_not_hold_the_table(play: Play) -> None:
    """2,000 commands at once from one page: a burst is taken, the rest refused on that
    page with one plain notice; the table's next typed line is answered at once."""
    ana = Page(play.seats[0])
    ana.wait_view()
    start = time.monotonic()
    for _ in range(2000):
        ana.send("banana")
    sent = time.monotonic() - start
    play.type("score")
    play.wait_for(lambda: any(line.startswith("Round 1. Ana: 0") for line in play.lines), 30)
    answered = time.monotonic() - start
    print(f"2,000 commands sent in {sent:.2f} s; the table's score answered after "
          f"{answered:.2f} s")
    refused = [line for line in play.said() if "banana" in line]
    assert 1 <= len(refused) <= BURST + RATE * (answered + 1)  # a burst, then RATE a second
    end = time.monotonic() + 10
    while not ana.of("notice"):
        assert time.monotonic() < end, "no notice came"
        time.sleep(0.01)
    assert [f["lines"] for f in ana.of("notice")][:1] == [[
        "This page sends commands too fast: the last ones were not taken. Wait a moment, "
        "then go on."]]
    assert not ana.closed.is_set()


def test_bad_frames_get_a_plain_answer_and_no_traceback(play: Play) -> None:
    deep = Page(play.seats[0])
    deep.wait_view()
    deep.ws.send("[" * 1000 + "]" * 1000)  # 1,000 deep: refused plainly, the page stays
    deep.ws.send(json.dumps({"line": "x"}) + " " + "{" * 20)
    end = time.monotonic() + 10
    while len(deep.of("notice")) < 2:
        assert time.monotonic() < end and not deep.closed.is_set(), deep.frames[-3:]
        time.sleep(0.01)
    assert {f["lines"][0] for f in deep.of("notice")} == {
        "That message could not be read; nothing changed."}
    bad = Page(play.seats[1])
    bad.wait_view()
    with bad.ws.send_context():  # a text frame that is not UTF-8
        bad.ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff\xfe not utf-8"))
    assert bad.closed.wait(10)  # that connection ends (its page reconnects by itself)
    play.type("score")
    play.wait_for(lambda: any(line.startswith("Round 1. Ana: 0") for line in play.lines))
    play.quit()
    assert play.proc.returncode == 0
    assert not any("Traceback" in line or line.startswith(("ERROR", "  File"))
                   for line in play.errors + play.lines), play.errors
    assert any("UTF-8" in line and line.startswith("web: ") for line in play.errors)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_a_busy_port_is_said_plainly_and_nothing_starts(tmp_path: Path) -> None:
    speech = tmp_path / "speech"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        db = tmp_path / "g.sqlite3"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-m", "companion", "play", "--speech-out", str(speech), "--web",
             "--web-port", str(port), "--lang", "en", "--db", str(db), "--players", "Ana",
             "Ben"],
            input="score\n", capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
    said = (f"Port {port} on 127.0.0.1 is already in use, perhaps by another companion: start "
            f"again with --web-port and another number, for example --web-port {port + 1}, "
            "or --web-port 0 for any free port. Nothing was started.")
    assert done.returncode == 2
    assert done.stdout.strip() == said  # printed: that line only, no server line
    assert done.stderr == ""
    spoken = [json.loads(line)["text"] for line in
              (speech / "index.jsonl").read_text("utf-8").splitlines()]
    assert spoken == [said]  # and spoken (here into a WAV file)
    assert not db.exists() or GameStore(db).last_unfinished() is None  # no game half-begun


def test_announcements_made_while_pages_join_all_reach_them() -> None:
    """Pages join and rejoin while 1,500 announcements are made as fast as the play loop
    can: each gets, in order and once, every line from the first (history, then live)."""
    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})
    table = WebTable(session, Catalogue("en", games=("hanamikoji",)), InputHub(), port=0)
    table.start()
    lines = [f"announcement {i}" for i in range(1500)]
    pages: list[Page] = []
    try:
        def announce() -> None:
            for i, line in enumerate(lines):
                table.publish([(Message("info", "x"), line)])
                if i % 50 == 0:
                    time.sleep(0.005)

        speaker = threading.Thread(target=announce)
        speaker.start()
        while speaker.is_alive() and len(pages) < 12:  # joining all along the burst
            pages.append(Page(table.url(len(pages) % 2)))
            time.sleep(0.02)
        speaker.join()
        pages.append(Page(table.url(WATCH)))
        assert len(pages) >= 4
        for page in pages:
            end = time.monotonic() + 60
            while True:
                heard = [line for f in map(json.loads, list(page.frames))
                         if f["type"] in ("past", "say") for line in f["lines"]]
                if heard and heard[-1] == lines[-1] or time.monotonic() > end:
                    break
                time.sleep(0.02)
            assert heard == lines  # nothing lost between the history and the live lines
    finally:
        for page in pages:
            page.close()
        table.close()


ESTABLISHED = 1  # Linux's TCP states (include/net/tcp_states.h)


def tcp_state(sock: socket.socket) -> int:
    """The TCP state of a socket as the kernel sees it (the first byte of TCP_INFO)."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]


@pytest.mark.skipif(not hasattr(socket, "TCP_INFO"), reason="TCP_INFO is Linux's")
def test_a_page_that_reads_nothing_is_disconnected(caplog: pytest.LogCaptureFixture) -> None:
    """A connection that never reads: once its queue is full it is let go, and the
    connection itself ends (it does not stay open with its buffers full)."""
    session = Session(load_game("hanamikoji"), {"players": ["Ana", "Ben"], "lang": "en"})
    table = WebTable(session, Catalogue("en", games=("hanamikoji",)), InputHub(), port=0)
    table.start()
    where, port, path = address(table.url(1))
    sock = socket.create_connection((where, port), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path}/ws HTTP/1.1\r\nHost: {where}:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    try:
        noise = "x" * 40_000
        end = time.monotonic() + 120
        while not any("stopped reading" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < end, "the silent page was never let go"
            table.publish([(Message("info", "x"), noise)])
            time.sleep(0.002)
        # Without reading a byte: the connection must end (the server closes or cuts it),
        # not stay established with its buffers full
        end = time.monotonic() + 15
        while tcp_state(sock) == ESTABLISHED:
            assert time.monotonic() < end, "the connection of a silent page stayed open"
            time.sleep(0.05)
    finally:
        sock.close()
        table.close()


# -- 3. a resumed game keeps its pages' addresses -------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_resume_with_web_keeps_every_pages_address(tmp_path: Path) -> None:
    port = str(free_port())  # the same port both times, as with the default 8765
    first = Play(tmp_path, extra=("--web-port", port))
    ana = Page(first.seats[0])
    ana.wait_view()
    ana.send("secret tea")
    first.wait_for(lambda: any("plays Secret" in line for line in first.lines))
    urls = [*first.seats, first.watch]
    first.quit()
    tokens = [u.rsplit("/s/", 1)[1] for u in urls]
    again = Play(tmp_path, extra=("--resume", "--web-port", port))
    try:
        assert [*again.seats, again.watch] == urls  # every address as it was
        for old in urls:
            assert get(old)[0] == 200
        page = Page(again.seats[0])  # Ana's phone reconnects at her old address
        page.wait_view()
        assert any("Your Secret" in f for f in page.frames)
    finally:
        again.quit()
    fresh = Play(tmp_path, extra=("--resume", "--new-addresses"))
    try:
        assert not {u.rsplit("/s/", 1)[1] for u in [*fresh.seats, fresh.watch]} & set(tokens)
        old_ana = fresh.seats[0].rsplit("/s/", 1)[0] + "/s/" + tokens[0]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(old_ana, timeout=10)
        assert refused.value.code == 403
    finally:
        fresh.quit()
    fourth = Play(tmp_path, extra=("--resume",))  # the new ones are kept in turn
    try:
        assert [u.rsplit("/s/", 1)[1] for u in [*fourth.seats, fourth.watch]] == [
            u.rsplit("/s/", 1)[1] for u in [*fresh.seats, fresh.watch]]
    finally:
        fourth.quit()


def test_a_log_from_before_the_addresses_is_read_and_migrated(tmp_path: Path) -> None:
    """A log written before the addresses were kept: read (read-only too), resumed, and
    given the table when opened for writing; its games simply have no addresses yet."""
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, config TEXT NOT NULL,
                            created TEXT NOT NULL, finished TEXT);
        CREATE TABLE steps (game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
                            action TEXT NOT NULL, at TEXT NOT NULL, undone TEXT,
                            PRIMARY KEY (game_id, seq));
        INSERT INTO games VALUES (1, 'hanamikoji', '{"players": ["Ana", "Ben"], "lang": "en"}',
                                  '2026-01-01', NULL);
        INSERT INTO steps VALUES (1, 1, 'secret', '2026-01-01', NULL);
    """)
    db.commit()
    db.close()
    path.chmod(0o444)
    try:
        read_only = GameStore(path)
        assert not read_only.writable or os.geteuid() == 0
        assert read_only.last_unfinished("hanamikoji") is not None
        if not read_only.writable:
            assert read_only.addresses(1) == {}
        read_only.close()
    finally:
        path.chmod(0o644)
    store = GameStore(path)
    assert store.last_unfinished("hanamikoji").steps == ("secret",)  # type: ignore[union-attr]
    assert store.addresses(1) == {}
    store.keep_addresses(1, {"0": "a" * 22, "1": "b" * 22, "watch": "c" * 22})
    assert store.addresses(1) == {"0": "a" * 22, "1": "b" * 22, "watch": "c" * 22}
    store.close()
