"""Per-player statistics over the history, per game type, from the core's own results.

`compute(records)` → {"games": {game type: {"games", "in_progress", "unscorable",
"players": {name: {...}}}}}. Decisions (docs/history.md):
- a player is their name (case and spelling as entered);
- only complete games count; games in progress and records the core refuses are only counted;
- average score: over the games whose total is a number (a puzzle left incomplete has none);
- per category: the average points per round of each numeric round field the core reports
  (Fit to Print: articles, photos, centerpiece, white_space, mood, unplaced, score, ad_revenue…;
  a field a round lacks counts 0), plus per game the result's own numeric columns (Heat: money…);
- average finishing token: over the rounds where the player took one;
- average print time (`average_print_ms`): the round time of the player's Print! press, over the
  rounds the board timed (the round's `table`, from `presstime play` or `sync`).
"""

from .errors import BadInput


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _avg(total, count):
    if not count:
        return None
    return round(total / count, 2)


class _Player:
    def __init__(self):
        self.games = 0
        self.wins = 0
        self.scored = 0
        self.score_sum = 0
        self.out = 0
        self.rounds = 0
        self.round_sums = {}
        self.game_sums = {}
        self.tokens = []
        self.ad_sum = 0
        self.ad_games = 0
        self.print_ms = []

    def add(self, p, winners, columns, print_ms=()):
        self.games += 1
        if p.get("name") in winners:
            self.wins += 1
        if _num(p.get("total")):
            self.scored += 1
            self.score_sum += p["total"]
        if p.get("out_of_business"):
            self.out += 1
        if _num(p.get("ad_revenue")):
            self.ad_games += 1
            self.ad_sum += p["ad_revenue"]
        rounds = p.get("rounds") or []
        seen = set()
        for r in rounds:
            for k, v in r.items():
                if k != "token" and _num(v):
                    seen.add(k)
        for k in seen:
            self.round_sums[k] = self.round_sums.get(k, 0) + sum(
                r.get(k, 0) for r in rounds if _num(r.get(k, 0)))
        self.rounds += len(rounds)
        for r in rounds:
            if _num(r.get("token")):
                self.tokens.append(r["token"])
        self.print_ms.extend(print_ms)
        for c in columns:
            if _num(p.get(c)):
                s = self.game_sums.setdefault(c, [0, 0])
                s[0] += p[c]
                s[1] += 1

    def as_dict(self):
        return {
            "games": self.games,
            "wins": self.wins,
            "average_score": _avg(self.score_sum, self.scored),
            "out_of_business": self.out,
            "average_ad_revenue": _avg(self.ad_sum, self.ad_games),
            "average_token": _avg(sum(self.tokens), len(self.tokens)),
            "average_print_ms": (sum(self.print_ms) // len(self.print_ms)) if self.print_ms else None,
            "rounds": self.rounds,
            "per_round": dict((k, _avg(self.round_sums[k], self.rounds)) for k in sorted(self.round_sums)),
            "per_game": dict((k, _avg(v[0], v[1])) for k, v in sorted(self.game_sums.items())),
        }


def _print_times(record):
    """{name: [ms of each timed Print! press]} from the rounds' `table` fields."""
    out = {}
    for rnd in record.get("rounds") or []:
        table = rnd.get("table") if isinstance(rnd, dict) else None
        times = table.get("print_ms") if isinstance(table, dict) else None
        if isinstance(times, dict):
            for name, ms in times.items():
                out.setdefault(name, []).append(ms)
    return out


def compute(records):
    """Statistics over an iterable of game records (see the module docstring)."""
    from . import records as records_mod

    types = {}
    for record in records:
        game = record.get("game", "fit-to-print") if isinstance(record, dict) else "?"
        t = types.setdefault(game, {"games": 0, "in_progress": 0, "unscorable": 0, "players": {}})
        try:
            result = records_mod.tally(record)
        except BadInput:
            t["unscorable"] += 1
            continue
        if not result.get("complete", True):
            t["in_progress"] += 1
            continue
        t["games"] += 1
        winners = result.get("winners") or []
        columns = [c for c in result.get("columns") or [] if c not in ("total",)]
        times = _print_times(record)
        for p in result.get("players") or []:
            t["players"].setdefault(p.get("name"), _Player()).add(p, winners, columns, times.get(p.get("name"), ()))
    out = {}
    for game in sorted(types):
        t = types[game]
        out[game] = {
            "games": t["games"], "in_progress": t["in_progress"], "unscorable": t["unscorable"],
            "players": dict((name, t["players"][name].as_dict()) for name in sorted(t["players"])),
        }
    return {"games": out}
