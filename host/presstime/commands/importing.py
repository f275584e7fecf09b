"""presstime import FILE…: add game record files (JSON or CSV) to the history.

Each file goes in whole or not at all: one bad record, and the file is refused with the reason,
while the other files are still imported. A record already in the history is not added twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime.errors import BadInput, Failure
from presstime.history import game_files
from presstime.history.store import DamagedStore, StoreFull, add_db_argument, open_store

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime import examples/fit-to-print.json
  presstime import club-2025.csv games.json     # what `presstime export` writes

Accepted: a JSON game record, a JSON list of records, or the CSV of `presstime export --format csv`.
Exit status 2 if any file was refused (the others are imported all the same)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="game record files (.json or .csv)"
    )
    parser.add_argument("--json", action="store_true", help="report per file as one JSON document")
    add_db_argument(parser)


def _ids(ids):
    return ", ".join("#%d" % i for i in ids)


def run(args: argparse.Namespace) -> int:
    import json
    import os
    import sys

    report = []
    refused = 0
    with open_store(args) as store:
        for n, path in enumerate(args.files):
            entry = {"file": path}
            try:
                games = game_files.read_games(path)  # every record checked by the core
                fresh = []
                ids = store.add_games(
                    games, "import:" + os.path.abspath(path), checked=True, added=fresh
                )
            except (StoreFull, DamagedStore) as e:
                # the file's transaction wrote nothing; the files before it are stored (reported
                # above)
                entry.update(status="not stored", problems=[str(e)])
                report.append(entry)
                report.extend({"file": p, "status": "not tried"} for p in args.files[n + 1 :])
                return _stopped(args, report, e)
            except BadInput as e:
                refused += 1
                entry.update(status="refused", problems=e.messages)
                for message in e.messages:
                    print("presstime import: %s" % message, file=sys.stderr)
                print(
                    "presstime import: %s: refused, nothing imported from it" % path,
                    file=sys.stderr,
                )
                report.append(entry)
                continue
            added = [i for i, new in zip(ids, fresh) if new]
            known = [i for i, new in zip(ids, fresh) if not new]
            # the same record twice in one file: only its first copy is new
            seen, new = set(), []
            for i in added:
                if i in seen:
                    known.append(i)
                else:
                    seen.add(i)
                    new.append(i)
            entry.update(status="imported", added=new, already=sorted(set(known)))
            report.append(entry)
            if not args.json:
                parts = []
                if new:
                    parts.append(
                        "%d game%s added (%s)" % (len(new), "" if len(new) == 1 else "s", _ids(new))
                    )
                if known:
                    parts.append("already in the history: %s" % _ids(sorted(set(known))))
                print("%s: %s" % (path, "; ".join(parts)))
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    return 2 if refused else 0


def _stopped(args, report, error):
    """The history could not take a file (a full disk, a damaged file): what was and was not
    stored, and exit status 1."""
    import json

    stored = [e["file"] for e in report if e["status"] == "imported"]
    left = [e["file"] for e in report if e["status"] in ("not stored", "not tried")]
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    raise Failure(
        "%s. Files stored: %s; not stored: %s"
        % (error, ", ".join(stored) if stored else "nothing", ", ".join(left))
    )
