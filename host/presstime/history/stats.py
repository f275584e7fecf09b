"""Per-player statistics over the history, per game type and overall, aggregated in SQL from the
results stored with each game (docs/history.md, "Statistics"). Nothing is scored here, and the
memory used does not grow with the number of games: SQLite aggregates, and the one pass Python
makes (the streaks) reads a cursor row by row.

    from_store(store, selection=None, vs=None) -> {"games": {game type: {...}}, "overall": {...},
    ...}
    compute(records)                           -> the same over a list of records (an in-memory
    store)

Decisions:
- a player is their name, by the core's one rule (core/config.py key, docs/faults.md): names
  stored in NFC, and names that differ only in the case of ASCII letters are one player (SQLite's
  COLLATE NOCASE folds the same letters), shown in one of its spellings;
- only complete games count; games in progress are only counted; damaged games are listed;
- average score: over the games whose total is a number (a puzzle left incomplete has none);
- per category (`per_round`): the average per round of each number the core reports for a round,
  over the rounds of the modes that have it (a family-mode day does not count as 0 white space;
  within a mode, a round without the field counts 0); `per_game`: the mean of the result's own
  number columns;
- average finishing token: over the rounds where the player took one; average print time: over
  the rounds the board timed;
- streaks: games won in a row, in the order they were played (longest, and the current one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from presstime import games as faces
from presstime.history.results import summarize
from presstime.history.store import MONEY_COLUMN, OUT_COLUMN, Store, _insert_results

if TYPE_CHECKING:
    import sqlite3

    from presstime.hints import Record
    from presstime.history.select import Selection
    from presstime.history.store import Store


def _avg(total, count):
    if not count or total is None:
        return None
    return round(total / count, 2)


def _mode_scores(game, mode, key):
    """Does a round of this game and mode score the category `key`? (Fit to Print's family mode
    has no centerpiece, white space or mood: the core reports them as 0 there.)"""
    face = faces.face(game)
    return face is None or face.mode_scores(mode, key)


def _round(v):
    return None if v is None else round(v, 2)


_PLAYER_SUMS = (
    "games",
    "wins",
    "score_sum",
    "score_n",
    "best",
    OUT_COLUMN,
    "ads_sum",
    "ads_n",
    "token_sum",
    "token_n",
    "print_ms_sum",
    "print_ms_n",
    "rounds",
)


def _sources(selection):
    """(players source, values source, streak condition, params of each): the per (game, mode,
    player) sums over the selected complete games. Only --game / --mode: the running totals the
    store keeps (agg_players, agg_values); any other filter: summed now from the detail rows."""
    if selection is None or not (selection.player or selection.since or selection.until):
        cond, params = [], []
        if selection is not None and selection.game:
            cond.append("game = ?")
            params.append(selection.game)
        if selection is not None and selection.mode:
            games_ = selection.mode_games()
            cond.append("game IN (%s) AND mode = ?" % ", ".join("?" * len(games_)))
            params += games_ + [selection.mode]
        cond = " AND ".join(cond) or "1"
        return (
            "SELECT * FROM agg_players WHERE " + cond,
            "SELECT * FROM agg_values WHERE " + cond,
            cond,
            params,
        )
    where, params = selection.sql("r")
    cond = "game_id IN (SELECT r.game_id FROM results r WHERE %s)" % where
    players = (
        "SELECT game, mode, name, COUNT(*) AS games, SUM(won) AS wins, SUM(COALESCE(total, 0)) AS "
        "score_sum,"
        " COUNT(total) AS score_n, MAX(total) AS best, SUM(%(out)s) AS %(out)s,"
        " SUM(COALESCE(%(money)s, 0)) AS ads_sum, COUNT(%(money)s) AS ads_n, SUM(token_sum) AS "
        "token_sum,"
        " SUM(token_n) AS token_n, SUM(print_ms_sum) AS print_ms_sum, SUM(print_ms_n) AS "
        "print_ms_n,"
        " SUM(rounds) AS rounds FROM result_players WHERE state = 'complete' AND "
        % {"out": OUT_COLUMN, "money": MONEY_COLUMN}
        + cond
        + " GROUP BY game, mode, name"
    )
    values = (
        "SELECT game, mode, name, kind, key, SUM(value) AS total, COUNT(*) AS n FROM result_values"
        " WHERE state = 'complete' AND " + cond + " GROUP BY game, mode, name, kind, key"
    )
    return players, values, cond, params


def _key(name):
    """The key SQLite's NOCASE compares `name` by: ASCII letters folded, as the core's key."""
    from presstime.core.config import key

    return key(name)


def from_store(
    store: Store, selection: Selection | None = None, vs: Sequence[str] | None = None
) -> dict[str, Any]:
    """The statistics of the stored games `selection` (a select.Selection) picks."""
    where, params = selection.sql("r") if selection is not None else ("1", [])
    conn = store.conn
    types = {}
    for game, state, count in conn.execute(
        "SELECT r.game, r.state, COUNT(*) FROM results r WHERE r.state != 'damaged' AND "
        + where
        + " GROUP BY r.game, r.state",
        params,
    ):
        t = types.setdefault(game, {"games": 0, "in_progress": 0, "players": {}})
        t["games" if state == "complete" else "in_progress"] += count
    damaged = [
        {"id": i, "error": e}
        for i, e in conn.execute(
            "SELECT r.game_id, r.error FROM results r WHERE r.state = 'damaged' AND "
            + where
            + " ORDER BY r.game_id",
            params,
        )
    ]
    players_src, values_src, cond, src_params = _sources(selection)
    kept_out = faces.kept("OUT") or OUT_COLUMN  # the stats' keys of the history's one flag
    kept_money = faces.kept("MONEY") or MONEY_COLUMN  # and one money (the faces' OUT, MONEY)
    shown = {}  # (game, name's key) -> the name its row shows (spellings that differ in case: one)
    for row in conn.execute(
        "SELECT game, MIN(name), SUM(games), SUM(wins), SUM(score_sum), SUM(score_n), MAX(best),"
        " SUM(%s), SUM(ads_sum), SUM(ads_n), SUM(token_sum), SUM(token_n), "
        "SUM(print_ms_sum),"
        " SUM(print_ms_n), SUM(rounds) FROM (%s) GROUP BY game, name COLLATE NOCASE"
        % (OUT_COLUMN, players_src),
        src_params,
    ):
        (
            game,
            name,
            games,
            wins,
            score_sum,
            score_n,
            best,
            out,
            ads_sum,
            ads_n,
            token_sum,
            token_n,
            ms_sum,
            ms_n,
            rounds,
        ) = row
        shown[(game, _key(name))] = name
        types[game]["players"][name] = {
            "games": games,
            "wins": wins,
            "win_rate": _avg(wins, games),
            "average_score": _avg(score_sum, score_n),
            "best_score": best,
            kept_out: out,
            "average_" + kept_money: _avg(ads_sum, ads_n),
            "average_token": _avg(token_sum, token_n),
            "average_print_ms": (ms_sum // ms_n) if ms_n else None,
            "rounds": rounds,
            "longest_streak": 0,
            "current_streak": 0,
            "per_round": {},
            "per_game": {},
        }
    # a category's rounds are those of the modes that have it: a family-mode day has no white
    # space, and counting it as 0 halved a player's white space
    mode_rounds = {}
    for game, mode, name, rounds in conn.execute(
        "SELECT game, mode, MIN(name), SUM(rounds) FROM (%s) GROUP BY game, mode, name COLLATE "
        "NOCASE" % players_src,
        src_params,
    ):
        mode_rounds[(game, mode, _key(name))] = rounds or 0
    sums = {}
    for game, mode, name, kind, key, total, count in conn.execute(
        "SELECT game, mode, MIN(name), kind, key, SUM(total), SUM(n) FROM (%s)"
        " GROUP BY game, mode, name COLLATE NOCASE, kind, key" % values_src,
        src_params,
    ):
        if kind == "round" and not _mode_scores(game, mode, key):
            continue
        s = sums.setdefault((game, _key(name), kind, key), [0, 0])
        s[0] += total or 0
        s[1] += mode_rounds.get((game, mode, _key(name)), 0) if kind == "round" else count
    for (game, name_key, kind, key), (total, count) in sums.items():
        p = types[game]["players"][shown[(game, name_key)]]
        p["per_round" if kind == "round" else "per_game"][key] = _avg(total, count)
    _streaks(conn, selection, cond, src_params, types, shown)
    out: dict[str, Any] = {"games": {}}
    for game in sorted(
        types, key=lambda g: (faces.names().index(g) if g in faces.names() else 99, g)
    ):
        t = types[game]
        players = dict((n, t["players"][n]) for n in sorted(t["players"]))
        for p in players.values():
            p["per_round"] = dict(sorted(p["per_round"].items()))
            p["per_game"] = dict(sorted(p["per_game"].items()))
        out["games"][game] = {
            "games": t["games"],
            "in_progress": t["in_progress"],
            "players": players,
            "leaders": _leaders(game, players),
        }
    out["overall"] = _overall(conn, players_src, src_params)
    if damaged:
        out["damaged"] = damaged
    if vs:
        out["head_to_head"] = head_to_head(conn, cond, src_params, vs[0], vs[1])
    return out


def _runs(flags):
    """(longest, current) run of '1' in a string of '0'/'1' (oldest first)."""
    return max(len(r) for r in flags.split("0")), len(flags) - len(flags.rstrip("1"))


def _streak_rows(conn, cond, params):
    """[(game, name, longest, current)] counted now from the detail rows (oldest first); names
    that differ only in the case of ASCII letters are one player (as names.key says)."""
    out = []
    for game, name, flags in conn.execute(
        "SELECT game, MIN(name), group_concat(won, '') FROM (SELECT game, name, won FROM "
        "result_players"
        " WHERE state = 'complete' AND "
        + cond
        + " ORDER BY game, name COLLATE NOCASE, played, game_id)"
        " GROUP BY game, name COLLATE NOCASE",
        params,
    ):
        out.append((game, name) + _runs(flags))
    return out


def _streaks(conn, selection, cond, params, types, shown):
    """Longest and current winning streak of each player per game type. Everything or one game:
    the streaks the store keeps (those marked dirty counted again, and kept); else counted now,
    as they are when one player's games hold names that differ in case (the store keeps a
    streak per spelling)."""
    spellings = {}
    for game, name in conn.execute("SELECT game, name FROM agg_streaks"):
        spellings.setdefault((game, _key(name)), []).append(name)
    if (
        selection is not None
        and (selection.mode or selection.player or selection.since or selection.until)
    ) or any(len(v) > 1 for v in spellings.values()):
        rows = _streak_rows(conn, cond, params)
    else:
        where, args = (
            ("game = ?", [selection.game])
            if selection is not None and selection.game
            else ("1", [])
        )
        rows, dirty = [], []
        for game, name, longest, current, is_dirty in conn.execute(
            "SELECT game, name, longest, current, dirty FROM agg_streaks WHERE " + where, args
        ):
            if is_dirty:
                dirty += _streak_rows(conn, "game = ? AND name = ?", [game, name]) or [
                    (game, name, None, None)
                ]
            else:
                rows.append((game, name, longest, current))
        if dirty:
            _keep_streaks(conn, dirty)
        rows += [d for d in dirty if d[2] is not None]
    for game, name, longest, current in rows:
        p = types.get(game, {}).get("players", {}).get(shown.get((game, _key(name))))
        if p is not None:
            p["longest_streak"], p["current_streak"] = longest, current


def _keep_streaks(conn, rows):
    """Store streaks counted again (a read-only history just counts them again next time)."""
    import sqlite3

    try:
        conn.execute("BEGIN IMMEDIATE")
        for game, name, longest, current in rows:
            if longest is None:
                conn.execute("DELETE FROM agg_streaks WHERE game = ? AND name = ?", (game, name))
                continue
            last = conn.execute(
                "SELECT played, game_id FROM result_players WHERE state = 'complete' AND game = ? "
                "AND name = ?"
                " ORDER BY played DESC, game_id DESC LIMIT 1",
                (game, name),
            ).fetchone()
            conn.execute(
                "UPDATE agg_streaks SET longest = ?, current = ?, last_played = ?, last_game_id = "
                "?,"
                " dirty = 0 WHERE game = ? AND name = ?",
                (longest, current) + tuple(last) + (game, name),
            )
        conn.execute("COMMIT")
    except sqlite3.OperationalError:
        if conn.in_transaction:
            conn.execute("ROLLBACK")


def _leaders(game, players):
    """Who stands out per category ("the photographer"): the highest average per round."""
    out = {}
    face = faces.face(game)
    for key, title, how, best in face.LEADERS if face is not None else ():
        values = [
            (p["per_round"].get(key), n)
            for n, p in players.items()
            if p["per_round"].get(key) is not None
        ]
        if not values:
            continue
        top = max(v for v, _ in values)
        if best == "least":  # points lost (mood): the gloomiest loses most
            top = min(v for v, _ in values)
        out[key] = {
            "title": title,
            "how": how,
            "players": [n for v, n in values if v == top],
            "value": top,
        }
    return out


def _overall(conn, players_src, params):
    out = {}
    for name, games, wins, token_sum, token_n, ms_sum, ms_n, kinds in conn.execute(
        "SELECT MIN(name), SUM(games), SUM(wins), SUM(token_sum), SUM(token_n), SUM(print_ms_sum),"
        " SUM(print_ms_n), COUNT(DISTINCT game) FROM (%s) GROUP BY name COLLATE NOCASE"
        % players_src,
        params,
    ):
        out[name] = {
            "games": games,
            "wins": wins,
            "win_rate": _avg(wins, games),
            "game_types": kinds,
            "average_token": _avg(token_sum, token_n),
            "average_print_ms": (ms_sum // ms_n) if ms_n else None,
        }
    return dict(sorted(out.items()))


def head_to_head(
    conn: sqlite3.Connection, cond: str, params: list[Any], a: str, b: str
) -> dict[str, Any]:
    """A against B in the complete games both played: per game type, games together, each one's
    wins, who finished with the higher total how often, and their average totals."""
    out = {"players": [a, b], "games": {}}
    for game, games, a_wins, b_wins, a_ahead, b_ahead, level, a_avg, b_avg in conn.execute(
        "SELECT x.game, COUNT(*), SUM(x.won), SUM(y.won), SUM(x.total > y.total), SUM(x.total < "
        "y.total),"
        " SUM(x.total = y.total), AVG(x.total), AVG(y.total) FROM result_players x"
        " JOIN result_players y ON y.game_id = x.game_id AND y.seat != x.seat"
        " WHERE x.name = ? COLLATE NOCASE AND y.name = ? COLLATE NOCASE AND x.state = 'complete'"
        " AND x.game_id IN (SELECT game_id FROM result_players WHERE state = 'complete' AND "
        + cond
        + ")"
        " GROUP BY x.game",
        [a, b] + list(params),
    ):
        out["games"][game] = {
            "games": games,
            "wins": [a_wins, b_wins],
            "ahead": [a_ahead, b_ahead],
            "level": level,
            "average_score": [_round(a_avg), _round(b_avg)],
        }
    return out


def compute(records: list[Record]) -> dict[str, Any]:
    """Statistics over game records (any, good or not) through an in-memory store: the same SQL."""
    import json

    with Store(":memory:") as store:
        with store._write():
            for record in records:
                text = json.dumps(record, ensure_ascii=False)
                cur = store.conn.execute(
                    "INSERT INTO games (record, source, added_at, updated_at) VALUES (?, '', '', "
                    "'')",
                    (text,),
                )
                _insert_results(store.conn, cur.lastrowid, summarize(text, ""))
        return from_store(store)
