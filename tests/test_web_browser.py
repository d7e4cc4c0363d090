"""The page in a real browser (Debian's headless Chromium driven by Selenium): a whole
Hanamikoji game played from its buttons and field with the live regions saying what the
terminal prints, in order; axe-core finds no WCAG 2.1 A/AA violation at the start, with an
offer waiting, at a scoring and at the game's end; a keyboard-only game; a Momiji turn;
400% zoom without horizontal scrolling. Screenshots go to docs/web/ when asked
(WEB_SCREENSHOTS=1)."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
webdriver = pytest.importorskip("selenium.webdriver",
                                reason="selenium (the webtest extra) is not installed")

from tests.test_web import game_moves  # noqa: E402
from tests.webplay import ROOT, Play  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
AXE = ROOT / ".npm-tools" / "node_modules" / "axe-core" / "axe.min.js"
pytestmark = [
    pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                       reason="no headless Chromium (apt: chromium chromium-driver; "
                              "scripts/setup.sh installs them)"),
    pytest.mark.skipif(not AXE.is_file(),
                       reason="axe-core is not installed (scripts/setup.sh: npm install)"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]
SHOTS = ROOT / "docs" / "web"


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One headless Chromium for this module's tests: a launch costs about a second of CPU
    (three on a loaded machine); `browser` gives it to each test with one blank tab."""
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(str(DRIVER)))
    driver.set_script_timeout(30)
    yield driver
    driver.quit()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The shared Chromium, left as a new one is: its other tabs closed, the first blank
    (each test's pages come from a server of its own, on a port of its own)."""
    yield chromium
    first, *others = chromium.window_handles
    for handle in others:
        chromium.switch_to.window(handle)
        chromium.close()
    chromium.switch_to.window(first)
    chromium.get("about:blank")


def history(driver: Any) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#history li')].map(li => li.textContent)")


def wait(condition: Any, timeout: float = 10) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def open_page(driver: Any, play: Play, url: str) -> None:
    play.wait_for(lambda: any("draw a card" in line or "?" in line for line in play.lines))
    driver.get(url)
    wait(lambda: len(history(driver)) >= len(play.said()))


def open_seats(driver: Any, play: Play, first: int) -> dict[int, str]:
    """Each seat's page in its own tab (a seat's page plays for that seat only), the tab
    of `first` left in front; the window handles by seat."""
    tabs = {}
    for seat in sorted(range(len(play.seats)), key=lambda s: s == first):
        if tabs:
            driver.switch_to.new_window("tab")
        open_page(driver, play, play.seats[seat])
        tabs[seat] = driver.current_window_handle
    return tabs


def axe_violations(driver: Any) -> list[str]:
    if not driver.execute_script("return typeof axe !== 'undefined'"):
        driver.execute_script(AXE.read_text("utf-8"))
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: "
        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}}).then(r => done(JSON.stringify("
        "r.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target).join(' ')))));")
    return list(json.loads(result))


def button(driver: Any, line: str) -> Any:
    from selenium.webdriver.common.by import By

    found = driver.find_elements(By.CSS_SELECTOR, f'button.choice[data-line="{line}"]')
    return found[0] if found else None


def give(driver: Any, play: Play, line: str) -> None:
    """One table line from the page: its button if there is one; a Gift or Competition as
    its token's button then its cards' buttons; otherwise typed in the command field. (Ben's
    page also holds his private lines: its history is not compared here.)"""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    before = len(play.said())
    words = line.replace("/", " ").split()
    if button(driver, line) is not None:
        button(driver, line).click()
    elif words[0] in ("gift", "competition") and button(driver, words[0]) is not None:
        button(driver, words[0]).click()
        for card in words[1:]:
            wait(lambda card=card: button(driver, card) is not None)
            count = len(play.said())
            button(driver, card).click()
            play.wait_for(lambda count=count: len(play.said()) > count)
    else:
        field = driver.find_element(By.ID, "command")
        field.send_keys(line, Keys.ENTER)
    play.wait_for(lambda: len(play.said()) > before)


def said_in_live_regions(driver: Any) -> list[str]:
    return driver.execute_script("return window.companionSaid.map(s => s.text)")


def zoomed_fits(driver: Any, name: str) -> bool:
    """At 400% zoom (a 1280-pixel window shows 320 CSS pixels): no horizontal scrolling."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 320, "height": 250, "deviceScaleFactor": 4, "mobile": False})
    try:
        time.sleep(0.2)
        fits = driver.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth")
        shot(driver, f"{name}-400")
        driver.execute_script("document.querySelector('#board table').scrollIntoView()")
        shot(driver, f"{name}-400-board")
        return bool(fits)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def shot(driver: Any, name: str) -> None:
    if os.environ.get("WEB_SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / f"{name}.png"))


def test_a_whole_game_from_the_page_says_what_the_terminal_prints(
        tmp_path: Path, browser: Any) -> None:
    play = Play(tmp_path)
    try:
        tabs = open_seats(browser, play, first=0)  # Ana's page is the one checked
        heard_before = len(history(browser))  # said before the page opened: history only
        problems = {"start": axe_violations(browser)}
        shot(browser, "start-100")
        assert zoomed_fits(browser, "start")
        for seat, line in game_moves(3, frozenset({1})):  # Ben names his cards, typed
            count = len(play.said())
            browser.switch_to.window(tabs[seat])  # each move from its own seat's page
            give(browser, play, line)
            browser.switch_to.window(tabs[0])
            wait(lambda: len(history(browser)) == len(play.said()))
            new = play.said()[count:]
            if any(x.endswith("take one of the three cards.") for x in new):
                problems.setdefault("offer waiting", axe_violations(browser))
                if not (SHOTS / "offer-100.png").exists():
                    shot(browser, "offer-100")
            if any(x.startswith("Ayane, flute") for x in new):
                problems.setdefault("scoring", axe_violations(browser))
        wait(lambda: any("wins" in x or "winner" in x for x in history(browser)))
        problems["game over"] = axe_violations(browser)
        shot(browser, "over-100")
        assert zoomed_fits(browser, "over")
        assert set(problems) == {"start", "offer waiting", "scoring", "game over"}
        assert problems == {state: [] for state in problems}
        printed = play.said()
        assert history(browser) == printed  # every line, in order
        # the live regions said each announcement as it came: all of it, in order
        assert " ".join(said_in_live_regions(browser)) == " ".join(printed[heard_before:])
    finally:
        play.quit()


def test_keyboard_only_whole_game(tmp_path: Path, browser: Any) -> None:
    """Tab to the wanted button, then Enter or Space: nothing else is pressed."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    play = Play(tmp_path)
    try:
        tabs = open_seats(browser, play, first=1)
        presses = 0
        for seat, line in game_moves(11, frozenset()):
            browser.switch_to.window(tabs[seat])  # each move from its own seat's page
            words = line.replace("/", " ").split()
            targets = [line] if words[0] not in ("gift", "competition") else words
            for i, target in enumerate(targets):
                before = len(play.said())
                wait(lambda target=target: button(browser, target) is not None)
                for _ in range(60):
                    active = browser.execute_script(
                        "return document.activeElement.getAttribute('data-line')")
                    if active == target:
                        break
                    ActionChains(browser).send_keys(Keys.TAB).perform()
                    presses += 1
                else:
                    raise AssertionError(f"Tab never reached {target}")
                key = Keys.ENTER if i % 2 == 0 else Keys.SPACE
                ActionChains(browser).send_keys(key).perform()
                play.wait_for(lambda before=before: len(play.said()) > before)
        wait(lambda: any("wins" in x or "winner" in x for x in history(browser)))
        assert history(browser) == play.said()
        assert presses > 0
    finally:
        play.quit()


def test_a_momiji_turn_from_the_command_field(tmp_path: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    play = Play(tmp_path, game="momiji", players=("Ana", "Ben", "Cy"))
    try:
        open_page(browser, play, play.seats[0])
        script = (ROOT / "tests" / "golden" / "momiji_en.txt").read_text().splitlines()
        lines = [x for x in script if x and not x.startswith("#")][:9]
        for line in lines[:8]:  # the table's set-up, then Ana's turn, from Ana's page
            before = len(play.said())
            browser.find_element(By.ID, "command").send_keys(line, Keys.ENTER)
            play.wait_for(lambda before=before: len(play.said()) > before)
            wait(lambda: len(history(browser)) == len(play.said()))
        assert history(browser) == play.said()
        assert any("Ben" in x for x in history(browser)[-3:])  # the turn passed to Ben
        said = len(play.said())
        browser.find_element(By.ID, "command").send_keys(lines[8], Keys.ENTER)  # Ben's move
        refusal = "Ben decides now: from your page you may ask questions, not act for Ben."
        wait(lambda: refusal in browser.find_element(By.ID, "assertive").text)
        assert len(play.said()) == said  # on Ana's page only: the table heard nothing
        board = browser.find_element(By.ID, "board").text
        assert "Now" in board
        assert axe_violations(browser) == []
    finally:
        play.quit()
