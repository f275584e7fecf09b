"""A board with no room left to score (device/entry.py `_full`: a 6-player Fit to Print game
does not fit the MacroPad's heap, docs/benchmarks.md): a MemoryError while scoring stops the
scoring, never the board. Every number confirmed before it stays journaled, the screen says
to score with the computer, the knob's press is the next round again and the game goes on;
a reboot (a fresh heap) scores again from the first open question. CPython, fake screen port."""

import pytest

from board_entry import Board
from presstime.core import entry as core_entry, events as E


def _scores(board):
    return [E.decode(p) for _, p in board.records() if p[0] == core_entry.SCORE]


def _out_of_room(monkeypatch, board):
    def no_room(*a, **k):
        raise MemoryError("memory allocation failed")

    monkeypatch.setattr(board.entry, "_find", no_room)


@pytest.fixture
def board():
    b = Board("mini-fits", ["Ada", "Ben"])
    b.play_round()
    b.score()
    b.answer(5)  # Ada's round 1: confirmed, journaled
    return b


def test_a_memory_error_in_a_confirm_stops_scoring_and_keeps_what_was_confirmed(board, monkeypatch):
    _out_of_room(monkeypatch, board)
    board.answer(2)  # Ben's: the check finds no room (the app's step does not raise)
    assert "no room to score" in " ".join(board.port.lines), board.port.lines
    assert [s[1:4] for s in _scores(board)] == [(0, 0, 5)]  # Ada's 5 kept, nothing half done
    assert board.table.phase == 6  # still the round's summary
    monkeypatch.undo()
    board.turn(1)  # the knob no longer starts questions on this boot
    assert not board.entry.asking()
    board.next()  # the knob's press: the next round, as on a board without scoring
    assert board.table.phase < 6 and board.table.round == 1


def test_a_memory_error_while_the_screen_is_made_stops_scoring_too(board, monkeypatch):
    monkeypatch.setattr(board.entry, "_lines", lambda: (_ for _ in ()).throw(MemoryError()))
    board.turn(1)  # the screen's step runs out of room
    monkeypatch.undo()
    board.step()
    assert board.entry.full and "no room to score" in " ".join(board.port.lines)


def test_a_reboot_scores_again_from_the_first_open_question(board, monkeypatch):
    _out_of_room(monkeypatch, board)
    board.answer(2)
    monkeypatch.undo()
    again = Board("mini-fits", ["Ada", "Ben"], journal=board.journal)  # power on again
    again.step(10, 5)
    assert again.entry.asking()
    assert "Ben" in " ".join(again.port.lines), again.port.lines  # Ada's 5 is in: Ben's is next
