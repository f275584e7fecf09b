"""The local game history: one SQLite file (stdlib sqlite3), versioned schema, one transaction per write.

    store = open_store(args)              # --db, else $PRESSTIME_DB, else the user data dir
    game_id = store.add_game(record, "import:game.json")
    store.add_journal("pico-1a2b", [(1, b"..."), (2, b"...")])

The schema version is SQLite's `PRAGMA user_version`; `MIGRATIONS[i]` takes a database from
version i to i + 1, inside the same transaction that bumps the version, so a migration that fails
leaves the database as it was. Every write method is one `BEGIN IMMEDIATE … COMMIT`: a crash or an
exception part-way leaves the previous state intact. See docs/history.md.
"""

import datetime
import hashlib
import json
import os

from .errors import BadInput, Failure

ENV_VAR = "PRESSTIME_DB"
FILE_NAME = "history.sqlite3"


class JournalError(Failure):
    """A board's journal disagrees with what is already stored (a gap, or a stored record changed)."""


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
    rows = conn.execute("SELECT id, record FROM games").fetchall()
    for game_id, text in rows:
        record = json.loads(text)
        conn.execute(
            "UPDATE games SET game=?, mode=?, edition=?, players=?, rounds=?, fingerprint=? WHERE id=?",
            _summary_values(record) + (game_id,),
        )
    conn.execute("CREATE INDEX games_fingerprint ON games (fingerprint)")


def _v3(conn):
    # Drafts: score entry in progress, saved after every player so nothing typed is lost.
    conn.execute(
        "CREATE TABLE drafts ("
        " key TEXT PRIMARY KEY,"
        " record TEXT NOT NULL,"
        " saved_at TEXT NOT NULL)"
    )


MIGRATIONS = [_v1, _v2, _v3]
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(conn):
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn, target=None):
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


# --- helpers --------------------------------------------------------------------------------

def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def player_names(record):
    names = []
    players = record.get("players") if isinstance(record, dict) else None
    if isinstance(players, list):
        for p in players:
            if isinstance(p, dict):
                names.append(str(p.get("name", "")))
            else:
                names.append(str(p))
    return names


def fingerprint(record):
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _summary_values(record):
    rounds = record.get("rounds")
    return (
        str(record.get("game", "fit-to-print")),
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
    from . import records

    problems = records.check_record(record)
    if problems:
        raise BadInput(problems)


def _blob(payload):
    if isinstance(payload, str):
        raise TypeError("journal payloads are bytes, not str")
    return bytes(payload)


# --- the store ------------------------------------------------------------------------------

class Store:
    """The history database. Use as a context manager, or call close()."""

    def __init__(self, path):
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
            migrate(self.conn)
        except sqlite3.OperationalError as e:
            self.conn.close()
            raise unusable(self.path, e)
        except sqlite3.DatabaseError as e:
            self.conn.close()
            raise Failure("%s is not a usable presstime history database: %s" % (self.path, e))
        except BaseException:
            self.conn.close()
            raise

    # context manager
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.conn.close()

    def _write(self):
        return _Transaction(self.conn, self.path)

    # --- games --------------------------------------------------------------------------

    def add_game(self, record, source=""):
        """Validate and store one record; its id. The same record stored before: that id, nothing written."""
        return self.add_games([record], source)[0]

    def add_games(self, records, source=""):
        """Validate every record first, then store them all in one transaction (all or nothing)."""
        records = list(records)
        problems = []
        for i, record in enumerate(records):
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
                values = _summary_values(record)
                row = self.conn.execute(
                    "SELECT id FROM games WHERE fingerprint = ? ORDER BY id LIMIT 1", (values[-1],)
                ).fetchone()
                if row:
                    ids.append(row[0])
                    continue
                now = _now()
                cur = self.conn.execute(
                    "INSERT INTO games (record, source, added_at, updated_at,"
                    " game, mode, edition, players, rounds, fingerprint)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (_dump(record), str(source), now, now) + values,
                )
                ids.append(cur.lastrowid)
        return ids

    def find_game(self, record):
        """The id of a stored game equal to `record`, or None."""
        row = self.conn.execute(
            "SELECT id FROM games WHERE fingerprint = ? ORDER BY id LIMIT 1", (fingerprint(record),)
        ).fetchone()
        return row[0] if row else None

    def update_game(self, game_id, record):
        """Replace a stored game's record (validated first)."""
        _check(record)
        with self._write():
            cur = self.conn.execute(
                "UPDATE games SET record=?, updated_at=?, game=?, mode=?, edition=?, players=?,"
                " rounds=?, fingerprint=? WHERE id=?",
                (_dump(record), _now()) + _summary_values(record) + (_game_id(game_id),),
            )
            if cur.rowcount != 1:
                raise BadInput(_no_game(game_id))

    def get_game(self, game_id):
        row = self.conn.execute("SELECT record FROM games WHERE id = ?", (_game_id(game_id),)).fetchone()
        if row is None:
            raise BadInput(_no_game(game_id))
        return json.loads(row[0])

    def delete_game(self, game_id):
        self.delete_games([game_id])

    def delete_games(self, ids):
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

    def list_games(self):
        """Summaries, oldest first: id, game, mode, edition, players (names), rounds, source, added_at, updated_at."""
        out = []
        for row in self.conn.execute(
            "SELECT id, game, mode, edition, players, rounds, source, added_at, updated_at"
            " FROM games ORDER BY id"
        ):
            out.append({
                "id": row[0], "game": row[1], "mode": row[2], "edition": row[3],
                "players": json.loads(row[4] or "[]"), "rounds": row[5],
                "source": row[6], "added_at": row[7], "updated_at": row[8],
            })
        return out

    def games(self, ids=None):
        """[(id, record)] for the given ids (in that order; unknown id → BadInput) or all, oldest first."""
        if ids is None:
            rows = self.conn.execute("SELECT id, record FROM games ORDER BY id").fetchall()
            return [(r[0], json.loads(r[1])) for r in rows]
        return [(_game_id(i), self.get_game(i)) for i in ids]

    # --- boards' journals -----------------------------------------------------------------

    def last_seq(self, board_id):
        """The highest journal sequence number stored for this board (0: none)."""
        row = self.conn.execute(
            "SELECT MAX(seq) FROM journal WHERE board_id = ?", (str(board_id),)
        ).fetchone()
        return row[0] or 0

    def add_journal(self, board_id, records, gone_until=0):
        """Append a board's journal records [(seq, payload bytes)] in one transaction; the count added.

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
                    raise JournalError("board %s: journal sequence numbers start at 1, got %d" % (board_id, seq))
                if seq <= last:
                    row = self.conn.execute(
                        "SELECT payload FROM journal WHERE board_id = ? AND seq = ?", (board_id, seq)
                    ).fetchone()
                    if row is not None and bytes(row[0]) == payload:
                        continue
                    if row is None:  # cannot happen while seqs are contiguous, but never guess
                        raise JournalError("board %s: journal record %d is missing from the store" % (board_id, seq))
                    raise JournalError(
                        "board %s: journal record %d differs from the stored one "
                        "(was the board's journal wiped?)" % (board_id, seq)
                    )
                if seq != last + 1:
                    raise JournalError(
                        "board %s: journal record %d would leave a gap after %d" % (board_id, seq, last)
                    )
                self.conn.execute(
                    "INSERT INTO journal (board_id, seq, payload) VALUES (?, ?, ?)", (board_id, seq, payload)
                )
                last = seq
                added += 1
        return added

    def journal(self, board_id, after_seq=0):
        rows = self.conn.execute(
            "SELECT seq, payload FROM journal WHERE board_id = ? AND seq > ? ORDER BY seq",
            (str(board_id), int(after_seq)),
        ).fetchall()
        return [(r[0], bytes(r[1])) for r in rows]

    def boards(self):
        """Board ids with a stored journal, sorted."""
        return [r[0] for r in self.conn.execute("SELECT DISTINCT board_id FROM journal ORDER BY board_id")]

    # --- drafts (score entry in progress) --------------------------------------------------

    def save_draft(self, key, record):
        """Store (or replace) a draft record: any JSON-able value, not validated."""
        text = _dump(record)
        with self._write():
            self.conn.execute(
                "INSERT INTO drafts (key, record, saved_at) VALUES (?, ?, ?)"
                " ON CONFLICT(key) DO UPDATE SET record = excluded.record, saved_at = excluded.saved_at",
                (str(key), text, _now()),
            )

    def load_draft(self, key):
        """The draft saved under `key`, or None."""
        row = self.conn.execute("SELECT record FROM drafts WHERE key = ?", (str(key),)).fetchone()
        return json.loads(row[0]) if row else None

    def drop_draft(self, key):
        with self._write():
            self.conn.execute("DELETE FROM drafts WHERE key = ?", (str(key),))

    def list_drafts(self):
        return [
            {"key": r[0], "saved_at": r[1]}
            for r in self.conn.execute("SELECT key, saved_at FROM drafts ORDER BY saved_at, key")
        ]


LOCK_TIMEOUT = 10.0     # seconds a write waits for another program's lock on the database


def unusable(path, e):
    """BadInput for a database that cannot be written: read-only, or locked by another program."""
    text = str(e)
    if "readonly" in text or "read-only" in text:
        return BadInput("the history database %s is read-only: nothing was changed "
                        "(make it writable, or choose another with --db)" % path)
    if "locked" in text or "busy" in text:
        return BadInput("the history database %s is locked by another program (another presstime?): "
                        "nothing was changed, try again when it is done" % path)
    return BadInput("the history database %s cannot be written (%s): nothing was changed" % (path, text))


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any exception (including KeyboardInterrupt).
    A database that is read-only or locked raises BadInput (`unusable`), nothing written."""

    def __init__(self, conn, path=""):
        self.conn = conn
        self.path = path

    def __enter__(self):
        import sqlite3

        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            raise unusable(self.path, e)
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        import sqlite3

        try:
            if exc_type is None:
                self.conn.execute("COMMIT")
            else:
                self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError as e:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise unusable(self.path, e)
        if exc_type is not None and issubclass(exc_type, sqlite3.OperationalError):
            raise unusable(self.path, exc) from None
        return False


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

def default_path():
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("presstime", appauthor=False), FILE_NAME)


def db_path(args_or_path=None):
    """The database path: an explicit path, else args.db, else $PRESSTIME_DB, else the default."""
    if isinstance(args_or_path, (str, bytes, os.PathLike)):
        return os.fsdecode(args_or_path)
    explicit = getattr(args_or_path, "db", None) if args_or_path is not None else None
    if explicit:
        return explicit
    return os.environ.get(ENV_VAR) or default_path()


def add_db_argument(parser):
    parser.add_argument(
        "--db", metavar="PATH", default=None,
        help="history database file (default: $%s, else %s in the user data folder)" % (ENV_VAR, FILE_NAME),
    )


def open_store(args_or_path=None):
    """Open (creating and migrating as needed) the history database named by args/path/env/default."""
    return Store(db_path(args_or_path))
