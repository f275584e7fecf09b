"""`presstime play`: a demo leaves the history alone unless --save; Ctrl-C says where the draft
is."""

import builtins
import os

import pytest

from presstime import cli
from presstime.history.store import Store
from presstime.tableside import play_session


@pytest.mark.slow
def test_a_demo_leaves_the_history_alone_unless_asked(sim, tmp_path, capsys):
    db = str(tmp_path / "history.db")
    assert cli.main(["play", "--demo", "--game", "myth-fits", "--port", sim.path, "--db", db]) == 0
    out = capsys.readouterr().out
    assert "not kept in the history (`--save` keeps it)" in out and "WINS" in out
    assert not os.path.exists(db)
    assert cli.main(["play", "--save", "--players", "A,B", "--port", sim.path, "--db", db]) == 2
    assert "--save: only with --demo" in capsys.readouterr().err


@pytest.mark.slow
def test_ctrl_c_in_play_says_the_draft_is_kept(sim, tmp_path, capsys, monkeypatch):
    typed = ["", "1", "2"]  # Enter starts the round, then both players press
    monkeypatch.setattr(play_session, "_poll_line", lambda timeout: typed.pop(0) if typed else None)

    def interrupted(prompt=""):
        raise KeyboardInterrupt()

    monkeypatch.setattr(builtins, "input", interrupted)
    db = str(tmp_path / "history.db")
    # a short round (10 s, the shortest): presses typed while the 3-2-1 count runs are not presses
    # yet, so the round may end by its time-out (tokens forced) rather than by both players
    # pressing
    assert (
        cli.main(
            ["play", "--players", "Ada,Ben", "--duration", "0:10", "--port", sim.path, "--db", db]
        )
        == 130
    )
    out = capsys.readouterr().out
    assert "Stopped (Ctrl-C). Everything typed is kept as draft board:" in out
    assert "  presstime enter --draft board:" in out
    with Store(db) as store:
        [draft] = store.list_drafts()
        assert store.load_draft(draft["key"])["players"] == ["Ada", "Ben"]


@pytest.mark.slow
def test_quit_in_play_exits_as_in_enter(sim, tmp_path, capsys, monkeypatch):
    typed = ["", "1", "2"]  # Enter starts the round, then both players press
    monkeypatch.setattr(play_session, "_poll_line", lambda timeout: typed.pop(0) if typed else None)
    monkeypatch.setattr(
        builtins, "input", lambda prompt="": "quit"
    )  # at the Breaking News question
    db = str(tmp_path / "history.db")
    assert (
        cli.main(
            ["play", "--players", "Ada,Ben", "--duration", "0:10", "--port", sim.path, "--db", db]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Everything typed is kept as draft board:" in out and "unknown card" not in out


def test_ctrl_c_before_any_round_leaves_no_draft(sim, tmp_path, capsys, monkeypatch):
    def interrupted(timeout):
        raise KeyboardInterrupt()

    monkeypatch.setattr(play_session, "_poll_line", interrupted)  # at the first ready check
    db = str(tmp_path / "history.db")
    assert cli.main(["play", "--players", "Ada,Ben", "--port", sim.path, "--db", db]) == 130
    out = capsys.readouterr().out
    assert (
        "before any round was played: nothing to keep, no draft" in out
        and "enter --draft" not in out
    )
    with Store(db) as store:
        assert store.list_drafts() == []
