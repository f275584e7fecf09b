"""A game into the history, whoever played it: one place stores a game. `sync` stores a
board's games from its journal (store_board_games: a game already stored is updated, another
one drafted until its numbers are typed); `play` and `enter` store a finished game
(store_finished), checked and scored once: the result they showed is the one stored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime.entry.drafts import DraftBusy, DraftLock
from presstime.errors import BadInput
from presstime.history.store import DamagedDraft, DamagedGame
from presstime.sync import rebuild

if TYPE_CHECKING:
    from presstime.hints import Record, Result
    from presstime.history.store import Store


def store_finished(store: Store, record: Record, key: str, result: Result) -> int:
    """A finished game into the history under `key` (a board's game key, or `enter`'s), the draft
    it was typed in dropped with it; `result` is the core's standings of this record. Its id."""
    return store.add_game(record, source=key, draft_key=key, result=result)


def store_board_games(
    store: Store, board_id: str, games: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """A board's games rebuilt from its journal (rebuild.games_from_journal), each stored game
    updated and each other one drafted until its numbers are typed; returns one summary dict
    per game (what `sync` tells)."""
    from presstime.core.games import GAMES
    from presstime.games import board_counted

    by_source = {}
    for g in store.list_games():
        by_source.setdefault(g["source"], g["id"])
    out = []
    for game in games:
        key = rebuild.game_key(board_id, game)
        if "unreadable" in game:  # its records are kept and named (sync --damaged)
            out.append(
                {
                    "key": key,
                    "game": None,
                    "players": [],
                    "rounds": 0,
                    "finish": [],
                    "over": False,
                    "round_details": [],
                    "newer": game["newer"],
                    "problem": "record %d %s; it and its records up to %d are kept, not rebuilt"
                    % (game["seq"], game["unreadable"], game["last"]),
                }
            )
            continue
        summary = {
            "key": key,
            "game": game["config"].get("game", GAMES[0]),
            "players": game["config"].get("names", []),
            "rounds": len(game["rounds"]),
            "finish": [r["finish"] for r in game["rounds"]],
            "over": game["over"],
            "round_details": game["rounds"],
        }
        counted = [k for k in board_counted() if k in game]  # Myth Fits' photo tokens
        for k in counted:
            summary[k] = game[k]
        if counted:
            summary["winner"] = game["winner"]
        problems = rebuild.setup_problems(game["config"])
        if problems:  # told now, not at `done`: such a game can never be stored
            summary["problem"] = "its set-up (record %d) can never be stored: %s" % (
                game["seq"],
                "; ".join(problems),
            )
            summary["unstorable"] = True
            out.append(summary)
            continue
        gid = by_source.get(key)
        discarded = store.discarded(key)
        if gid is None and discarded is not None:
            if game["last"] <= discarded:
                summary["discarded"] = True
                out.append(summary)
                continue
            summary["redrafted"] = True  # the board's game went on after the discard
            store.forget_discarded(key)
        if gid is not None:
            try:
                stored = store.get_game(gid)
            except DamagedGame as e:  # left as it is, named; the other games go on
                summary["problem"] = str(e)
                out.append(summary)
                continue
            record = rebuild.game_record(game, stored)
            try:
                store.update_game(gid, record)
                summary["stored"] = gid
            except BadInput as e:
                summary["problem"] = e.messages[0]
        elif not _store_scored_on_board(store, key, game, summary):
            _draft_board_game(store, key, game, summary)
        out.append(summary)
    return out


def _store_scored_on_board(store, key, game, summary):
    """A game over whose numbers were confirmed on the board's own screen (its journal's SCORE
    events, core/entry.py) is stored when the core takes its record: nothing is left to type.
    False (drafted instead) when a number is still missing or refused, or an `enter` holds its
    draft."""
    if not game["over"] or not game.get("numbers"):
        return False
    from presstime import records

    try:
        with DraftLock(store.path, key):
            record = rebuild.game_record(game, store.load_draft(key))
            try:
                result = records.tally(record)
            except BadInput:
                return False
            summary["stored"] = store_finished(store, record, key, result)
    except (DraftBusy, DamagedDraft):
        return False
    return True


def _draft_board_game(store, key, game, summary):
    """The board's game into its draft, unless an `enter` holds that draft (it would overwrite
    what was typed there) or the draft is damaged: then named, left as it is; the others go on."""
    try:
        with DraftLock(store.path, key):
            store.save_draft(key, rebuild.game_record(game, store.load_draft(key)))
        summary["draft"] = key
    except (DraftBusy, DamagedDraft) as e:
        summary["problem"] = "%s (`presstime sync` again updates it)" % e
