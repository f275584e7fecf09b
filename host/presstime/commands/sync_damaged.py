"""`presstime sync --damaged`: the boards' journal records kept but not applied, and setting
them aside (`--drop`). Reads the history file only: no board is needed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime.errors import BadInput
from presstime.sync.damage import text
from presstime.sync.rebuild import games_from_journal
from presstime.term import printable

if TYPE_CHECKING:
    import argparse

    from presstime.history.store import Store


def found(store: Store, boards: list[str]) -> list[tuple[str, dict[str, Any], bytes]]:
    """[(board_id, damaged entry, payload of its first record)] for the boards given, oldest
    first."""
    out = []
    for board_id in boards:
        records = store.journal(board_id)
        damaged = []
        games_from_journal(records, damaged, store.dropped(board_id))
        payloads = dict(records)
        out += [(board_id, d, payloads.get(d["seq"], b"")) for d in damaged]
    return out


def run(store: Store, args: argparse.Namespace) -> int:
    """`presstime sync --damaged [--board ID] [--json] [--drop SEQ ...|all]`."""
    import json

    boards = store.boards()
    if args.board is not None:
        if args.board not in boards:
            raise BadInput(
                "--board %s: no journal of that board in the history (boards: %s)"
                % (printable(args.board), ", ".join(printable(b) for b in boards) or "none")
            )
        boards = [args.board]
    entries = found(store, boards)
    if args.drop:
        return _drop(store, entries, args.drop)
    if args.json:
        print(
            json.dumps(
                [dict(d, board=b, payload=p.hex()) for b, d, p in entries],
                indent=2,
                ensure_ascii=False,
            )
        )
        return 0
    if not entries:
        print(
            "No damaged journal record in the history: every record synced from a board was "
            "applied."
        )
        return 0
    for b, d, payload in entries:
        print(printable(text(b, d)))
        print("    stored: %s%s" % (payload[:32].hex(" "), " …" if len(payload) > 32 else ""))
    print(
        "Each is kept in the history file and skipped; the games around it are drafted without it. "
        "`presstime sync --damaged --drop SEQ|all` sets them aside (the rows stay, sync stops "
        "naming them)."
    )
    return 0


def _drop(store, entries, wanted):
    if "all" in wanted:
        if len(wanted) > 1:
            raise BadInput("--drop: all, or sequence numbers, not both")
        chosen = entries
    else:
        chosen, problems = [], []
        for word in wanted:
            if not word.isdigit():
                problems.append(
                    "--drop %s: a record's sequence number (as --damaged lists it), or all"
                    % printable(word)
                )
                continue
            hits = [e for e in entries if e[1]["seq"] == int(word)]
            if not hits:
                problems.append(
                    "--drop %s: no damaged record %s (see `presstime sync --damaged`)"
                    % (word, word)
                )
            elif len(hits) > 1:
                problems.append(
                    "--drop %s: boards %s both have a damaged record %s: add --board ID"
                    % (word, ", ".join(printable(h[0]) for h in hits), word)
                )
            else:
                chosen.append(hits[0])
        if problems:
            raise BadInput(problems)
    if not chosen:
        print("No damaged journal record to drop.")
        return 0
    for b, d, _ in chosen:
        store.drop_journal(b, [(d["seq"], d["last"])])
        print("dropped: " + printable(text(b, d)))
    print(
        "%d set aside: the rows stay in the history file, sync no longer names them." % len(chosen)
    )
    return 0
