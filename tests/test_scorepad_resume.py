"""Restarting the desktop side mid-game keeps the phones' link: the secret, the seat tokens and
the port are kept beside the draft, and a phone's typed (unsent) numbers are offered again."""

import json
import urllib.request

from helpers import fit_to_print_record
from presstime.history.store import open_store
from presstime.scorepad.at_table import DraftLink, TableScorepad
from scorepad_phones import Phone, launch

TYPED = {"white_space": 4, "articles": 8, "photos": 5}


def post(url, body, token=None):
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    if token:
        req.add_header("X-Seat-Token", token)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def get(url, token=None):
    req = urllib.request.Request(url)
    if token:
        req.add_header("X-Seat-Token", token)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def test_a_resumed_game_keeps_its_link_and_seats(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    rec = fit_to_print_record()
    with open_store(db) as store:
        save = lambda r: store.save_draft("enter", r)  # noqa: E731
        save(rec)
        first = TableScorepad(
            rec, save, say=lambda *a: None, keep=DraftLink(store, "enter")
        ).start()
        try:
            first.session.open_round(0, "round 1 (Friday)")
            token = post(first.server.url + "api/claim", {"seat": 0})["token"]
            first.session.flush()  # the game's thread saves the link
            url = first.server.url
        finally:
            first.stop()
        assert [d["key"] for d in store.list_drafts()] == ["enter"]  # the link is not a draft
    said = []
    with open_store(db) as store:
        rec = store.load_draft("enter")
        save = lambda r: store.save_draft("enter", r)  # noqa: E731
        again = TableScorepad(rec, save, say=said.append, keep=DraftLink(store, "enter")).start()
        try:
            again.session.open_round(0, "round 1 (Friday)")
            assert again.server.url == url
            assert any("same as before" in line for line in said)
            assert get(url + "api/state?seat=0", token)["mine"]["name"] == "Ada"
            assert post(url + "api/claim", {"seat": 0, "token": token})["token"] == token
        finally:
            again.stop()
        store.drop_draft("enter")
        assert store.load_link("enter") is None


def test_what_a_phone_typed_is_offered_again_after_a_restart(tmp_path, chromium):
    from playwright.sync_api import sync_playwright

    db = str(tmp_path / "h.sqlite3")
    with open_store(db) as store, sync_playwright() as pw:
        browser = launch(pw, chromium)
        rec = fit_to_print_record()
        save = lambda r: store.save_draft("enter", r)  # noqa: E731
        save(rec)
        first = TableScorepad(
            rec, save, say=lambda *a: None, keep=DraftLink(store, "enter")
        ).start()
        first.session.open_round(0, "round 1 (Friday)")
        ada = Phone(browser, first.server.url, "Ada").open()
        ada.pick_seat(0)
        first.session.flush()
        ada.type(TYPED)  # typed, not sent: the desktop side stops
        first.stop()
        again = TableScorepad(
            store.load_draft("enter"), save, say=lambda *a: None, keep=DraftLink(store, "enter")
        ).start()
        try:
            again.session.open_round(0, "round 1 (Friday)")
            ada.page.reload()
            ada.wait_round("round 1")
            for field, value in TYPED.items():
                assert ada.page.input_value("#f-" + field) == str(value)
            assert "typed before" in ada.page.inner_text("#status")
        finally:
            again.stop()
            browser.close()


def test_the_end_of_game_link_names_the_game_by_the_uuid_it_is_stored_with(tmp_path):
    import urllib.parse

    from presstime import records
    from presstime.history.bgstats import play_link, stored_plays

    rec = {
        "game": "mini-fits",
        "players": ["Ada", "Ben"],
        "rounds": [
            {"players": {"Ada": {"lines": 7}, "Ben": {"lines": 5}}},
            {
                "players": {
                    "Ada": {"lines": 8, "colour_sets": 2},
                    "Ben": {"lines": 6, "colour_sets": 1},
                }
            },
        ],
    }
    with open_store(str(tmp_path / "h.sqlite3")) as store:
        store.save_draft("enter", rec)
        pad = TableScorepad(
            rec,
            lambda r: store.save_draft("enter", r),
            say=lambda *a: None,
            keep=DraftLink(store, "enter"),
        ).start()
        try:
            pad.standings(records.tally(rec))
            link = pad.session.standings["bgstats"]
        finally:
            pad.stop()
        game_id = store.add_game(rec, "enter", draft_key="enter")
        sent = json.loads(urllib.parse.unquote(link.split("?data=", 1)[1]))
        assert sent["sourcePlayId"] == store.game_uuid(game_id)
        stored = json.loads(
            urllib.parse.unquote(play_link(stored_plays(store)[0]).split("?data=", 1)[1])
        )
        assert (
            stored["sourcePlayId"] == sent["sourcePlayId"] and stored["players"] == sent["players"]
        )
