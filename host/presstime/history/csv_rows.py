"""Game records ⇄ CSV: one row per player per round, every category, and back again without loss.

`to_rows(records)` writes; `from_rows(rows)` rebuilds the very same records. The columns are listed
in docs/history.md. In short:

- `game_id` groups the rows of one game; `seat`, `round` (both from 1) place a row.
- The plain columns hold what a spreadsheet reader wants (names, day, finishing token, the scorepad
  counts); whatever a record holds that they cannot say exactly goes, verbatim as JSON, into the
  `*_extra` columns of the first row it belongs to. So any valid record, of any game, survives.
- The derived columns (points per category, round score, total, out of business, winner) come
  from the scoring core and are ignored on import; so are the board columns (`print_ms`,
  `layout_ms`, `tied`), copied from the round's `table`, which itself travels in `round_extra`.
- A seat with no round entry gets a row with an empty `round`; a round with no entries a row with
  an empty `seat`; a game with neither a row with both empty.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from presstime import games as faces
from presstime.errors import BadInput
from presstime.records import loads

if TYPE_CHECKING:
    from presstime.hints import Json, Record

# the scorepad counts each a column (every face's SCOREPAD_LINES, core order), and the points
# each of the faces' point categories earns (POINT_CATEGORIES)
INPUTS = list(dict.fromkeys(k for f in map(faces.face_of, faces.names()) for k in f.SCOREPAD_LINES))
POINTS = list(
    dict.fromkeys(k for f in map(faces.face_of, faces.names()) for k in f.POINT_CATEGORIES)
)
# the faces' MONEY (a round's and the game's) and OUT fields, each a column (core order)
MONEY = [f.MONEY[0] for f in map(faces.face_of, faces.names()) if f.MONEY]
OUT = [f.OUT[0] for f in map(faces.face_of, faces.names()) if f.OUT]
DERIVED = (
    ["pts_" + c for c in POINTS]
    + ["round_score"]
    + ["round_" + m for m in MONEY]
    + ["total"]
    + MONEY
    + OUT
    + ["winner"]
)
KEYS = [
    "game_id",
    "game",
    "mode",
    "edition",
    "seat",
    "player",
    "character",
    "round",
    "day",
    "token",
]
BOARD = ["print_ms", "layout_ms", "tied"]
EXTRAS = ["game_extra", "player_extra", "round_extra", "entry_extra"]
COLUMNS = KEYS + INPUTS + DERIVED + BOARD + EXTRAS

_GAME_TEXT = ("game", "mode", "edition")

# Text cells a spreadsheet could take for a formula (`=cmd|' /C calc'!A0`, `+1`, `-1`, `@SUM(…)`)
# are written with a leading apostrophe, as spreadsheet-safe CSV does; a text that starts with an
# apostrophe gets one more. Reading takes one leading apostrophe off, so the round trip is lossless.
TEXT = ("game_id", "game", "mode", "edition", "player", "character", "day")
_FORMULA = ("=", "+", "-", "@", "'", "\t", "\r")


def quote_text(v: Json) -> Json:
    if isinstance(v, str) and v.startswith(_FORMULA):
        return "'" + v
    return v


def unquote_text(v: str) -> str:
    return v[1:] if v.startswith("'") else v


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _js(obj):
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


# --- writing ---------------------------------------------------------------------------------


def _seats(record):
    """[(name, character or '', player_extra or None)] or None when `players` needs the extra."""
    players = record.get("players")
    if not isinstance(players, list):
        return None
    seats = []
    for p in players:
        if isinstance(p, str):
            seats.append((p, "", None))
        elif isinstance(p, dict) and isinstance(p.get("name"), str):
            character = p.get("character")
            extra = dict((k, v) for k, v in p.items() if k != "name")
            if isinstance(character, str) and character and character == character.strip():
                del extra["character"]
            else:
                character = ""
            if character and not extra:
                extra = None  # the character alone makes it a dict again
            seats.append(
                (p["name"], character, extra)
            )  # a dict with no character: extra is {} at least
        else:
            return None
    names = [s[0] for s in seats]
    if len(set(names)) != len(names):
        return None
    return seats


def _round_shape(rnd, names):
    """(entries {name: entry}, tokens {name: n}, round_extra) for one round dict."""
    extra = {}
    for k, v in rnd.items():
        if k == "day" and isinstance(v, str) and v:
            continue
        if (
            k == "players"
            and isinstance(v, dict)
            and v
            and all(n in names for n in v)
            and all(isinstance(e, dict) for e in v.values())
        ):
            continue
        if k == "finish":
            continue
        extra[k] = v
    entries = rnd.get("players") if "players" not in extra else {}
    entries = entries or {}
    tokens = {}
    finish = rnd.get("finish")
    if "finish" in rnd:
        ok = (
            isinstance(finish, list)
            and finish
            and all(isinstance(n, str) for n in finish)
            and len(set(finish)) == len(finish)
            and all(n in entries for n in finish)
        )
        if ok:
            for i, n in enumerate(finish):
                tokens[n] = i + 1
        else:
            extra["finish"] = finish
    return entries, tokens, extra


def _derived(record):
    """{(name, round index): {column: value}} and {name: {column: value}} from the core, or
    empty."""
    try:
        from presstime import records

        result = records.tally(record)
    except Exception:  # a record the core cannot score still exports its inputs
        return {}, {}
    per_round, per_player = {}, {}
    winners = result.get("winners") or []
    for p in result.get("players") or []:
        name = p.get("name")
        cells = {"total": p.get("total")}
        cells.update((m, p.get(m)) for m in MONEY)
        cells.update((o, _flag(p.get(o))) for o in OUT)
        cells["winner"] = _flag(name in winners)
        per_player[name] = cells
        for i, r in enumerate(p.get("rounds") or []):
            cells = {"round_score": r.get("score")}
            cells.update(("round_" + m, r.get(m)) for m in MONEY)
            for c in POINTS:
                cells["pts_" + c] = r.get(c)
            per_round[(name, i)] = cells
    return per_round, per_player


def _board_cells(table, name):
    """The board columns of one player's row, from the round's `table` (read-only copies)."""
    if not isinstance(table, dict):
        return {}
    cells = {}
    for key in ("print_ms", "layout_ms"):
        times = table.get(key)
        if isinstance(times, dict) and _is_int(times.get(name)):
            cells[key] = times[name]
    if isinstance(table.get("tied"), list):
        cells["tied"] = _flag(name in table["tied"])
    return cells


def _flag(v):
    if v is None:
        return ""
    return 1 if v else 0


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return 1 if v else 0
    return v


def game_rows(game_id: int, record: Record) -> list[dict[str, Any]]:
    """The CSV rows (dicts keyed by COLUMNS) of one record."""
    game_extra = {}
    base: dict[str, Any] = {"game_id": game_id}
    for k in _GAME_TEXT:
        if k in record:
            if isinstance(record[k], str) and record[k]:
                base[k] = record[k]
            else:
                game_extra[k] = record[k]
    seats = _seats(record)
    if (seats is None or seats == []) and "players" in record:
        game_extra["players"] = record["players"]
        seats = []
    seats = seats or []
    names = [s[0] for s in seats]
    rounds = record.get("rounds")
    if "rounds" in record and not (
        isinstance(rounds, list) and all(isinstance(r, dict) for r in rounds)
    ):
        game_extra["rounds"] = rounds
        rounds = None
    if "rounds" in record and rounds == []:
        game_extra["rounds"] = []
    rounds = rounds or []
    for k, v in record.items():
        if k not in _GAME_TEXT and k not in ("players", "rounds"):
            game_extra[k] = v

    per_round, per_player = _derived(record)
    rows = []
    seen_seat = set()

    def seat_cells(si):
        name, character, extra = seats[si]
        cells = {"seat": si + 1, "player": name, "character": character}
        if si not in seen_seat:
            seen_seat.add(si)
            if extra is not None:
                cells["player_extra"] = _js(extra)
        cells.update(per_player.get(name, {}))
        return cells

    for ri, rnd in enumerate(rounds):
        entries, tokens, round_extra = _round_shape(rnd, names)
        first = True
        for si, name in enumerate(names):
            if name not in entries:
                continue
            row = dict(base)
            row.update(seat_cells(si))
            row["round"] = ri + 1
            if "day" in rnd and "day" not in round_extra:
                row["day"] = rnd["day"]
            if name in tokens:
                row["token"] = tokens[name]
            entry_extra = {}
            for k, v in entries[name].items():
                if k in INPUTS and _is_int(v):
                    row[k] = v
                else:
                    entry_extra[k] = v
            if entry_extra:
                row["entry_extra"] = _js(entry_extra)
            if first and round_extra:
                row["round_extra"] = _js(round_extra)
            first = False
            row.update(per_round.get((name, ri), {}))
            row.update(_board_cells(rnd.get("table"), name))
            rows.append(row)
        if first:  # a round nobody has an entry in
            row = dict(base)
            row["round"] = ri + 1
            if "day" in rnd and "day" not in round_extra:
                row["day"] = rnd["day"]
            if round_extra:
                row["round_extra"] = _js(round_extra)
            rows.append(row)
    for si in range(len(seats)):
        if si not in seen_seat:
            row = dict(base)
            row.update(seat_cells(si))
            rows.append(row)
    if not rows:
        rows.append(dict(base))
    # the seat order is the order of `players`: keep a seat-only row before the round rows
    rows.sort(key=lambda r: (r.get("round", 0), r.get("seat", 0)))
    if game_extra:
        rows[0]["game_extra"] = _js(game_extra)
    out = [dict((c, _cell(row.get(c))) for c in COLUMNS) for row in rows]
    for row in out:
        for c in TEXT:
            row[c] = quote_text(row[c])
    return out


def to_rows(games: list[tuple[int, Record]]) -> list[dict[str, Any]]:
    """CSV rows for [(game_id, record)]."""
    rows = []
    for game_id, record in games:
        rows.extend(game_rows(game_id, record))
    return rows


# --- reading ---------------------------------------------------------------------------------


class _Problems:
    def __init__(self, where):
        self.where = where
        self.messages = []

    def add(self, line, text):
        self.messages.append("%s: line %d: %s" % (self.where, line, text))


def _int_cell(problems, line, column, text):
    text = text.strip()
    if text == "":
        return None
    try:
        if len(text) > 12:
            raise ValueError(text)
        return int(text)
    except ValueError:
        problems.add(
            line,
            "column %s: %r is not a whole number%s"
            % (column, text[:20], " (%d characters)" % len(text) if len(text) > 20 else ""),
        )
        return None


def _json_cell(problems, line, column, text, kind=None):
    text = text.strip()
    if text == "":
        return None

    try:
        value = loads(text)
    except ValueError as e:
        problems.add(line, "column %s: not JSON (%s)" % (column, e))
        return None
    if kind is dict and not isinstance(value, dict):
        problems.add(line, "column %s: must be a JSON object" % column)
        return None
    return value


def check_header(header: list[str], where: str) -> None:
    missing = [c for c in KEYS + INPUTS if c not in header]
    if missing:
        raise BadInput(
            "%s: line 1: the CSV header lacks the column(s) %s" % (where, ", ".join(missing))
        )


def from_rows(
    rows: Sequence[dict[str, str]] | Sequence[tuple[int, dict[str, str]]], where: str = "CSV"
) -> list[tuple[int, Record]]:
    """[(game_id, record)] rebuilt from csv.DictReader rows; BadInput naming file, line and column.

    `rows` is a sequence of (line number, dict) or of dicts (lines then counted from 2).
    """
    problems = _Problems(where)
    games = {}
    order = []
    for i, item in enumerate(rows):
        line, row = item if isinstance(item, tuple) else (i + 2, item)
        row = dict((k, (v if v is not None else "")) for k, v in row.items() if k is not None)
        for c in TEXT:
            if c in row:
                row[c] = unquote_text(row[c])
        gid = row.get("game_id", "").strip()
        if gid == "":
            problems.add(line, "column game_id is empty")
            continue
        if gid not in games:
            games[gid] = {"line": line, "base": {}, "game_extra": None, "seats": {}, "rounds": {}}
            order.append(gid)
        g = games[gid]
        for k in _GAME_TEXT:
            v = row.get(k, "")
            if v != "" and k not in g["base"]:
                g["base"][k] = v
        ge = _json_cell(problems, line, "game_extra", row.get("game_extra", ""), dict)
        if ge is not None:
            if g["game_extra"] is not None:
                problems.add(line, "game %s has game_extra on more than one row" % gid)
            g["game_extra"] = ge
        seat = _int_cell(problems, line, "seat", row.get("seat", ""))
        rnd = _int_cell(problems, line, "round", row.get("round", ""))
        if seat is not None and seat < 1:
            problems.add(line, "column seat: seats count from 1")
            seat = None
        if rnd is not None and rnd < 1:
            problems.add(line, "column round: rounds count from 1")
            rnd = None
        if seat is not None:
            s = g["seats"].setdefault(seat, {"name": None, "character": "", "extra": None})
            name = row.get("player", "")
            if s["name"] is None:
                s["name"] = name
                s["character"] = row.get("character", "").strip()
            elif s["name"] != name:
                problems.add(
                    line, "seat %d is %r on an earlier row, here %r" % (seat, s["name"], name)
                )
            pe = _json_cell(problems, line, "player_extra", row.get("player_extra", ""), dict)
            if pe is not None:
                s["extra"] = pe
        if rnd is not None:
            r = g["rounds"].setdefault(rnd, {"day": None, "extra": None, "entries": {}})
            day = row.get("day", "")
            if day != "" and r["day"] is None:
                r["day"] = day
            re_ = _json_cell(problems, line, "round_extra", row.get("round_extra", ""), dict)
            if re_ is not None:
                r["extra"] = re_
            if seat is not None:
                if seat in r["entries"]:
                    problems.add(
                        line, "game %s: round %d, seat %d appears twice" % (gid, rnd, seat)
                    )
                    continue
                entry = {}
                for c in INPUTS:
                    v = _int_cell(problems, line, c, row.get(c, ""))
                    if v is not None:
                        entry[c] = v
                ee = _json_cell(problems, line, "entry_extra", row.get("entry_extra", ""), dict)
                if ee:
                    for k, v in ee.items():
                        entry[k] = v
                token = _int_cell(problems, line, "token", row.get("token", ""))
                r["entries"][seat] = (entry, token, line)
        elif row.get("round_extra", "").strip():
            problems.add(line, "column round_extra needs a round number in column round")
        if seat is None and row.get("player_extra", "").strip():
            problems.add(line, "column player_extra needs a seat number in column seat")
        if seat is None or rnd is None:
            stray = [c for c in INPUTS + ["token", "entry_extra"] if row.get(c, "").strip()]
            if stray:
                problems.add(
                    line,
                    "column %s: a count belongs to a player in a round: "
                    "this row lacks a %s number" % (stray[0], "seat" if seat is None else "round"),
                )
    if problems.messages:
        raise BadInput(problems.messages)
    out = []
    for gid in order:
        out.append((gid, _build(games[gid], gid, problems)))
    if problems.messages:
        raise BadInput(problems.messages)
    return out


def _build(g, gid, problems):
    record = {}
    extra = g["game_extra"] or {}
    for k in _GAME_TEXT:
        if k in g["base"]:
            record[k] = g["base"][k]
        elif k in extra:
            record[k] = extra[k]
    seats = sorted(g["seats"])
    if seats != list(range(1, len(seats) + 1)):
        problems.add(
            g["line"],
            "game %s: seats must be numbered 1, 2, 3… without a gap (have %s)"
            % (gid, ", ".join(str(s) for s in seats)),
        )
        return record
    names = {}
    if seats:
        players = []
        for s in seats:
            info = g["seats"][s]
            names[s] = info["name"]
            if info["extra"] is None and not info["character"]:
                players.append(info["name"])
            else:
                p = {"name": info["name"]}
                if info["character"]:
                    p["character"] = info["character"]
                for k, v in (info["extra"] or {}).items():
                    p[k] = v
                players.append(p)
        record["players"] = players
    elif "players" in extra:
        record["players"] = extra["players"]
    rounds_no = sorted(g["rounds"])
    if rounds_no and rounds_no != list(range(1, len(rounds_no) + 1)):
        problems.add(g["line"], "game %s: rounds must be numbered 1, 2, 3… without a gap" % gid)
        return record
    if rounds_no:
        rounds = []
        for n in rounds_no:
            r = g["rounds"][n]
            rec = {}
            rextra = r["extra"] or {}
            if r["day"] is not None:
                rec["day"] = r["day"]
            elif "day" in rextra:
                rec["day"] = rextra["day"]
            tokens = []
            entries = {}
            for s in sorted(r["entries"]):
                entry, token, line = r["entries"][s]
                entries[names[s]] = entry
                if token is not None:
                    tokens.append((token, names[s], line))
            if tokens:
                tokens.sort()
                for i, (token, name, line) in enumerate(tokens):
                    if token != i + 1:
                        problems.add(
                            line,
                            "game %s: round %d: finishing tokens must be 1, 2, 3… "
                            "without a gap or a repeat (%s has %d)" % (gid, n, name, token),
                        )
                        break
                rec["finish"] = [t[1] for t in tokens]
            elif "finish" in rextra:
                rec["finish"] = rextra["finish"]
            if entries:
                rec["players"] = entries
            elif "players" in rextra:
                rec["players"] = rextra["players"]
            for k, v in rextra.items():
                if k not in rec:
                    rec[k] = v
            rounds.append(rec)
        record["rounds"] = rounds
    elif "rounds" in extra:
        record["rounds"] = extra["rounds"]
    for k, v in extra.items():
        if k not in record:
            record[k] = v
    return record
