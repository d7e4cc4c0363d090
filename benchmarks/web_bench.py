"""Web page figures (companion play --web), with a real `companion play` subprocess, a
headless Chromium page and other pages connected by websocket.

Targets (issue 14): an announcement made → its text in the page's live region: median under
30 ms, p95 under 100 ms, with 10 clients connected; a command sent from the page → its
announcement back in the page: median under 50 ms.
The first is timed from the line typed at the terminal (so it includes the session's work)
to the live region's change in the page (both on this machine's clock); the second entirely
in the page, from the form's submission to the live region's change.
Run: .venv/bin/python benchmarks/web_bench.py [--n 200] [--clients 10]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.webplay import Page, Play  # noqa: E402

ROUND_TRIP = """
const done = arguments[arguments.length - 1];
const region = document.getElementById('polite');
const input = document.getElementById('command');
const start = performance.now();
new MutationObserver((_, observer) => {
  observer.disconnect(); done(performance.now() - start);
}).observe(region, {childList: true, characterData: true, subtree: true});
input.value = arguments[0];
document.getElementById('command-form').requestSubmit();
"""


def browser(profile: Path):  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options,
                            service=Service(shutil.which("chromedriver") or "chromedriver"))


def figures(name: str, values: list[float]) -> str:
    values = sorted(values)
    p95 = values[int(0.95 * (len(values) - 1))]
    return (f"{name}: median {statistics.median(values):.1f} ms, p95 {p95:.1f} ms, "
            f"max {values[-1]:.1f} ms (n={len(values)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--clients", type=int, default=10, help="pages connected, browser included")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        play = Play(Path(tmp))
        driver = browser(Path(tmp) / "chromium")
        try:
            play.wait_for(lambda: any("draw a card" in x for x in play.lines))
            pages = [Page([*play.seats, play.watch][i % 3]) for i in range(args.clients - 1)]
            driver.get(play.seats[0])
            time.sleep(1)
            count = lambda: driver.execute_script("return window.companionSaid.length")  # noqa: E731
            to_region = []
            for _ in range(args.n):
                n = count()
                made = time.time() * 1000
                play.type("score")
                while count() == n:
                    time.sleep(0.002)
                shown = driver.execute_script(f"return window.companionSaid[{n}].t")
                to_region.append(shown - made)
            round_trip = []
            for _ in range(args.n):  # paced under a page's rate limit (10 a second)
                round_trip.append(driver.execute_async_script(ROUND_TRIP, "score"))
                time.sleep(0.12)
            print(f"{args.clients} pages connected ({len(pages)} by websocket, 1 Chromium page)")
            print(figures("announcement made -> live region", to_region))
            print(figures("page command -> its announcement in the page", round_trip))
        finally:
            driver.quit()
            play.quit()


if __name__ == "__main__":
    main()
