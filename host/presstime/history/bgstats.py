"""BG Stats, the phone app most players log their plays in: three ways in, one mapping.

    export(store, where, params)     BGStatsExport.json: the app's backup, which it restores whole
    export(..., play_file=True)      a .bgsplay play file: the app's import, which matches each play
                                     by its uuid and updates it (the recommended route)
    play_link(play)                  https://app.bgstatsapp.com/createPlay.html?data=...: one play,
                                     one tap on a phone (the scorepad's end of game, `show ID`)

A play's facts (Play) come from the stored results (`results`, `result_players`) or, at the end of
a game on the scorepad, from the same summary of the core's result: nothing is scored again and no
winner decided here. The field names and types are those the app writes and the public projects
reading and writing its files use; the mapping is in docs/history.md ("BG Stats").

Dates: every BG Stats date is the local time of the computer that writes the file (the app shows
plays in its phone's local time): a stored time (UTC) and a record's `date` with an offset are
converted to it; a record's `date` without an offset is already local and kept as typed.
"""

from __future__ import annotations

import datetime
import json
import urllib.parse
import uuid
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from presstime import records
from presstime.errors import BadInput
from presstime.history import game_words
from presstime.history.results import _from_result

if TYPE_CHECKING:
    from presstime.hints import Json, Record, Result
    from presstime.history.store import Store

# uuid5 namespace for presstime's games, players and places in a BG Stats file: the same name
# gets the same uuid in every export. A play's uuid is the stored game's own (store: `uuid`).
NAMESPACE = uuid.UUID("6f1b1d9e-3c0a-5d7e-9a51-7072657373a1")
SOURCE = "presstime"  # BG Stats remembers its matches per (sourceName, source ids)
CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
ABOUT = (
    "This is a Play file that can be read by Board Game Stats. If you see this text, try to use a "
    "share, export or open-in function to open it with Board Game Stats. (Written by presstime.)"
)


def _uuid(kind, key):
    return str(uuid.uuid5(NAMESPACE, "%s:%s" % (kind, key)))


def local_stamp(text: Json) -> str | None:
    """ "YYYY-MM-DD HH:MM:SS" in this computer's local time, from an ISO time: with an offset (a
    stored time, a `date` typed with one) converted, without one kept as it is. None if
    unreadable."""
    if not isinstance(text, str) or len(text) < 10:
        return None
    try:
        when = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is not None:
        when = when.astimezone()
    return when.strftime("%Y-%m-%d %H:%M:%S")


def _face(game):
    from presstime import games

    return games.face(game)


def name(game: str) -> str:
    """The game's name in BG Stats: the face's BG_STATS_NAME, else its title."""
    face = _face(game)
    return (face.BG_STATS_NAME if face is not None else None) or game_words.title(game)


def bgg(game: str) -> tuple[int, str] | None:
    """BoardGameGeek's (id, name) of the game, only when known for sure; else None."""
    face = _face(game)
    return face.BGG if face is not None else None


class Play:
    """One game as BG Stats sees it. `facts`: a results row (state, game, mode, edition, played,
    place, rounds, duration_ms, decided_by); `players`: [{seat (from 1), name, total, won}]."""

    def __init__(
        self,
        play_uuid: str,
        game_id: int | None,
        facts: dict[str, Any],
        players: list[dict[str, Any]],
        date: str | None = None,
        added_at: str | None = None,
        updated_at: str | None = None,
    ) -> None:
        self.uuid = play_uuid
        self.game_id = game_id
        self.facts = facts
        self.players = players
        self.complete = facts["state"] == "complete"
        self.date = local_stamp(date) or local_stamp(added_at) or facts["played"]
        self.added = local_stamp(added_at) or self.date
        self.updated = local_stamp(updated_at) or self.added
        winners = [p["name"] for p in players if p["won"]]
        self.ranks = dict((p["seat"], rank) for rank, p in records.ranked(players, winners))
        totals = [p["total"] for p in players if p["total"] is not None]
        top = set(p["name"] for p in players if totals and p["total"] == max(totals))
        # the rules, not the highest score, named the winners (a tie-break, out of business, ...)
        self.manual_winner = self.complete and bool(winners) and set(winners) != top

    def comments(self) -> str:
        f = self.facts
        title = game_words.full_title(f["game"], f["mode"], f["edition"])
        parts = [
            "presstime game #%d: %s" % (self.game_id, title)
            if self.game_id
            else "presstime: " + title
        ]
        if not self.complete:
            parts.append("in progress (ignored in the statistics)")
        if f["decided_by"]:
            parts.append("winner: " + f["decided_by"])
        return "; ".join(parts)


def _score(value):
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def stored_plays(
    store: Store, where: str = "1", params: Sequence[Any] = (), skip: Iterable[int] = ()
) -> list[Play]:
    """The stored games matching `where` (on results r) as Plays, damaged ones and the ids in
    `skip` left out; oldest first."""
    skip = set(skip)
    rows = store.conn.execute(
        "SELECT g.id, g.uuid, g.added_at, g.updated_at, json_extract(g.record, '$.date'), r.state, "
        "r.game, r.mode, r.edition, r.played, r.place, r.rounds, r.duration_ms, r.decided_by FROM "
        "results r JOIN games g ON g.id = r.game_id WHERE r.state != 'damaged' AND "
        + where
        + " ORDER BY r.played, r.game_id",
        list(params),
    ).fetchall()
    seats = {}
    for game_id, seat, who, total, won in store.conn.execute(
        "SELECT p.game_id, p.seat, p.name, p.total, p.won FROM result_players p JOIN results r"
        " ON r.game_id = p.game_id WHERE r.state != 'damaged' AND "
        + where
        + " ORDER BY p.game_id, p.seat",
        list(params),
    ):
        seats.setdefault(game_id, []).append(
            {"seat": seat, "name": who, "total": total, "won": won}
        )
    out = []
    for (
        game_id,
        play_uuid,
        added_at,
        updated_at,
        date,
        state,
        game,
        mode,
        edition,
        played,
        place,
        rounds,
        duration_ms,
        decided_by,
    ) in rows:
        if game_id in skip:
            continue
        facts = {
            "state": state,
            "game": game,
            "mode": mode,
            "edition": edition,
            "played": played,
            "place": place,
            "rounds": rounds,
            "duration_ms": duration_ms,
            "decided_by": decided_by,
        }
        out.append(
            Play(
                play_uuid,
                game_id,
                facts,
                seats.get(game_id, []),
                date if isinstance(date, str) else None,
                added_at,
                updated_at,
            )
        )
    return out


def result_play(record: Record, result: Result, play_uuid: str, when: str | None = None) -> Play:
    """The Play of a game just finished (not stored yet: the scorepad's end of game), from the
    same summary of the core's result the history stores."""
    when = when or datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    summary = _from_result(record, result, when)
    date = record.get("date") if isinstance(record.get("date"), str) else None
    return Play(play_uuid, None, summary.game, summary.players, date, when, when)


def export(plays: list[Play], me: str | None = None, play_file: bool = False) -> dict[str, Any]:
    """The BGStatsExport.json object (play_file: the .bgsplay play file) for `plays`. me: the
    name of the app's owner among the players (userInfo.meRefId); None: the one in the most
    plays. BadInput when `me` plays in none of them."""
    games, players, locations, out = {}, {}, {}, []
    for play in plays:
        f = play.facts
        if f["game"] not in games:
            bgg_id, bgg_name = bgg(f["game"]) or (0, "")
            games[f["game"]] = {
                "id": len(games) + 1,
                "uuid": _uuid("game", f["game"]),
                "name": name(f["game"]),
                "modificationDate": play.updated,
                "cooperative": False,
                "highestWins": True,
                "noPoints": False,
                "usesTeams": False,
                "bggId": bgg_id,
                "bggName": bgg_name,
                "bggYear": 0,
            }
        for p in play.players:
            if p["name"] not in players:
                players[p["name"]] = {
                    "id": len(players) + 1,
                    "uuid": _uuid("player", p["name"]),
                    "name": p["name"],
                    "isAnonymous": False,
                    "modificationDate": play.updated,
                    "bggUsername": "",
                }
        entry = {
            "uuid": play.uuid,
            "modificationDate": play.updated,
            "entryDate": play.added,
            "playDate": play.date,
            "usesTeams": False,
            "durationMin": int(f["duration_ms"] // 60000),
            "ignored": not play.complete,
            "manualWinner": play.manual_winner,
            "rounds": f["rounds"],
            "gameRefId": games[f["game"]]["id"],
            "rating": 0,
            "scoringSetting": 0,
            "playImages": "[]",
            "comments": play.comments(),
            "board": f["mode"] if f["mode"] and f["mode"] != "standard" else "",
        }
        if f["place"]:
            if f["place"] not in locations:
                locations[f["place"]] = {
                    "id": len(locations) + 1,
                    "uuid": _uuid("location", f["place"]),
                    "name": f["place"],
                    "modificationDate": play.updated,
                }
            entry["locationRefId"] = locations[f["place"]]["id"]
        entry["playerScores"] = [
            {
                "playerRefId": players[p["name"]]["id"],
                "score": _score(p["total"]),
                "winner": bool(p["won"]),
                "newPlayer": False,
                "startPlayer": False,
                "rank": play.ranks[p["seat"]] if play.complete else 0,
                "seatOrder": p["seat"],
                "role": "",
                "team": "",
            }
            for p in play.players
        ]
        out.append(entry)
    if me is not None and me not in players:
        raise BadInput(
            "--me %r: not a player in the exported games (players: %s)"
            % (me, ", ".join(sorted(players)) or "none")
        )
    value = {
        "games": list(games.values()),
        "players": list(players.values()),
        "locations": list(locations.values()),
        "plays": out,
        "userInfo": {"meRefId": players[me or _most_plays(plays)]["id"] if players else 0},
    }
    if play_file:
        value = dict({"about": ABOUT}, **value)
    return value


def _most_plays(plays):
    counts = {}
    for play in plays:
        for p in play.players:
            counts[p["name"]] = counts.get(p["name"], 0) + 1
    return max(counts, key=lambda n: (counts[n], -list(counts).index(n)))


def play_link(play: Play) -> str:
    """BG Stats' one-play link for `play`: the app opens it as a new play, filled in (matched
    again by sourcePlayId, the game's uuid, when the same game is sent twice)."""
    f = play.facts
    game = {
        "name": name(f["game"]),
        "sourceGameId": f["game"],
        "highestWins": True,
        "noPoints": False,
    }
    known = bgg(f["game"])
    if known:
        game["bggId"] = known[0]
    # short: the whole play travels in one link and one QR code (a player is their name here)
    data = {
        "sourceName": SOURCE,
        "sourcePlayId": play.uuid,
        "playDate": play.date,
        "game": game,
        "manualWinner": play.manual_winner,
        "players": [
            dict(
                {
                    "name": p["name"],
                    "sourcePlayerId": p["name"],
                    "winner": bool(p["won"]),
                    "rank": play.ranks[p["seat"]],
                    "seatOrder": p["seat"],
                },
                **({"score": p["total"]} if p["total"] is not None else {}),
            )
            for p in play.players
        ],
    }
    if f["duration_ms"] >= 60000:
        data["durationMin"] = int(f["duration_ms"] // 60000)
    if f["place"]:
        data["location"] = f["place"]
    if f["mode"] and f["mode"] != "standard":
        data["board"] = f["mode"]
    return (
        CREATE_PLAY
        + "?data="
        + urllib.parse.quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
    )


def is_own_file(value: Json) -> bool:
    """Is this JSON one of BG Stats' files (a backup or a play file, such as presstime writes)?"""
    return (
        isinstance(value, dict)
        and isinstance(value.get("plays"), list)
        and isinstance(value.get("games"), list)
        and isinstance(value.get("players"), list)
    )


def text(value: Json) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
