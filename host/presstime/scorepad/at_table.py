"""The scorepad at the table: what `presstime play --scorepad` and `enter --scorepad` run.

    pad = TableScorepad(record, save, bind="127.0.0.1", say=print).start()   # prints URL + QR
    pad.board(status)               # each status the game loop reads (the big screen's clock)
    pad.collect(round_index, title) # the phones type their numbers; Enter here closes early
    pad.standings(result)           # after a round: the big screen and the phones show it
    pad.stop()

When the host closes a round before every phone has submitted, the numbers still missing are
asked at the terminal by the usual entry (it asks only what is not in the record yet).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from presstime import games, term
from presstime.entry.answers import get_at
from presstime.entry.start import new_entry
from presstime.errors import BadInput
from presstime.history import bgstats
from presstime.scorepad.options import LOOPBACK, resolve_bind
from presstime.scorepad.questions import seat_questions
from presstime.scorepad.server import ScorepadServer
from presstime.scorepad.session import ScorepadSession

if TYPE_CHECKING:
    import argparse
    from random import Random
    from threading import Thread

    from presstime.hints import Ask, Json, Record, Result, Say, Status
    from presstime.history.store import Store
    from presstime.scorepad.session import ScorepadSession


class DraftLink:
    """A game's scorepad link kept beside its draft in the history database (store.save_link):
    a restarted `presstime` resuming the draft serves the same secret, seat tokens, address and
    port, so the phones' page and what they hold (a seat, typed numbers) go on working."""

    def __init__(self, store: Store, key: str) -> None:
        self.store = store
        self.key = key

    def load(self) -> dict[str, Any] | None:
        """The kept link ({"secret", "tokens", "bind", "port"}) or None when there is none that
        can be used (a damaged one is ignored: the game gets a new link)."""
        link = self.store.load_link(self.key)
        if not isinstance(link, dict) or not _urlsafe(link.get("secret")):
            return None
        tokens = link.get("tokens")
        if not isinstance(tokens, dict) or not all(
            k.isdigit() and _urlsafe(v) for k, v in tokens.items()
        ):
            return None
        port = link.get("port")
        if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
            return None
        return {
            "secret": link["secret"],
            "tokens": dict((int(k), v) for k, v in tokens.items()),
            "bind": link.get("bind"),
            "port": port,
        }

    def save(self, link: dict[str, Any]) -> None:
        self.store.save_link(self.key, link)

    def uuid(self) -> str | None:
        """The game's stable id (its draft's, kept when the game is stored)."""
        return self.store.draft_uuid(self.key)


def _urlsafe(text):
    import re

    return isinstance(text, str) and re.fullmatch(r"[A-Za-z0-9_-]{16,64}", text) is not None


class TableScorepad:
    def __init__(
        self,
        record: Record,
        save: Callable[[Record], None],
        bind: str = LOOPBACK,
        say: Say = print,
        port: int = 0,
        poll_line: Callable[[float], str | None] | None = None,
        keep: DraftLink | None = None,
    ) -> None:
        """keep: a DraftLink (the link is kept beside the draft, and a kept one is served again)."""
        bind = resolve_bind(bind)
        kept = keep.load() if keep is not None else None
        if kept is not None and kept["bind"] != bind:
            kept = None  # another address: the phones' old link cannot work
        self.kept = kept
        self.session = ScorepadSession(
            record,
            save,
            secret=kept["secret"] if kept else None,
            tokens=kept["tokens"] if kept else None,
            save_link=None if keep is None else self._save_link,
        )
        self.server = ScorepadServer(
            self.session, host=bind, port=port or (kept["port"] if kept else 0)
        )
        self.keep = keep
        self.say = say
        self.poll_line = poll_line
        self.bind = bind
        self.asked_port = port
        self.covered = False  # a full-screen view has hidden the URL and QR code since shown

    def _save_link(self, link):
        if self.keep is not None:  # only a kept link is saved (save_link is None otherwise)
            self.keep.save(dict(link, bind=self.bind, port=self.server.port))

    def start(self) -> TableScorepad:
        try:
            self._listen()
        except BadInput:
            if not self.kept or self.asked_port:
                raise
            self.say(
                "The game's link used port %d, which is taken now: the phones need the new link "
                "below (what they typed is kept only on the same link)." % self.server.port
            )
            self.server.port = 0
            self.kept = None
            self._listen()
        if self.kept:
            self.say(
                "The game's link is the same as before: the phones' pages go on "
                "(a reload offers what each phone typed)."
            )
        self.session.link_dirty = self.keep is not None
        self.session.flush()  # the link is kept before any phone holds it
        self.announce()
        return self

    def _listen(self):
        try:
            self.server.start()
        except OSError as e:
            raise BadInput("--bind %s: cannot listen there (%s)" % (self.bind, e.strerror or e))

    def announce(self) -> None:
        """The URL and its QR code for the phones, and the big screen's URL (at the start and
        again when a round's numbers are due: the table view may have covered them)."""
        url = self.server.url
        self.say("Scorepad: each player opens %s on their phone" % url)
        for other in self.server.urls[1:]:
            self.say("  (or %s: this computer's other addresses)" % other)
        self.say("Big screen: %s" % self.server.screen_url)
        if self.server.host.startswith("127.") or self.server.host == "::1":
            self.say("  (only this computer can reach it: --bind lan for the players' phones)")
        for line in qr_lines(url):
            self.say(line)
        self.covered = False

    def footer(self) -> str:
        """One line for a full-screen view: where the phones and the big screen go."""
        return "scorepad: %s \u00b7 big screen: %s" % (self.server.url, self.server.screen_url)

    def stop(self) -> None:
        self.server.stop()

    def _typed(self, word):
        """A line typed while the phones count: True closes the round."""
        if word == "":
            return True
        parts = word.split()
        if len(parts) == 2 and parts[0] == "free" and parts[1].isdigit():
            seat = int(parts[1]) - 1
            names = [p["name"] for p in self.session.public()["players"]]
            if 0 <= seat < len(names):
                self.session.release(seat)
                self.say(
                    "  seat %d (%s) is free: the player's new phone can take it"
                    % (seat + 1, names[seat])
                )
                return False
        self.say(_typed_help())
        return False

    def board(self, status: Status) -> None:
        self.session.set_board(status)

    def standings(self, result: Result | None) -> None:
        """After a round; at the end of the game also BG Stats' one-play link (a button and a QR
        code on every phone and the big screen), for the game's own uuid."""
        link = None
        if result and result.get("complete") and result.get("winners") is not None:
            import uuid

            play_uuid = (self.keep.uuid() if self.keep is not None else None) or str(uuid.uuid4())
            link = bgstats.play_link(bgstats.result_play(self.session.record, result, play_uuid))
        self.session.set_standings(result, bgstats_link=link)

    def collect(self, round_index: int | None, title: str | None = None) -> None:
        """Open the round on the phones and wait until every seat is in or the host presses
        Enter; then the round is closed (the entry asks any number still missing)."""
        s = self.session
        s.open_round(round_index, title)
        if not s.questions:
            s.close_round()
            return
        if s.opened > 1 or self.covered:
            self.announce()
        shown = None
        try:
            while not s.wait(0.2):
                names = [p["name"] for p in s.public()["players"] if p["seat"] in s.missing()]
                if names != shown:
                    shown = names
                    self.say(
                        "  waiting for %s (Enter closes the round: missing numbers are then asked "
                        "here;"
                        " `free N` lets another phone take seat N)" % ", ".join(names)
                    )
                line = self.poll_line(0.0) if self.poll_line is not None else None
                if line is not None:
                    if self._typed(line.strip().lower()):
                        break
        finally:
            s.close_round()
        while s.faults:
            self.say("  scorepad problem: %s" % s.faults.pop(0))
        missing = s.missing()
        if missing:
            self.say(
                "  round closed with %d phone(s) still out: their numbers are asked here"
                % len(missing)
            )
        else:
            self.say("  every player's numbers are in")


def enter_with_phones(
    record: Record,
    save: Callable[[Record], None],
    args: argparse.Namespace,
    ask: Ask,
    say: Say,
    keep: DraftLink | None = None,
) -> Result:
    """`presstime enter --scorepad`: the game's table-wide answers at this terminal, each
    player's own numbers on their phone, round by round; then the usual review. Returns the
    core's result (EntryStopped as the entry raises it). keep: the draft's DraftLink."""
    pad = TableScorepad(
        record,
        save,
        bind=args.bind,
        say=say,
        port=args.scorepad_port,
        poll_line=poll_stdin,
        keep=keep,
    ).start()
    try:
        # a game typed without a board: what a board counts (the face's BOARD_COUNTED, Myth Fits'
        # photo tokens) is typed here too
        counted = games.face_of(games.of(record)).BOARD_COUNTED
        typed = any(key not in record for key in counted)
        entry = new_entry(record, save, ask=ask, say=say, typed_tokens=typed)
        for part in entry.parts():
            if not entry.asks(part):
                continue
            entry.enter_table(part)
            pad.collect(part, entry.part_title(part))
            entry.enter_rest(part)
            standings = entry.standings_after(part)
            if standings is not None:
                pad.standings(standings)
        result = entry.close()
        pad.standings(result)
        return result
    finally:
        pad.stop()


def _typed_help():
    return (
        "  Enter: close the round now (the numbers still missing are asked here) ·"
        " free N: seat N's phone is released, another phone can take it"
    )


def seat_numbers(
    record: Record, filled: Record, round_index: int | None
) -> dict[int, dict[str, Json]]:
    """{seat: {field: value}}: what each seat's phone would type, read from `filled` (a copy of
    the record with example numbers in it) at the places the round's questions point to."""
    out = {}
    for seat, qs in seat_questions(record, round_index).items():
        out[seat] = dict((q.field, get_at(filled, q.path)) for q in qs)
    return out


QUIET = 4  # modules of light margin round a QR code (the standard's quiet zone)
_DARK, _LIGHT = "30", "97"  # ANSI foreground: black, bright white (background: +10)


def qr_lines(url: str, colour: bool | None = None) -> list[str]:
    """The URL as a QR code in text, two rows of modules per line, for a phone's camera.

    In colour (a terminal; NO_COLOR unset) every cell sets both its colours, black and white, so
    the code reads the same on a light and on a dark terminal (segno's own terminal output draws
    with the terminal's default colours: inverted on a light background, which many phones do not
    read). Without colour, dark modules are the characters (dark text on a light page)."""
    try:
        import segno
    except ImportError:
        return []

    if colour is None:
        colour = term.colour_enabled(sys.stdout)
    rows = [
        [False] * QUIET + [bool(b) for b in row] + [False] * QUIET
        for row in segno.make(url, error="l").matrix
    ]
    width = len(rows[0])
    rows = [[False] * width] * QUIET + rows + [[False] * width] * (QUIET + (len(rows) % 2))
    out = []
    for top, bottom in zip(rows[0::2], rows[1::2]):
        if colour:
            # the upper half block: its foreground is the upper module, its background the lower
            out.append(
                "".join(
                    "\x1b[%s;%sm\u2580" % (_DARK if a else _LIGHT, int(_DARK if b else _LIGHT) + 10)
                    for a, b in zip(top, bottom)
                )
                + "\x1b[0m"
            )
        else:
            out.append(
                "".join(" \u2584\u2580\u2588"[2 * a + b] for a, b in zip(top, bottom)).rstrip()
            )
    return out


class DemoPhones:
    """Simulated phones for `play --demo --scorepad`: each seat's phone claims its seat over
    HTTP and submits the demo's numbers after a short, seeded delay; one phone first sends an
    impossible number, is refused, and corrects it (as a player would)."""

    def __init__(self, url: str, rnd: Random) -> None:
        self.url = url
        self.rnd = rnd
        self.tokens = {}  # seat -> token: a phone keeps its seat from round to round

    def play_round(
        self, session: ScorepadSession, numbers: dict[int, dict[str, Json]]
    ) -> list[Thread]:
        """numbers: {seat: {field: value}}. Runs the phones in threads; returns at once."""
        import threading

        plan = []
        for seat in sorted(numbers):
            plan.append((seat, numbers[seat], self.rnd.uniform(0.1, 0.8)))
        threads = [
            threading.Thread(target=self._phone, args=(p, i == 0), daemon=True)
            for i, p in enumerate(plan)
        ]
        for t in threads:
            t.start()
        return threads

    def _phone(self, plan, fumble):
        seat, values, delay = plan
        time.sleep(delay)
        token = _post(self.url + "api/claim", {"seat": seat, "token": self.tokens.get(seat)}).get(
            "token"
        )
        if token is None:
            return
        self.tokens[seat] = token
        if fumble and values:
            field = sorted(values)[0]
            _post(
                self.url + "api/submit",
                {"seat": seat, "values": dict(values, **{field: -999})},
                token,
            )
            time.sleep(0.2)
        _post(self.url + "api/submit", {"seat": seat, "values": values}, token)


def _post(url, body, token=None):
    import json
    import urllib.error
    import urllib.request

    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    if token:
        req.add_header("X-Seat-Token", token)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        try:
            return json.loads(e.read())
        except ValueError:
            return {}
    except OSError:
        return {}


def poll_stdin(timeout: float) -> str | None:
    """A line typed on stdin within `timeout` s, or None (also None when stdin is not a
    terminal)."""
    import select

    if not sys.stdin or not sys.stdin.isatty():
        return None
    try:
        ready, _, _ = select.select([sys.stdin], [], [], timeout)
    except (OSError, ValueError):
        return None
    return sys.stdin.readline() if ready else None
