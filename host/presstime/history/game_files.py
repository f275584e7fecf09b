"""Read and write files of game records: what `presstime export` writes, `presstime import` reads.

- JSON: one game record (an object), or a list of them;
- CSV: the columns of history_csv (one row per player per round), any number of games.

`read_games(path)` returns the records, all checked with records.check_record, or raises BadInput
with one message per problem, each naming the file and the place (record, line, column).
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import TYPE_CHECKING

from presstime.errors import BadInput
from presstime.history import csv_rows
from presstime.history.bgstats import is_own_file
from presstime.records import loads, read_text

if TYPE_CHECKING:
    from presstime.hints import Json, Record


def is_csv(path: str, text: str) -> bool:
    if path.lower().endswith(".csv"):
        return True
    if path.lower().endswith(".json"):
        return False
    return csv_delimiter(text) is not None


def csv_delimiter(text: str) -> str | None:
    """The delimiter of an export's CSV: `,`, or `;` / tab as a spreadsheet set to another locale
    saves it. Told by the header's first cell; None when the text does not start like one."""
    first = text.lstrip().split("\n", 1)[0]
    for d in (",", ";", "\t"):
        if first.split(d, 1)[0].strip().strip('"') == csv_rows.COLUMNS[0] and d in first:
            return d
    return None


def parse_json(path: str, text: str) -> list[tuple[str | None, Json]]:
    try:
        value = loads(text)
    except ValueError as e:
        if isinstance(e, json.JSONDecodeError):
            raise BadInput(
                "%s: line %d column %d: not valid JSON: %s" % (path, e.lineno, e.colno, e.msg)
            )
        raise BadInput("%s: not valid JSON: %s" % (path, e))
    if isinstance(value, dict):
        if is_own_file(value):  # one line for the file, not one "unknown field" per list in it
            raise BadInput(
                "%s: a BG Stats file (its backup or a play file, such as `presstime export "
                "--format bgstats|bgsplay` writes), not game records: the rounds' numbers are "
                "not in it; import presstime's JSON or CSV export instead" % path
            )
        return [(None, value)]
    if isinstance(value, list):
        if not value:
            raise BadInput("%s: an empty list, no game record in it" % path)
        return [("record %d" % (i + 1), v) for i, v in enumerate(value)]
    raise BadInput(
        "%s: a game record is a JSON object (or a list of them), not %s"
        % (path, type(value).__name__)
    )


def parse_csv(path: str, text: str) -> list[tuple[str | None, Json]]:
    # one limit for a file and for a cell in it: whatever `export` writes reads back (the csv
    # module's own default, 128 KB a cell, refused a game with long notes)
    from presstime.records import MAX_FILE_BYTES

    csv.field_size_limit(max(csv.field_size_limit(), MAX_FILE_BYTES))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=csv_delimiter(text) or ",")
    try:
        header = next(reader)
    except StopIteration:
        raise BadInput("%s: empty file, no CSV header" % path)
    except csv.Error as e:
        raise BadInput("%s: line 1: not valid CSV: %s" % (path, e))
    header = [h.strip() for h in header]
    csv_rows.check_header(header, path)
    rows = []
    try:
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(header):
                raise BadInput(
                    "%s: line %d: %d cells, the header has %d"
                    % (path, reader.line_num, len(cells), len(header))
                )
            cells = cells + [""] * (len(header) - len(cells))
            rows.append((reader.line_num, dict(zip(header, cells))))
    except csv.Error as e:
        raise BadInput("%s: line %d: not valid CSV: %s" % (path, reader.line_num, e))
    if not rows:
        raise BadInput("%s: a header but no rows, no game in it" % path)
    games = csv_rows.from_rows(rows, path)
    return [("game %s" % gid, record) for gid, record in games]


def check_all(path: str, labelled: list[tuple[str | None, Json]]) -> list[Record]:
    """The records, once every one passes records.check_record; else BadInput naming each place."""
    from presstime import records

    problems = []
    for label, record in labelled:
        prefix = path + ": " + (label + ": " if label else "")
        if not isinstance(record, dict):
            problems.append(
                prefix + "a game record is a JSON object, not %s" % type(record).__name__
            )
            continue
        for message in records.check_record(record):
            problems.append(prefix + message)
    if problems:
        raise BadInput(problems)
    return [record for label, record in labelled]


def read_games(path: str | os.PathLike[str]) -> list[Record]:
    path = os.fspath(path)
    text = read_text(path)
    if is_csv(path, text):
        labelled = parse_csv(path, text)
    else:
        labelled = parse_json(path, text)
    return check_all(path, labelled)


def json_text(records: list[Record]) -> str:
    """One record as an object, several as a list: the format read_games reads back."""
    value = records[0] if len(records) == 1 else records
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def csv_text(games: list[tuple[int, Record]]) -> str:
    """CSV for [(game_id, record)]."""
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=csv_rows.COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in csv_rows.to_rows(games):
        writer.writerow(row)
    return out.getvalue()
