"""One game's scorepad: who sits where, what each seat has submitted, and closing a round.

    pad = ScorepadSession(record, save)      # save(record): the draft is saved (as `enter` does)
    pad.flush()                              # the game's thread saves what the phones sent
    pad.open_round(0)                        # the round's questions, per seat, from the core
    token = pad.claim(seat)                  # a phone takes a seat (only it may write there)
    pad.submit(seat, token, {"articles": 9, ...}) -> {"errors": {...}} or {"preview": ...}
    pad.wait(timeout)                        # True once every seat has submitted (or host closed)
    pad.close_round()                        # no more corrections; the round is the record's

Thread-safe: the web server's thread and the game's thread both call it. Every change bumps
`version` and calls the listeners (the server wakes its live streams with it). An accepted
submission goes into the record at once; `save` runs in the game's thread (`flush`, called by
`wait` and by the loop that waits), since the history database belongs to that thread.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from presstime import games, records
from presstime.entry.answers import player_names
from presstime.entry.start import engine_of
from presstime.errors import BadInput
from presstime.scorepad import questions as Q

if TYPE_CHECKING:
    from presstime.hints import Json, Record, Result, Status


class SeatRefused(Exception):
    """A phone asked for something its seat may not do (taken, wrong token, closed round)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class ScorepadSession:
    def __init__(
        self,
        record: Record,
        save: Callable[[Record], None],
        secret: str | None = None,
        tokens: dict[int, str] | None = None,
        save_link: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        """secret, tokens: a resumed game's link ({seat: token}); save_link(link): called (in the
        game's thread, by flush) with {"secret", "tokens"} each time a seat is taken or freed."""
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.record = record
        self.save = save
        self.save_link = save_link
        self.secret = secret or secrets.token_urlsafe(16)
        self.link_dirty = save_link is not None
        self.version = 0
        self.listeners = []
        self.round_index = None
        self.round_title = ""
        self.opened = 0  # how many times a round was opened (the pages notice a new one)
        self.questions = {}  # seat -> [Question]
        self.submitted = {}  # seat -> {field: value} (accepted and in the record)
        self.previews = {}  # seat -> text
        self.tokens = dict(tokens or {})  # seat -> token
        self.open = False
        self.dirty = False  # accepted answers not saved yet (flush)
        self.faults = []  # unexpected errors while serving a phone (the host is told)
        self.board = None  # the board's live state, as the big screen shows it
        self.standings = None  # after the last closed round

    # ---- the game's side -------------------------------------------------------------------
    def open_round(self, round_index: int | None, title: str | None = None) -> None:
        self.flush()
        with self.lock:
            self.round_index = round_index  # None: the game's end numbers
            self.round_title = title or (
                "round %d" % (round_index + 1) if round_index is not None else "the final count"
            )
            self.opened += 1
            self.questions = Q.seat_questions(self.record, round_index)
            self.submitted = {}
            self.previews = {}
            for seat, qs in self.questions.items():  # a resumed draft: what is in already counts
                have = {}
                for q in qs:
                    v = _get(self.record, q.path)
                    if isinstance(v, int) and not isinstance(v, bool):
                        have[q.field] = v
                if len(have) == len(qs):
                    self.submitted[seat] = have
            self.open = True
            self._bump()

    def close_round(self) -> None:
        """No more answers from the phones for this round (the host closes it, or all are in)."""
        with self.lock:
            self.open = False
            self.flush()
            self._bump()

    def missing(self) -> list[int]:
        """Seats that have questions and have not submitted."""
        with self.lock:
            return [s for s in self.questions if s not in self.submitted]

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a change (saving what came in); True when every seat has submitted or the
        round is closed. Call it from the game's thread."""
        with self.lock:
            if self.open and self.missing() and not self.dirty:
                self.changed.wait(timeout)
            self.flush()
            return not self.open or not self.missing()

    def flush(self) -> None:
        """Save the record if the phones changed it, and the link if a seat was taken or freed
        (the game's thread)."""
        with self.lock:
            if self.dirty:
                self.dirty = False
                self.save(self.record)
            if self.link_dirty and self.save_link is not None:
                self.link_dirty = False
                self.save_link(self.link())

    def link(self) -> dict[str, Any]:
        """What a restarted desktop side needs to keep the phones' link: the secret and each
        seat's token (JSON: the seats as strings)."""
        with self.lock:
            return {
                "secret": self.secret,
                "tokens": dict((str(k), v) for k, v in self.tokens.items()),
            }

    def set_board(self, status: Status) -> None:
        """The board's live state (a status dict from the link), for the big screen."""
        if not status:
            return
        view = {
            "phase": status.get("phase"),
            "remaining_ms": status.get("remaining_ms"),
            "round": status.get("round"),
            "rounds": status.get("rounds"),
            "day": status.get("day"),
            "players": [
                {"state": p.get("state"), "token": p.get("token"), "photos": p.get("photos")}
                for p in status.get("players", [])
            ],
        }
        with self.lock:
            if view != self.board:
                self.board = view
                self._bump()

    def set_standings(self, result: Result | None, bgstats_link: str | None = None) -> None:
        """The core's result after a round: what the big screen and the phones show, in rank
        order (the winners first once the game is complete). None (the record does not tally
        yet): what is shown stays."""
        if not result:
            return
        winners = list(result.get("winners") or []) if result.get("complete") else []
        face = games.face_of(games.of(result))  # its MONEY beside the total, its OUT players
        rows = []
        for rank, p in records.ranked(result.get("players", []), winners):
            rows.append(
                {
                    "rank": rank,
                    "name": p.get("name"),
                    "total": p.get("total"),
                    "money": p.get(face.MONEY[0]) if face.MONEY else None,
                    # the face's words for a player out of the game, or False
                    "out": face.OUT[2] if face.OUT and p.get(face.OUT[0]) else False,
                }
            )
        with self.lock:
            self.standings = {
                "players": rows,
                "winners": list(result.get("winners") or []),
                "complete": bool(result.get("complete")),
                "no_winner": result.get("no_winner"),
                "bgstats": bgstats_link,
                "round": None if self.round_index is None else (self.round_index or 0) + 1,
            }
            self._bump()

    # ---- the phones' side ------------------------------------------------------------------
    def claim(self, seat: int, token: str | None = None) -> str:
        """The seat's token for this phone: a new one if the seat is free, the same one back
        for the phone that holds it (a reload). SeatRefused if another phone holds it."""
        with self.lock:
            self._seat(seat)
            held = self.tokens.get(seat)
            if held is not None:
                if token and hmac.compare_digest(str(token), held):
                    return held
                raise SeatRefused(
                    409, "seat %d is taken by another phone (the host can free it)" % (seat + 1)
                )
            self.tokens[seat] = secrets.token_urlsafe(16)
            self.link_dirty = True
            self._bump()
            return self.tokens[seat]

    def release(self, seat: int) -> None:
        """The host frees a seat (a player changed phones)."""
        with self.lock:
            self._seat(seat)
            if self.tokens.pop(seat, None) is not None:
                self.link_dirty = True
                self._bump()

    def submit(self, seat: int, token: str | None, values: Json) -> dict[str, Any]:
        """Check every answer with the core; all good -> into the record, saved. Returns
        {"errors": {field: message}} or {"preview": text}. SeatRefused on a wrong seat/token."""
        with self.lock:
            self._own(seat, token)
            if not self.open:
                raise SeatRefused(409, "this round is closed")
            qs = self.questions.get(seat, [])
            if not isinstance(values, dict):
                raise SeatRefused(400, "values: an object of numbers, please")
            unknown = [k for k in values if k not in [q.field for q in qs]]
            if unknown:
                raise SeatRefused(
                    400, "not asked in this round: %s" % ", ".join(sorted(map(str, unknown)))[:200]
                )
            errors = {}
            for q in qs:
                if q.field not in values:
                    errors[q.field] = "%s: missing" % q.label
                    continue
                got = Q.problems(self.record, q, values[q.field])
                if got:
                    errors[q.field] = "; ".join(got)
            if errors:
                return {"errors": errors}
            for q in qs:
                Q.apply(self.record, q, values[q.field])
            self.dirty = True
            self.submitted[seat] = {q.field: values[q.field] for q in qs}
            self.previews[seat] = self._preview(seat)
            self._bump()
            return {"preview": self.previews[seat]}

    # ---- what the pages read ---------------------------------------------------------------
    def public(self) -> dict[str, Any]:
        with self.lock:
            names = player_names(self.record)
            players = []
            for seat, name in enumerate(names):
                players.append(
                    {
                        "seat": seat,
                        "name": name,
                        "asked": seat in self.questions,
                        "submitted": seat in self.submitted,
                        "claimed": seat in self.tokens,
                    }
                )
            game = games.of(self.record)
            return {
                "version": self.version,
                "game": game,
                "title": games.title(game),
                "round": None if self.round_index is None else self.round_index + 1,
                "round_title": self.round_title,
                "open": self.open,
                "opened": self.opened,
                "players": players,
                "board": self.board,
                "standings": self.standings,
            }

    def seat_view(self, seat: int, token: str | None) -> dict[str, Any]:
        with self.lock:
            self._own(seat, token)
            return {
                "seat": seat,
                "name": player_names(self.record)[seat],
                "questions": [q.public() for q in self.questions.get(seat, [])],
                "values": dict(self.submitted.get(seat, {})),
                "preview": self.previews.get(seat),
            }

    # ---- inside ----------------------------------------------------------------------------
    def _seat(self, seat):
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < len(player_names(self.record))
        ):
            raise SeatRefused(400, "no such seat")

    def _own(self, seat, token):
        self._seat(seat)
        held = self.tokens.get(seat)
        if held is None or not isinstance(token, str) or not hmac.compare_digest(token, held):
            raise SeatRefused(403, "this phone does not hold seat %d" % (seat + 1))

    def _preview(self, seat):
        """The player's score as the core sees it now (others not in yet count as 0)."""
        import copy

        probe = copy.deepcopy(self.record)
        for s, qs in self.questions.items():
            if s not in self.submitted and s != seat:
                for q in qs:
                    if _get(probe, q.path) is None:
                        Q.apply(probe, q, 0)
        probe = engine_of(probe).typed_so_far(probe, self.round_index)
        try:
            result = records.tally(probe)
        except BadInput:
            return None
        name = player_names(self.record)[seat]
        for p in result.get("players", []):
            if p.get("name") != name:
                continue
            rounds = p.get("rounds")
            if (
                isinstance(rounds, list)
                and self.round_index is not None
                and self.round_index < len(rounds)
            ):
                r = rounds[self.round_index]
                money = games.face_of(games.of(result)).MONEY  # the round's dollars, if any
                if money and money[0] in r:
                    return "%s: %d points, $%d (so far, total %d)" % (
                        self.round_title,
                        r.get("score", 0),
                        r[money[0]],
                        p.get("total") or 0,
                    )
                return "%s: %d points (total %d)" % (
                    self.round_title,
                    r.get("score", 0),
                    p.get("total") or 0,
                )
            return "total %s" % p.get("total")
        return None

    def _bump(self):
        self.version += 1
        self.changed.notify_all()
        for f in list(self.listeners):
            f(self.version)


def _get(record, path):
    node = record
    for key in path:
        if isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        else:
            return None
    return node
