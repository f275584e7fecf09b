"""presstime delete: games leave the history only when asked for by id, confirmed, and all at
once."""

import io
import os
import subprocess
import sys

import pytest

from helpers import example, run_cli
from presstime.errors import BadInput
from presstime.history.store import Store


@pytest.fixture
def db(tmp_path, monkeypatch):
    """A history with games #1, #2, #3 (the examples), the last one synced from a board."""
    path = str(tmp_path / "history.sqlite3")
    monkeypatch.setenv("PRESSTIME_DB", path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # not a terminal, unless a test says so
    with Store(path) as store:
        assert store.add_game(example("fit-to-print"), "import:fit-to-print.json") == 1
        assert store.add_game(example("heat"), "import:heat.json") == 2
        assert store.add_game(example("mini-fits"), "board:sim-0a1b2c3d:12") == 3
    return path


def ids(path):
    with Store(path) as store:
        return [g["id"] for g in store.list_games()]


class Terminal(io.StringIO):
    def isatty(self):
        return True


# --- the command ------------------------------------------------------------------------------


def test_help_says_how_to_keep_a_copy(capsys):
    code, out, _ = run_cli(capsys, "delete", "--help")
    assert code == 0
    assert "presstime delete 3" in out and "--yes" in out and "--db" in out
    assert "presstime export ID -o FILE.json" in out  # export's real option
    assert "draft" in out and "presstime sync" in out


def test_yes_deletes_and_lists_what_went(db, capsys):
    code, out, err = run_cli(capsys, "delete", "2", "#1", "--yes")
    assert code == 0, err
    assert ids(db) == [3]
    assert out.splitlines()[-1] == "deleted 2 games: #2, #1"
    assert "Delete" not in out  # nothing asked


def test_without_a_terminal_and_without_yes_nothing_is_deleted(db, capsys):
    code, out, err = run_cli(capsys, "delete", "1", "2")
    assert code == 2
    assert "not a terminal" in err and "add --yes" in err and "#1, #2" in err
    assert out == ""
    assert ids(db) == [1, 2, 3]


def test_unknown_ids_are_all_named_and_nothing_is_deleted(db, capsys):
    code, _, err = run_cli(capsys, "delete", "1", "9", "x7", "12", "--yes")
    assert code == 2
    assert "no game #9" in err and "no game #12" in err and "'x7'" in err
    assert "Traceback" not in err
    assert ids(db) == [1, 2, 3]


def test_the_same_game_twice_is_deleted_once(db, capsys):
    code, out, err = run_cli(capsys, "delete", "1", "#1", "--yes")
    assert code == 0, err
    assert out.splitlines()[-1] == "deleted 1 game: #1"
    assert ids(db) == [2, 3]


def test_the_summary_is_the_history_line(db, capsys, monkeypatch):
    code, history, err = run_cli(capsys, "history")
    wanted = [line for line in history.splitlines() if line.lstrip().startswith("2 ")]
    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    code, out, err = run_cli(capsys, "delete", "2")
    assert code == 1 and "nothing deleted" in err
    # Only one row: the columns are as wide as this game needs, so compare cell by cell.
    assert out.splitlines()[1].split() == wanted[0].split()
    assert "presstime export 2 -o FILE.json" in out
    assert ids(db) == [1, 2, 3]


def test_a_board_game_is_flagged_before_it_goes(db, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    code, out, err = run_cli(capsys, "delete", "3")
    assert code == 0, err
    assert "game #3 came from a board (board:sim-0a1b2c3d:12)" in out and "only as a draft" in out
    assert ids(db) == [1, 2]


@pytest.mark.parametrize(
    "answer, code, left",
    [
        ("y\n", 0, [3]),
        ("yes\n", 0, [3]),
        ("n\n", 1, [1, 2, 3]),
        ("\n", 1, [1, 2, 3]),
        ("", 1, [1, 2, 3]),
    ],
)
def test_confirmation_on_a_real_terminal(db, answer, code, left):
    """The command in its own process with a pty as standard input, as a person runs it."""
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "presstime", "delete", "1", "2", "--db", db],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.write(master, answer.encode() if answer else b"\x04")  # "" : Ctrl-D, end of input
        out, err = proc.communicate(timeout=30)
    finally:
        os.close(master)
        os.close(slave)
    assert proc.returncode == code, err
    assert "Delete 2 games from the history? [y/N]" in out
    assert "Fit to Print" in out and "Heat" in out
    assert ids(db) == left
    if code:
        assert "nothing deleted" in err and "Traceback" not in err


def test_usage_errors(db, capsys):
    assert run_cli(capsys, "delete")[0] == 2  # an id is required
    assert run_cli(capsys, "delete", "1", "--bogus")[0] == 2
    assert ids(db) == [1, 2, 3]


def test_nothing_heavy_is_imported_for_help():
    script = (
        "import sys; from presstime import cli\n"
        "for c in ('delete', 'repl'): cli.command_parser(c)\n"
        "print([m for m in ('sqlite3', 'serial', 'matplotlib') if m in sys.modules])"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


# --- the store: one transaction -------------------------------------------------------------------


def test_delete_games_is_all_or_nothing(db):
    with Store(db) as store:
        with pytest.raises(BadInput) as e:
            store.delete_games([1, 2, 77, "x"])
        assert e.value.messages == [
            "a game id is a number as `presstime history` lists it, not 'x'"
        ]
        with pytest.raises(BadInput) as e:
            store.delete_games([1, 77, 2, 78])
        assert e.value.messages == [
            "no game #77 in the history (see `presstime history`)",
            "no game #78 in the history (see `presstime history`)",
        ]
        assert [g["id"] for g in store.list_games()] == [1, 2, 3]
        assert store.delete_games(["#2", 1, 2]) == [2, 1]
        assert [g["id"] for g in store.list_games()] == [3]
        store.delete_game(3)
        with pytest.raises(BadInput):
            store.delete_game(3)
        assert store.list_games() == []


class FailingConnection:
    """The store's sqlite3 connection, failing at the n-th DELETE (a crash mid-write)."""

    def __init__(self, conn, fail_at):
        self.conn = conn
        self.deletes = 0
        self.fail_at = fail_at

    def execute(self, sql, *params):
        if sql.startswith("DELETE FROM games"):
            self.deletes += 1
            if self.deletes == self.fail_at:
                raise OSError("disk gone")
        return self.conn.execute(sql, *params)

    def __getattr__(self, name):
        return getattr(self.conn, name)


@pytest.mark.parametrize("fail_at", [1, 2, 3])
def test_a_failure_part_way_leaves_every_game_in_place(db, fail_at):
    with Store(db) as store:
        before = store.games()
        store.conn = FailingConnection(store.conn, fail_at)
        with pytest.raises(OSError):
            store.delete_games([1, 2, 3])
        store.conn = store.conn.conn
        assert store.games() == before
    with Store(db) as store:  # and on disk, seen by the next process
        assert store.games() == before


def test_the_listing_fits_the_terminal(db, capsys, monkeypatch):
    import shutil

    monkeypatch.setattr(sys, "stdin", Terminal("n\n"))
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((80, 24)))
    code, out, err = run_cli(capsys, "delete", "1", "2", "3")
    assert code == 1
    assert all(len(line) <= 80 for line in out.splitlines()), out
    assert "presstime export 1 2 3 -o FILE.json" in " ".join(out.split())
