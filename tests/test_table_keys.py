"""Every key typed during a round gets an answer; x asks before it throws a round away; undo
says whose press it took back."""

import pytest

from presstime.tableside import status_text
from presstime.tableside.round_screen import TableScreen
from simboard import client_for, wait_until


def _st(
    phase="running",
    states=("reporting", "reporting"),
    tokens=(None, None),
    mode="standard",
    turn=None,
):
    return {
        "phase": phase,
        "mode": mode,
        "turn": turn,
        "players": [
            {"name": n, "state": s, "token": t} for n, s, t in zip(("Ada", "Ben"), states, tokens)
        ],
    }


def test_why_a_press_does_nothing():
    assert "no seat 5: this game has 2 players" in status_text.why_press_does_nothing(_st(), 4)
    assert (
        status_text.why_press_does_nothing(
            _st(states=("printed", "reporting"), tokens=(1, None)), 0
        )
        == "Ada has printed already (token 1)"
    )
    assert (
        status_text.why_press_does_nothing(_st(mode="turns", turn=1), 0)
        == "not Ada's turn: it is Ben's"
    )
    assert "paused" in status_text.why_press_does_nothing(_st("paused"), 0)
    assert "3-2-1" in status_text.why_press_does_nothing(_st("countdown"), 1)
    assert status_text.why_press_does_nothing(_st(), 1) is None
    assert (
        status_text.why_press_does_nothing(_st("ready", states=("waiting", "waiting")), 0) is None
    )


def test_last_presser():
    st = {
        "players": [
            {"name": "Ada", "print_ms": 4000},
            {"name": "Ben", "print_ms": 9000, "layout_ms": 2000},
            {"name": "Cy", "print_ms": None},
        ]
    }
    assert status_text.last_presser(st) == "Ben"
    assert status_text.last_presser({"players": []}) is None


class Screen(TableScreen):
    def __init__(self, client):
        self.client = client
        self.demo = None
        self.said = []
        self.init_screen()

    def note(self, text):
        self.said.append(text.strip())

    def say(self, text=""):
        self.said.append(text)


def _running(c):
    c.configure(
        {
            "game": "fit-to-print",
            "duration_ms": 60000,
            "players": [{"name": "Ada"}, {"name": "Ben"}],
        }
    )
    c.start()
    return wait_until(c, lambda st: st["phase"] == "running")


@pytest.mark.slow
def test_x_asks_first_then_aborts_and_says_so(sim):
    c = client_for(sim)
    try:
        screen = Screen(c)
        st = _running(c)
        screen.typed("x", st)
        assert "x again aborts this round" in screen.said[-1]
        assert c.status()["phase"] == "running"
        screen.typed("1", st)  # any other key keeps the round
        screen.typed("x", c.status())
        assert c.status()["phase"] == "running"
        screen.typed("x", c.status())
        assert "round aborted" in screen.said[-1]
        assert c.status()["phase"] == "ready"
    finally:
        c.close()


@pytest.mark.slow
def test_every_key_gets_an_answer_and_undo_says_whose(sim):
    c = client_for(sim)
    try:
        screen = Screen(c)
        st = _running(c)
        screen.typed("7", st)
        assert "no seat 7" in screen.said[-1]
        screen.typed("z", st)
        assert "key 'z' does nothing here" in screen.said[-1]
        screen.typed("2", st)
        st = wait_until(c, lambda st: st["players"][1]["token"])
        screen.typed("2", st)
        assert screen.said[-1] == "Ben has printed already (token 1)"
        screen.typed("u", st)
        assert screen.said[-1] == "undone: the last press (Ben's)"
    finally:
        c.close()
