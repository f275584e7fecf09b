"""Whole games on the MacroPad build (CircuitPython 10.2.1 in the emulated RP2040): the keys
pressed on their GPIOs (active low), the encoder switch as the control button, the 12 key
pixels decoded from their data pin and held to what core/lights gives for the state the
simulator (the same App on the fake port) was in for the same presses, and the board's journal,
pulled over usb_cdc.data by sync's own code, rebuilding the same game the simulator makes of
those presses.

Times are board ms (since power-on). The board stamps a press at the keypad scan that saw it
(1 ms interval, ms stamps) and takes the control button's short press at its next loop step, so
a press time may differ from the simulator's by TOL_MS; the rounds' starts are read back from
the board's journal (rig/macropad_games.py align_starts). Event kinds and their order, finishing
orders, tokens, ties, reveals, photo tokens, winners and how each round ended must be equal.

The board runs paused (idle time skipped); a link call lets it run free meanwhile (pump)."""

import pytest

from presstime.core import events as E
from presstime.history.store import Store
from presstime.sync.rebuild import games_from_journal
from rig.macropad import EmulatedMacropad
from rig.macropad_games import (
    Game,
    lights_mismatches,
    next_round,
    split_games,
    start_round,
    wait_phase,
)
from rig.rp2emu import MS

# keypad scans every 1 ms and stamps an event with the scan's supervisor.ticks_ms (whole ms):
# a press lands up to ~1 ms after its edge, in a whole ms; the simulator takes the edge's µs.
# Measured: at most 1 ms apart over the games below.
TOL_MS = 2


@pytest.fixture
def pad(rig_dir, macropad_image):
    """Paused (deterministic: time runs only when the test runs it), booted, answering hello."""
    p = EmulatedMacropad.start(rig_dir, macropad_image, paused=True)
    try:
        p.run(3500 * MS)
        p.call(lambda c: c.hello())
        yield p
    finally:
        p.close()


def synced(pad, tmp_path, capsys):
    """The board's journal pulled over usb_cdc.data by sync's own code (journal.pull, what
    `presstime sync` runs; the CLI itself is run against the board in test_rig_macropad_boot.py)
    with a timeout the emulated board can meet under load, into a history; its records."""
    from presstime.sync.journal import pull

    with Store(str(tmp_path / "h.db")) as store:
        board_id, _ = pad.call(lambda c: pull(c, store))
        return store.journal(board_id)


def kinds(records):
    return [E.decode(p)[0] for _, p in records]


def same_game(board, sim):
    assert len(board["rounds"]) == len(sim["rounds"])
    for b, s in zip(board["rounds"], sim["rounds"]):
        for k in ("round", "day", "finish", "tied", "end", "reveals"):
            assert b[k] == s[k], (k, b, s)
        assert sorted(b["print_ms"]) == sorted(s["print_ms"])
        for name in b["print_ms"]:
            assert abs(b["print_ms"][name] - s["print_ms"][name]) <= TOL_MS, (name, b, s)
        assert abs(b["elapsed_ms"] - s["elapsed_ms"]) <= TOL_MS
    for k in ("over", "winner", "photo_tokens"):
        assert board.get(k) == sim.get(k), k


def check_lights(game, sim, until_ms=None):
    frames = [
        f
        for f in game.board_frames()
        if game.t_after_cfg + 100 <= f[0] and (until_ms is None or f[0] < until_ms)
    ]
    assert len(frames) > 20
    bad = lights_mismatches(frames, sim.snapshots)
    assert not bad, "%d of %d frames are not core/lights' for the state, first: %r" % (
        len(bad),
        len(frames),
        bad[:3],
    )
    return len(frames)


def test_a_full_fit_to_print_game_through_the_keys(pad, tmp_path, capsys):
    cfg = {
        "game": "fit-to-print",
        "mode": "standard",
        "duration_ms": 10000,
        "grace_ms": 2000,
        "players": [{"name": n} for n in ("Ada", "Ben", "Cy", "Di")],
    }
    game = Game(pad, cfg)
    # Friday: everyone prints, gaps from 3 ms to 900 ms
    st, t = start_round(game)
    for seat, dt in ((2, 0), (0, 3), (3, 903), (1, 1300)):
        game.press(seat, at_ms=t + dt)
    game.run_to(t + 1500)
    assert wait_phase(game, ("summary",))["phase"] == "summary"
    assert next_round(game)["day"] == "saturday"
    # Saturday: a time-out round: two print, one presses in the grace window, one is forced
    st, t = start_round(game)
    go = st["t_ms"] - st["elapsed_ms"]
    game.press(1, at_ms=t + 500)
    game.press(3, at_ms=t + 3200)
    game.press(0, at_ms=go + 10000 + 1200)  # in the grace window (2 s) after the 10 s round
    game.run_to(go + 10000 + 2000 + 300)
    st = wait_phase(game, ("summary",))
    assert st["phase"] == "summary"
    assert next_round(game)["day"] == "sunday"
    # Sunday: a same-instant tie (two keys, one edge), then the others
    st, t = start_round(game)
    game.press(0, at_ms=t)
    game.press(3, at_ms=t)
    game.press(2, at_ms=t + 400)
    game.press(1, at_ms=t + 460)
    game.run_to(t + 700)
    st = wait_phase(game, ("summary",))
    assert st["phase"] == "summary" and st["day"] == "sunday"
    assert sorted(p["name"] for p in st["players"] if p["tied"]) == ["Ada", "Di"]
    assert next_round(game)["phase"] == "over"

    records = split_games(synced(pad, tmp_path, capsys))[-1]
    sim = game.simulate(board_records=records)
    check_lights(game, sim)
    assert kinds(records) == kinds(sim.journal.records(0))
    [sim_game] = games_from_journal(sim.journal.records(0))
    [board_game] = games_from_journal(records)
    same_game(board_game, sim_game)
    assert [r["end"] for r in board_game["rounds"]] == [
        "all printed",
        "grace closed",
        "all printed",
    ]
    assert board_game["rounds"][1]["finish"] == ["Ben", "Di", "Ada", "Cy"]  # Ada in the grace
    assert board_game["rounds"][0]["finish"] == ["Cy", "Ada", "Di", "Ben"]
    assert board_game["over"]


def drive(game, limit=120):
    """Play a ready-reveal or turns game to its end from the board's status: every player not
    ready presses (ready-reveal); the player whose turn it is takes a photo token (a 0.9 s hold)
    or passes (turns); the encoder switch moves on from a summary."""
    turns = 0
    for _ in range(limit):
        st = game.status()
        ph = st["phase"]
        now = game.now_ms()  # (the call itself let emulated time run on)
        if ph == "over":
            return st
        if ph == "summary":
            game.control(at_ms=now + 50)
            game.run_to(now + 50 + 80 + 400 + 100)
        elif st["mode"] == "turns" and ph == "ready":
            game.control(at_ms=now + 50)
            game.run_to(now + 50 + 80 + 400 + 100)
        elif st["mode"] == "turns":
            turns += 1
            hold = 900 if turns % 3 else 80  # mostly photo tokens: the game reaches its target
            game.press(st["turn"], at_ms=now + 50, hold_ms=hold)
            # a turns game is journaled at once, and a CircuitPython FAT write holds the chip
            # (keypad's scan too) for ~0.11 s: the next press comes after it, as at a table
            game.run_to(now + 50 + hold + 450)
        else:
            t = now + 50
            for i, p in enumerate(st["players"]):
                if p["state"] != "ready":
                    game.press(i, at_ms=t)
                    t += 70
            game.run_to(t + 200)
    raise AssertionError("the game did not end: %r" % game.status())


OTHER_MODES = (("heat", 3), ("mini-fits", 2), ("myth-fits", 2))


def quick_passes(game):
    """Myth Fits started, then Ada passes and Ben passes 0.45 s after her. With a turns game's
    events journaled after the 300 ms quiet spell, Ada's TURN was written from ~0.4 s after
    her tap on, holding the chip and the key scan ~0.11 s: a tap there is never seen. Now it
    is written at once (device/app.py _flush; test_table_app.py holds the rule itself) and
    Ben's pass must be in the journal, as in the simulator's."""
    t = game.control(in_ms=50)
    game.run_to(t + 80 + 400 + 300)
    t = game.press(0, in_ms=50)
    game.press(1, at_ms=t + 450)
    game.run_to(t + 450 + 80 + 600)


def test_a_game_of_each_other_table_mode(pad, tmp_path, capsys):
    """Heat (ready-reveal, 3 players), Mini FITS (ready-reveal, 2) and Myth Fits (turns, photo
    tokens by a 0.9 s hold), one after the other on one board, one sync at the end."""
    played = []
    for name, players in OTHER_MODES:
        game = Game(
            pad, {"game": name, "players": [{"name": n} for n in ("Ada", "Ben", "Cy")[:players]]}
        )
        if name == "myth-fits":
            quick_passes(game)
        played.append((game, drive(game)))
    board = split_games(synced(pad, tmp_path, capsys))[-len(OTHER_MODES) :]
    frames = 0
    for k, ((name, _), (game, st), records) in enumerate(zip(OTHER_MODES, played, board)):
        assert st["phase"] == "over"
        until = played[k + 1][0].t_cfg if k + 1 < len(played) else game.now_ms()
        sim = game.simulate(until_ms=until, board_records=records)
        frames += check_lights(game, sim, until_ms=until)
        assert kinds(records) == kinds(sim.journal.records(0)), name
        [sim_game] = games_from_journal(sim.journal.records(0))
        [board_game] = games_from_journal(records)
        assert board_game["config"]["game"] == name
        same_game(board_game, sim_game)
        assert board_game["over"]
        if name == "myth-fits":
            assert board_game["winner"] in ("Ada", "Ben")
            assert sum(board_game["photo_tokens"].values()) >= 3
        else:
            assert all(r["reveals"] for r in board_game["rounds"])
    assert frames > 150


def test_play_runs_a_round_on_the_board(pad, tmp_path):
    """`presstime play` against the board's data port: it configures the board, Enter starts the
    round, two players press their keys, and play shows the board's finishing order before it
    asks the scorepad numbers (stdin ends there: the round is kept as a draft, exit 1)."""
    import subprocess
    import sys

    db = str(tmp_path / "h.db")
    t0 = pad.board_ms(pad.now())
    with pad.pump():
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "presstime",
                "play",
                "--port",
                pad.data_pty,
                "--db",
                db,
                "--players",
                "Ada,Ben",
                "--duration",
                "0:10",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        # the round starts when play has configured the board and read the Enter below;
        # the presses come well after its 3 s countdown (emulated time runs ~4x slower than
        # the wall here)
        pad.press(1, at=int(pad.harness_ns(t0 + 9000)))
        pad.press(0, at=int(pad.harness_ns(t0 + 9400)))
        proc.stdin.write(b"\n")
        proc.stdin.flush()
        import time

        deadline = time.monotonic() + 600
        while pad.board_ms(pad.now()) < t0 + 10000 and time.monotonic() < deadline:
            time.sleep(0.5)
        out, _ = proc.communicate(timeout=600)  # (closes stdin: play's scorepad sees the end)
    text = out.decode("utf-8", "replace")
    assert proc.returncode == 1, text
    assert "Ben" in text and "Ada" in text
    lines = text.splitlines()
    finish = [line for line in lines if "Ben" in line and "Ada" in line]
    assert finish and finish[-1].index("Ben") < finish[-1].index("Ada"), text
    assert "kept as draft" in text
