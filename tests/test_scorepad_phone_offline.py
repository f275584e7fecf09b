"""A phone that loses the connection in headless Chromium: a submit that fails says so, keeps
the numbers and sends them when the connection is back; a second tab of the same seat shows the
numbers accepted from the first, not a stale form."""

import pytest

from helpers import GOOD_PAD, fit_to_print_record
from presstime.scorepad.server import ScorepadServer
from presstime.scorepad.session import ScorepadSession
from scorepad_phones import Phone, launch


@pytest.fixture
def table():
    rec = fit_to_print_record()
    session = ScorepadSession(rec, lambda r: None)
    server = ScorepadServer(session).start()
    session.open_round(0, "round 1 (Friday)")
    yield server
    server.stop()


def status(page):
    return page.inner_text("#status")


def test_a_failed_submit_says_so_and_is_sent_when_the_connection_is_back(table, chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw, chromium)
        ada = Phone(browser, table.url, "Ada").open()
        ada.pick_seat(0)
        ada.type(GOOD_PAD)
        ada.context.set_offline(True)
        ada.submit()
        ada.page.wait_for_function(
            "document.getElementById('status').textContent.startsWith('Not sent')", timeout=30000
        )
        assert "kept and sent again" in status(ada.page)
        assert 0 not in table.session.submitted
        ada.context.set_offline(False)
        assert ada.wait_submitted().startswith("Submitted")
        assert table.session.submitted[0] == GOOD_PAD
        assert status(ada.page) == "Sent."
        browser.close()


def test_two_tabs_of_one_seat_show_the_accepted_numbers(table, chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch(pw, chromium)
        first = Phone(browser, table.url, "Ada").open()
        first.pick_seat(0)
        second = first.context.new_page()  # the same phone's storage: the same seat
        second.goto(table.url)
        second.wait_for_selector("#form input")
        first.type(GOOD_PAD)
        first.submit()
        first.wait_submitted()
        second.wait_for_function(
            "document.getElementById('preview').textContent.startsWith('Submitted')", timeout=30000
        )
        second.wait_for_function(
            "document.getElementById('f-articles').value === '8'", timeout=30000
        )
        assert dict((f, second.input_value("#f-" + f)) for f in GOOD_PAD) == dict(
            (f, str(v)) for f, v in GOOD_PAD.items()
        )
        browser.close()
