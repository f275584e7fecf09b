"""A damaged draft is named and can be dropped while every other `enter` still works; a draft is
held by one `enter` at a time (a second one is refused, naming the process holding it)."""

import os
import subprocess
import sys
import time

import pytest

from enter_runner import run_enter
from presstime.entry.drafts import DraftBusy, lock_path
from presstime.history.store import DamagedDraft, Store

HEAT_ARRESTED = ["heat", "Ada", "Ben", "Cy", "", "y", "done"]


def _corrupt(db, key, text):
    with Store(db) as s:
        s.save_draft(key, {})
        s.conn.execute("UPDATE drafts SET record = ? WHERE key = ?", (text, key))


@pytest.mark.parametrize(
    "text, reason",
    [
        ("{oops", "the stored record is not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"game": "chess"}', 'game: "chess" is not a game presstime knows'),
        ('{"game": "heat", "players": "Ada"}', "players: must be a list of names"),
        ('{"players": ["Ada", 3]}', "players, seat 2: must be a name (got 3)"),
        ('{"rounds": [7]}', "rounds: must be a list of objects"),
        ('{"rounds": [{"players": 5}]}', "round 1, players: must map each name to its numbers"),
        (
            '{"game": "mini-fits", "rounds": [{"players": [1]}]}',
            "round 1, players: must map each name",
        ),
        ('{"rounds": [{"finish": "Ada"}]}', "round 1, finish: must be a list of names"),
    ],
)
def test_a_damaged_draft_is_named_and_every_other_enter_works(tmp_path, text, reason):
    db = str(tmp_path / "h.db")
    _corrupt(db, "enter", text)
    _corrupt(db, "board:b:1", text)
    code, out = run_enter(["--list"], [], db)
    assert code == 0 and out.count("DAMAGED: " + reason) == 2, out
    for argv in ([], ["--resume"], ["--draft", "board:b:1"]):
        with pytest.raises(DamagedDraft) as e:
            run_enter(argv, [], db)
        assert reason in str(e.value) and "presstime enter --discard" in str(e.value)
    code, out = run_enter(["--discard", "board:b:1", "--yes"], [], db)
    assert code == 0 and "discarded: board:b:1" in out
    code, out = run_enter(["--new"], HEAT_ARRESTED, db)  # the damaged one goes, a game is typed
    assert code == 0 and "Stored as game #1" in out
    with Store(db) as s:
        assert s.list_drafts() == []


def _holder(db):
    """`presstime enter --resume` in another process, waiting at a question (its stdin open)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "presstime", "enter", "--resume", "--db", db],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    path = lock_path(db, "enter")
    for _ in range(400):
        if os.path.exists(path) and open(path).read().strip() == str(proc.pid):
            return proc
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("the other enter never took its draft")


def test_a_draft_is_held_by_one_enter_at_a_time(tmp_path):
    db = str(tmp_path / "h.db")
    code, out = run_enter([], ["heat", "Ada", "Ben", "Cy", ""], db)  # stopped at a question
    assert code == 1
    proc = _holder(db)
    try:
        for argv, answers in (
            (["--resume"], ["y", "done"]),
            ([], ["", "y", "done"]),
            (["--new"], HEAT_ARRESTED),
            (["--discard", "enter", "--yes"], []),
        ):
            with pytest.raises(DraftBusy) as e:
                run_enter(argv, answers, db)
            assert "draft enter is open in another presstime (process %d)" % proc.pid in str(
                e.value
            )
    finally:
        out, err = proc.communicate(b"")  # its input ends: it keeps the draft, exit 1
    assert proc.returncode == 1, err
    assert not os.path.exists(lock_path(db, "enter"))
    code, out = run_enter(["--resume"], ["y", "done"], db)
    assert code == 0 and "Stored as game #1" in out
    with Store(db) as s:
        assert len(s.list_games()) == 1 and s.list_drafts() == []


def test_a_lock_left_by_a_killed_enter_is_taken_over(tmp_path):
    db = str(tmp_path / "h.db")
    run_enter([], ["heat", "Ada", "Ben", "Cy", ""], db)
    proc = _holder(db)
    proc.kill()
    proc.communicate()
    code, out = run_enter(["--resume"], ["y", "done"], db)
    assert code == 0 and "Stored as game #1" in out


SYNCED_MYTH_FITS = {
    "game": "myth-fits",
    "players": ["Ada", "Ben", "Cy"],  # as `sync` drafts it
    "photo_tokens": {"Ada": 1, "Ben": 2, "Cy": 0},
    "gathered": None,
}


def test_a_synced_myth_fits_draft_asks_who_gathered_and_is_stored_with_its_winner(tmp_path):
    db = str(tmp_path / "h.db")
    with Store(db) as s:
        s.save_draft("board:b:7", dict(SYNCED_MYTH_FITS))
    code, out = run_enter(["--draft", "board:b:7"], ["", "Ben"], db, echo_prompts=True)
    # Enter (nobody) first: not stored, the draft kept; then asked again and answered
    assert code == 0 and "who gathered the three creatures?" in out
    assert "Not stored: No winner yet" in out and "kept as draft board:b:7" in out
    with Store(db) as s:
        assert s.list_games() == [] and s.load_draft("board:b:7")["gathered"] is None
    code, out = run_enter(["--draft", "board:b:7"], ["Ben"], db, echo_prompts=True)
    assert code == 0 and "who gathered the three creatures?" in out and "Stored as game #1" in out
    with Store(db) as s:
        assert s.get_game(1)["gathered"] == "Ben" and s.result(1)[0] == "complete"
        assert s.list_drafts() == []


@pytest.mark.slow
def test_sync_leaves_a_draft_an_enter_holds_or_a_damaged_one_and_names_it(
    tmp_path, capsys, monkeypatch
):
    import json

    from presstime import cli
    from presstime.sim.headless import Simulator
    from test_sync_faults import fill

    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))
    journal, db = str(tmp_path / "journal.bin"), str(tmp_path / "h.db")
    fill(journal, 2, keep=100000)
    sim = Simulator(journal=journal).start()
    try:

        def sync():
            assert cli.main(["sync", "--port", sim.path, "--db", db, "--json"]) == 0
            return json.loads(capsys.readouterr().out)["games"]

        first, second = [g["draft"] for g in sync()]
        with Store(db) as s:
            s.conn.execute("UPDATE drafts SET record = '{oops' WHERE key = ?", (second,))
        proc = subprocess.Popen(
            [sys.executable, "-m", "presstime", "enter", "--draft", first, "--db", db],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            for _ in range(400):
                if (
                    os.path.exists(lock_path(db, first))
                    and open(lock_path(db, first)).read().strip()
                ):
                    break
                time.sleep(0.05)
            held, damaged = sync()
        finally:
            proc.communicate(b"quit\n")
        assert (
            "draft %s is open in another presstime (process %d)" % (first, proc.pid)
            in held["problem"]
        )
        assert "draft %s is damaged" % second in damaged["problem"] and "draft" not in damaged
        with Store(db) as s:
            s.drop_draft(second)
        assert [g.get("draft") for g in sync()] == [first, second]  # free again: both drafted
    finally:
        sim.stop()


def test_a_draft_play_holds_is_refused_to_enter_until_play_closes_its_history(tmp_path):
    db = str(tmp_path / "h.db")
    store = Store(db)
    store.save_draft("board:b:3", dict(SYNCED_MYTH_FITS))
    store.hold_draft("board:b:3")  # what `play` does once the board's game is set up
    with pytest.raises(DraftBusy) as e:
        run_enter(["--draft", "board:b:3"], ["Ben"], db)
    assert "(process %d)" % os.getpid() in str(e.value)
    store.close()
    code, out = run_enter(["--draft", "board:b:3"], ["Ben"], db)
    assert code == 0 and "Stored as game #1" in out


def test_a_board_draft_whose_counted_numbers_are_refused_is_named_not_asked_forever(tmp_path):
    from presstime.errors import BadInput

    db = str(tmp_path / "h.db")
    with Store(db) as s:  # Ben holds the target, so nothing is asked; Cy's count is not a number
        s.save_draft(
            "board:b:9", dict(SYNCED_MYTH_FITS, photo_tokens={"Ada": 2, "Ben": 4, "Cy": None})
        )
    with pytest.raises(BadInput) as e:
        run_enter(["--draft", "board:b:9"], [], db)
    assert "photo_tokens, player Cy: must be a whole number 0 to 4 (got null)" in e.value.messages
    assert "nothing typed here can change that" in str(e.value)
    with Store(db) as s:
        assert s.load_draft("board:b:9")["photo_tokens"]["Cy"] is None  # kept as it was


@pytest.mark.parametrize(
    "draft, reason",
    [
        (
            {
                "game": "mini-fits",
                "players": ["Ada", "Ben"],
                "rounds": [{"players": {"Ada": {"lines": [1]}}}],
            },
            "round 1, players, Ada: must map each field to a number",
        ),
        (
            {"game": "heat", "players": ["Ada", "Ben", "Cy"], "final": []},
            "final: must map each name",
        ),
        (
            {"game": "myth-fits", "players": ["Ada", "Ben"], "photo_tokens": {"Ada": {}}},
            "photo_tokens: must map",
        ),
        (
            {"game": "myth-fits", "players": ["Ada", "Ben"], "gathered": ["Ada"]},
            "gathered: must be one answer",
        ),
    ],
)
def test_answers_of_the_wrong_shape_make_a_draft_damaged(tmp_path, draft, reason):
    db = str(tmp_path / "h.db")
    with Store(db) as s:
        s.save_draft("enter", draft)
    with pytest.raises(DamagedDraft) as e:
        run_enter(["--resume"], ["1"] * 5, db)
    assert reason in str(e.value)


def test_a_drafts_own_answers_are_checked_in_one_order_whatever_its_game():
    """The faces say which fields a draft's own answers and counted numbers are (heat value,
    arrested, gathered; photo tokens): each is checked, whatever the draft's game, the first
    of them in this order named."""
    from presstime.entry.drafts import draft_problem

    both = {"game": "heat", "players": ["Ada", "Ben", "Cy"], "arrested": [1], "heat_value": {}}
    assert draft_problem(both) == "heat_value: must be one answer (got {})"
    assert draft_problem(dict(both, heat_value=3)) == "arrested: must be one answer (got [1])"
    mixed = {"game": "mini-fits", "players": ["Ada"], "gathered": {}, "photo_tokens": [2]}
    assert draft_problem(mixed) == "gathered: must be one answer (got {})"
    assert draft_problem(dict(mixed, gathered=None)) == (
        "photo_tokens: must map each name to a number (got [2])"
    )
