"""Rebuild the games a board played from its journal, with the board's own round machine.

The journal's events are applied, in order, to a `presstime.core.table.Table` (the code the
board runs, via the same `apply` that `core.events.replay` uses); the machine's state when it
enters a summary gives the finishing order, the print times and the ties (Fit to Print), the
reveals (Heat, Mini FITS) or the photo tokens (Myth Fits), and the machine's own round index
says which rounds were played (an aborted summary is played again, as on the board). A CONFIG
event starts a new game. A record the machine refuses is named and skipped
(sync/damage.py). Nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from presstime import games as faces
from presstime.core import events as E
from presstime.core.table import OVER, SUMMARY, TURNS, Table, normalise
from presstime.sync import damage

if TYPE_CHECKING:
    from presstime.hints import Record, Status


def games_from_journal(
    records: list[tuple[int, bytes]],
    damaged: list[dict[str, Any]] | None = None,
    dropped: Iterable[int] = (),
) -> list[dict[str, Any]]:
    """[(seq, payload bytes)] -> [game], oldest first. A game:
    {"seq": seq of its CONFIG, "last": seq of its last record, "config": {...}, "rounds": [round],
     "over": bool, "photo_tokens": {name: n} (turns mode), "winner": name or None (a win the board
     showed), "numbers": {(round, seat, key): value} (the scorepad numbers confirmed on the
     board's own screen: SCORE events, core/entry.py; left out when there are none)}
    round: {"round": n, "day", "finish": [names, token 1 first], "print_ms": {name: ms},
            "layout_ms": {name: ms} (two-step), "tied": [names], "end": reason name, "elapsed_ms",
            "reveals": reveals done
            (ready-reveal: Heat's stages of the heist, Mini FITS's cards of the round)}.

    A round's fate is the machine's: its state is read when it enters a summary (whatever event
    took it there: END, the last REVEAL of a ready-reveal round, the PHOTO that reached the
    target), and the round counts once the machine has gone past it (NEXT: its round index moved
    on, or the game is over) or while the machine still shows it. An UNDO that reopens it or an
    ABORT that discards it (the same day is played again) leaves it uncounted, as on the board.

    A record the desktop cannot apply (sync/damage.py) is skipped and appended to the list
    `damaged`, unless its seq is in `dropped` (the user set it aside: `sync --damaged --drop`;
    it is skipped all the same, so dropping changes no game). After a skipped record the machine
    refuses an UNDO until a new press (Table.lost: what it would take back is unknown), as the
    board's boot does. A set-up that cannot be read starts a game
    {"seq", "unreadable": why, "newer": bool, "last": seq} whose records are kept and not
    rebuilt: never merged into the game before it."""
    if damaged is None:
        damaged = []
    games = []
    game = machine = skipped = prev = None
    for seq, payload in records:
        if prev is not None and seq != prev + 1:
            game = machine = None  # records the board dropped before a sync: another game follows
        prev = seq
        try:
            ev: tuple[Any, ...] = E.decode(payload)
        except ValueError as e:
            why, newer = damage.unreadable(payload, e)
            if payload[:1] == bytes((E.CONFIG,)):
                game, machine = {"seq": seq, "unreadable": why, "newer": newer, "last": seq}, None
                games.append(game)
                damaged.append(
                    damage.entry(seq, why + "; its records are kept, not rebuilt", newer)
                )
            elif game is not None and machine is None:
                _extend(game, damaged, seq)
            else:
                damaged.append(damage.entry(seq, why, newer))
                if game is not None:
                    game["last"] = skipped = seq
                if machine is not None:
                    machine.table.lost()
            continue
        if ev[0] == E.CONFIG:
            machine, skipped = _Game(seq, ev[1]), None
            game = machine.game
            games.append(game)
        if game is None:
            continue  # records before the first set-up (e.g. a journal that rolled over)
        if machine is None:
            _extend(game, damaged, seq)
            continue
        game["last"] = seq
        why = machine.apply(ev)
        if why:
            if ev[0] == E.UNDO and skipped:
                why = "an undo of record %d, which was skipped" % skipped
            damaged.append(damage.entry(seq, why))
        skipped = seq if why and ev[0] != E.UNDO else None  # the words of an undo right after it
    if dropped:
        damaged[:] = [d for d in damaged if d["seq"] not in dropped]
    return games


def _extend(game, damaged, seq):
    """One more record of a game whose set-up cannot be read: its damaged entry grows."""
    game["last"] = seq
    for d in damaged:
        if d["seq"] == game["seq"]:
            d["last"] = seq


class _Game:
    """A game being rebuilt: the board's round machine and the rounds it went past."""

    def __init__(self, seq, config):
        self.table = Table()
        self.closed = []  # the rounds the machine went past
        self.shown = None  # the round of the summary the machine entered last
        self.status = None  # the machine's last status, in turns mode (the face reads its counts)
        self.game = {
            "seq": seq,
            "last": seq,
            "config": config,
            "rounds": [],
            "over": False,
            "winner": None,
        }

    def apply(self, ev):
        """Apply one event; None, or why the machine refused it (then nothing changed)."""
        t = self.table
        before = t.phase
        why = damage.apply(t, ev)
        if why:
            t.lost()
            return why
        if t.phase == SUMMARY and before != SUMMARY:
            self.shown = _round(t)
        went_past = t.round + (1 if t.phase == OVER else 0)
        if len(self.closed) < went_past and self.shown is not None:
            self.closed.append(self.shown)
            self.shown = None
        g = self.game
        g["rounds"] = self.closed + ([self.shown] if t.phase == SUMMARY and self.shown else [])
        g["over"] = t.phase == OVER
        if t.score:
            g["numbers"] = t.score  # the numbers confirmed on the board (SCORE events)
        else:
            g.pop("numbers", None)
        if t.mode == TURNS:
            names = g["config"]["names"]
            self.status = t.status(None, self.status)  # one dict for the game, rewritten
            faces.face_of(faces.of(g["config"])).counted(g, self.status)  # the numbers it counts
            g["winner"] = names[t.winner] if t.winner >= 0 else None
        return None


_REASONS = {
    E.END_ALL: "all printed",
    E.END_TIME: "time-out",
    E.END_GRACE: "grace closed",
    E.END_CONTROL: "ended",
    E.END_WIN: "target reached",
}


def _round(table):
    return round_of(table.status(), table.step)


def round_of(st: Status, reveals: int = 0) -> dict[str, Any]:
    """A closed round (see games_from_journal) from the machine's status in its summary: the
    status a board answers over the link is the same dict, so `presstime play` uses this too."""
    players = st.get("players", [])
    by_token = sorted((p["token"], i) for i, p in enumerate(players) if p.get("token"))
    names = [p["name"] for p in players]
    if st.get("mode") == "ready-reveal":
        end = "all revealed"
    else:
        end = _REASONS.get(st.get("end_reason"), str(st.get("end_reason")))
    return {
        "round": st.get("round"),
        "day": st.get("day"),
        "finish": [names[i] for _, i in by_token],
        "print_ms": _times(players, "print_ms"),
        "layout_ms": _times(players, "layout_ms"),
        "tied": [p["name"] for p in players if p.get("tied")],
        "end": end,
        "elapsed_ms": st.get("elapsed_ms") or 0,
        "reveals": reveals,
    }


def _times(players, key):
    return dict((p["name"], p[key]) for p in players if isinstance(p.get(key), int))


def table_block(r: dict[str, Any]) -> dict[str, Any]:
    """A Fit to Print round's `table` field (docs/game-format.md) from a closed round: what the
    board measured. Times are round time in ms (pauses excluded); `layout_ms` (two-step mode)
    and `tied` appear only when they say something."""
    block = {"print_ms": dict(r["print_ms"]), "end": r["end"], "elapsed_ms": r["elapsed_ms"]}
    if r.get("layout_ms"):
        block["layout_ms"] = dict(r["layout_ms"])
    if r.get("tied"):
        block["tied"] = list(r["tied"])
    return block


def game_record(game: dict[str, Any], base: Record | None = None) -> Record:
    """A game record (the history's format) for a rebuilt game: what the board knows, as the
    game's desktop face puts it (board_record: games/<game>.py), with the numbers confirmed on
    the board (core/entry.fill) where the record has none. `base`: a record already holding
    scorepad numbers, updated with what the board knows (a number typed there stays)."""
    from presstime import games

    name = games.of(game["config"])
    record = games.face_of(name).board_record(game["config"], game, base)
    if game.get("numbers"):
        from presstime.core import entry

        entry.fill(record, games.core_of(name), game["numbers"], len(game["rounds"]), keep=True)
    return record


def game_key(board_id: str, game: dict[str, Any]) -> str:
    """The history key of a board's game: source of the stored game, key of its draft."""
    return "board:%s:%d" % (board_id, game["seq"])


def key_board(key: str) -> str | None:
    """The board id in a board game's key (game_key), or None for another key."""
    if not key.startswith("board:") or ":" not in key[6:]:
        return None
    board, seq = key[6:].rsplit(":", 1)
    return board if seq.isdigit() else None


def setup_problems(config: dict[str, Any]) -> list[str]:
    """Why a board's set-up can never be stored, as messages ([] when it can): the board's own
    set-up check (core/table.normalise, which the board runs at configure) and the record's
    player check (core/record_checks.player_names, which `done` and every store run), on the
    set-up the journal holds."""
    from presstime.core import games, record_checks

    names = config.get("names", [])
    game = config.get("game")
    face = games.module(game)
    if face is None:  # the journal's decoder knows every game this presstime knows
        return ["game %r: not a game this presstime knows" % (game,)]
    errors = []
    lo, hi = face.players(config.get("mode"))
    record_checks.player_names({"players": list(names)}, game, lo, hi, errors)
    if errors:
        return errors
    players = [{"name": n, "colour": list(c)} for n, c in zip(names, config.get("colours", []))]
    try:
        normalise(
            {
                "game": game,
                "mode": config.get("mode"),
                "players": players,
                "edition": config.get("edition", "published"),
            }
        )
    except ValueError as e:
        return [str(e)]
    return []
