"""Whole games on the MacroPad build (CircuitPython 10.2.1 in the emulated RP2040): the keys
pressed on their GPIOs (active low), the encoder switch as the control button, the 12 key
pixels decoded from their data pin and held to what the simulator (the same App on the fake
port, core/lights' colours) showed for the same presses, and `presstime sync` pulling a journal
that rebuilds the same game the simulator makes of those presses.

Times are board ms (since power-on). The board stamps a press at the keypad scan that saw it
(1 ms interval) and takes the control button's short press at its next loop step, so times may
differ from the simulator's by a few ms: TOL_MS. Orders, tokens, ties, reveals, photo tokens
and how each round ended must be equal."""

import json

import pytest

from presstime import cli
from presstime.rebuild import games_from_journal
from presstime.store import Store

from rig.macropad import EmulatedMacropad
from rig.macropad_games import Game, lights_mismatches
from rig.rp2emu import MS

TOL_MS = 30


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
    """`presstime sync` over usb_cdc.data: the board's journal records, as the history keeps them."""
    db = str(tmp_path / "h.db")
    with pad.pump():
        assert cli.main(["sync", "--port", pad.data_pty, "--db", db, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    with Store(db) as store:
        return store.journal(out["board"])


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


def check_lights(game, sim):
    frames = game.board_frames()
    assert len(frames) > 20
    bad = lights_mismatches(frames, sim.snapshots, since_ms=game.t_after_cfg + 100)
    assert not bad, "%d of %d frames are not core/lights' for the state, first: %r" % (
        len(bad), len(frames), bad[:3])


def start_round(game, t):
    """The encoder switch, a short press at t: the round starts (taken 0.4 s after release)."""
    game.control(at_ms=t)
    return t + 80 + 400 + 3000 + 60           # round time 0, with the app's step to spare


def test_a_full_fit_to_print_game_through_the_keys(pad, tmp_path, capsys):
    cfg = {"game": "fit-to-print", "mode": "standard", "duration_ms": 10000,
           "players": [{"name": n} for n in ("Ada", "Ben", "Cy", "Di")]}
    game = Game(pad, cfg)
    t = game.now_ms() + 200
    # Friday: everyone prints, gaps from 3 ms to 900 ms
    go = start_round(game, t)
    for seat, dt in ((2, 800), (0, 803), (3, 1703), (1, 2100)):
        game.press(seat, at_ms=go + dt)
    game.run_to(go + 2500)
    assert game.status()["phase"] == "summary"
    game.control(at_ms=game.now_ms() + 200)   # next day
    # Saturday: a time-out round: two print, one presses in the grace window, one is forced
    go = start_round(game, game.now_ms() + 1500)
    game.press(1, at_ms=go + 1500)
    game.press(3, at_ms=go + 4200)
    game.press(0, at_ms=go + 10000 + 1200)    # grace (5 s) after the 10 s round
    game.run_to(go + 10000 + 5000 + 300)
    st = game.status()
    assert st["phase"] == "summary"
    game.control(at_ms=game.now_ms() + 200)
    # Sunday: a same-instant tie (two keys, one edge), then the others
    go = start_round(game, game.now_ms() + 1500)
    game.press(0, at_ms=go + 1000)
    game.press(3, at_ms=go + 1000)
    game.press(2, at_ms=go + 1400)
    game.press(1, at_ms=go + 1460)
    game.run_to(go + 2000)
    st = game.status()
    assert st["phase"] == "summary" and st["day"] == "sunday"
    assert sorted(p["name"] for p in st["players"] if p["tied"]) == ["Ada", "Di"]
    t = game.now_ms()
    game.control(at_ms=t + 200)               # game over
    game.run_to(t + 1000)
    assert game.status()["phase"] == "over"

    records = synced(pad, tmp_path, capsys)
    sim = game.simulate(board_records=records)
    check_lights(game, sim)
    [sim_game] = games_from_journal(sim.journal.records(0))
    board_game = games_from_journal(records)[-1]
    same_game(board_game, sim_game)
    assert [r["end"] for r in board_game["rounds"]] == ["all printed", "grace closed", "all printed"]
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
        now = game.now_ms()             # (the call itself let emulated time run on)
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
            hold = 900 if turns % 3 else 80   # mostly photo tokens: the game reaches its target
            game.press(st["turn"], at_ms=now + 50, hold_ms=hold)
            game.run_to(now + 50 + hold + 150)
        else:
            t = now + 50
            for i, p in enumerate(st["players"]):
                if p["state"] != "ready":
                    game.press(i, at_ms=t)
                    t += 70
            game.run_to(t + 200)
    raise AssertionError("the game did not end: %r" % game.status())


@pytest.mark.parametrize("name,players", [("heat", 3), ("mini-fits", 2), ("myth-fits", 2)])
def test_a_game_of_each_other_table_mode(pad, tmp_path, capsys, name, players):
    cfg = {"game": name, "players": [{"name": n} for n in ("Ada", "Ben", "Cy")[:players]]}
    game = Game(pad, cfg)
    st = drive(game)
    records = synced(pad, tmp_path, capsys)
    sim = game.simulate(board_records=records)
    check_lights(game, sim)
    [sim_game] = games_from_journal(sim.journal.records(0))
    board_game = games_from_journal(records)[-1]
    same_game(board_game, sim_game)
    assert board_game["over"]
    if name == "myth-fits":
        assert board_game["winner"] in ("Ada", "Ben")
    else:
        assert all(r["reveals"] for r in board_game["rounds"])
    assert st["phase"] == "over"
