"""The table view (play, sim, watch): it fits the terminal, never wraps, never prints a raw
control character, and degrades to plain lines off a terminal."""

import io
import os
import unicodedata

from hypothesis import given, strategies as hs
from rich.cells import cell_len

from presstime.core.table import Table
from presstime.tableside import display, status_text

SIX = ["Ada", "Benedikt-Alexander", "Cy", "Dee\x1b[2J", "Eve\u202eevil", "Fay\x07"]
# the board refuses names with control characters (core/table.py configure), so the round
# machine plays clean names and the hostile ones are put into its statuses afterwards: the view
# must never print one raw, whatever a board (an older firmware, a hostile one) sends
CLEAN = ["P%d" % (i + 1) for i in range(6)]


def _hostile(st, names=SIX):
    st = dict(st, players=[dict(p) for p in st["players"]])
    for p, name in zip(st["players"], names):
        p["name"] = name
    return st


def fit_to_print(names=SIX, duration=240000):
    t = Table()
    t.configure(
        {
            "players": [n if n.isprintable() else "P%d" % (i + 1) for i, n in enumerate(names)],
            "mode": "standard",
            "duration_ms": duration,
        },
        0,
    )
    t.start(0)
    t.tick(3000)
    return t


def statuses():
    """A 6-player Fit to Print game through every phase, then the other games' table modes."""
    out = []
    t = Table()
    t.configure({"players": CLEAN, "mode": "standard", "duration_ms": 60000}, 0)
    out.append(t.status(0))  # ready check
    t.start(0)
    out.append(t.status(1000))  # countdown
    t.tick(3000)
    t.press(2, 4000000)
    t.press(4, 4000500)  # a tie
    out.append(t.status(20000))  # running
    out.append(t.status(55000))  # alert: under 10 s
    t.pause(30000) if False else None
    t.tick(63000 + 1000)
    out.append(t.status(64000))  # grace
    t.press(0, 65000000)
    t.tick(70000)
    st = t.status(70000)  # summary with pick order
    out.append(st)
    over = dict(
        st, phase="over", standings={"totals": [40, 38, 12, 30, 29, 25], "out": [2], "winner": 0}
    )
    out.append(over)
    for game, names in (("heat", SIX[:5]), ("mini-fits", SIX[:4]), ("myth-fits", SIX[:4])):
        g = Table()
        g.configure({"game": game, "players": CLEAN[: len(names)]}, 0)
        out.append(g.status(0))
        if game == "myth-fits":
            g.start(0)
            g.tick(100)
        else:
            for p in range(len(names)):
                g.press(p, (100 + p) * 1000)
        out.append(g.status(500))
    return [_hostile(st) for st in out]


def lines_of(st, width=80, height=24, view=None):
    view = view or display.View(
        "play",
        keys="1-6 press \u00b7 Enter start/resume \u00b7 p pause \u00b7 u undo",
        port="serving the link on /dev/pts/3",
    )
    view.note("undo refused: the last press is 7 s old (undo takes one under 5 s)")
    return display.render_text(st, view, width, height)


def test_six_players_at_80_columns_nothing_wraps():
    for st in statuses():
        out = lines_of(st)
        assert len(out) == 24, st["phase"]  # the whole terminal, no more
        assert all(cell_len(line) <= 80 for line in out)
        # every player's row is one line: seat number, (start of the) name and state together
        for i, p in enumerate(st["players"]):
            name = display.safe(p["name"])[:3]
            rows = [line for line in out if ("%d   %s" % (i + 1, name)) in line]
            assert len(rows) == 1, (st["phase"], p["name"], out)
        assert "presstime" in out[0] and out[0].rstrip().endswith(
            ("READY CHECK", "GET READY", "RUNNING", "GRACE", "ROUND OVER", "GAME OVER")
        )
        assert out[-1].strip().startswith("1-6 press")  # the keys on the last line
        assert "/dev/pts/3" in out[-2] and "undo refused" in out[-3]


def test_big_countdown_grace_and_winner():
    sts = statuses()
    running = "\n".join(lines_of(sts[2]))
    assert "\u2588\u2588" in running and "left" in running and "2 of 6 done" in running
    grace = "\n".join(lines_of(sts[4]))
    assert "grace window: 4 s to press" in grace
    over = "\n".join(lines_of(sts[6]))
    assert "Ada WINS" in over and "\u2605 WINNER" in over and "out of business" in over
    assert "GAME OVER" in over


def test_the_view_follows_the_terminal_size():
    st = statuses()[2]
    small = lines_of(st, 80, 24)
    large = lines_of(st, 160, 50)
    assert len(large) == 50 and all(cell_len(line) <= 160 for line in large)
    # a bigger terminal, a bigger clock
    assert max(line.count("\u2588") for line in large) > max(line.count("\u2588") for line in small)
    tiny = lines_of(st, 80, 16)  # too short for the big font: one line
    assert len(tiny) == 16 and any("left" in line and ":" in line for line in tiny)


def test_never_a_raw_control_character():
    for st in statuses():
        for colour in (False, True):
            text = "\n".join(display.render_text(st, display.View(), 80, 24, colour=colour))
            if colour:
                text = _strip_sgr(text)
            assert not [c for c in text if unicodedata.category(c)[0] == "C" and c != "\n"], st[
                "phase"
            ]


def _strip_sgr(text):
    import re

    return re.sub("\x1b\\[[0-9;]*m", "", text)


@given(hs.text(min_size=1, max_size=24))
def test_safe_leaves_no_control_character(name):
    out = display.safe(name)
    assert len(out) == len(name)
    assert not [c for c in out if unicodedata.category(c)[0] == "C"]


def test_seat_colours_are_the_boards():
    st = statuses()[2]
    text = "\n".join(display.render_text(st, display.View(), 80, 24, colour=True))
    for p in st["players"]:
        assert "38;2;%d;%d;%d" % tuple(p["colour"]) in text


def test_plain_lines_off_a_terminal_and_with_no_color(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")

    class Tty(io.StringIO):
        def isatty(self):
            return True

    for stream in (io.StringIO(), Tty()):
        with display.Screen(display.View(), stream=stream) as screen:
            assert not screen.live
            for st in statuses()[:3]:
                screen.show(st)
                screen.show(st)  # no change: no new line
            screen.note("undo refused: \x1b[31m")
        out = stream.getvalue().splitlines()
        assert len(out) == 4 and "\x1b" not in stream.getvalue()
        assert out[0].startswith("Friday") and "undo refused: ?[31m" == out[-1]


def test_mini_fits_counts_cards_drawn_and_left():
    t = Table()
    t.configure({"game": "mini-fits", "players": ["Ada"]}, 0)
    assert status_text.card_words(t.status(0)) == "no card drawn yet (13 in the deck)"
    t.press(0, 1000 * 1000)
    assert status_text.card_words(t.status(1001)) == "card 1/13 on the table (12 left)"
    for k in range(11):
        t.press(0, (2000 + k * 10) * 1000)
    assert status_text.card_words(t.status(3000)) == "card 12/13 on the table (1 left)"


def test_no_stale_reveal_at_a_new_round():
    t = Table()
    t.configure({"game": "heat", "players": ["Ada", "Ben", "Cy"]}, 0)
    for stage in range(4):
        for p in range(3):
            t.press(p, (1000 + stage * 10 + p) * 1000)
    st = t.status(1040)
    assert st["phase"] == "summary" and status_text.fresh_reveal(st)
    t.control(1100)  # the next heist, 0.1 s after the reveal
    t.tick(1600)
    st = t.status(1600)
    assert st["phase"] == "ready" and st["reveal_ms"] < status_text.REVEAL_FLASH_MS
    assert not status_text.fresh_reveal(st) and "REVEAL!" not in status_text.headline(st)


def test_myth_fits_first_player_is_named():
    t = Table()
    t.configure({"game": "myth-fits", "players": ["Ada", "Ben", "Cy"]}, 0)
    lines = status_text.setup_lines(t.status(0))
    assert "first player: Ada (seat 1) takes blue (blue goes first)" in lines
    assert not [line for line in lines if line == "first player: blue"]


def test_undo_refused_says_why():
    t = fit_to_print(["Ada", "Ben"])
    t.press(0, 4000000)
    st = t.status(11000)
    assert not st["undo"]
    assert status_text.why_no_undo(st) == "the last press is 7 s old (undo takes one under 5 s)"
    assert "no round" in status_text.why_no_undo({"phase": "ready", "players": []})


def test_big_font_rows_line_up():
    from presstime.tableside.bigfont import big_lines

    for text in ("0:05", "12:34", "3/13", "1"):
        rows = big_lines(text, 2)
        assert len(rows) == 10 and len(set(len(r) for r in rows)) == 1


def test_final_table_marks_the_winner_and_out_of_business():
    import json

    from presstime import records

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(here, "examples", "fit-to-print.json")) as f:
        result = records.tally(json.load(f))
    out = io.StringIO()
    from presstime.tableside.final_standings import final_table

    final_table(result, out)
    text = out.getvalue()
    assert (
        "WINS" in text
        and "\u2605 WINNER" in text
        and "out of business" in text
        and "\x1b" not in text
    )


def test_keys_on_a_terminal_come_one_at_a_time_without_enter():
    """On a real pty: cbreak mode (no Enter, no echo), `l` then a seat is a long press, an arrow
    key is dropped whole, and the terminal's mode is restored afterwards."""
    import termios

    from presstime.tableside.keyboard import Keys

    master, slave = os.openpty()
    try:
        stream = os.fdopen(slave, "r", closefd=False)
        before = termios.tcgetattr(slave)
        with Keys(stream) as keys:
            assert keys.one_key
            os.write(master, b"3l2 \x1b[Au\n")
            got = [keys.poll(1.0) for _ in range(7)]
            assert keys.poll(0) is None
        assert got == ["3", "l", "l2", "", None, "u", ""]
        assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)


def test_keys_without_a_terminal_read_words_on_lines():
    from presstime.tableside.keyboard import Keys

    r, w = os.pipe()
    os.write(w, b"L3\nStart\n")
    os.close(w)
    with os.fdopen(r) as stream, Keys(stream) as keys:
        assert not keys.one_key
        assert [keys.poll(1.0), keys.poll(1.0), keys.poll(0.1)] == ["l3", "start", None]


def test_myth_fits_first_player_stays_when_the_turn_moves_on():
    t = Table()
    t.configure({"game": "myth-fits", "players": ["Ada", "Ben", "Cy"]}, 0)
    t.start(0)
    t.tick(3000)
    t.press(0, 4000 * 1000)  # Ada ends her turn: Ben's turn
    t.tick(5000)
    st = t.status(5000)
    assert st["turn"] == 1
    lines = status_text.setup_lines(st)
    assert "first player: Ada (seat 1) takes blue (blue goes first)" in lines


def test_a_long_note_is_shown_whole_at_80_columns():
    from presstime.tableside.round_screen import TableScreen

    t = Table()
    t.configure({"players": ["Ada", "Ben"]}, 0)
    view = display.View("play", keys="keys")
    view.note(TableScreen.HELP)
    lines = display.render_text(t.status(0), view, 80, 24)
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    flat = " ".join(" ".join(lines).split())
    assert "\u2026" not in flat
    assert "Ctrl-C: stop (what was typed is kept as a draft)" in flat and "x twice: abort" in flat


def test_the_players_table_keeps_its_place_between_phases():
    for width in (80, 120):
        edges = {}
        for st in statuses():
            out = lines_of(st, width, 40)
            head = [line for line in out if "player" in line and "seat" in line]
            assert len(head) == 1, st["phase"]
            edges.setdefault(st["game"], set()).add(head[0].index("seat"))
        assert all(len(e) == 1 for e in edges.values()), (
            width,
            edges,
        )  # one game: the same column in every phase


def test_names_as_long_as_the_width_allows():
    over = statuses()[6]
    assert "Benedikt-Alexander" not in "\n".join(
        lines_of(over, 80)
    )  # cut at 80 columns: the rest is needed
    assert "Benedikt-Alexander" in "\n".join(lines_of(over, 100))
    assert "Benedikt-Alexander" in "\n".join(
        lines_of(statuses()[0], 80)
    )  # room for it before the scores
