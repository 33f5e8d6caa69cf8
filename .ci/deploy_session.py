"""The browser half of .ci/deploy-from-readme: a GM's session through the deployed nginx.

play URL USER PASSWORD PORT...   log in, make a table and a session, talk in the room;
                                 kill each daphne process in turn (SIGKILL) and see the
                                 room go on each time; prints the room's path
restored URL USER PASSWORD PATH  after a restore: the room at PATH still holds the lines
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

from playwright.sync_api import expect, sync_playwright

LAUNCH = {
    "executable_path": "/usr/bin/chromium",
    "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
}
LINES = ["Before anything broke", "After the first process died", "After the second died"]


def log_in(browser, url: str, user: str, password: str):
    context = browser.new_context(ignore_https_errors=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(user)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda current: not current.endswith("/accounts/login/"))
    return page


def say(page, text: str) -> None:
    page.get_by_label("Message").fill(text)
    page.get_by_role("button", name="Send", exact=True).click()
    expect(page.locator("#timeline-items")).to_contain_text(text)


def daphne_pid(port: int) -> int:
    out = subprocess.run(  # noqa: S603 - a fixed command on a port number
        ["/usr/bin/ss", "-Hltnp", f"sport = :{port}"], capture_output=True, text=True, check=True
    ).stdout
    match = re.search(r"pid=(\d+)", out)
    if not match:
        raise SystemExit(f"no process listens on port {port}")
    return int(match.group(1))


def wait_live(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/live/", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"daphne on port {port} did not come back within {seconds} s")


def play(url: str, user: str, password: str, ports: list[int]) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**LAUNCH)
        page = log_in(browser, url, user, password)
        page.goto(f"{url}/")
        page.get_by_label("Table name").fill("Deployed table")
        page.get_by_role("button", name="Create table").click()
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        page.get_by_label("Title").fill("First night")
        page.get_by_label("Date").fill("2026-12-24")
        page.get_by_role("button", name="Create session").click()
        page.wait_for_url(re.compile(r"/sessions/\d+/$"))
        room = page.url.removeprefix(url)
        expect(page.locator("#connection-status")).to_have_text("Live")
        say(page, LINES[0])
        for port, line in zip(ports, LINES[1:], strict=True):
            os.kill(daphne_pid(port), signal.SIGKILL)
            # The open page reconnects to a process still running; nothing is lost.
            expect(page.locator("#connection-status")).to_have_text("Live", timeout=30_000)
            say(page, line)
            page.reload()
            expect(page.locator("#timeline-items")).to_contain_text(line)
            wait_live(port)
        browser.close()
    print(room)


def restored(url: str, user: str, password: str, room: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**LAUNCH)
        page = log_in(browser, url, user, password)
        page.goto(f"{url}{room}")
        expect(page.locator("#connection-status")).to_have_text("Live")
        for line in LINES:
            expect(page.locator("#timeline-items")).to_contain_text(line)
        say(page, "After the restore")
        browser.close()


if __name__ == "__main__":
    mode, url, user, password, *rest = sys.argv[1:]
    if mode == "play":
        play(url, user, password, [int(port) for port in rest])
    else:
        restored(url, user, password, rest[0])
