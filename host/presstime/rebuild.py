"""Rebuild the games a board played from its journal, with the board's own round machine.

The journal's events are applied, in order, to a `presstime.core.table.Table` (the code the
board runs, via the same `apply` that `core.events.replay` uses); entering the summary closes a
round, and the machine's state at that moment gives the finishing order, the print times and
the ties (Fit to Print), the reveals (Heat, Mini FITS) or the photo tokens (Myth Fits). A
CONFIG event starts a new game. Nothing here decides a rule.
"""

from .core import events as E


def games_from_journal(records):
    """[(seq, payload bytes)] -> [game], oldest first. A game:
    {"seq": seq of its CONFIG, "config": {...}, "rounds": [round], "over": bool,
     "photo_tokens": {name: n} (turns mode), "winner": name or None (a win the board showed)}
    round: {"round": n, "day", "finish": [names, token 1 first], "print_ms": {name: ms},
            "layout_ms": {name: ms} (two-step), "tied": [names], "end": reason name, "elapsed_ms",
            "reveals": reveals done
            (ready-reveal: Heat's stages of the heist, Mini FITS's cards of the round)}.

    A round closes when the machine enters its summary, whatever event took it there: END (Fit
    to Print, or a turn game the control button ended), the last REVEAL of a heist or Mini FITS
    round (ready-reveal modes journal no END), or the PHOTO that reached the target. An UNDO that
    takes the machine out of the summary reopens that round."""
    from .core.table import SUMMARY, TURNS, Table

    games = []
    game = None
    table = Table()
    prev = None
    for seq, payload in records:
        if prev is not None and seq != prev + 1:
            game = None     # records the board dropped before a sync: what follows is another game
            table = Table()
        prev = seq
        try:
            ev = E.decode(payload)
        except ValueError:
            continue  # a record from a newer firmware: skipped, the rest still counts
        if ev[0] == E.CONFIG:
            table = Table()
            game = {"seq": seq, "config": ev[1], "rounds": [], "over": False, "winner": None}
            games.append(game)
        if game is None:
            continue  # records before the first set-up (e.g. a journal that rolled over)
        before = table.phase
        table.apply(ev)
        if table.phase == SUMMARY and before != SUMMARY:
            game["rounds"].append(_round(table))
        elif before == SUMMARY and table.phase != SUMMARY and ev[0] == E.UNDO and game["rounds"]:
            game["rounds"].pop()
        if ev[0] == E.NEXT and table.status().get("phase") == "over":
            game["over"] = True
        if table.mode == TURNS:
            names = ev[1]["names"] if ev[0] == E.CONFIG else game["config"]["names"]
            game["photo_tokens"] = dict((names[i], table.photos[i]) for i in range(len(names)))
            game["winner"] = names[table.winner] if table.winner >= 0 else None
    return games


_REASONS = {E.END_ALL: "all printed", E.END_TIME: "time-out", E.END_GRACE: "grace closed",
            E.END_CONTROL: "ended", E.END_WIN: "target reached"}


def _round(table):
    return round_of(table.status(), table.step)


def round_of(st, reveals=0):
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


def table_block(r):
    """A Fit to Print round's `table` field (docs/game-format.md) from a closed round: what the
    board measured. Times are round time in ms (pauses excluded); `layout_ms` (two-step mode)
    and `tied` appear only when they say something."""
    block = {"print_ms": dict(r["print_ms"]), "end": r["end"], "elapsed_ms": r["elapsed_ms"]}
    if r.get("layout_ms"):
        block["layout_ms"] = dict(r["layout_ms"])
    if r.get("tied"):
        block["tied"] = list(r["tied"])
    return block


def game_record(game, base=None):
    """A game record (the history's format) for a rebuilt game. `base`: a record already holding
    scorepad numbers, updated with what the board knows.

    Fit to Print: players, mode, edition, and each round's day, finishing order and `table`
    (print and layout times, ties, how the round ended).
    Mini FITS: players and one round per round the board finished (lines and colour sets are
    typed: the board does not know them). Heat: players only (money, heat, the heat value and
    `arrested` are typed). Myth Fits: players and the photo tokens the board counted; `gathered`
    is null unless it was entered."""
    cfg = game["config"]
    kind = cfg.get("game", "fit-to-print")
    record = dict(base) if base else {}
    record.setdefault("game", kind)
    record.setdefault("players", list(cfg.get("names", [])))
    if kind == "heat":
        return record
    if kind == "myth-fits":
        record["photo_tokens"] = dict(game.get("photo_tokens") or
                                      record.get("photo_tokens") or
                                      dict((n, 0) for n in cfg.get("names", [])))
        record.setdefault("gathered", None)
        return record
    rounds = list(record.get("rounds") or [])
    for i, r in enumerate(game["rounds"]):
        while len(rounds) <= i:
            rounds.append({"players": {}})
        rnd = dict(rounds[i])
        if r.get("day"):
            rnd["day"] = r["day"]
        if r["finish"]:
            rnd["finish"] = r["finish"]
        if kind == "fit-to-print":
            rnd["table"] = table_block(r)
        rnd.setdefault("players", {})
        rounds[i] = rnd
    record["rounds"] = rounds
    if kind == "fit-to-print":
        record.setdefault("mode", cfg.get("mode", "standard"))
        record.setdefault("edition", cfg.get("edition", "published"))
    return record


def game_key(board_id, game):
    """The history key of a board's game: source of the stored game, key of its draft."""
    return "board:%s:%d" % (board_id, game["seq"])
