"""The local game history: one SQLite file (stdlib sqlite3), versioned schema, one transaction per
write.

    store = open_store(args)              # --db, else $PRESSTIME_DB, else the user data dir
    game_id = store.add_game(record, "import:game.json")
    store.add_journal("pico-1a2b", [(1, b"..."), (2, b"...")])

The schema version is SQLite's `PRAGMA user_version`; `MIGRATIONS[i]` takes a database from
version i to i + 1, inside the same transaction that bumps the version, so a migration that fails
leaves the database as it was. Every write method is one `BEGIN IMMEDIATE … COMMIT`: a crash or an
exception part-way leaves the previous state intact. See docs/history.md.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from typing import TYPE_CHECKING, Any, cast

from presstime import games
from presstime.entry.drafts import DraftLock, draft_problem
from presstime.errors import BadInput, Failure
from presstime.history import scoring_version
from presstime.history.results import decode, summarize
from presstime.names import normal_record

if TYPE_CHECKING:
    import argparse
    import sqlite3

    from presstime.hints import Record, Result, Say

ENV_VAR = "PRESSTIME_DB"
FILE_NAME = "history.sqlite3"


class JournalError(Failure):
    """A board's journal disagrees with what is already stored (a gap, or a stored record
    changed)."""


# --- schema ---------------------------------------------------------------------------------


def _v1(conn):
    # The first schema: the records as JSON, and the boards' journals.
    conn.execute(
        "CREATE TABLE games ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " record TEXT NOT NULL,"
        " source TEXT NOT NULL DEFAULT '',"
        " added_at TEXT NOT NULL,"
        " updated_at TEXT NOT NULL)"
    )
    conn.execute(
        "CREATE TABLE journal ("
        " board_id TEXT NOT NULL,"
        " seq INTEGER NOT NULL,"
        " payload BLOB NOT NULL,"
        " PRIMARY KEY (board_id, seq))"
    )


def _v2(conn):
    # Summary columns for listing without parsing every record, and a fingerprint so that adding
    # the same record twice (a re-import, a repeated sync) is recognised. Backfilled from the JSON.
    for column in ("game", "mode", "edition", "players", "fingerprint"):
        conn.execute("ALTER TABLE games ADD COLUMN %s TEXT NOT NULL DEFAULT ''" % column)
    conn.execute("ALTER TABLE games ADD COLUMN rounds INTEGER NOT NULL DEFAULT 0")
    rows = conn.execute("SELECT id, CAST(record AS BLOB) FROM games").fetchall()
    for game_id, raw in rows:
        record, _ = decode(raw)
        if not isinstance(record, dict):
            continue  # a damaged row keeps the defaults; the results (v4) name it
        conn.execute(
            "UPDATE games SET game=?, mode=?, edition=?, players=?, rounds=?, fingerprint=? WHERE "
            "id=?",
            _summary_values(record) + (game_id,),
        )
    conn.execute("CREATE INDEX games_fingerprint ON games (fingerprint)")


def _v3(conn):
    # Drafts: score entry in progress, saved after every player so nothing typed is lost.
    conn.execute(
        "CREATE TABLE drafts ( key TEXT PRIMARY KEY, record TEXT NOT NULL, saved_at TEXT NOT NULL)"
    )


def _v4(conn):
    # Stored results: each game's result computed once, when it is stored, so that `history` and
    # `stats` read and aggregate them in SQL instead of scoring every game on every call.
    # Backfilled here from the stored records (a damaged record gets a row saying why).
    # Triggers drop a game's results when its record changes or it goes, whoever writes the
    # file; store.refresh_results() computes what is missing, and everything again when
    # scoring_version.SCORING_VERSION changes.
    conn.execute(
        "CREATE TABLE results ("
        " game_id INTEGER PRIMARY KEY,"
        " scoring_version INTEGER NOT NULL,"
        " state TEXT NOT NULL,"  # complete, in progress, damaged
        " error TEXT NOT NULL,"  # why a damaged game is damaged
        " game TEXT NOT NULL, mode TEXT NOT NULL, edition TEXT NOT NULL,"
        " played TEXT NOT NULL,"  # YYYY-MM-DD HH:MM:SS: the record's date, else added_at
        " place TEXT NOT NULL,"
        " players TEXT NOT NULL,"  # JSON list of names, seat order
        " winners TEXT NOT NULL,"  # JSON list
        " decided_by TEXT NOT NULL,"  # the rule that decided a tie ('' when the total did)
        " status TEXT NOT NULL,"  # one line, as `history` prints it
        " rounds INTEGER NOT NULL,"
        " play TEXT NOT NULL,"  # what the game consisted of: "3 days", "3 heists"…
        " duration_ms INTEGER NOT NULL,"  # the rounds' time on the board (0: not timed)
        " result TEXT)"  # the core's result, JSON (NULL when damaged)
    )
    conn.execute("CREATE INDEX results_played ON results (played, game_id)")
    conn.execute("CREATE INDEX results_state ON results (state, game, mode)")
    # One row per player of a game; game, mode, state and played repeated from `results` so that
    # the statistics read one table through its indexes.
    conn.execute(
        "CREATE TABLE result_players ("
        " game_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,"
        " game TEXT NOT NULL, mode TEXT NOT NULL, state TEXT NOT NULL, played TEXT NOT NULL,"
        " total, won INTEGER NOT NULL, out_of_business INTEGER NOT NULL, ad_revenue,"
        " rounds INTEGER NOT NULL, token_sum, token_n INTEGER NOT NULL,"
        " print_ms_sum, print_ms_n INTEGER NOT NULL,"
        " PRIMARY KEY (game_id, seat)) WITHOUT ROWID"
    )
    conn.execute("CREATE INDEX result_players_name ON result_players (name, game_id)")
    conn.execute(
        "CREATE INDEX result_players_streak ON result_players (state, game, name, played, game_id, "
        "won)"
    )
    # The numbers stats averages: kind 'round' (a sum over the game's rounds) or 'game'.
    conn.execute(
        "CREATE TABLE result_values ("
        " game_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,"
        " game TEXT NOT NULL, mode TEXT NOT NULL, state TEXT NOT NULL,"
        " kind TEXT NOT NULL, key TEXT NOT NULL,"
        " value NOT NULL, PRIMARY KEY (game_id, seat, kind, key)) WITHOUT ROWID"
    )
    # Running totals of the complete games per (game, mode, player): what `stats` reads when only
    # --game or --mode narrows it, kept by the triggers below as results come and go.
    conn.execute(
        "CREATE TABLE agg_players ("
        " game TEXT NOT NULL, mode TEXT NOT NULL, name TEXT NOT NULL,"
        " games INTEGER NOT NULL, wins INTEGER NOT NULL, score_sum NOT NULL, score_n INTEGER NOT "
        "NULL,"
        " best, out_of_business INTEGER NOT NULL, ads_sum NOT NULL, ads_n INTEGER NOT NULL,"
        " token_sum NOT NULL, token_n INTEGER NOT NULL, print_ms_sum NOT NULL, print_ms_n INTEGER "
        "NOT NULL,"
        " rounds INTEGER NOT NULL, PRIMARY KEY (game, mode, name)) WITHOUT ROWID"
    )
    conn.execute(
        "CREATE TABLE agg_values ("
        " game TEXT NOT NULL, mode TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, key TEXT "
        "NOT NULL,"
        " total NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (game, mode, name, kind, key)) WITHOUT "
        "ROWID"
    )
    # Winning streaks per (game, player), kept while games arrive in the order they were played;
    # a game stored out of order, or removed, marks the row dirty and `stats` counts it again.
    conn.execute(
        "CREATE TABLE agg_streaks ("
        " game TEXT NOT NULL, name TEXT NOT NULL, last_played TEXT NOT NULL, last_game_id INTEGER "
        "NOT NULL,"
        " current INTEGER NOT NULL, longest INTEGER NOT NULL, dirty INTEGER NOT NULL,"
        " PRIMARY KEY (game, name)) WITHOUT ROWID"
    )
    later = (
        "(excluded.last_played > last_played OR (excluded.last_played = last_played"
        " AND excluded.last_game_id > last_game_id))"
    )
    current = "(CASE WHEN excluded.current = 1 THEN current + 1 ELSE 0 END)"
    conn.execute(
        "CREATE TRIGGER result_players_streak_added AFTER INSERT ON result_players WHEN NEW.state "
        "= 'complete' BEGIN"
        " INSERT INTO agg_streaks (game, name, last_played, last_game_id, current, longest, dirty)"
        " VALUES (NEW.game, NEW.name, NEW.played, NEW.game_id, NEW.won, NEW.won, 0)"
        " ON CONFLICT (game, name) DO UPDATE SET"
        "  dirty = CASE WHEN %(later)s THEN dirty ELSE 1 END,"
        "  current = CASE WHEN %(later)s THEN %(current)s ELSE current END,"
        "  longest = CASE WHEN %(later)s THEN MAX(longest, %(current)s) ELSE longest END,"
        "  last_game_id = CASE WHEN %(later)s THEN excluded.last_game_id ELSE last_game_id END,"
        "  last_played = CASE WHEN %(later)s THEN excluded.last_played ELSE last_played END;"
        " END" % {"later": later, "current": current}
    )
    conn.execute(
        "CREATE TRIGGER result_players_streak_removed AFTER DELETE ON result_players WHEN "
        "OLD.state = 'complete'"
        " BEGIN UPDATE agg_streaks SET dirty = 1 WHERE game = OLD.game AND name = OLD.name; END"
    )
    conn.execute(
        "CREATE TRIGGER result_players_added AFTER INSERT ON result_players WHEN NEW.state = "
        "'complete' BEGIN"
        " INSERT INTO agg_players (game, mode, name, games, wins, score_sum, score_n, best, "
        "out_of_business,"
        "  ads_sum, ads_n, token_sum, token_n, print_ms_sum, print_ms_n, rounds)"
        " VALUES (NEW.game, NEW.mode, NEW.name, 1, NEW.won, COALESCE(NEW.total, 0), NEW.total IS "
        "NOT NULL,"
        "  NEW.total, NEW.out_of_business, COALESCE(NEW.ad_revenue, 0), NEW.ad_revenue IS NOT NULL,"
        "  NEW.token_sum, NEW.token_n, NEW.print_ms_sum, NEW.print_ms_n, NEW.rounds)"
        " ON CONFLICT (game, mode, name) DO UPDATE SET games = games + 1, wins = wins + "
        "excluded.wins,"
        "  score_sum = score_sum + excluded.score_sum, score_n = score_n + excluded.score_n,"
        "  best = CASE WHEN best IS NULL OR excluded.best > best THEN COALESCE(excluded.best, "
        "best) ELSE best END,"
        "  out_of_business = out_of_business + excluded.out_of_business,"
        "  ads_sum = ads_sum + excluded.ads_sum, ads_n = ads_n + excluded.ads_n,"
        "  token_sum = token_sum + excluded.token_sum, token_n = token_n + excluded.token_n,"
        "  print_ms_sum = print_ms_sum + excluded.print_ms_sum, print_ms_n = print_ms_n + "
        "excluded.print_ms_n,"
        "  rounds = rounds + excluded.rounds;"
        " END"
    )
    conn.execute(
        "CREATE TRIGGER result_players_removed AFTER DELETE ON result_players WHEN OLD.state = "
        "'complete' BEGIN"
        " UPDATE agg_players SET games = games - 1, wins = wins - OLD.won,"
        "  score_sum = score_sum - COALESCE(OLD.total, 0), score_n = score_n - (OLD.total IS NOT "
        "NULL),"
        "  best = (SELECT MAX(total) FROM result_players WHERE name = OLD.name AND game = OLD.game"
        "   AND mode = OLD.mode AND state = 'complete'),"
        "  out_of_business = out_of_business - OLD.out_of_business,"
        "  ads_sum = ads_sum - COALESCE(OLD.ad_revenue, 0), ads_n = ads_n - (OLD.ad_revenue IS NOT "
        "NULL),"
        "  token_sum = token_sum - OLD.token_sum, token_n = token_n - OLD.token_n,"
        "  print_ms_sum = print_ms_sum - OLD.print_ms_sum, print_ms_n = print_ms_n - "
        "OLD.print_ms_n,"
        "  rounds = rounds - OLD.rounds"
        "  WHERE game = OLD.game AND mode = OLD.mode AND name = OLD.name;"
        " DELETE FROM agg_players WHERE game = OLD.game AND mode = OLD.mode AND name = OLD.name "
        "AND games <= 0;"
        " END"
    )
    conn.execute(
        "CREATE TRIGGER result_values_added AFTER INSERT ON result_values WHEN NEW.state = "
        "'complete' BEGIN"
        " INSERT INTO agg_values (game, mode, name, kind, key, total, n)"
        " VALUES (NEW.game, NEW.mode, NEW.name, NEW.kind, NEW.key, NEW.value, 1)"
        " ON CONFLICT (game, mode, name, kind, key) DO UPDATE SET total = total + excluded.total, "
        "n = n + 1;"
        " END"
    )
    conn.execute(
        "CREATE TRIGGER result_values_removed AFTER DELETE ON result_values WHEN OLD.state = "
        "'complete' BEGIN"
        " UPDATE agg_values SET total = total - OLD.value, n = n - 1 WHERE game = OLD.game AND "
        "mode = OLD.mode"
        "  AND name = OLD.name AND kind = OLD.kind AND key = OLD.key;"
        " DELETE FROM agg_values WHERE game = OLD.game AND mode = OLD.mode AND name = OLD.name"
        "  AND kind = OLD.kind AND key = OLD.key AND n <= 0;"
        " END"
    )
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute(
        "CREATE TRIGGER games_record_changed AFTER UPDATE OF record ON games"
        " BEGIN DELETE FROM results WHERE game_id = OLD.id; END"
    )
    conn.execute(
        "CREATE TRIGGER games_deleted AFTER DELETE ON games"
        " BEGIN DELETE FROM results WHERE game_id = OLD.id; END"
    )
    conn.execute(
        "CREATE TRIGGER results_deleted AFTER DELETE ON results BEGIN"
        " DELETE FROM result_players WHERE game_id = OLD.game_id;"
        " DELETE FROM result_values WHERE game_id = OLD.game_id; END"
    )
    _compute_results(conn)


def _v5(conn):
    # A board's journal record the desktop cannot apply is kept; the user may set it aside
    # (`sync --damaged --drop`): its row stays, marked, and sync no longer names it.
    # A board's draft the user discarded is remembered with the board's last record then, so a
    # sync drafts it again only when the board's game has records after that.
    conn.execute("ALTER TABLE journal ADD COLUMN dropped_at TEXT")
    conn.execute(
        "CREATE TABLE discarded_drafts ("
        " key TEXT PRIMARY KEY,"
        " last_seq INTEGER NOT NULL,"
        " discarded_at TEXT NOT NULL)"
    )


# A random (version 4) UUID in SQL, evaluated once per row: what a game or draft gets as its
# `uuid` when it is created without one (docs/game-format.md, "uuid").
_NEW_UUID = (
    "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)"
    " || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2)"
    " || '-' || hex(randomblob(6)))"
)


def _v6(conn):
    # Every game and draft gets a stable id, its `uuid`, given when it is first drafted or stored
    # and kept through edits, exports and imports: what tells a re-import (the same uuid, or for a
    # file without uuids the same content) from a typed game with the same numbers (distinct).
    for table in ("games", "drafts"):
        conn.execute("ALTER TABLE %s ADD COLUMN uuid TEXT NOT NULL DEFAULT ''" % table)
        conn.execute("UPDATE %s SET uuid = %s" % (table, _NEW_UUID))
        conn.execute(
            "CREATE TRIGGER %(t)s_uuid_given AFTER INSERT ON %(t)s WHEN NEW.uuid = '' BEGIN"
            " UPDATE %(t)s SET uuid = %(new)s WHERE rowid = NEW.rowid; END"
            % {"t": table, "new": _NEW_UUID}
        )
    conn.execute("CREATE UNIQUE INDEX games_uuid ON games (uuid)")


MIGRATIONS = [_v1, _v2, _v3, _v4, _v5, _v6]
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn: sqlite3.Connection, target: int | None = None) -> int:
    """Bring the database up to `target` (default: the latest), one transaction per step."""
    target = SCHEMA_VERSION if target is None else target
    version = schema_version(conn)
    if version > SCHEMA_VERSION:
        raise Failure(
            "the history database has schema version %d, newer than this presstime knows (%d): "
            "upgrade presstime" % (version, SCHEMA_VERSION)
        )
    while version < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-read inside the lock: another process may have migrated meanwhile.
            version = schema_version(conn)
            if version < target:
                MIGRATIONS[version](conn)
                version += 1
                conn.execute("PRAGMA user_version = %d" % version)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return version


# --- stored results (schema 4) -----------------------------------------------------------------

_RESULT_COLUMNS = (
    "state",
    "error",
    "game",
    "mode",
    "edition",
    "played",
    "place",
    "players",
    "winners",
    "decided_by",
    "status",
    "rounds",
    "play",
    "duration_ms",
    "result",
)
# The one money and the one out-of-the-game flag the history keeps per player (the faces' MONEY
# and OUT: results.py's Summary keys "money" and "out") are in the columns named when Fit to
# Print was the only game: the schema of histories already on disk (a rename is a migration).
MONEY_COLUMN = "ad_revenue"
OUT_COLUMN = "out_of_business"
# (column, the Summary player's key) of a player's row
_PLAYER_ROW = (
    ("seat", "seat"),
    ("name", "name"),
    ("total", "total"),
    ("won", "won"),
    (OUT_COLUMN, "out"),
    (MONEY_COLUMN, "money"),
    ("rounds", "rounds"),
    ("token_sum", "token_sum"),
    ("token_n", "token_n"),
    ("print_ms_sum", "print_ms_sum"),
    ("print_ms_n", "print_ms_n"),
)
_PLAYER_COLUMNS = tuple(c for c, _ in _PLAYER_ROW)


def _insert_results(conn, game_id, summary):
    g = summary.game
    conn.execute(
        "INSERT OR REPLACE INTO results (game_id, scoring_version, %s) VALUES (?, ?, %s)"
        % (", ".join(_RESULT_COLUMNS), ", ".join("?" * len(_RESULT_COLUMNS))),
        (game_id, scoring_version.SCORING_VERSION) + tuple(g[c] for c in _RESULT_COLUMNS),
    )
    shared = (g["game"], g["mode"], g["state"])
    if summary.players:
        conn.executemany(
            "INSERT INTO result_players (game_id, game, mode, state, played, %s) VALUES (?, ?, ?, "
            "?, ?, %s)" % (", ".join(_PLAYER_COLUMNS), ", ".join("?" * len(_PLAYER_COLUMNS))),
            [
                (game_id,) + shared + (g["played"],) + tuple(p[k] for _, k in _PLAYER_ROW)
                for p in summary.players
            ],
        )
    if summary.values:
        names = dict((p["seat"], p["name"]) for p in summary.players)
        conn.executemany(
            "INSERT INTO result_values (game_id, seat, name, game, mode, state, kind, key, value)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, v[0], names[v[0]]) + shared + v[1:] for v in summary.values],
        )


def _compute_results(conn):
    """Inside a transaction: compute the results of every game that has none (all of them after
    a SCORING_VERSION change); the number computed. Damaged records get a row saying why."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'scoring_version'").fetchone()
    if row is None or row[0] != str(scoring_version.SCORING_VERSION):
        for table in (
            "agg_players",
            "agg_values",
            "agg_streaks",
            "results",
            "result_players",
            "result_values",
        ):
            conn.execute("DELETE FROM %s" % table)
        conn.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('scoring_version', ?)",
            (str(scoring_version.SCORING_VERSION),),
        )
    # rows whose game went while the triggers could not see it (cannot happen through presstime)
    conn.execute("DELETE FROM results WHERE game_id NOT IN (SELECT id FROM games)")
    missing = conn.execute(
        "SELECT g.id, CAST(g.record AS BLOB), g.added_at FROM games g"
        " LEFT JOIN results r ON r.game_id = g.id WHERE r.game_id IS NULL ORDER BY g.id"
    )
    count = 0
    for game_id, raw, added_at in missing.fetchall():
        _insert_results(conn, game_id, summarize(raw, added_at))
        count += 1
    return count


def results_pending(conn: sqlite3.Connection) -> tuple[int | None, int]:
    """(stored scoring version or None, games without results): what refresh_results would do."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'scoring_version'").fetchone()
    # the triggers keep one results row per game, so counting both tells (quickly) what is missing
    missing = conn.execute(
        "SELECT (SELECT COUNT(*) FROM games) - (SELECT COUNT(*) FROM results)"
    ).fetchone()[0]
    return (row[0] if row else None), missing


# --- helpers --------------------------------------------------------------------------------


def _now():
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def player_names(record: Record) -> list[str]:
    names = []
    players = record.get("players") if isinstance(record, dict) else None
    if isinstance(players, list):
        for p in players:
            if isinstance(p, dict):
                names.append(str(p.get("name", "")))
            else:
                names.append(str(p))
    return names


def fingerprint(record: Record) -> str:
    """The content of a record, its uuid left out (what a re-import without uuids is found by)."""
    text = json.dumps(
        without_uuid(record), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


UUID_FIELD = "uuid"


def without_uuid(record: Record) -> Record:
    """The record as stored: its `uuid` lives in the games table's column, not in the JSON."""
    if isinstance(record, dict) and UUID_FIELD in record:
        return dict((k, v) for k, v in record.items() if k != UUID_FIELD)
    return record


def _summary_values(record):
    rounds = record.get("rounds")
    return (
        str(games.of(record)),
        str(record.get("mode", "standard")),
        str(record.get("edition", "published")),
        json.dumps(player_names(record), ensure_ascii=False),
        len(rounds) if isinstance(rounds, list) else 0,
        fingerprint(record),
    )


def _check(record):
    """BadInput with one message per problem unless `record` is a valid game record."""
    if not isinstance(record, dict):
        raise BadInput("a game record must be a JSON object, not %s" % type(record).__name__)
    from presstime import records

    problems = records.check_record(record)
    if problems:
        raise BadInput(problems)


def _blob(payload):
    if isinstance(payload, str):
        raise TypeError("journal payloads are bytes, not str")
    return bytes(payload)


# --- the store ------------------------------------------------------------------------------


class DamagedGame(Failure):
    """A stored game whose record cannot be read or scored (exit status 1), naming the way out."""

    def __init__(self, game_id: int, reason: str) -> None:
        self.game_id, self.reason = game_id, reason
        Failure.__init__(
            self,
            "game #%d is damaged: %s. `presstime history --damaged` shows it; "
            "`presstime delete %d` removes it" % (game_id, reason, game_id),
        )


class DamagedDraft(Failure):
    """A draft that cannot be resumed (hand-edited, or written by something else): exit status 1,
    naming what is wrong and the way out."""

    def __init__(self, key: str, reason: str) -> None:
        self.key, self.reason = key, reason
        Failure.__init__(
            self,
            "draft %s is damaged: %s. `presstime enter --discard %s` drops it" % (key, reason, key),
        )


def notice(message: str) -> None:
    """What the store tells the user on its own (a rescoring): one line on standard error."""
    import sys

    print("presstime: " + message, file=sys.stderr)


class Store:
    """The history database. Use as a context manager, or call close()."""

    def __init__(self, path: str | os.PathLike[str], notice: Say = notice) -> None:
        self.notice = notice
        import sqlite3  # here, so that `presstime CMD --help` (add_db_argument) stays light

        self.path = str(path)
        if self.path != ":memory:":
            folder = os.path.dirname(os.path.abspath(self.path))
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError as e:
                raise Failure("cannot create the history folder %s: %s" % (folder, e.strerror or e))
        try:
            # isolation_level=None: no implicit transactions; every write below says BEGIN itself.
            self.conn = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT, isolation_level=None)
        except sqlite3.Error as e:
            raise Failure("cannot open the history database %s: %s" % (self.path, e))
        try:
            self.conn.execute("PRAGMA foreign_keys = ON")
            before = schema_version(self.conn)
            after = migrate(self.conn)
            if 0 < before < after:
                self.notice(
                    "the history was upgraded from schema version %d to %d (docs/history.md)"
                    % (before, after)
                )
            _check_schema(self.conn, self.path)
            self.refresh_results()
        except sqlite3.DatabaseError as e:
            self.conn.close()
            if "not a database" in str(e):
                raise Failure("%s is not a usable presstime history database: %s" % (self.path, e))
            raise database_failure(self.path, e)
        except BaseException:
            self.conn.close()
            raise

    # context manager
    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for lock in getattr(self, "_held", ()):
            lock.release()
        self.conn.close()

    def hold_draft(self, key: str) -> None:
        """Hold draft `key` for this process until the store is closed (`play` while it plays
        the board's game): drafts.DraftBusy when another process holds it."""
        lock = DraftLock(self.path, key).__enter__()
        self._held = getattr(self, "_held", []) + [lock]

    def _write(self):
        if not self._intact:
            self._check_intact()
        return _Transaction(self.conn, self.path)

    _intact = False

    def _check_intact(self):
        """Before the first write: DamagedStore unless SQLite's quick_check finds the file sound,
        so that nothing is written into a file with corrupted pages."""
        import sqlite3

        try:
            rows = self.conn.execute("PRAGMA quick_check(3)").fetchall()
        except sqlite3.DatabaseError as e:
            raise database_failure(self.path, e)
        if [r[0] for r in rows] != ["ok"]:
            raise DamagedStore(
                "the history database %s is damaged (%s): nothing was written to it; %s"
                % (
                    self.path,
                    "; ".join(" ".join(str(r[0]).split()) for r in rows),
                    recover_hint(self.path),
                )
            )
        self._intact = True

    def snapshot(self) -> _Snapshot:
        """A read transaction: every query inside it sees the history as it was when it began,
        whatever another process writes meanwhile (`export` while a `delete` runs)."""
        return _Snapshot(self.conn, self.path)

    # --- stored results ---------------------------------------------------------------------

    def refresh_results(self) -> int:
        """Compute the stored results that are missing, or all of them when the scoring version
        changed (one transaction); the number computed. Read-only and quick when nothing is due."""
        import sqlite3

        version, missing = results_pending(self.conn)
        if version == str(scoring_version.SCORING_VERSION) and not missing:
            return 0
        try:
            with self._write():
                count = _compute_results(self.conn)
        except (
            sqlite3.OperationalError,
            BadInput,
            StoreFull,
        ) as e:  # read-only, locked, full: read what is there
            self.notice(
                "cannot store the results of %d game(s) (%s): they are left out this time"
                % (missing, e)
            )
            return 0
        if version is not None and version != str(scoring_version.SCORING_VERSION) and count:
            self.notice(
                "scored %d stored game%s again: the scoring changed (version %s, was %s)"
                % (count, "" if count == 1 else "s", scoring_version.SCORING_VERSION, version)
            )
        return count

    # --- games --------------------------------------------------------------------------

    def add_game(
        self,
        record: Record,
        source: str = "",
        draft_key: str | None = None,
        result: Result | None = None,
    ) -> int:
        """Validate and store one game typed or played here: always a new game (two games with
        the same numbers are two games), its id. `draft_key`: the draft it was finished from,
        dropped in the same transaction (both happen or neither), its uuid kept by the game.
        Its texts are stored in NFC (names.normal_record). `result`: the core's standings of
        this very record (records.tally), so that it is not checked and scored again; ignored
        when the record's texts were not yet in NFC."""
        normal = normal_record(record)
        if result is None or normal != record:
            _check(normal)
            result = None
        record = normal
        uid = ""
        with self._write():
            if draft_key is not None:
                row = self.conn.execute(
                    "SELECT uuid FROM drafts WHERE key = ?", (str(draft_key),)
                ).fetchone()
                self._drop_draft(draft_key)
                if (
                    row
                    and not self.conn.execute("SELECT 1 FROM games WHERE uuid = ?", row).fetchone()
                ):
                    uid = row[0]
            return self._insert_game(record, source, uid, result)

    def add_games(
        self,
        records: list[Record],
        source: str = "",
        checked: bool = False,
        added: list[bool] | None = None,
    ) -> list[int]:
        """Import: validate every record first, then store them all in one transaction (all or
        nothing). A record already stored is not added again: the same `uuid` (a game exported
        from a history), or, for a record without one, the same content (a file imported again).
        `checked`: the caller has just checked them all with records.check_record.
        `added`, a list: gets True for each record stored now, False for one already there.
        Every text is stored in NFC (names.normal_record), as every name the desktop takes."""
        records = [normal_record(r) for r in records]
        problems = []
        for i, record in enumerate([] if checked else records):
            try:
                _check(record)
            except BadInput as e:
                prefix = "record %d: " % (i + 1) if len(records) > 1 else ""
                problems.extend(prefix + m for m in e.messages)
        if problems:
            raise BadInput(problems)
        ids = []
        with self._write():
            for record in records:
                game_id = self.find_game(record)
                if added is not None:
                    added.append(game_id is None)
                if game_id is None:
                    game_id = self._insert_game(record, source, record.get(UUID_FIELD, ""))
                ids.append(game_id)
        return ids

    def _insert_game(self, record, source, uid, result=None):
        """Inside a transaction: the record stored (without its uuid, kept in its column; '':
        a new one), its result computed (unless given); the new id."""
        from presstime.history.results import summarize_checked

        record = without_uuid(record)
        now = _now()
        cur = self.conn.execute(
            "INSERT INTO games (record, source, added_at, updated_at,"
            " game, mode, edition, players, rounds, fingerprint, uuid)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (_dump(record), str(source), now, now) + _summary_values(record) + (uid,),
        )
        _insert_results(self.conn, cur.lastrowid, summarize_checked(record, now, result))
        return cast(int, cur.lastrowid)  # an INSERT: always a row id

    def find_game(self, record: Record) -> int | None:
        """The id of the stored game `record` is a copy of, or None: the game with its `uuid`,
        or for a record without one the oldest game with the same content."""
        uid = record.get(UUID_FIELD) if isinstance(record, dict) else None
        if uid:
            row = self.conn.execute("SELECT id FROM games WHERE uuid = ?", (uid,)).fetchone()
        else:
            row = self.conn.execute(
                "SELECT id FROM games WHERE fingerprint = ? ORDER BY id LIMIT 1",
                (fingerprint(record),),
            ).fetchone()
        return row[0] if row else None

    def game_uuid(self, game_id: int) -> str:
        """The stable id of a stored game (docs/game-format.md, "uuid"); BadInput if unknown."""
        game_id = _game_id(game_id)
        row = self.conn.execute("SELECT uuid FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise BadInput(_no_game(game_id))
        return row[0]

    def update_game(self, game_id: int, record: Record) -> None:
        """Replace a stored game's record (validated first; its texts in NFC)."""
        record = normal_record(record)
        _check(record)
        record = without_uuid(record)  # the game keeps its uuid
        with self._write():
            cur = self.conn.execute(
                "UPDATE games SET record=?, updated_at=?, game=?, mode=?, edition=?, players=?,"
                " rounds=?, fingerprint=? WHERE id=?",
                (_dump(record), _now()) + _summary_values(record) + (_game_id(game_id),),
            )
            if cur.rowcount != 1:
                raise BadInput(_no_game(game_id))
            _compute_results(self.conn)  # the trigger dropped the old results

    def get_game(self, game_id: int | str) -> Record:
        """The stored record; BadInput for an unknown id, DamagedGame when it cannot be read."""
        game_id = _game_id(game_id)
        row = self.conn.execute(
            "SELECT CAST(record AS BLOB) FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise BadInput(_no_game(game_id))
        record, reason = decode(row[0])
        if reason:
            raise DamagedGame(game_id, reason)
        return record

    def get_game_id(self, game_id: int | str) -> int:
        """The id of a stored game (readable or not); BadInput for an unknown or malformed id."""
        game_id = _game_id(game_id)
        if self.conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise BadInput(_no_game(game_id))
        return game_id

    def result(self, game_id: int | str) -> tuple[str, Result | None, str, str | None]:
        """(state, core result or None, status line, error) of a stored game; BadInput if
        unknown."""
        game_id = _game_id(game_id)
        row = self.conn.execute(
            "SELECT state, result, status, error FROM results WHERE game_id = ?", (game_id,)
        ).fetchone()
        if row is None:
            if self.conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise BadInput(_no_game(game_id))

            raw, added = self.conn.execute(
                "SELECT CAST(record AS BLOB), added_at FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            s = summarize(raw, added)
            return s.game["state"], s.result, s.game["status"], s.game["error"]
        return row[0], (json.loads(row[1]) if row[1] else None), row[2], row[3]

    def damaged(self, ids: list[int] | None = None) -> list[tuple[int, str]]:
        """[(id, reason)] of the stored games that cannot be read or scored, oldest first."""
        rows = self.conn.execute(
            "SELECT game_id, error FROM results WHERE state = 'damaged' ORDER BY game_id"
        ).fetchall()
        if ids is not None:
            wanted = set(_game_id(i) for i in ids)
            rows = [r for r in rows if r[0] in wanted]
        return rows

    def delete_game(self, game_id: int | str) -> None:
        self.delete_games([game_id])

    def delete_games(self, ids: list[int | str]) -> list[int]:
        """Remove the games `ids` in one transaction: all of them, or none (BadInput naming every
        unknown id). The ids removed, each once, in the order given."""
        wanted, problems = [], []
        for game_id in ids:
            try:
                game_id = _game_id(game_id)
            except BadInput as e:
                problems.extend(e.messages)
                continue
            if game_id not in wanted:
                wanted.append(game_id)
        if problems:
            raise BadInput(problems)
        with self._write():
            for game_id in wanted:
                if self.conn.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount != 1:
                    problems.append(_no_game(game_id))
            if problems:
                raise BadInput(problems)  # the transaction rolls back: nothing is deleted
        return wanted

    def list_games(self) -> list[dict[str, Any]]:
        """Summaries, oldest first: id, game, mode, edition, players (names), rounds, source,
        added_at, updated_at."""
        out = []
        for row in self.conn.execute(
            "SELECT id, game, mode, edition, players, rounds, source, added_at, updated_at"
            " FROM games ORDER BY id"
        ):
            try:
                players = json.loads(row[4] or "[]")
            except ValueError:
                players = []
            out.append(
                {
                    "id": row[0],
                    "game": row[1],
                    "mode": row[2],
                    "edition": row[3],
                    "players": players,
                    "rounds": row[5],
                    "source": row[6],
                    "added_at": row[7],
                    "updated_at": row[8],
                }
            )
        return out

    def games(
        self,
        ids: list[int] | None = None,
        damaged: list[tuple[int, str]] | None = None,
        uuids: bool = False,
    ) -> list[tuple[int, Record]]:
        """[(id, record)] for the given ids (in that order; unknown id → BadInput) or all, oldest
        first. A record that cannot be read raises DamagedGame, unless `damaged` is a list: then
        it is left out and (id, reason) appended there. `uuids`: each record with its `uuid`
        (what an export writes, so that importing it again finds the same games)."""
        query = "SELECT id, CAST(record AS BLOB), uuid FROM games"
        if ids is None:
            rows = self.conn.execute(query + " ORDER BY id")
        else:
            rows = []
            for i in ids:
                i = _game_id(i)
                row = self.conn.execute(query + " WHERE id = ?", (i,)).fetchone()
                if row is None:
                    raise BadInput(_no_game(i))
                rows.append(row)
        out = []
        for game_id, raw, uid in rows:
            record, reason = decode(raw)
            if reason:
                if damaged is None:
                    raise DamagedGame(game_id, reason)
                damaged.append((game_id, reason))
                continue
            if uuids and isinstance(record, dict) and uid:
                record = dict(record, uuid=uid)
            out.append((game_id, record))
        return out

    # --- boards' journals -----------------------------------------------------------------

    def last_seq(self, board_id: str) -> int:
        """The highest journal sequence number stored for this board (0: none)."""
        row = self.conn.execute(
            "SELECT MAX(seq) FROM journal WHERE board_id = ?", (str(board_id),)
        ).fetchone()
        return row[0] or 0

    def add_journal(
        self, board_id: str, records: list[tuple[int, bytes]], gone_until: int = 0
    ) -> int:
        """Append a board's journal records [(seq, payload bytes)] in one transaction; the count
        added.

        Idempotent: a seq already stored with the same payload is skipped. New records must follow
        on from the last stored seq without a gap (the first ever is seq 1) and from each other;
        a stored seq arriving with a different payload is refused. Refusal raises JournalError and
        stores nothing of the batch. `gone_until`: the board no longer has the records up to this
        seq (its journal dropped its oldest games), so the batch may start right after it.
        """
        board_id = str(board_id)
        batch = sorted(((int(seq), _blob(payload)) for seq, payload in records), key=lambda r: r[0])
        added = 0
        with self._write():
            last = max(self.last_seq(board_id), int(gone_until))
            for seq, payload in batch:
                if seq < 1:
                    raise JournalError(
                        "board %s: journal sequence numbers start at 1, got %d" % (board_id, seq)
                    )
                if seq <= last:
                    row = self.conn.execute(
                        "SELECT payload FROM journal WHERE board_id = ? AND seq = ?",
                        (board_id, seq),
                    ).fetchone()
                    if row is not None and bytes(row[0]) == payload:
                        continue
                    if row is None:  # cannot happen while seqs are contiguous, but never guess
                        raise JournalError(
                            "board %s: journal record %d is missing from the store"
                            % (board_id, seq)
                        )
                    raise JournalError(
                        "board %s: journal record %d differs from the stored one "
                        "(was the board's journal wiped?)" % (board_id, seq)
                    )
                if seq != last + 1:
                    raise JournalError(
                        "board %s: journal record %d would leave a gap after %d"
                        % (board_id, seq, last)
                    )
                self.conn.execute(
                    "INSERT INTO journal (board_id, seq, payload) VALUES (?, ?, ?)",
                    (board_id, seq, payload),
                )
                last = seq
                added += 1
        return added

    def journal(self, board_id: str, after_seq: int = 0) -> list[tuple[int, bytes]]:
        rows = self.conn.execute(
            "SELECT seq, payload FROM journal WHERE board_id = ? AND seq > ? ORDER BY seq",
            (str(board_id), int(after_seq)),
        ).fetchall()
        return [(r[0], bytes(r[1])) for r in rows]

    def dropped(self, board_id: str) -> set[int]:
        """The seqs of a board's records the user set aside (`sync --damaged --drop`)."""
        return set(
            r[0]
            for r in self.conn.execute(
                "SELECT seq FROM journal WHERE board_id = ? AND dropped_at IS NOT NULL",
                (str(board_id),),
            )
        )

    def drop_journal(self, board_id: str, spans: list[tuple[int, int]]) -> int:
        """Set aside a board's records seq..last for each (seq, last) in `spans`: the rows stay,
        marked dropped (dropped() lists them); the count marked."""
        marked = 0
        with self._write():
            for first, last in spans:
                marked += self.conn.execute(
                    "UPDATE journal SET dropped_at = ? WHERE board_id = ? AND seq BETWEEN ? AND ?"
                    " AND dropped_at IS NULL",
                    (_now(), str(board_id), int(first), int(last)),
                ).rowcount
        return marked

    def boards(self) -> list[str]:
        """Board ids with a stored journal, sorted."""
        return [
            r[0]
            for r in self.conn.execute("SELECT DISTINCT board_id FROM journal ORDER BY board_id")
        ]

    # --- drafts (score entry in progress) --------------------------------------------------

    def save_draft(self, key: str, record: Record) -> None:
        """Store (or replace) a draft record: any JSON-able value, not validated (its texts in
        NFC)."""
        text = _dump(normal_record(record))
        with self._write():
            self.conn.execute(
                "INSERT INTO drafts (key, record, saved_at) VALUES (?, ?, ?)"
                " ON CONFLICT(key) DO UPDATE SET record = excluded.record, saved_at = "
                "excluded.saved_at",
                (str(key), text, _now()),
            )

    def load_draft(self, key: str) -> Record | None:
        """The draft saved under `key`, or None; DamagedDraft when it cannot be resumed."""
        row = self.conn.execute(
            "SELECT CAST(record AS BLOB) FROM drafts WHERE key = ?", (str(key),)
        ).fetchone()
        if row is None:
            return None
        record, reason = decode(row[0])
        reason = reason or draft_problem(record)
        if reason:
            raise DamagedDraft(key, reason)
        return record

    def has_draft(self, key: str) -> bool:
        return (
            self.conn.execute("SELECT 1 FROM drafts WHERE key = ?", (str(key),)).fetchone()
            is not None
        )

    def drop_draft(self, key: str) -> None:
        """The draft and its scorepad link gone."""
        with self._write():
            self._drop_draft(key)

    def _drop_draft(self, key):
        self.conn.execute(
            "DELETE FROM drafts WHERE key IN (?, ?)", (str(key), str(key) + LINK_SUFFIX)
        )

    def discard_draft(self, key: str, last_seq: int = 0) -> None:
        """Drop a draft the user discarded, remembering it with `last_seq`, the board's last
        record then (a board's draft: sync drafts it again only for records after that)."""
        with self._write():
            self.conn.execute("DELETE FROM drafts WHERE key = ?", (str(key),))
            self.conn.execute(
                "INSERT INTO discarded_drafts (key, last_seq, discarded_at) VALUES (?, ?, ?)"
                " ON CONFLICT(key) DO UPDATE SET last_seq = excluded.last_seq,"
                " discarded_at = excluded.discarded_at",
                (str(key), int(last_seq), _now()),
            )

    def discarded(self, key: str) -> int | None:
        """The board's last record seq when the draft `key` was discarded, or None."""
        row = self.conn.execute(
            "SELECT last_seq FROM discarded_drafts WHERE key = ?", (str(key),)
        ).fetchone()
        return row[0] if row else None

    def forget_discarded(self, key: str) -> None:
        with self._write():
            self.conn.execute("DELETE FROM discarded_drafts WHERE key = ?", (str(key),))

    def list_drafts(self) -> list[dict[str, Any]]:
        return [
            {"key": r[0], "saved_at": r[1]}
            for r in self.conn.execute("SELECT key, saved_at FROM drafts ORDER BY saved_at, key")
            if not r[0].endswith(LINK_SUFFIX)
        ]

    # the phones' link of a draft played with --scorepad (its secret, seat tokens and port), kept
    # beside the draft so that resuming it keeps the link the phones hold; not a draft itself
    def save_link(self, key: str, link: dict[str, Any]) -> None:
        self.save_draft(str(key) + LINK_SUFFIX, link)

    def draft_uuid(self, key: str) -> str | None:
        """The uuid a draft was given (the game keeps it when it is stored), or None."""
        row = self.conn.execute("SELECT uuid FROM drafts WHERE key = ?", (str(key),)).fetchone()
        return row[0] if row and row[0] else None

    def load_link(self, key: str) -> dict[str, Any] | None:
        return self.load_draft(str(key) + LINK_SUFFIX)


LINK_SUFFIX = "#scorepad-link"
LOCK_TIMEOUT = 10.0  # seconds a write waits for another program's lock on the database


def _cannot_write(e):
    text = str(e)
    return "readonly" in text or "read-only" in text or "locked" in text or "busy" in text


class StoreFull(Failure):
    """The disk holding the history is full (exit status 1): the change being written was not
    stored, everything stored before it is kept."""


class DamagedStore(Failure):
    """The history file itself is damaged (corrupted pages, objects presstime did not create):
    exit status 1, nothing written into it, and how to recover what it holds."""


def recover_hint(path: str) -> str:
    return (
        "recover what it holds into a new file with `sqlite3 %s .recover | sqlite3 "
        "recovered.sqlite3` "
        "and use that (--db recovered.sqlite3), or restore a backup; see docs/faults.md" % path
    )


def _full(text):
    return "full" in text or "disk I/O error" in text


def database_failure(path: str, e: BaseException) -> BadInput | Failure:
    """The message (a BadInput or Failure) for sqlite3 error `e` on the history at `path`:
    read-only or locked (BadInput: nothing changed), a full disk (StoreFull), else damaged."""
    text = str(e)
    if _cannot_write(e):
        return unusable(path, e)
    if _full(text):
        return StoreFull(
            "the history database %s cannot be written, the disk holding it is full or failing "
            "(%s): this change was not stored, everything stored before it is kept; free some "
            "space and run it again" % (path, text)
        )
    return DamagedStore(
        "the history database %s is damaged (%s): nothing was written to it; %s"
        % (path, text, recover_hint(path))
    )


def unusable(path: str, e: BaseException) -> BadInput | Failure:
    """BadInput for a database that cannot be written: read-only, or locked by another program."""
    text = str(e)
    if "readonly" in text or "read-only" in text:
        return BadInput(
            "the history database %s is read-only: nothing was changed "
            "(make it writable, or choose another with --db)" % path
        )
    if "locked" in text or "busy" in text:
        return BadInput(
            "the history database %s is locked by another program (another presstime?): "
            "nothing was changed, try again when it is done" % path
        )
    if _full(text):
        return database_failure(path, e)
    return BadInput(
        "the history database %s cannot be written (%s): nothing was changed" % (path, text)
    )


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any exception (including KeyboardInterrupt).
    A database that is read-only or locked raises BadInput (`unusable`), a full disk StoreFull,
    a damaged file DamagedStore (`database_failure`): nothing of the transaction is written."""

    def __init__(self, conn, path=""):
        self.conn = conn
        self.path = path

    def __enter__(self):
        import sqlite3

        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as e:
            raise database_failure(self.path, e)
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        import sqlite3

        try:
            if exc_type is None:
                self.conn.execute("COMMIT")
            elif self.conn.in_transaction:  # SQLite ends it itself on some errors (a full disk)
                self.conn.execute("ROLLBACK")
        except sqlite3.DatabaseError as e:
            if self.conn.in_transaction:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.DatabaseError:
                    pass  # sqlite rolls back itself when the journal cannot be written
            raise database_failure(self.path, e)
        if exc_type is not None and issubclass(exc_type, sqlite3.DatabaseError):
            raise database_failure(self.path, exc) from None
        return False


class _Snapshot:
    def __init__(self, conn, path):
        self.conn, self.path = conn, path

    def __enter__(self):
        import sqlite3

        try:
            self.conn.execute("BEGIN")
            self.conn.execute("SELECT 1 FROM games LIMIT 1").fetchall()  # the read lock, now
        except sqlite3.DatabaseError as e:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise database_failure(self.path, e)
        return self.conn

    def __exit__(self, *exc):
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")  # nothing was written: ending the read is enough
        return False


# --- the schema a history may hold ------------------------------------------------------------

_EXPECTED = {}


def expected_schema(version: int) -> dict[tuple[str, str], str]:
    """{(type, name): sql} of the objects `migrate` creates up to `version` (built once, in
    memory)."""
    if version not in _EXPECTED:
        import sqlite3

        conn = sqlite3.connect(":memory:", isolation_level=None)
        try:
            migrate(conn, version)
            _EXPECTED[version] = _schema(conn)
        finally:
            conn.close()
    return _EXPECTED[version]


def _schema(conn):
    return dict(
        ((t, n), sql)
        for t, n, sql in conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        )
    )


def schema_digest(schema: dict[tuple[str, str], str]) -> str:
    return hashlib.sha256(
        json.dumps(sorted([t, n, sql or ""] for (t, n), sql in schema.items())).encode("utf-8")
    ).hexdigest()


# schema_digest(expected_schema(SCHEMA_VERSION)): the schema every history has once migrated,
# recognised without building it (tests/test_store_faults.py checks it; a stale value only
# costs the ~10 ms of building the expected schema at each open).
SCHEMA_DIGEST = "111ce7113e548cb61cb42238f94de120aae0cf5e3da0e8225b7478e48e179294"


def _check_schema(conn, path):
    """DamagedStore when the file holds an object presstime did not create at its version (a
    view, a table or index of another name) or a trigger or view not as presstime wrote it: such
    an object could make any command hang (a recursive view) or write elsewhere."""
    found = _schema(conn)
    if schema_digest(found) == SCHEMA_DIGEST:
        return
    expected = expected_schema(schema_version(conn))
    odd = sorted(
        "%s %s" % key
        for key, sql in found.items()
        if key not in expected or (key[0] in ("trigger", "view") and sql != expected[key])
    )
    odd += sorted("missing %s %s" % key for key in expected if key not in found)
    if odd:
        raise DamagedStore(
            "the history database %s holds what presstime did not write there (%s): refused, "
            "nothing was read or written; %s" % (path, ", ".join(odd[:5]), recover_hint(path))
        )


def _dump(record):
    try:
        return json.dumps(record, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError) as e:
        raise BadInput("the record cannot be stored as JSON: %s" % e)


def _game_id(game_id):
    if isinstance(game_id, str):
        game_id = game_id.strip().lstrip("#")  # "#3", as `presstime import` reports it, is 3
    try:
        return int(game_id)
    except (TypeError, ValueError):
        raise BadInput("a game id is a number as `presstime history` lists it, not %r" % (game_id,))


def _no_game(game_id):
    return "no game #%s in the history (see `presstime history`)" % game_id


# --- where the database lives -----------------------------------------------------------------


def default_path() -> str:
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("presstime", appauthor=False), FILE_NAME)


def db_path(args_or_path: argparse.Namespace | str | os.PathLike[str] | None = None) -> str:
    """The database path: an explicit path, else args.db, else $PRESSTIME_DB, else the default."""
    if isinstance(args_or_path, (str, bytes, os.PathLike)):
        return os.fsdecode(args_or_path)
    explicit = getattr(args_or_path, "db", None) if args_or_path is not None else None
    if explicit:
        return explicit
    return os.environ.get(ENV_VAR) or default_path()


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help="history database file (default: $%s, else %s in the user data folder)"
        % (ENV_VAR, FILE_NAME),
    )


def open_store(args_or_path: argparse.Namespace | str | os.PathLike[str] | None = None) -> Store:
    """Open (creating and migrating as needed) the history database named by
    args/path/env/default."""
    return Store(db_path(args_or_path))
