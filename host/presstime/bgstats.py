"""`presstime export --format bgstats`: the history as a BG Stats backup (BGStatsExport.json).

BG Stats (the phone app) backs up to and restores from one JSON object with the lists `games`,
`players`, `locations` and `plays`, linked by integer ids (`gameRefId`, `playerRefId`,
`locationRefId`). The field names and types here are those the app writes and that the public
projects reading and writing the file use (a play's `playDate` "YYYY-MM-DD HH:MM:SS", a player's
`score` a string, `winner` a boolean…). The mapping is in docs/history.md ("BG Stats export").
Everything comes from the stored results: nothing is scored again.
"""

import json
import uuid

from . import game_words, records

# uuid5 namespace for presstime's objects in a BG Stats file: the same game, player or place
# gets the same uuid in every export, so that restoring twice does not duplicate anything
NAMESPACE = uuid.UUID("6f1b1d9e-3c0a-5d7e-9a51-7072657373a1")


def _uuid(kind, key):
    return str(uuid.uuid5(NAMESPACE, "%s:%s" % (kind, key)))


def _stamp(iso):
    """"YYYY-MM-DD HH:MM:SS" from a stored ISO time ("2026-11-23T13:29:40+00:00")."""
    return (iso or "")[:19].replace("T", " ")


def _score(value):
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def _ranks(players):
    """{seat: rank}: the standing order of records.ranked (winners 1, then by total)."""
    winners = [p["name"] for p in players if p["won"]]
    return dict((p["seat"], rank) for rank, p in records.ranked(players, winners))


def export(store, where="1", params=(), skip=()):
    """The BGStatsExport.json object for the stored games matching `where` (on results r),
    damaged ones and the ids in `skip` left out; plays oldest first."""
    skip = set(skip)
    games, players, locations, plays = {}, {}, {}, []
    cur = store.conn.execute(
        "SELECT g.id, g.fingerprint, g.added_at, g.updated_at, r.game, r.mode, r.edition, r.played,"
        " r.place, r.state, r.rounds, r.duration_ms, r.decided_by FROM results r JOIN games g ON g.id = r.game_id"
        " WHERE r.state != 'damaged' AND " + where + " ORDER BY r.played, r.game_id", list(params))
    rows = [r for r in cur.fetchall() if r[0] not in skip]
    seats = {}
    for game_id, seat, name, total, won in store.conn.execute(
            "SELECT p.game_id, p.seat, p.name, p.total, p.won FROM result_players p JOIN results r"
            " ON r.game_id = p.game_id WHERE r.state != 'damaged' AND " + where
            + " ORDER BY p.game_id, p.seat", list(params)):
        seats.setdefault(game_id, []).append({"seat": seat, "name": name, "total": total, "won": won})
    for (game_id, fingerprint, added_at, updated_at, game, mode, edition, played, place, state, rounds,
         duration_ms, decided_by) in rows:
        if game not in games:
            games[game] = {
                "id": len(games) + 1, "uuid": _uuid("game", game), "name": game_words.title(game),
                "modificationDate": _stamp(updated_at), "cooperative": False, "highestWins": True,
                "noPoints": False, "usesTeams": False, "bggId": 0, "bggName": "", "bggYear": 0,
            }
        table = seats.get(game_id, [])
        for p in table:
            if p["name"] not in players:
                players[p["name"]] = {
                    "id": len(players) + 1, "uuid": _uuid("player", p["name"]), "name": p["name"],
                    "isAnonymous": False, "modificationDate": _stamp(updated_at), "bggUsername": "",
                }
        play = {
            "uuid": _uuid("play", fingerprint or game_id),
            "modificationDate": _stamp(updated_at), "entryDate": _stamp(added_at), "playDate": played,
            "usesTeams": False, "durationMin": int(duration_ms // 60000), "ignored": state != "complete",
            "manualWinner": False, "rounds": rounds, "gameRefId": games[game]["id"], "rating": 0,
            "scoringSetting": 0, "playImages": "[]", "board": mode if mode and mode != "standard" else "",
            "comments": _comment(game_id, game, mode, edition, state, decided_by),
        }
        if place:
            if place not in locations:
                locations[place] = {"id": len(locations) + 1, "uuid": _uuid("location", place), "name": place,
                                    "modificationDate": _stamp(updated_at)}
            play["locationRefId"] = locations[place]["id"]
        ranks = _ranks(table)
        play["playerScores"] = [{
            "playerRefId": players[p["name"]]["id"], "score": _score(p["total"]), "winner": bool(p["won"]),
            "newPlayer": False, "startPlayer": False, "rank": ranks[p["seat"]] if state == "complete" else 0,
            "seatOrder": p["seat"], "role": "", "team": "",
        } for p in table]
        plays.append(play)
    return {"games": list(games.values()), "players": list(players.values()),
            "locations": list(locations.values()), "plays": plays}


def _comment(game_id, game, mode, edition, state, decided_by):
    parts = ["presstime game #%d: %s" % (game_id, game_words.full_title(game, mode, edition))]
    if state != "complete":
        parts.append("in progress (ignored in the statistics)")
    if decided_by:
        parts.append("winner: " + decided_by)
    return "; ".join(parts)


def text(value):
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
