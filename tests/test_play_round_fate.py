"""`presstime play` follows the table's fate for a round: when the table throws away the round
play just took (its control button held 5 s during the summary: abort, the same round is played
again), play takes that round again from its next summary instead of keeping the discarded one,
so the game it stores is the one the board's journal tells (`presstime sync`)."""

import json
import time

import pytest

from presstime import cli
from presstime.core.table import READYCHK
from presstime.history.store import Store
from presstime.tableside import play_demo, play_session

pytest.importorskip("serial")


def hold_control_5s(sim):
    """The board's control button, down 5.1 s ago and released now: its abort gesture."""
    port = sim.port
    t = port.now_us()
    with port._lock:
        port._pending.extend([(t - 5100000, -1, True), (t, -1, False)])
        port._pending.sort()
    deadline = time.monotonic() + 5
    while sim.app.table.phase != READYCHK:
        assert time.monotonic() < deadline, sim.app.table.status()
        time.sleep(0.02)


def abort_while_first_numbers_typed(monkeypatch, cls, sim):
    """The table's abort comes while round 1's numbers are being filled in (once)."""
    fill = cls.fill
    done = []

    def aborted_during(self, record, index=None):
        if not done and index == 0:
            done.append(sim.app.table.status()["round"])
            hold_control_5s(sim)
        return fill(self, record, index)

    monkeypatch.setattr(cls, "fill", aborted_during)
    return done


def synced_record(sim, db, capsys):
    assert cli.main(["sync", "--port", sim.path, "--db", db, "--json"]) == 0
    [summary] = json.loads(capsys.readouterr().out)["games"]
    return summary


@pytest.mark.slow
@pytest.mark.parametrize(
    "game,args,rounds",
    [
        ("fit-to-print", ["--players", "Ada,Ben"], 3),
        ("mini-fits", [], 2),
    ],
)
def test_an_abort_in_the_summary_makes_play_take_the_round_again(
    game, args, rounds, sim, tmp_path, capsys, monkeypatch
):
    aborted = abort_while_first_numbers_typed(monkeypatch, play_demo.Demo, sim)
    db = str(tmp_path / "history.db")
    assert (
        cli.main(
            ["play", "--demo", "--save", "--game", game, "--port", sim.path, "--db", db] + args
        )
        == 0
    )
    out = capsys.readouterr().out
    assert aborted == [1]
    assert (
        "The table threw round 1" in out
        and "away (an abort or an undo there): it is played again" in out
    )
    assert sim.app.table.status()["phase"] == "over"  # play took every round the table played
    with Store(db) as store:
        [(gid, played)] = store.games()
    assert len(played["rounds"]) == rounds

    summary = synced_record(sim, db, capsys)
    assert summary["stored"] == gid and summary["over"] and "problem" not in summary
    with Store(db) as store:
        [(_, record)] = store.games()
    assert record == played  # the board's journal tells the game play stored
    if game == "fit-to-print":
        board = [r["finish"] for r in summary["round_details"]]
        assert [r["finish"] for r in played["rounds"]] == board


class _Board:
    """A client whose table answers `states` one status after another; next_round is recorded,
    or refused as a stale command (as the link does when the table changed since)."""

    def __init__(self, states, stale=False):
        self.states = list(states)
        self.stale = stale
        self.sent = []

    def status(self):
        return self.states.pop(0) if len(self.states) > 1 else self.states[0]

    def next_round(self):
        from presstime.board.link import BoardError
        from presstime.core import wire

        self.sent.append("next")
        if self.stale:
            raise BoardError(wire.E_STALE, "stale version")


def _fate(states, stale=False):
    said = []
    table = play_session.PlaySession.__new__(play_session.PlaySession)
    table.client = _Board(states, stale)
    table.say = said.append
    past, _ = table.went_past(SHOWN)
    return past, table.client.sent, said


SHOWN = {"phase": "summary", "round": 1, "day": "friday", "version": 40}


def test_play_follows_the_table_past_a_summary_or_back_to_it():
    # the summary play took, untouched: play sends the table on
    assert _fate([SHOWN, dict(SHOWN, phase="ready", round=2, version=41)]) == (True, ["next"], [])
    # the control button already went on, or the game is over
    assert _fate([dict(SHOWN, phase="ready", round=2, version=41)]) == (True, [], [])
    assert _fate([dict(SHOWN, phase="over", version=41)]) == (True, [], [])
    # thrown away: aborted (the same round's ready check), reopened by an undo (running again),
    # or aborted and played to its summary again while the numbers were typed
    for now in (
        {"phase": "ready", "round": 1, "version": 41},
        {"phase": "running", "round": 1, "version": 41},
        {"phase": "summary", "round": 1, "version": 57},
    ):
        past, sent, said = _fate([now])
        assert (
            not past
            and sent == []
            and said
            == [
                "The table threw round 1 (Friday) away (an abort or an undo there): it is played "
                "again, and its numbers are taken again once it is over."
            ]
        )
    # an abort between play's look and its next: the table refuses the stale next, play follows
    past, sent, said = _fate([SHOWN, {"phase": "ready", "round": 1, "version": 41}], stale=True)
    assert (
        not past
        and sent == ["next"]
        and len(said) == 1
        and said[0].startswith("The table threw round 1")
    )


def test_a_round_taken_again_offers_what_was_typed_for_it():
    """At the table (no demo, no phones) the numbers typed for the thrown-away round are asked
    again, each with what was typed as its default (Enter keeps it); the first time round they
    are asked once only."""
    from presstime.core.table import Table

    t = Table()
    t.configure({"players": ["Ada", "Ben"], "duration_ms": 60000}, 0)
    t.control(0)
    t.tick(3000)
    t.press(1, 5000000)
    t.press(0, 6000000)
    st = t.status()
    record = {
        "game": "fit-to-print",
        "mode": "standard",
        "edition": "published",
        "players": ["Ada", "Ben"],
        "rounds": [],
    }
    asked = []
    answers = {}

    def ask(prompt):
        asked.append(prompt)
        return answers.get("all", "3") if "Breaking News" not in prompt else ""

    table = play_session.PlaySession.__new__(play_session.PlaySession)
    table.record, table.ask, table.say, table.demo, table.pad = (
        record,
        ask,
        lambda line: None,
        None,
        None,
    )
    table.save = lambda r: None
    table.score_round(0, st)
    first = len(asked)
    typed = json.dumps(record["rounds"][0]["players"], sort_keys=True)
    assert first > 2 and record["rounds"][0]["finish"] == ["Ben", "Ada"]
    answers["all"] = ""  # Enter: keep each
    table.score_round(0, st, again=True)
    assert len(asked) == 2 * first
    assert any("[3]" in p for p in asked[first:])
    assert json.dumps(record["rounds"][0]["players"], sort_keys=True) == typed
