"""Sound at the table: the computer beeps when the board does (a simulator has no speaker), and
the warning times are the set-up's (`--warn`), on the board as on the desktop."""

import io

import pytest
from hypothesis import given, strategies as s

from presstime.core import events
from presstime.core.table import WARNINGS, Table
from presstime.errors import BadInput
from presstime.tableside import sound
from presstime.tableside.round_time import warnings_ms
from simboard import client_for


def _st(phase, alert=0, tokens=(0, 0), states=("working", "working"), end_reason=0, rnd=1):
    return {
        "round": rnd,
        "phase": phase,
        "alert_ms": alert,
        "end_reason": end_reason,
        "players": [{"token": t, "state": st} for t, st in zip(tokens, states)],
    }


def test_the_moments_the_board_beeps():
    run = _st("running")
    assert sound.moments(run, _st("running", 30000)) == [sound.warning_tone(30000, WARNINGS)]
    assert sound.moments(_st("running", 30000), _st("running", 30000)) == []  # once per warning
    printed = _st("running", tokens=(1, 0), states=("printed", "working"))
    assert sound.moments(run, printed) == [sound.print_tone(1)]
    timeout = sound.moments(printed, _st("grace", tokens=(1, 0), states=("printed", "working")))
    assert timeout == [sound._tone(events.TIMEOUT)]
    end = sound.moments(_st("grace"), _st("summary", end_reason=3))
    assert end == [sound._tone(events.END)]
    # no grace window: the time-out and the end together, as the board beeps them
    assert sound.moments(run, _st("summary", end_reason=2)) == [
        sound._tone(events.TIMEOUT),
        sound._tone(events.END),
    ]
    assert (
        sound.moments(None, run) == []
        and sound.moments(run, _st("running", rnd=2, alert=60000)) == []
    )
    forced = _st("summary", tokens=(1, 2), states=("printed", "forced"), end_reason=2)
    assert sound.print_tone(2) not in sound.moments(run, forced)  # a token handed out is no press


def test_the_warnings_rise_one_tone_each():
    tones = [sound.warning_tone(w, (120000, 30000, 5000)) for w in (120000, 30000, 5000)]
    assert tones == [(1000, 100), (1200, 150), (1500, 250)]


def test_the_bell_rings_on_a_terminal_only():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    out = Tty()
    b = sound.Beeper(out, audio=False)
    b.tone(440, 700)
    assert b.how == "bell" and out.getvalue() == "\a"
    plain = io.StringIO()
    b = sound.Beeper(plain, audio=False)
    b.tone(440, 700)
    assert b.how is None and plain.getvalue() == ""


def test_a_tone_in_memory_is_whole_and_fades():
    pcm = sound._pcm(1000, 100, 8000)
    assert len(pcm) == 2 * 800 and pcm[:2] == b"\x00\x00"


def test_warn_option():
    assert warnings_ms("60,30,10") == [60000, 30000, 10000]
    assert warnings_ms("10, 120") == [120000, 10000] and warnings_ms("none") == []
    for bad in ("60,30,10,5", "a", "30,30", "0,10", "4000"):
        with pytest.raises(BadInput) as e:
            warnings_ms(bad)
        assert "--warn" in e.value.messages[0]


@given(s.lists(s.integers(1, 3600), max_size=3, unique=True), s.integers(10, 600))
def test_the_board_warns_at_the_times_set_up_and_the_journal_keeps_them(secs, duration_s):
    warn = sorted((x * 1000 for x in secs), reverse=True)
    t = Table()
    t.configure({"players": ["Ada", "Ben"], "duration_ms": duration_s * 1000, "warn_ms": warn})
    assert t.cfg.get("warn", WARNINGS) == tuple(warn)
    again = events.replay(events.encode(e) for e in t.drain())
    assert again.cfg.get("warn", WARNINGS) == tuple(warn)
    t.start(0)
    go = 3000
    t.tick(go)
    levels = set()
    for left in range(duration_s * 1000, 0, -500):
        levels.add(t.alert(go + duration_s * 1000 - left))
    assert levels - {0} == {w for w in warn if w < duration_s * 1000 and w >= 500}


def test_warn_ms_is_checked_by_the_board():
    for bad in ([30000, 60000], [1500], [1000, 2000, 3000, 4000], "60"):
        with pytest.raises(ValueError) as e:
            Table().configure({"players": ["Ada", "Ben"], "warn_ms": bad})
        assert "warn_ms" in str(e.value)


@pytest.mark.slow
def test_play_sends_the_warnings_to_the_board(sim, tmp_path, capsys):
    from presstime import cli

    assert (
        cli.main(
            [
                "play",
                "--demo",
                "--port",
                sim.path,
                "--warn",
                "20,5",
                "--duration",
                "0:30",
                "--players",
                "Ada,Ben",
                "--db",
                str(tmp_path / "h.sqlite3"),
            ]
        )
        == 0
    )
    assert sim.app.table.cfg["warn"] == (20000, 5000)


def test_a_simulator_sounds_on_the_computer_unless_muted(sim):
    c = client_for(sim)
    try:
        assert isinstance(sound.for_board(c), sound.TableSounds)
        assert sound.for_board(c, mute=True) is None
        c.info = dict(c.info, board="pico")  # a board with its own speaker
        assert sound.for_board(c) is None
    finally:
        c.close()


def test_sim_warns_at_the_times_given(capsys):
    from presstime import cli

    for wait, said in (("+9000", "(15 s warning)"), ("+16000", "(5 s warning)")):
        assert (
            cli.main(
                [
                    "sim",
                    "--players",
                    "2",
                    "--duration",
                    "0:20",
                    "--warn",
                    "15,5",
                    "--script",
                    "space +3500 " + wait,
                ]
            )
            == 0
        )
        assert said in capsys.readouterr().out.split("round 1/3")[-1]
