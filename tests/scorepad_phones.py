"""Phones for the scorepad's browser tests: Playwright driving Debian's chromium, each phone a
browser context of its own (its own storage, like a separate device), 360 px wide."""

import os
import shutil

import pytest

PHONE = {"width": 360, "height": 740}


def chromium_or_skip():
    path = (
        os.environ.get("PRESSTIME_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )
    if not path:
        pytest.skip(
            "no chromium here: `apt-get install chromium` (Debian's) runs the scorepad's browser "
            "tests"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[dev]')")
    return path


BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch(playwright, chromium):
    """Debian's chromium, headless, talking to nothing but the scorepad. (The tests' pages
    bypass the scorepad's Content-Security-Policy only because Playwright's wait_for_function
    evaluates strings; test_scorepad_big_screen.py loads both pages under the policy.)"""
    return playwright.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)


class Phone:
    def __init__(self, browser, url, name):
        self.context = browser.new_context(
            viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True
        )
        self.page = self.context.new_page()
        self.url = url
        self.name = name

    def open(self):
        self.page.goto(self.url)
        return self

    def pick_seat(self, seat):
        self.page.click("#seats button[data-seat='%d']" % seat)
        self.page.wait_for_selector("#form input", timeout=60000)

    def wait_round(self, title):
        self.page.wait_for_function(
            "document.getElementById('who').textContent.includes(%r)" % title, timeout=60000
        )
        self.page.wait_for_selector("#form input", timeout=60000)

    def type(self, values):
        for field, value in values.items():
            self.page.fill("#f-%s" % field, str(value))

    def submit(self):
        self.page.click("#send")

    def error(self, field):
        self.page.wait_for_function(
            "document.getElementById('e-%s').textContent !== ''" % field, timeout=60000
        )
        return self.page.inner_text("#e-%s" % field)

    def wait_submitted(self):
        self.page.wait_for_function(
            "document.getElementById('preview').textContent.startsWith('Submitted')", timeout=60000
        )
        return self.page.inner_text("#preview")

    def close(self):
        self.context.close()
