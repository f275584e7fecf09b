"""The history store: migrations, one transaction per write (crashes leave the previous state),
games, boards' journals and drafts."""

import json
import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings, strategies as st

from helpers import example, example_path
from presstime.errors import BadInput, Failure
from presstime.history import store as store_mod
from presstime.history.store import JournalError, Store
from presstime.records import is_uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = example_path()


# schema 4: the stored results and the running totals stats reads
TABLES = [
    "agg_players",
    "agg_streaks",
    "agg_values",
    "discarded_drafts",
    "drafts",
    "games",
    "journal",
    "meta",
    "result_players",
    "result_values",
    "results",
]


def small(name="A", other="B", articles=5):
    """A valid one-round, two-player game (a partial game: valid, not complete)."""
    entry = {
        "articles": articles,
        "photos": 0,
        "centerpiece": 0,
        "white_space": 1,
        "smiles": 0,
        "frowns": 0,
        "unplaced": 0,
        "ads": 2,
    }
    return {
        "game": "fit-to-print",
        "players": [name, other],
        "rounds": [
            {
                "day": "friday",
                "finish": [name, other],
                "players": {name: dict(entry), other: dict(entry, white_space=3)},
            }
        ],
    }


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "h.sqlite3")
    with Store(path) as s:
        yield s


def tables(conn):
    return sorted(
        r[0]
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        if not r[0].startswith("sqlite_")
    )


# --- schema and migrations ------------------------------------------------------------------


def test_fresh_database_is_at_the_latest_version(db):
    assert (
        store_mod.schema_version(db.conn) == store_mod.SCHEMA_VERSION == len(store_mod.MIGRATIONS)
    )
    assert tables(db.conn) == TABLES


@pytest.mark.parametrize("old_version", [1, 2])
def test_an_old_database_is_migrated_and_keeps_its_games(tmp_path, old_version):
    path = str(tmp_path / "old.sqlite3")
    conn = sqlite3.connect(path, isolation_level=None)
    store_mod.migrate(conn, target=old_version)
    assert store_mod.schema_version(conn) == old_version
    record = example()
    if old_version == 1:  # the first schema had only the JSON
        conn.execute(
            "INSERT INTO games (record, source, added_at, updated_at) VALUES (?, 'old', 't0', "
            "'t0')",
            (json.dumps(record),),
        )
    else:
        conn.execute(
            "INSERT INTO games (record, source, added_at, updated_at, game, mode, edition, players,"
            " rounds, fingerprint) VALUES (?, 'old', 't0', 't0', ?, ?, ?, ?, ?, ?)",
            (json.dumps(record),) + store_mod._summary_values(record),
        )
    conn.execute("INSERT INTO journal (board_id, seq, payload) VALUES ('b', 1, x'01')")
    conn.close()

    told = []
    with Store(path, notice=told.append) as s:
        assert told == [
            "the history was upgraded from schema version %d to %d (docs/history.md)"
            % (old_version, store_mod.SCHEMA_VERSION)
        ]
        assert store_mod.schema_version(s.conn) == store_mod.SCHEMA_VERSION
        assert tables(s.conn) == TABLES
        # schema 4 backfilled the stored result of the old game
        assert s.conn.execute(
            "SELECT state, winners, status FROM results WHERE game_id = 1"
        ).fetchone() == ("complete", '["Ada"]', "winner: Ada, 52 pts")
        [summary] = s.list_games()
        assert summary["id"] == 1 and summary["source"] == "old"
        assert summary["players"] == ["Ada", "Ben", "Cy"] and summary["rounds"] == 3
        assert s.get_game(1) == record
        assert s.add_games([record]) == [1]  # a re-import: the backfilled fingerprint recognises it
        assert is_uuid(s.game_uuid(1))  # schema 6 gave the old game its uuid
        assert s.journal("b") == [(1, b"\x01")]
        s.save_draft("k", {"x": 1})
        assert s.load_draft("k") == {"x": 1}


def test_a_failing_migration_leaves_the_database_as_it_was(tmp_path, monkeypatch):
    path = str(tmp_path / "h.sqlite3")
    conn = sqlite3.connect(path, isolation_level=None)
    store_mod.migrate(conn, target=2)
    conn.close()

    def broken(conn):
        conn.execute("CREATE TABLE drafts (key TEXT)")
        raise RuntimeError("power cut in the middle of a migration")

    monkeypatch.setattr(store_mod, "MIGRATIONS", store_mod.MIGRATIONS[:2] + [broken])
    with pytest.raises(RuntimeError):
        Store(path)
    conn = sqlite3.connect(path)
    assert store_mod.schema_version(conn) == 2
    assert tables(conn) == ["games", "journal"]
    conn.close()
    monkeypatch.undo()
    with Store(path) as s:
        assert store_mod.schema_version(s.conn) == store_mod.SCHEMA_VERSION


def test_a_database_from_a_newer_presstime_is_refused(tmp_path):
    path = str(tmp_path / "new.sqlite3")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = %d" % (store_mod.SCHEMA_VERSION + 1))
    conn.close()
    with pytest.raises(Failure, match="newer"):
        Store(path)


def test_a_file_that_is_not_a_database_is_a_failure(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping list: tiles, glue, more tiles\n" * 20)
    with pytest.raises(Failure, match="not a usable presstime history database"):
        Store(str(path))


# --- where the database lives ---------------------------------------------------------------


def test_path_from_argument_environment_or_default(tmp_path, monkeypatch):
    import argparse

    parser = argparse.ArgumentParser()
    store_mod.add_db_argument(parser)
    monkeypatch.setenv("PRESSTIME_DB", str(tmp_path / "env.sqlite3"))
    assert store_mod.db_path(parser.parse_args(["--db", "x.sqlite3"])) == "x.sqlite3"
    assert store_mod.db_path(parser.parse_args([])) == str(tmp_path / "env.sqlite3")
    assert store_mod.db_path(str(tmp_path / "p")) == str(tmp_path / "p")
    monkeypatch.delenv("PRESSTIME_DB")
    default = store_mod.db_path(parser.parse_args([]))
    assert default.endswith(os.path.join("presstime", "history.sqlite3"))
    import platformdirs

    assert default.startswith(platformdirs.user_data_dir("presstime", appauthor=False))


def test_open_store_creates_the_folder(tmp_path):
    path = tmp_path / "a" / "b" / "h.sqlite3"
    with store_mod.open_store(str(path)) as s:
        assert s.list_games() == []
    assert path.exists()


# --- games ----------------------------------------------------------------------------------


def test_add_get_list_update_delete(db):
    record = example()
    game_id = db.add_game(record, "import:example")
    assert db.get_game(game_id) == record
    [s] = db.list_games()
    assert s["id"] == game_id and s["game"] == "fit-to-print" and s["mode"] == "standard"
    assert s["edition"] == "published" and s["source"] == "import:example"
    changed = small()
    db.update_game(game_id, changed)
    assert db.get_game(game_id) == changed
    assert db.list_games()[0]["players"] == ["A", "B"]
    db.delete_game(game_id)
    assert db.list_games() == []
    for call in (
        lambda: db.get_game(99),
        lambda: db.update_game(99, small()),
        lambda: db.delete_game(99),
    ):
        with pytest.raises(BadInput, match="no game #99"):
            call()
    with pytest.raises(BadInput, match="a game id is a number"):
        db.get_game("three")
    assert db.get_game(str(db.add_game(small()))) == small()
    assert db.get_game("#%d" % db.find_game(small())) == small()


def test_the_same_record_imported_twice_is_stored_once(db):
    first = db.add_game(example(), "a")
    assert db.add_games([example()], "b") == [first]
    assert db.find_game(example()) == first
    assert db.find_game(small()) is None
    assert len(db.list_games()) == 1


def test_a_bad_record_is_refused_with_every_problem_and_nothing_is_written(db):
    bad = small()
    bad["rounds"][0]["players"]["A"]["articles"] = -1
    bad["rounds"][0]["players"]["Zed"] = dict(bad["rounds"][0]["players"]["B"])
    with pytest.raises(BadInput) as e:
        db.add_game(bad)
    text = " | ".join(e.value.messages)
    assert "articles" in text and "Zed" in text
    with pytest.raises(BadInput) as e:
        db.add_games([small(), bad, small("C", "D")])
    assert all(m.startswith("record 2: ") for m in e.value.messages)
    with pytest.raises(BadInput):
        db.add_game(["not", "a", "record"])
    assert db.list_games() == []


def test_an_update_with_a_bad_record_keeps_the_old_one(db):
    game_id = db.add_game(example())
    with pytest.raises(BadInput):
        db.update_game(game_id, {"game": "fit-to-print", "players": []})
    assert db.get_game(game_id) == example()


class FaultyConnection:
    """Delegates to a real connection, but raises on the Nth statement starting with `prefix`."""

    def __init__(self, conn, prefix, n):
        self.conn, self.prefix, self.n = conn, prefix, n

    def execute(self, sql, *args):
        if sql.startswith(self.prefix):
            self.n -= 1
            if self.n == 0:
                raise sqlite3.OperationalError("injected fault: disk I/O error")
        return self.conn.execute(sql, *args)

    def executemany(self, sql, *args):
        return self.conn.executemany(sql, *args)

    @property
    def in_transaction(self):
        return self.conn.in_transaction


def test_a_fault_inside_add_games_leaves_the_previous_state(db):
    kept = db.add_game(example())
    db.conn = FaultyConnection(db.conn, "INSERT INTO games", 2)
    with pytest.raises(store_mod.StoreFull, match="injected"):
        db.add_games([small("A", "B"), small("C", "D"), small("E", "F")])
    db.conn = db.conn.conn
    assert [s["id"] for s in db.list_games()] == [kept]
    assert db.add_games([small("A", "B"), small("C", "D")]) == [kept + 1, kept + 2]


def test_a_fault_inside_add_journal_leaves_the_previous_state(db):
    db.add_journal("b", [(1, b"a")])
    db.conn = FaultyConnection(db.conn, "INSERT INTO journal", 3)
    with pytest.raises(store_mod.StoreFull, match="injected"):
        db.add_journal("b", [(2, b"b"), (3, b"c"), (4, b"d")])
    db.conn = db.conn.conn
    assert db.journal("b") == [(1, b"a")] and db.last_seq("b") == 1


CRASH = textwrap.dedent("""
    import json, os, sys
    from presstime.history.store import Store
    path, table, nth, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
    s = Store(path)
    count = [0]
    def trace(sql):
        if sql.startswith("INSERT INTO " + table):
            count[0] += 1
            if count[0] == nth:
                os._exit(3)   # the process dies here, mid-transaction, without cleaning up
    s.conn.set_trace_callback(trace)
    if table == "games":
        s.add_games(batch, "crash")
    else:
        s.add_journal("b", [(seq, text.encode()) for seq, text in batch])
    os._exit(0)
""")


def crash(path, table, nth, batch):
    proc = subprocess.run(
        [sys.executable, "-c", CRASH, path, table, str(nth), json.dumps(batch)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.returncode, proc.stderr


def test_a_process_killed_mid_write_leaves_the_previous_state(tmp_path):
    path = str(tmp_path / "h.sqlite3")
    with Store(path) as s:
        first = s.add_game(example())
        s.add_journal("b", [(1, b"one")])
    code, err = crash(path, "games", 2, [small("A", "B"), small("C", "D"), small("E", "F")])
    assert code == 3, err
    code, err = crash(path, "journal", 2, [[2, "two"], [3, "three"]])
    assert code == 3, err
    with Store(path) as s:
        assert s.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert [g["id"] for g in s.list_games()] == [first]
        assert s.journal("b") == [(1, b"one")]
        # and the same writes go through once nothing kills them
        assert len(s.add_games([small("A", "B"), small("C", "D"), small("E", "F")])) == 3
        assert s.add_journal("b", [(2, b"two"), (3, b"three")]) == 2
    code, err = crash(path, "games", 99, [small("G", "H")])
    assert code == 0, err
    with Store(path) as s:
        assert len(s.list_games()) == 5


# --- boards' journals -----------------------------------------------------------------------


def test_journal_append_is_idempotent_and_resumable(db):
    assert db.last_seq("pico") == 0
    assert db.add_journal("pico", [(1, b"a"), (2, b"b"), (3, bytearray(b"c"))]) == 3
    assert db.add_journal("pico", [(1, b"a"), (2, b"b"), (3, b"c")]) == 0
    assert db.add_journal("pico", [(5, b"e"), (3, b"c"), (4, memoryview(b"d"))]) == 2  # any order
    assert db.last_seq("pico") == 5
    assert db.journal("pico") == [(1, b"a"), (2, b"b"), (3, b"c"), (4, b"d"), (5, b"e")]
    assert db.journal("pico", after_seq=3) == [(4, b"d"), (5, b"e")]
    assert db.add_journal("pico", []) == 0
    assert db.last_seq("other") == 0 and db.journal("other") == []
    assert db.boards() == ["pico"]


def test_journal_refuses_gaps_and_changed_records_whole(db):
    db.add_journal("pico", [(1, b"a"), (2, b"b")])
    with pytest.raises(JournalError, match="gap after 2"):
        db.add_journal("pico", [(4, b"d")])
    with pytest.raises(JournalError, match="gap after 3"):
        db.add_journal("pico", [(3, b"c"), (5, b"e")])
    with pytest.raises(JournalError, match="record 2 differs"):
        db.add_journal("pico", [(3, b"c"), (2, b"B")])
    with pytest.raises(JournalError, match="start at 1"):
        db.add_journal("other", [(0, b"z")])
    with pytest.raises(JournalError, match="gap after 0"):
        db.add_journal("other", [(2, b"z")])
    with pytest.raises(TypeError):
        db.add_journal("pico", [(3, "text")])
    assert db.journal("pico") == [(1, b"a"), (2, b"b")]
    assert db.last_seq("other") == 0
    assert issubclass(JournalError, Failure)


@settings(max_examples=60, deadline=None)
@given(
    board=st.lists(st.binary(min_size=1, max_size=8), min_size=1, max_size=20),
    windows=st.lists(st.tuples(st.integers(1, 22), st.integers(0, 6)), max_size=12),
)
def test_the_stored_journal_is_always_a_prefix_of_the_boards(board, windows):
    """Pages of any start and length, repeated, overlapping or too far ahead: never a gap or a
    duplicate."""
    with Store(":memory:") as s:
        for start, length in windows:
            page = [
                (seq, board[seq - 1]) for seq in range(start, min(start + length, len(board) + 1))
            ]
            last = s.last_seq("b")
            try:
                added = s.add_journal("b", page)
            except JournalError:
                assert page and page[0][0] > last + 1
                added = 0
            stored = s.journal("b")
            assert stored == [(i + 1, board[i]) for i in range(len(stored))]
            assert len(stored) == last + added
        s.add_journal("b", [(i + 1, p) for i, p in enumerate(board)])
        assert s.journal("b") == [(i + 1, p) for i, p in enumerate(board)]


# --- drafts ---------------------------------------------------------------------------------


def test_drafts_save_replace_load_drop(db):
    assert db.load_draft("enter") is None
    db.save_draft("enter", {"players": ["A"], "rounds": []})
    db.save_draft("enter", {"players": ["A", "B"], "rounds": []})
    db.save_draft("other", {"players": []})
    assert db.load_draft("enter") == {"players": ["A", "B"], "rounds": []}
    assert sorted(d["key"] for d in db.list_drafts()) == ["enter", "other"]
    db.drop_draft("enter")
    db.drop_draft("never-saved")
    assert db.load_draft("enter") is None
    assert [d["key"] for d in db.list_drafts()] == ["other"]


def test_a_draft_survives_reopening(tmp_path):
    path = str(tmp_path / "h.sqlite3")
    with Store(path) as s:
        s.save_draft("k", {"n": 1})
    with Store(path) as s:
        assert s.load_draft("k") == {"n": 1}
