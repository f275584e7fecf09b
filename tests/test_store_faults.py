"""The history under a full disk, corrupted pages, a hostile schema and a concurrent delete:
a clear message and exit 1 or 2, what was and was not stored, never a traceback or a hang."""

import json
import os
import subprocess

import pytest

from enter_runner import run_enter
from helpers import example, example_path, presstime_process
from presstime import cli
from presstime.history.store import Store

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = example_path()


def presstime(*argv, timeout=120):
    proc = presstime_process(*argv, timeout=timeout)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def small_disk(tmp_path):
    """A 320 KB file system (tmpfs): needs root, as in CI; skipped, saying so, elsewhere."""
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a full disk is simulated by mounting a small tmpfs, which needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=320k", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (%s)" % mounted.stderr.strip())
    yield where
    subprocess.run(["umount", "-l", str(where)], check=True)


def fill(folder):
    """Take the rest of the file system's space."""
    fd = os.open(os.path.join(str(folder), "filler"), os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)


@pytest.mark.slow
def test_import_on_a_full_disk_says_which_files_were_stored(small_disk, tmp_path):
    db = str(small_disk / "h.sqlite3")
    one, many = str(tmp_path / "one.json"), str(tmp_path / "many.json")
    with open(one, "w") as f:
        json.dump(example(), f)
    with open(many, "w") as f:
        json.dump([dict(example(), notes="game %d" % i) for i in range(300)], f)
    code, out, err = presstime("import", one, many, "--db", db)
    assert code == 1 and "one.json: 1 game added (#1)" in out
    assert "the disk holding it is full or failing" in err and "this change was not stored" in err
    assert "Files stored: %s; not stored: %s" % (one, many) in err
    code, out, err = presstime("history", "--db", db)
    assert code == 0 and len(out.splitlines()) == 2  # the header and game #1: nothing else


def test_done_on_a_full_disk_keeps_the_draft_and_says_so(small_disk):
    db = str(small_disk / "h.sqlite3")
    answers = iter(["heat", "Ada", "Ben", "Cy", "", "y"])

    def ask(prompt):
        try:
            return next(answers)
        except StopIteration:
            fill(small_disk)  # the disk fills while the standings are on the screen
            return "done"

    import argparse

    from presstime.commands import enter
    from presstime.history.store import StoreFull

    parser = argparse.ArgumentParser()
    enter.configure(parser)
    with pytest.raises(StoreFull) as e:
        enter.run(parser.parse_args(["--db", db]), ask=ask, say=lambda line: None)
    assert "The game is NOT stored; what was typed is kept in draft enter" in str(e.value)
    os.unlink(str(small_disk / "filler"))
    code, out = run_enter(["--resume"], ["done"], db)
    assert code == 0 and "Stored as game #1" in out


def _damaged_history(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    with Store(db) as s:
        s.add_games([dict(example(), notes="game %d %s" % (i, "x" * 2000)) for i in range(40)])
    with open(db, "r+b") as f:
        data = f.read()
        pages = len(data) // 4096
        for page in range(pages - 20, pages - 10):  # pages of the games' records and results
            f.seek(page * 4096)
            f.write(b"\xff" * 100)
    return db


@pytest.mark.slow
def test_a_history_with_corrupted_pages_is_named_and_never_written(tmp_path):
    db = _damaged_history(tmp_path)
    with open(db, "rb") as f:
        before = f.read()
    for argv in (["history"], ["export"], ["import", EXAMPLE], ["delete", "3", "--yes"]):
        code, out, err = presstime(*(argv + ["--db", db]))
        assert code == 1 and "is damaged" in err and ".recover" in err, (argv, err)
    with open(db, "rb") as f:
        assert f.read() == before


@pytest.mark.slow
@pytest.mark.parametrize(
    "sql",
    [
        # a table presstime reads replaced by a view that never ends
        "DROP TABLE meta; CREATE VIEW meta AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x "
        "+ 1 FROM n)"
        " SELECT 'scoring_version' AS key, x AS value FROM n",
        "CREATE VIEW endless AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
        "SELECT x FROM n",
        "DROP TRIGGER games_deleted; CREATE TRIGGER games_deleted AFTER DELETE ON games BEGIN"
        " DELETE FROM journal; END",
    ],
)
def test_a_history_holding_objects_presstime_did_not_write_is_refused(tmp_path, sql):
    db = str(tmp_path / "h.sqlite3")
    with Store(db) as s:
        s.add_game(example())
        s.conn.executescript(sql)
    for argv in (["history"], ["stats"], ["export"], ["delete", "1", "--yes"]):
        code, out, err = presstime(*(argv + ["--db", db]), timeout=60)
        assert code == 1 and "holds what presstime did not write there" in err, (argv, err)


@pytest.mark.slow
def test_export_reads_one_snapshot_while_a_delete_commits(tmp_path, monkeypatch, capsys):
    import threading

    db = str(tmp_path / "h.sqlite3")
    with Store(db) as s:
        s.add_games([dict(example(), notes=str(i)) for i in range(3)])
    real_games = Store.games
    deleted = []

    def delete_two():  # another presstime: `delete 2` (waits while the export reads)
        with Store(db) as other:
            deleted.extend(other.delete_games([2]))

    deleter = threading.Thread(target=delete_two)

    def games_while_a_delete_runs(self, *a, **kw):
        deleter.start()
        deleter.join(1.0)  # the delete done, or waiting for the export's read to end
        return real_games(self, *a, **kw)

    monkeypatch.setattr(Store, "games", games_while_a_delete_runs)
    code = cli.main(["export", "--db", db])
    out, err = capsys.readouterr()
    deleter.join()
    assert code == 0 and [r["notes"] for r in json.loads(out)] == ["0", "1", "2"], err
    assert deleted == [2]


def test_sync_on_a_full_disk_says_which_records_it_stored(
    small_disk, tmp_path, capsys, monkeypatch
):
    from presstime.sim.headless import Simulator
    from test_sync_faults import fill as play_games

    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))
    journal = str(tmp_path / "journal.bin")
    first, last = play_games(journal, 2, keep=100000)
    real_save = Store.save_draft

    def save_on_a_disk_that_fills(self, key, record):  # the journal's pages went in first
        fill(small_disk)
        return real_save(self, key, record)

    monkeypatch.setattr(Store, "save_draft", save_on_a_disk_that_fills)
    sim = Simulator(journal=journal).start()
    try:
        code = cli.main(["sync", "--port", sim.path, "--db", str(small_disk / "h.sqlite3")])
    finally:
        sim.stop()
    err = capsys.readouterr().err
    assert (
        code == 1
        and "the disk holding it is full or failing" in err
        and "nothing was changed" not in err
    )
    assert "Stored by this sync: board sim-" in err and ": records %d-%d;" % (first, last) in err


def test_the_schema_digest_is_the_migrated_schema():
    from presstime.history import store as store_mod

    digest = store_mod.schema_digest(store_mod.expected_schema(store_mod.SCHEMA_VERSION))
    assert store_mod.SCHEMA_DIGEST == digest, (
        "a migration changed the schema: set store.SCHEMA_DIGEST = %r" % digest
    )
