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
            "tied": [names], "end": reason name, "elapsed_ms", "reveals": reveals done
            (ready-reveal: Heat's stages of the heist, Mini FITS's cards of the round)}.

    A round closes when the machine enters its summary, whatever event took it there: END (Fit
    to Print, or a turn game the control button ended), the last REVEAL of a heist or Mini FITS
    round (ready-reveal modes journal no END), or the PHOTO that reached the target. An UNDO that
    takes the machine out of the summary reopens that round."""
    from .core.table import SUMMARY, TURNS, Table

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
    st = table.status()
    players = st.get("players", [])
    by_token = sorted((p["token"], i) for i, p in enumerate(players) if p.get("token"))
    names = [p["name"] for p in players]
    reason = st.get("end_reason")
    if st.get("mode") == "ready-reveal":
        end = "all revealed"
    else:
        end = _REASONS.get(reason, str(reason))
    return {
        "round": st.get("round"),
        "day": st.get("day"),
        "finish": [names[i] for _, i in by_token],
        "print_ms": dict((p["name"], p["print_ms"]) for p in players if p.get("print_ms") is not None),
        "tied": [p["name"] for p in players if p.get("tied")],
        "end": end,
        "elapsed_ms": table.elapsed_ms(),
        "reveals": table.step,
    }


def game_record(game, base=None):
    """A game record (the history's format) for a rebuilt game. `base`: a record already holding
    scorepad numbers, updated with what the board knows.

    Fit to Print: players, mode, edition, and each round's day and finishing order.
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
