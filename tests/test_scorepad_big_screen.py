"""The big screen in headless Chromium: the standings in rank order, the winner and the QR code
to join all on one screen (a TV cannot scroll) at 1280×720 and 1920×1080, for 1 to 6 players."""

import io
import os

import pytest

from helpers import GOOD_PAD
from presstime import records
from presstime.entry.rounds import round_slot
from presstime.scorepad.server import ScorepadServer
from presstime.scorepad.session import ScorepadSession
from scorepad_phones import launch

NAMES = ["Ada", "Benedict", "Cy", "Dorothea", "Evangeline", "Fitzgerald"]


def played(n):
    """A whole Fit to Print game typed on the phones; the last seat scores most, the first least."""
    rec = {
        "game": "fit-to-print",
        "mode": "standard" if n > 1 else "solo",
        "edition": "published",
        "players": NAMES[:n],
        "rounds": [],
    }
    session = ScorepadSession(rec, lambda r: None)
    for r in range(3):
        round_slot(rec, r)["breaking_news"] = []
        if n > 1:
            rec["rounds"][r]["finish"] = list(reversed(NAMES[:n]))
        session.open_round(r)
        for seat in range(n):
            token = session.tokens.get(seat) or session.claim(seat)
            assert "preview" in session.submit(
                seat, token, dict(GOOD_PAD, articles=3 + seat, white_space=seat % 3)
            )
        session.close_round()
    result = records.tally(rec)
    session.set_standings(result)
    return session, result


def on_screen(page, selector):
    return page.eval_on_selector(
        selector,
        """e => { const r = e.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 &&
               r.bottom <= innerHeight && r.right <= innerWidth; }""",
    )


@pytest.mark.parametrize("n", [1, 2, 4, 6])
def test_the_winner_and_every_row_fit_one_screen(n, chromium):
    from playwright.sync_api import sync_playwright

    session, result = played(n)
    server = ScorepadServer(session).start()
    ranked = [p["name"] for _, p in records.ranked(result["players"], result["winners"])]
    try:
        with sync_playwright() as pw:
            browser = launch(pw, chromium)
            for size in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
                page = browser.new_page(viewport=size, bypass_csp=True)
                page.goto(server.screen_url)
                page.wait_for_selector("#stand tr:nth-child(%d)" % (n + 1))
                page.wait_for_function("document.getElementById('qr').naturalWidth > 0")
                names = page.eval_on_selector_all(
                    "#stand tr td:nth-child(2)", "tds => tds.map(t => t.textContent)"
                )
                assert [x.split(" (")[0] for x in names] == ranked
                if result["winners"]:
                    assert page.inner_text("#winner") == "★ %s wins ★" % result["winners"][0]
                    assert names[0] == result["winners"][0]
                assert on_screen(page, "#winner")
                for k in range(1, n + 2):
                    assert on_screen(page, "#stand tr:nth-child(%d)" % k), (size, k)
                assert on_screen(page, "#qr") and on_screen(page, "#joinurl")
                assert page.inner_text("#joinurl") == server.url
                assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
                shots = os.environ.get("PRESSTIME_SCREENSHOTS")
                if shots and n == 6 and size["width"] == 1280:
                    page.screenshot(path=os.path.join(shots, "scorepad-screen-final.png"))
                page.close()
            browser.close()
    finally:
        server.stop()


def test_the_qr_code_on_the_big_screen_is_the_phones_link():
    session, _ = played(2)
    server = ScorepadServer(session).start()
    try:
        import urllib.request

        with urllib.request.urlopen(server.url + "join.svg", timeout=10) as r:
            svg = r.read()
            assert r.headers["Content-Type"].startswith("image/svg+xml")
    finally:
        server.stop()
    import segno

    out = io.BytesIO()
    segno.make(server.url, error="m").save(
        out, kind="svg", scale=8, border=4, dark="#000", light="#fff", xmldecl=False, svgns=True
    )
    assert svg == out.getvalue()


def test_a_big_screen_refused_a_live_slot_shows_the_game_once_one_frees(monkeypatch, chromium):
    from playwright.sync_api import sync_playwright

    from presstime.scorepad import server as server_mod

    monkeypatch.setattr(server_mod, "MAX_STREAMS", 1)
    session, _ = played(2)
    server = ScorepadServer(session).start()
    try:
        with sync_playwright() as pw:
            browser = launch(pw, chromium)
            phone = browser.new_page(bypass_csp=True)
            phone.goto(server.url)
            phone.wait_for_function(
                "document.getElementById('title').textContent.startsWith('Fit to Print')"
            )
            screen = browser.new_page(viewport={"width": 1280, "height": 720}, bypass_csp=True)
            screen.goto(server.screen_url)
            screen.wait_for_timeout(1500)
            assert screen.inner_text("#title") == "presstime"  # refused: the slot is the phone's
            phone.close()
            screen.wait_for_function(
                "document.getElementById('title').textContent.startsWith('Fit to Print')",
                timeout=30000,
            )
            assert screen.inner_text("#winner") == "★ %s wins ★" % session.standings["winners"][0]
            browser.close()
    finally:
        server.stop()


def test_the_clock_goes_when_the_scorepad_does(chromium):
    from playwright.sync_api import sync_playwright

    rec = {"game": "mini-fits", "players": ["Ada", "Ben"]}
    session = ScorepadSession(rec, lambda r: None)
    session.set_board(
        {
            "phase": "running",
            "remaining_ms": 90000,
            "round": 1,
            "rounds": 2,
            "players": [{"state": "playing"}, {"state": "playing"}],
        }
    )
    server = ScorepadServer(session).start()
    with sync_playwright() as pw:
        browser = launch(pw, chromium)
        screen = browser.new_page(viewport={"width": 1280, "height": 720}, bypass_csp=True)
        screen.goto(server.screen_url)
        screen.wait_for_function("document.getElementById('clock').textContent.startsWith('1:')")
        assert on_screen(screen, "#clock")
        server.stop(linger=0)  # play ends: the scorepad goes with it
        screen.wait_for_function("document.getElementById('clock').hidden", timeout=30000)
        assert "no connection" in screen.inner_text("#phase")
        browser.close()


def test_both_pages_work_under_their_content_security_policy(chromium):
    from playwright.sync_api import sync_playwright

    session, _ = played(2)
    server = ScorepadServer(session).start()
    try:
        with sync_playwright() as pw:
            browser = launch(pw, chromium)
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            refused = []
            page.on(
                "console",
                lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None,
            )
            page.goto(server.screen_url)
            page.wait_for_selector("#stand tr:nth-child(3)")
            page.wait_for_selector("#winner:not([hidden])")
            page.goto(server.url)
            page.wait_for_selector("#stand tr:nth-child(3)")
            page.wait_for_selector("#status:has-text('The game is over')")
            assert refused == []
            browser.close()
    finally:
        server.stop()


def test_the_finished_game_is_one_tap_from_bg_stats_on_phones_and_the_big_screen(chromium):
    from playwright.sync_api import sync_playwright

    from presstime.scorepad.at_table import TableScorepad

    session, result = played(4)
    pad = TableScorepad(session.record, lambda r: None, say=lambda *a: None).start()
    pad.session.tokens = dict(session.tokens)
    pad.standings(result)  # the end of the game
    link = pad.session.standings["bgstats"]
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    try:
        with sync_playwright() as pw:
            browser = launch(pw, chromium)
            screen = browser.new_page(viewport={"width": 1280, "height": 720}, bypass_csp=True)
            screen.goto(pad.server.screen_url)
            screen.wait_for_selector("#bgstats img")
            screen.wait_for_function("document.querySelector('#bgstats img').naturalWidth > 0")
            assert screen.get_attribute("#bgstats a.bgstats", "href") == link
            assert on_screen(screen, "#bgstats img") and on_screen(screen, "#winner")
            phone = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
            phone.goto(pad.server.url)
            phone.wait_for_selector("#bgstats a.bgstats")
            phone.wait_for_function("document.querySelector('#bgstats img').naturalWidth > 0")
            assert phone.get_attribute("#bgstats a.bgstats", "href") == link
            assert phone.inner_text("#bgstats a.bgstats") == "Add this game to BG Stats"
            browser.close()
    finally:
        pad.stop()
