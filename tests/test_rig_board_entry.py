"""Whole games scored on the MacroPad alone (issue 27), on the official CircuitPython 10.2.1 in
the emulated RP2040, one of each of the four games. The board is configured over usb_cdc.data,
the players press their keys, and the numbers are turned in with the knob and confirmed with its
press while the OLED is read back as text (rig/oled.py); the winner appears on the screen. Then
sync's own code pulls the journal and the stored game must equal the same numbers typed with
`enter` (tests/test_board_entry.py's comparison).

Mini FITS (2 players, its 2 rounds) is the walk-through of docs/table.md: a refused number shows
the core's reason, the back key goes to the question before, the round's scores and "won: Ada".
Heat (3 players, its least, 3 heists; the end numbers after a turn of the knob at the game's
end), Myth Fits (2 players; photo tokens held on the keys, then who gathered) and Fit to Print
(2 players, its 3 days, 48 numbers, a Breaking News card each day: white-space-best 4,
most-tiles-ads 5 with each player's tiles, mood-doubled) go through one driver
(rig/knob_entry.py): each question's head, words and knob value read on the screen, in the order
the game's face asks them.

With PRESSTIME_SCREENS=DIR the question, refusal, round scores and winner screens are saved
there as PNGs (docs/img/board-entry-*.png are made so):

    PRESSTIME_RP2EMU=/tmp/rp2emu PRESSTIME_SCREENS=docs/img \\
        python -m pytest tests/test_rig_board_entry.py
"""

import os

import pytest

from presstime.core import entry as core_entry, games
from rig.knob_entry import (
    MINI_FITS_NUMBERS,
    Knob,
    answer,
    play_timed_round,
    play_to_summary,
    play_turns,
    questions,
    typed,
    walk_mini_fits,
)
from rig.macropad import EmulatedMacropad
from rig.macropad_games import Game, split_games
from rig.rp2emu import MS
from test_board_entry import stored_as_enter_stores_it
from test_rig_macropad_games import synced


@pytest.fixture
def pad(rig_dir, macropad_image):
    p = EmulatedMacropad.start(rig_dir, macropad_image, paused=True, oled=True)
    try:
        p.run(3500 * MS)
        p.call(lambda c: c.hello())
        yield p
    finally:
        p.close()


def save(frame, name):
    d = os.environ.get("PRESSTIME_SCREENS")
    if d:
        frame.save_png(os.path.join(d, "board-entry-%s.png" % name))


@pytest.mark.slow
def test_a_mini_fits_game_scored_on_the_macropad_alone(pad, tmp_path, capsys):
    cfg = {"game": "mini-fits", "players": [{"name": "Ada"}, {"name": "Ben"}]}
    game = Game(pad, cfg)
    entered = walk_mini_fits(pad, Knob(pad), game, save)
    assert game.status()["phase"] == "over"

    records = split_games(synced(pad, tmp_path, capsys))[-1]
    # one SCORE a confirm: Ada's round-2 lines twice (confirmed again after the back key)
    assert sum(1 for _, p in records if p[0] == core_entry.SCORE) == len(MINI_FITS_NUMBERS) + 1
    stored = stored_as_enter_stores_it(records, entered, tmp_path)
    assert [r["players"]["Ada"] for r in stored["rounds"]] == [
        {"lines": 5},
        {"lines": 4, "colour_sets": 1},
    ]


# ---- a whole game of each other game, scored on the board alone ------------------------------
# The fewest players and rounds each game allows; every number turned in with the knob and
# confirmed, the screen read for each question (its head, words and the knob's value).


def heat_value(path, kind):
    """Heat, 3 players (its least), 3 heists: nobody arrested, heat value 3; totals money -
    3 x heat: Ada 12 - 6 = 6, Ben 9, Cy 7 - 3 = 4."""
    if kind == "yes/no":
        return False
    if path == ("heat_value",):
        return 3
    money = {"Ada": 12, "Ben": 9, "Cy": 7}
    heat = {"Ada": 2, "Ben": 0, "Cy": 1}
    return (money if path[-1] == "money" else heat)[path[1]]


def myth_value(path, kind):
    """Myth Fits, 2 players: Ada 1 photo token, Ben 2 (3 win): Ben gathered the creatures."""
    assert kind == "player", path
    return "Ben"


FTP_NUMBERS = {
    "white_space": 2,
    "articles": 3,
    "photos": 1,
    "centerpiece": 2,
    "smiles": 1,
    "frowns": 0,
    "unplaced": 1,
    "ads": 2,
}


# each day's Breaking News card (one that scores a day): its value a detent off where the knob
# starts (the rules' 3, most-tiles-ads' default 4)
FTP_CARDS = (
    {"effect": "white-space-best", "value": 4},
    {"effect": "most-tiles-ads", "value": 5},
    {"effect": "mood-doubled"},
)


def ftp_value(path, kind):
    """Fit to Print, 2 players, its 3 days, a card each day (FTP_CARDS): small numbers (few
    detents), varied by round and player."""
    if path[-1] == "breaking_news":
        return [dict(FTP_CARDS[path[1]])]
    if path[-1] == "value":
        return FTP_CARDS[path[1]]["value"]
    if path[-1] == "tiles":
        return 2 + (path[3] == "Ben")
    return FTP_NUMBERS[path[-1]] + (path[1] + (path[3] == "Ben")) % 2


NAMES = ("Ada", "Ben", "Cy")
BOARD_GAMES = {
    # game: (set-up, how a round is played (None: turns, the photo tokens {seat: n} taken),
    #        the answers, the photo tokens)
    "heat": ({"game": "heat", "players": NAMES}, play_to_summary, heat_value, None),
    "myth-fits": ({"game": "myth-fits", "players": NAMES[:2]}, None, myth_value, {0: 1, 1: 2}),
    "fit-to-print": (
        {"game": "fit-to-print", "mode": "standard", "duration_ms": 10000, "players": NAMES[:2]},
        play_timed_round,
        ftp_value,
        None,
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOARD_GAMES))
def test_a_whole_game_scored_on_the_macropad_alone(name, pad, tmp_path, capsys):
    setup, play, value, photos = BOARD_GAMES[name]
    cfg = dict(setup, players=[{"name": n} for n in setup["players"]])
    names = list(setup["players"])
    tokens = None if photos is None else {names[s]: n for s, n in photos.items()}
    asked, record = questions(cfg, value, tokens)
    face = games.module(name)
    rounds = face.rounds_in(cfg.get("mode", face.MODES[0]))
    game = Game(pad, cfg)
    knob = Knob(pad)
    won = games.score(record)["winners"]
    assert len(won) == 1, won
    won = "won: " + won[0]
    on = False  # the players score from a round on: the game's end is then asked at once
    for r in range(rounds):
        t = pad.now()
        if photos is not None:
            play_turns(game, photos)
        else:
            play(game)
        knob.wait("turn the knob", after=t)
        last = r + 1 == rounds
        if asked[r]:
            since = pad.now()
            pad.turn(1, at=since + 20 * MS)  # the first turn starts the round's questions
            answer(knob, asked[r], "%s %d scores" % (face.ROUND_WORD, r + 1), since)
            on = True
        if not last:
            knob.press("round %d/%d" % (r + 2, rounds))
    if on:
        since = pad.now()
        pad.press_knob(at=since + 20 * MS)
        if asked[None]:
            answer(knob, asked[None], won, since)
        else:
            knob.wait(won, after=since)
    else:
        knob.press("game over")
        since = pad.now()
        pad.turn(1, at=since + 20 * MS)  # the knob turned at the game's end: its numbers
        answer(knob, asked[None], won, since)
    assert game.status()["phase"] == "over"

    records = split_games(synced(pad, tmp_path, capsys))[-1]
    every = [q for r in asked for q in asked[r]]
    assert sum(1 for _, p in records if p[0] == core_entry.SCORE) == len(every)
    stored = stored_as_enter_stores_it(records, typed(asked), tmp_path)
    for q in every:
        assert core_entry.get(stored, q.path) == q.value, (q, stored)
    if tokens is not None:  # counted by the board from the holds
        assert stored["photo_tokens"] == tokens, stored
