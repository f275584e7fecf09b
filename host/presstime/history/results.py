"""A stored game's result, computed once when the game is stored (docs/history.md, "Stored
results").

`summarize(text, added_at)` turns a stored record (its JSON text, as the `games` table holds it)
into what the history's result tables keep: one `results` row, one `result_players` row per
player and the numbers `stats` averages (`result_values`). A record that cannot be read or scored
is not an error here: it comes back as a *damaged* summary with the reason, so that one bad row
never stops `history`, `stats`, `show` or `export` for the others.

The stored results carry scoring_version.SCORING_VERSION: bump it when the results change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypeGuard

from presstime import games
from presstime.history import game_words
from presstime.names import normal_record

if TYPE_CHECKING:
    from presstime.hints import Json, Record, Result

COMPLETE, IN_PROGRESS, DAMAGED = "complete", "in progress", "damaged"


class Summary:
    """What one stored game contributes: `game` (the results row as a dict), `players` (a list of
    dicts, seat order) and `values` [(seat, kind, key, value)], kind "round" (a sum over the
    game's rounds) or "game" (a number of the result)."""

    def __init__(
        self,
        game: dict[str, Any],
        players: Iterable[dict[str, Any]] = (),
        values: Iterable[tuple[int, str, str, Any]] = (),
        result: Result | None = None,
    ) -> None:
        self.game = game
        self.players = list(players)
        self.values = list(values)
        self.result = result


def _num(v: object) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _played(record, added_at):
    """When the game was played, "YYYY-MM-DD HH:MM:SS": the record's `date` when it starts with a
    date, else when it was stored (UTC)."""
    date = record.get("date") if isinstance(record, dict) else None
    if (
        isinstance(date, str)
        and len(date) >= 10
        and date[4:5] == "-"
        and date[7:8] == "-"
        and (date[:4] + date[5:7] + date[8:10]).isdigit()
    ):
        clock = date[11:19]
        if len(clock) == 5 and clock[2] == ":" and (clock[:2] + clock[3:]).isdigit():
            clock += ":00"  # "20:30"
        if not (
            len(clock) == 8
            and clock[2] == ":"
            and clock[5] == ":"
            and clock.replace(":", "").isdigit()
        ):
            clock = "00:00:00"
        return date[:10] + " " + clock
    return (added_at or "")[:19].replace("T", " ")


def _damaged(reason, added_at, record=None):
    game = {
        "state": DAMAGED,
        "error": reason,
        "game": "",
        "mode": "",
        "edition": "",
        "played": _played(record, added_at),
        "place": "",
        "players": "[]",
        "winners": "[]",
        "decided_by": "",
        "status": "damaged: " + reason,
        "rounds": 0,
        "play": "-",
        "duration_ms": 0,
        "result": None,
    }
    if isinstance(record, dict):
        game["game"] = str(games.of(record))
    return Summary(game)


def decode(raw: bytes | str | None) -> tuple[Json, str | None]:
    """(record, None) from a stored record's bytes or text, or (None, reason it cannot be read)."""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as e:
            return None, "the stored record is not UTF-8 text (byte %d)" % e.start
    if raw is None:
        return None, "the stored record is empty (NULL)"

    try:
        return normal_record(
            json.loads(raw)
        ), None  # NFC: a name is one player however it was written
    except ValueError as e:
        return None, "the stored record is not valid JSON: %s" % getattr(e, "msg", e)


def _print_times(record):
    out = {}
    for rnd in record.get("rounds") or []:
        table = rnd.get("table") if isinstance(rnd, dict) else None
        times = table.get("print_ms") if isinstance(table, dict) else None
        if isinstance(times, dict):
            for name, ms in times.items():
                if _num(ms):
                    out.setdefault(name, []).append(ms)
    return out


def _duration_ms(record):
    total = 0
    for rnd in record.get("rounds") or []:
        table = rnd.get("table") if isinstance(rnd, dict) else None
        ms = table.get("elapsed_ms") if isinstance(table, dict) else None
        if _num(ms):
            total += ms
    return int(total)


def summarize(raw: bytes | str | None, added_at: str = "") -> Summary:
    """The Summary of a stored record (bytes or text of its JSON); damaged when it cannot be read,
    the core refuses it, or the core fails on it."""
    from presstime.core import games

    record, reason = decode(raw)
    if reason:
        return _damaged(reason, added_at)
    try:
        problems = games.check(record)
    except Exception as e:  # the core must not stop the history: name it, go on
        return _damaged(
            "the core failed checking it: %s: %s" % (type(e).__name__, e), added_at, record
        )
    if problems:
        more = " (and %d more)" % (len(problems) - 1) if len(problems) > 1 else ""
        return _damaged("the core refuses it: %s%s" % (problems[0], more), added_at, record)
    try:
        result = games.score(record)
    except Exception as e:
        return _damaged(
            "the core failed scoring it: %s: %s" % (type(e).__name__, e), added_at, record
        )
    return _from_result(record, result, added_at)


def _from_result(record, result, added_at):
    game = games.of(result)
    complete = bool(result.get("complete", True))
    winners = list(result.get("winners") or []) if complete else []
    decider = game_words.decided_by(result) if complete else None
    if not complete:
        status = "in progress"
    elif not winners:
        status = "no winner"
    else:
        top = [p.get("total") for p in result.get("players") or [] if p.get("name") in winners]
        status = game_words.winner_text(game, winners, decider, top[0] if top else None)
    players = result.get("players") or []
    face = games.face_of(game)
    money = face.MONEY[0] if face.MONEY else None  # the one money the history keeps (store.py)
    out = face.OUT[0] if face.OUT else None  # and the one out-of-the-game flag
    n_rounds = face.rounds_played(record)
    mode, edition = face.record_facts(record)
    summary = Summary(
        {
            "state": COMPLETE if complete else IN_PROGRESS,
            "error": "",
            "game": game,
            "mode": mode,
            "edition": edition,
            "played": _played(record, added_at),
            "place": record.get("place") if isinstance(record.get("place"), str) else "",
            "players": json.dumps([p.get("name") for p in players], ensure_ascii=False),
            "winners": json.dumps(winners, ensure_ascii=False),
            "decided_by": decider or "",
            "status": status,
            "rounds": n_rounds,
            "play": game_words.played(game, result, n_rounds),
            "duration_ms": _duration_ms(record),
            "result": json.dumps(result, ensure_ascii=False, separators=(",", ":")),
        },
        result=result,
    )
    times = _print_times(record)
    columns = [c for c in result.get("columns") or [] if c != "total"]
    for seat, p in enumerate(players, 1):
        name = p.get("name")
        prs = p.get("rounds") or []
        tokens = [r["token"] for r in prs if _num(r.get("token"))]
        ms = times.get(name, [])
        summary.players.append(
            {
                "seat": seat,
                "name": name,
                "total": p["total"] if _num(p.get("total")) else None,
                "won": 1 if name in winners else 0,
                "out": 1 if out and p.get(out) else 0,
                "money": p[money] if money and _num(p.get(money)) else None,
                "rounds": len(prs),
                "token_sum": sum(tokens),
                "token_n": len(tokens),
                "print_ms_sum": sum(ms),
                "print_ms_n": len(ms),
            }
        )
        keys = set()
        for r in prs:
            keys.update(k for k, v in r.items() if k != "token" and _num(v))
        for k in sorted(keys):
            summary.values.append((seat, "round", k, sum(r[k] for r in prs if _num(r.get(k)))))
        for c in columns:
            if _num(p.get(c)):
                summary.values.append((seat, "game", c, p[c]))
    return summary


def summarize_checked(record: Record, added_at: str = "", result: Result | None = None) -> Summary:
    """The Summary of a record the store has just checked (not checked again), scored now
    unless its `result` is given."""
    from presstime.core import games

    if result is not None:
        return _from_result(record, result, added_at)
    try:
        result = games.score(record)
    except Exception as e:
        return _damaged(
            "the core failed scoring it: %s: %s" % (type(e).__name__, e), added_at, record
        )
    return _from_result(record, result, added_at)
