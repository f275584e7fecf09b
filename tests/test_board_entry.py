"""A game scored on the board's own screen and knob (device/entry.py, core/entry.py): every
number checked by the core as `enter` checks it, journaled at once as a SCORE event, and a
synced game stored complete, equal to the same numbers typed with `enter`."""

import pytest
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from board_entry import Board
from enter_runner import run_enter
from presstime.core import entry as core_entry, events as E, games
from presstime.history import store as store_mod
from presstime.history.keeping import store_board_games
from presstime.sync.rebuild import game_record, games_from_journal

PLAYERS = {
    "fit-to-print": ["Ada", "Ben"],
    "heat": ["Ada", "Ben", "Cy"],
    "mini-fits": ["Ada", "Ben"],
    "myth-fits": ["Ada", "Ben", "Cy"],
}


def _value(path, kind, n):
    """The n-th answer of a scripted game: a good value for every question."""
    if kind == "yes/no":
        return False  # Heat: not arrested
    if kind == "player":
        return "Cy"  # Myth Fits: Cy gathered
    if isinstance(kind, tuple):
        return []  # Fit to Print's Breaking News card: none
    key = path[-1]
    if key == "heat_value":
        return 3
    if key == "heat":
        return n % 4
    if key == "lines":
        return (3 + n) % 11
    if key == "colour_sets":
        return n % 4
    return (n * 7) % 13  # Fit to Print's scorepad, Heat's money


# Fit to Print's Breaking News card of each day (the board's choice, its value), as `enter`
# takes it: every card that scores, one a day
CARDS = [(2, 7, "white-space-best 7"), (3, 9, "most-tiles-ads 9"), (1, None, "mood-doubled")]


def _typed(kind, value, names):
    if isinstance(kind, tuple):  # the card (none: Enter)
        return " ".join(str(x) for x in value[0].values()) if value else ""
    if kind == "yes/no":
        return "y" if value else "n"
    if kind == "player":
        return value or ""
    return str(value)


def score_whole_game(game, cards=None):
    """Play and score `game` on the board; returns (board, what `enter` would be typed).
    cards: Fit to Print's card of each day (CARDS), else none."""
    names = PLAYERS[game]
    b = Board(game, names)
    typed = []
    n = 0
    rounds = b.table.cfg["rounds"]
    for r in range(rounds):
        b.play_round(photos={0: 1, 1: 2})
        b.score()
        if game == "fit-to-print":  # the day's Breaking News card first, its value next
            choice, value, words = cards[r] if cards else (0, None, "")
            assert b.entry.q[2] == ("rounds", r, "breaking_news"), b.entry.q
            assert b.port.lines[3] == "> none"
            b.answer(choice)
            if value is not None:
                assert b.entry.q[2] == ("rounds", r, "breaking_news", 0, "value"), b.entry.q
                b.answer(value)
            typed.append(words)
        while b.entry.asking():
            q = b.entry.q
            value = _value(q[2], q[3], n)
            n += 1
            typed.append(_typed(q[3], value, names))
            b.answer(core_entry.number(q[3], value, names))
        assert b.entry.shown[0].endswith(("scores", "done")), b.entry.shown
        b.next()
    assert b.entry.on  # scored from the last round on: the game's end is asked at once
    while b.entry.asking():  # the game's end numbers
        q = b.entry.q
        value = _value(q[2], q[3], n)
        n += 1
        typed.append(_typed(q[3], value, names))
        b.answer(core_entry.number(q[3], value, names))
    assert b.table.phase == 7
    return b, typed


def _stored(db):
    with store_mod.open_store(db) as store:
        out = []
        for g in store.list_games():
            rec = store.get_game(g["id"])
            rec.pop("uuid", None)
            out.append((g["source"], rec))
        return out


def stored_as_enter_stores_it(records, typed, tmp_path):
    """A board's journal `records` (a game scored on it) synced into a history is stored
    complete, equal to the same game synced without its SCOREs and typed with `enter`
    (`typed`: the answers, in `enter`'s order); the stored record."""
    # synced: stored complete, nothing typed
    db1 = str(tmp_path / "board.db")
    with store_mod.open_store(db1) as store:
        [summary] = store_board_games(store, "b1", games_from_journal(records))
        assert "stored" in summary, summary
        assert store.load_draft("board:b1:1") is None
    # the same game without the board's numbers: drafted, then typed with `enter`
    plain = [p for _, p in records if p[0] != core_entry.SCORE]
    db2 = str(tmp_path / "typed.db")
    with store_mod.open_store(db2) as store:
        [summary] = store_board_games(
            store, "b1", games_from_journal([(i + 1, p) for i, p in enumerate(plain)])
        )
        assert "draft" in summary
    code, out = run_enter(["--draft", "board:b1:1"], typed + ["done"], db2)
    assert code == 0, out
    [(src1, on_board)] = _stored(db1)
    [(src2, by_enter)] = _stored(db2)
    assert src1 == src2 == "board:b1:1"
    for i, rnd in enumerate(by_enter.get("rounds") or []):
        if rnd.get("breaking_news") == [] and "breaking_news" not in on_board["rounds"][i]:
            del rnd["breaking_news"]  # asked by `enter`, not by the board (no card in this mode)
    assert on_board == by_enter
    assert games.score(on_board) == games.score(by_enter)
    return on_board


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_game_scored_on_the_board_is_stored_as_enter_stores_it(game, tmp_path):
    b, typed = score_whole_game(game)
    records = b.records()
    assert any(p[0] == core_entry.SCORE for _, p in records)
    assert b.entry.shown[0].startswith("won: ") or b.entry.shown[0] == "no winner"
    stored_as_enter_stores_it(records, typed, tmp_path)


def test_a_fit_to_print_game_with_a_card_each_day_is_stored_as_enter_stores_it(tmp_path):
    b, typed = score_whole_game("fit-to-print", CARDS)
    records = b.records()
    news = [E.decode(p)[1:] for _, p in records if p[0] == core_entry.SCORE]
    news = [x for x in news if x[1] == 255]
    assert news == [
        (0, 255, 2, "breaking_news"),
        (0, 255, 7, "value"),
        (1, 255, 3, "breaking_news"),
        (1, 255, 9, "value"),
        (2, 255, 1, "breaking_news"),
    ]
    stored = stored_as_enter_stores_it(records, typed, tmp_path)
    assert [r["breaking_news"] for r in stored["rounds"]] == [
        [{"effect": "white-space-best", "value": 7}],
        [{"effect": "most-tiles-ads", "value": 9}],
        [{"effect": "mood-doubled"}],
    ]
    assert all("tiles" in p for p in stored["rounds"][1]["players"].values())


def test_the_card_question_on_the_screen_its_value_and_a_refused_value():
    b = Board("fit-to-print", ["Ada", "Ben"])
    b.play_round()
    b.score()
    assert b.port.lines == ["round 1", "Breaking News card", "", "> none"]
    b.turn(2)
    assert b.port.lines[3] == "> white space"
    b.control()
    assert b.port.lines == ["round 1", "best white space", "bonus", "> 3"]  # the rules' 3
    b.answer(11)  # more than a card gives
    assert b.port.lines[3:] == ["> 11", "white-space-best need"]  # the core's reason, cut
    b.answer(5)
    assert b.port.lines[0] == "round 1 Ada"
    b.back()
    b.back()  # the card again, shown as chosen
    assert b.port.lines[3] == "> white space"
    b.turn(-2)
    b.control()  # none now: its value is not asked, the card's number stays journaled
    assert b.port.lines[0] == "round 1 Ada"
    assert b.entry._record()["rounds"][0]["breaking_news"] == []


# ---- the laws: any sequence of knob turns, presses, back and player keys ----------------------


class EntryMachine(RuleBasedStateMachine):
    """A board scoring a game while the players turn, confirm, go back and pick at random:
    the journal holds only numbers the core takes, replaying it gives the same numbers, and a
    board booted again on it asks the same first open question."""

    @initialize(game=st.sampled_from(sorted(PLAYERS)))
    def setup(self, game):
        self.b = Board(game, PLAYERS[game])
        self.b.play_round(photos={0: 1})

    @rule(d=st.integers(-15, 15))
    def turn(self, d):  # (the first turn in a summary starts its questions)
        self.b.turn(d)

    @rule(v=st.integers(-3, 20))
    def answer(self, v):
        """The knob to v, then its press (refused out of the question's bounds)."""
        if self.b.entry.asking():
            self.b.answer(v)

    @rule()
    def confirm(self):
        if self.b.entry.asking():
            self.b.control()

    @rule()
    def back(self):
        self.b.back()

    @rule(seat=st.integers(0, 2))
    def pick(self, seat):
        if seat < self.b.table.n:
            self.b.key(seat)

    @rule()
    def next_round(self):
        b = self.b
        if b.table.phase == 6 and not b.entry.asking():
            b.next()
            if b.table.phase == 1:
                b.play_round(photos={0: 1})

    @invariant()
    def only_checked_numbers_are_journaled(self):
        b = self.b
        [g] = games_from_journal(b.records())
        if "numbers" not in g:
            return
        record = game_record(g)
        for m in games.check(record):
            assert "missing" in m, (m, record)

    @invariant()
    def the_journal_gives_the_same_numbers_and_question(self):
        b = self.b
        payloads = [p for _, p in b.records()]
        assert E.replay(payloads).score == b.table.score
        again = Board(b.game, b.players, journal=b.journal)
        assert again.table.score == b.table.score
        if b.table.phase >= 6:
            assert again.entry._find() == b.entry._find()
        assert again.entry is not b.entry
        b.resume()  # this board plays on

    @invariant()
    def the_screen_fits(self):
        lines = self.b.port.lines
        assert len(lines) <= 5 and all(len(x) <= 21 for x in lines)


EntryMachine.TestCase.settings = settings(max_examples=15, stateful_step_count=25, deadline=None)
test_entry_machine = pytest.mark.slow(EntryMachine.TestCase)


def test_a_refused_number_says_why_and_is_not_journaled_back_and_a_players_key_walk():
    b = Board("mini-fits", ["Ada", "Ben"])
    b.play_round()
    assert b.port.lines == ["round 1/2 over", "turn the knob: score", "press: next round"]
    b.score()
    assert b.port.lines == ["round 1 Ada", "complete lines", "", "> 0"]
    b.answer(11)  # more lines than the board has
    assert b.port.lines[3:] == ["> 11", "must be 0 to 10"]
    assert not [p for _, p in b.records() if p[0] == core_entry.SCORE]
    before = list(b.port.lines)
    b.turn(-4)  # a turn changes the number's line (and clears the reason) only
    assert b.port.lines[:3] == before[:3] and b.port.lines[3] == "> 7"
    b.control()
    assert b.port.lines[0] == "round 1 Ben"
    assert b.table.score == {(0, 0, "lines"): 7}
    b.back()  # Ada's number again, shown as confirmed
    assert b.port.lines[0] == "round 1 Ada" and b.port.lines[3] == "> 7"
    b.answer(8)  # corrected: a second SCORE replaces the first
    assert b.table.score == {(0, 0, "lines"): 8}
    b.key(0)  # Ada's key: her question again
    assert b.port.lines[0] == "round 1 Ada"
    b.key(1)
    b.answer(5)
    assert b.port.lines == ["round 1 scores", "Ada 8 (+8)", "Ben 5 (+5)"]
    scores = [E.decode(p) for _, p in b.records() if p[0] == core_entry.SCORE]
    assert scores == [(18, 0, 0, 7, "lines"), (18, 0, 0, 8, "lines"), (18, 0, 1, 5, "lines")]


def test_a_round_not_scored_goes_on_as_before_and_a_power_cut_keeps_every_number():
    from presstime.device.app import App
    from presstime.device.memstore import MemJournal
    from presstime.device.ports.fake import FakePort

    assert App(FakePort(), MemJournal()).entry is None
    b = Board("heat", ["Ada", "Ben", "Cy"])
    for _ in range(3):
        b.play_round()
        b.next()  # not scored: the knob's press is the next round, as on a board without
    assert b.table.phase == 7 and b.port.lines[0] == "game over"
    b.score()
    b.answer(0)  # not arrested
    b.answer(3)  # heat value
    b.answer(40)  # Ada's money
    again = Board("heat", ["Ada", "Ben", "Cy"], journal=b.journal)  # the board boots again
    assert again.port.lines[0] == "end Ada" and "heat" in again.port.lines[1]
    assert again.table.score == b.table.score
