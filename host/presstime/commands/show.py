"""presstime show ID: print one game from the history as `presstime score` does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime import records, report
from presstime.history import bgstats
from presstime.history.store import DamagedGame, add_db_argument, open_store

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime show 3
  presstime show 3 --json
  presstime show 3 --bgstats     # the game's one-tap BG Stats link, and its QR code for a phone"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", help="the game's number, as `presstime history` lists it")
    parser.add_argument(
        "--json", action="store_true", help="print the standings as one JSON document"
    )
    parser.add_argument(
        "--bgstats",
        action="store_true",
        help="also BG Stats' one-play link for this game (and its QR code): a tap on a phone "
        "adds the play in the app",
    )
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    import json

    with open_store(args) as store:
        record = store.get_game(args.id)
        state, result, status, error = store.result(args.id)
        link = None
        if args.bgstats and state != "damaged":
            plays = bgstats.stored_plays(store, "r.game_id = ?", [store.get_game_id(args.id)])
            link = bgstats.play_link(plays[0]) if plays else None
    if state == "damaged":
        raise DamagedGame(int(str(args.id).strip().lstrip("#")), error or "no stored result")
    if result is None:  # cannot happen: a stored game that is not damaged has its result
        result = records.tally(record, source="game #%s" % args.id)
    if args.json:
        out = report.with_table(result, record)
        if link:
            out["bgstats_link"] = link
        print(json.dumps(out, indent=2))
    else:
        print(report.standings_text(result, record) + report.table_text(record), end="")
        if link:
            from presstime.scorepad.at_table import qr_lines

            print("BG Stats, one tap on a phone (or scan the code): %s" % link)
            for line in qr_lines(link):
                print(line)
    return 0
