"""Rebuild the games a board played from its journal, with the board's own round machine.

The journal's events are applied, in order, to a `presstime.core.table.Table` (the code the
board runs, via the same `apply` that `core.events.replay` uses); every END event closes a
round, and the machine's state at that moment gives the finishing order, the print times and
the ties. A CONFIG event starts a new game. Nothing here decides a rule.
"""

from .core import events as E


def games_from_journal(records):
    """[(seq, payload bytes)] -> [game], oldest first. A game:
    {"seq": seq of its CONFIG, "config": {...}, "rounds": [round], "over": bool}
    round: {"round": n, "day", "finish": [names, token 1 first], "print_ms": {name: ms},
            "tied": [names], "end": reason name, "elapsed_ms"}."""
    from .core.table import Table

    games = []
    game = None
    table = Table()
    for seq, payload in records:
        try:
            ev = E.decode(payload)
        except ValueError:
            continue  # a record from a newer firmware: skipped, the rest still counts
        if ev[0] == E.CONFIG:
            table = Table()
            game = {"seq": seq, "config": ev[1], "rounds": [], "over": False}
            games.append(game)
        if game is None:
            continue  # records before the first set-up (e.g. a journal that rolled over)
        table.apply(ev)
        if ev[0] == E.END:
            game["rounds"].append(_round(table, ev))
        if ev[0] == E.NEXT and table.status().get("phase") == "over":
            game["over"] = True
    return games


_REASONS = {E.END_ALL: "all printed", E.END_TIME: "time-out", E.END_GRACE: "grace closed",
            E.END_CONTROL: "ended", E.END_WIN: "target reached"}


def _round(table, ev):
    st = table.status()
    players = st.get("players", [])
    by_token = sorted((p["token"], i) for i, p in enumerate(players) if p.get("token"))
    names = [p["name"] for p in players]
    return {
        "round": st.get("round"),
        "day": st.get("day"),
        "finish": [names[i] for _, i in by_token],
        "print_ms": dict((p["name"], p["print_ms"]) for p in players if p.get("print_ms") is not None),
        "tied": [p["name"] for p in players if p.get("tied")],
        "end": _REASONS.get(ev[1], str(ev[1])),
        "elapsed_ms": ev[2],
    }


def game_record(game, base=None):
    """A game record (the history's format) for a rebuilt game: players, mode, edition, and each
    round's day and finishing order. `base`: a record already holding scorepad numbers, updated."""
    cfg = game["config"]
    record = dict(base) if base else {}
    record.setdefault("game", cfg.get("game", "fit-to-print"))
    record.setdefault("mode", cfg.get("mode", "standard"))
    record.setdefault("edition", cfg.get("edition", "published"))
    record.setdefault("players", list(cfg.get("names", [])))
    rounds = list(record.get("rounds") or [])
    for i, r in enumerate(game["rounds"]):
        while len(rounds) <= i:
            rounds.append({"players": {}})
        rnd = dict(rounds[i])
        if r.get("day"):
            rnd["day"] = r["day"]
        if r["finish"]:
            rnd["finish"] = r["finish"]
        rnd.setdefault("players", {})
        rounds[i] = rnd
    record["rounds"] = rounds
    return record


def game_key(board_id, game):
    """The history key of a board's game: source of the stored game, key of its draft."""
    return "board:%s:%d" % (board_id, game["seq"])
