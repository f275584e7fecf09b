"""Heat, Mini FITS and Myth Fits at the table: each mode's paths through the round machine
(core/table.py), the journal replay of those paths, the device app's gestures and beeps
(device/app.py with the fake port), and the scoring core agreeing with the board.

Ready check and reveal (Heat: 3 heists x 4 stages; Mini FITS: 2 rounds x 13 cards): each
player's button toggles ready; when all are ready the board reveals (and beeps) and counts the
stage or card. Turns (Myth Fits): the active player's press ends the turn, an optional per-turn
limit raises an alert, a long press adds a photo token, the target wins.
"""

import pytest

from presstime.core import events as E, games, myth_fits
from presstime.core.table import Table


def _table(cfg, t_ms=0):
    t = Table()
    t.configure(cfg, t_ms)
    return t


def _tap_all(t, n, t_ms):
    for p in range(n):
        t.press(p, (t_ms + p) * 1000)


def _same_state(a, b, t_ms):
    sa, sb = a.status(t_ms), b.status(t_ms)
    for s in (sa, sb):
        s.pop("reveal_ms", None)  # display only, not journaled
    assert sa == sb


# ------------------------------------------------------------------ Heat: ready and reveal

HEAT = {"players": ["Ada", "Ben", "Cy"], "mode": "ready-reveal", "game": "heat"}


def test_heat_setup_counts_heists_and_stages():
    t = _table(HEAT)
    st = t.status(0)
    assert st["game"] == "heat" and st["phase"] == "ready"
    assert (st["round"], st["rounds"], st["step"], st["steps"], st["steps_left"]) == (1, 3, 1, 4, 4)
    assert [p["state"] for p in st["players"]] == ["waiting"] * 3
    assert st["duration_ms"] is None and st["remaining_ms"] is None  # no timer in Heat


def test_heat_ready_toggles_and_all_ready_reveals():
    t = _table(HEAT)
    assert t.press(0, 1000000)
    assert t.status(1000)["players"][0]["state"] == "ready"
    assert t.press(0, 1500000)  # changed her mind: not ready
    assert t.status(1500)["players"][0]["state"] == "waiting"
    t.press(0, 2000000)
    t.press(1, 2100000)
    st = t.status(2100)
    assert [p["state"] for p in st["players"]] == ["ready", "ready", "waiting"]
    assert st["step"] == 1  # nothing revealed yet
    t.press(2, 2200000)  # the last one: reveal
    st = t.status(2200)
    assert st["step"] == 2 and st["steps_left"] == 3 and st["reveal_ms"] == 0
    assert [p["state"] for p in st["players"]] == ["waiting"] * 3
    kinds = [ev[0] for ev in t.drain()]
    assert kinds.count(E.REVEAL) == 1 and kinds[-1] == E.REVEAL


def test_heat_control_reveals_without_everyone():
    t = _table(HEAT)
    t.press(1, 1000000)
    assert t.control(1200)
    assert t.status(1200)["step"] == 2


def test_heat_three_heists_of_four_stages_then_over():
    t = _table(HEAT)
    ms = 1000
    for heist in range(3):
        for stage in range(4):
            st = t.status(ms)
            assert (st["phase"], st["round"], st["step"]) == ("ready", heist + 1, stage + 1)
            _tap_all(t, 3, ms)
            ms += 1000
        st = t.status(ms)
        assert st["phase"] == "summary" and st["steps_left"] == 0 and st["step"] == 4
        assert not t.press(0, ms * 1000)  # presses do nothing in the summary
        assert t.control(ms)  # next heist (or the end)
        ms += 1000
    assert t.status(ms)["phase"] == "over"


def test_heat_abort_restarts_the_heist():
    t = _table(HEAT)
    _tap_all(t, 3, 1000)
    _tap_all(t, 3, 2000)
    assert t.status(3000)["step"] == 3
    assert t.abort(3000)
    st = t.status(3000)
    assert st["phase"] == "ready" and st["round"] == 1 and st["step"] == 1


def test_heat_journal_replays_exactly():
    t = _table(HEAT)
    log = t.drain()
    ms = 1000
    for stage in range(6):  # heist 1: 4 stages, then heist 2: 2 stages
        t.press(0, ms * 1000)
        t.press(2, (ms + 5) * 1000)
        t.press(2, (ms + 9) * 1000)  # toggled off and on again
        t.press(2, (ms + 12) * 1000)
        t.press(1, (ms + 20) * 1000)
        ms += 1000
        if stage == 3:
            assert t.status(ms)["phase"] == "summary"
            t.control(ms)
        log += t.drain()
    encoded = [E.encode(ev) for ev in log]
    assert [E.decode(b) for b in encoded] == log
    again = E.replay(encoded)
    _same_state(t, again, ms)
    assert again.status(ms)["round"] == 2 and again.status(ms)["step"] == 3


# ------------------------------------------------------------------ Mini FITS: ready and reveal

MINI = {"players": ["Ada", "Ben"], "mode": "ready-reveal", "game": "mini-fits"}


def test_mini_fits_counts_cards_left_over_two_rounds():
    t = _table(MINI)
    st = t.status(0)
    assert (st["game"], st["rounds"], st["steps"], st["steps_left"]) == ("mini-fits", 2, 13, 13)
    ms = 1000
    for rnd in (1, 2):
        for card in range(13):
            st = t.status(ms)
            assert st["round"] == rnd and st["steps_left"] == 13 - card
            _tap_all(t, 2, ms)
            ms += 100
        assert t.status(ms)["phase"] == "summary"
        t.control(ms)
    assert t.status(ms)["phase"] == "over"


def test_mini_fits_solo_reveals_on_one_press():
    t = _table({"players": ["Ada"], "mode": "ready-reveal", "game": "mini-fits"})
    t.press(0, 1000000)
    assert t.status(1000)["steps_left"] == 12


def test_mini_fits_board_and_core_agree_on_rounds():
    """The board runs as many rounds as the scoring core expects in a complete game."""
    t = _table(MINI)
    record = {"game": "mini-fits", "players": ["Ada", "Ben"], "rounds": []}
    for rnd in range(t.status(0)["rounds"]):
        record["rounds"].append(
            {
                "players": {
                    "Ada": {"lines": 5} if rnd == 0 else {"lines": 5, "colour_sets": 1},
                    "Ben": {"lines": 4} if rnd == 0 else {"lines": 6, "colour_sets": 0},
                }
            }
        )
    result = games.score(record)
    assert result["complete"] and result["winners"] == ["Ada"]  # 5 + 8 = 13 against 4 + 6 = 10


# ------------------------------------------------------------------ Myth Fits: turns

MYTH = {"players": ["Ada", "Ben", "Cy"], "mode": "turns", "turn_ms": 60000}


def _running(cfg, t_ms=1000):
    t = _table(cfg)
    assert t.control(t_ms)  # control starts the game: no countdown in turn modes
    assert t.status(t_ms)["phase"] == "running"
    return t


@pytest.mark.parametrize("n", [2, 3, 4])
def test_myth_fits_target_matches_the_core(n):
    names = ["Ada", "Ben", "Cy", "Dee"][:n]
    t = _table({"players": names, "mode": "turns"})
    st = t.status(0)
    assert st["game"] == "myth-fits"
    assert st["target"] == myth_fits.setup_facts(n)[3] == (3, 4, 5)[n - 2]


@pytest.mark.parametrize("n", [1, 5])
def test_myth_fits_refuses_player_counts(n):
    with pytest.raises(ValueError) as e:
        _table({"players": ["P%d" % i for i in range(n)], "mode": "turns"})
    assert "players" in str(e.value)


def test_myth_fits_turn_passes_in_seat_order_only_by_the_active_player():
    t = _running(MYTH)
    assert t.status(1000)["turn"] == 0
    assert not t.press(1, 2000000)  # not Ben's turn
    assert t.status(2000)["turn"] == 0
    assert t.press(0, 3000000)
    assert t.status(3000)["turn"] == 1
    assert t.press(1, 4000000)
    assert t.press(2, 5000000)
    st = t.status(5000)
    assert st["turn"] == 0 and st["turn_ms"] == 0
    turns = [ev for ev in t.drain() if ev[0] == E.TURN]
    assert [(ev[1], ev[2]) for ev in turns] == [(0, 2000), (1, 1000), (2, 1000)]


def test_myth_fits_turn_limit_alerts_when_a_turn_runs_over():
    t = _running(MYTH)
    assert t.status(1000)["turn_limit_ms"] == 60000
    assert t.alert(60999) == 0
    assert t.alert(61000) == 10000
    t.press(0, 61500000)  # Ada ends her turn: Ben's clock starts afresh
    assert t.alert(61500) == 0
    assert t.status(70000)["turn_ms"] == 8500


def test_myth_fits_no_limit_never_alerts():
    t = _running({"players": ["Ada", "Ben"], "mode": "turns"})
    assert t.status(1000)["turn_limit_ms"] == 0
    assert t.alert(10**7) == 0


def test_myth_fits_photo_tokens_and_win_at_target():
    t = _running(MYTH)
    for k in range(3):
        assert t.photo(1, 2000 + k)
    st = t.status(3000)
    assert [p["photos"] for p in st["players"]] == [0, 3, 0]
    assert st["phase"] == "running" and st["winner"] == -1
    assert t.photo(2, 3100)
    assert t.photo(1, 3200)  # Ben's fourth: the target with 3 players
    st = t.status(3300)
    assert st["phase"] == "summary" and st["winner"] == 1 and st["end_reason"] == E.END_WIN
    assert not t.photo(0, 3400)  # the game is over: no more tokens
    # the same facts, as a record, give the same winner in the scoring core
    record = {
        "game": "myth-fits",
        "players": ["Ada", "Ben", "Cy"],
        "photo_tokens": {st["players"][p]["name"]: st["players"][p]["photos"] for p in range(3)},
    }
    assert games.score(record)["winners"] == ["Ben"]


def test_myth_fits_undo_a_photo_token():
    t = _running(MYTH)
    t.photo(2, 2000)
    t.photo(2, 2500)
    assert t.undo(4000)
    assert [p["photos"] for p in t.status(4000)["players"]] == [0, 0, 1]
    assert not t.undo(4100)  # one step only


def test_myth_fits_control_ends_the_game_without_winner():
    t = _running(MYTH)
    t.photo(0, 2000)
    assert t.control(3000)
    st = t.status(3000)
    assert st["phase"] == "summary" and st["winner"] == -1 and st["end_reason"] == E.END_CONTROL


def test_myth_fits_pause_keeps_turn_time():
    t = _running(MYTH)
    assert t.pause(11000)  # 10 s into Ada's turn
    assert t.status(50000)["turn_ms"] == 10000
    assert t.resume(50000)
    assert t.status(55000)["turn_ms"] == 15000
    assert t.alert(99999) == 0 and t.alert(100000) == 10000  # 60 s of turn time


def test_myth_fits_journal_replays_turns_photos_and_undo():
    t = _running(MYTH)
    t.press(0, 5000000)
    t.photo(2, 6000)
    t.press(1, 7000000)
    t.photo(0, 7500)
    t.undo(8000)
    t.pause(9000)
    log = [E.encode(ev) for ev in t.drain()]
    again = E.replay(log)
    _same_state(t, again, 9000)
    st = again.status(9000)
    assert st["turn"] == 2 and [p["photos"] for p in st["players"]] == [0, 0, 1]


# ------------------------------------------------------------------ the device app (fake port)


@pytest.fixture
def app_for(tmp_path):
    from presstime.device.app import App, MemMark
    from presstime.device.journal import Journal
    from presstime.device.ports.fake import FakePort

    def make(cfg, players=4):
        port = FakePort(players=players, pixels=12)
        port.set_ms(1000)
        app = App(port, Journal(str(tmp_path / "journal.bin")), marks=MemMark())
        app.configure(cfg)
        return app, port

    return make


def _run_until(app, port, ms):
    while port.now_ms() < ms:
        port.advance(10)
        app.step()


def test_app_heat_reveal_beeps_and_is_journaled(app_for):
    app, port = app_for(HEAT)
    for p, at in ((0, 1100), (1, 1200), (2, 1300)):
        port.tap(p, at_ms=at)
    _run_until(app, port, 1500)
    st = app.status()
    assert st["step"] == 2 and st["reveal_ms"] is not None
    assert (1320, 150) in [tuple(b[1:]) for b in port.beeps]  # the reveal beep (t_ms, Hz, ms)
    recs = app.journal.records(0)
    kinds = [E.decode(payload)[0] for _, payload in recs]
    assert kinds[0] == E.CONFIG and kinds.count(E.READY) == 3 and kinds[-1] == E.REVEAL


def test_app_myth_fits_short_press_ends_turn_long_press_takes_photo(app_for):
    app, port = app_for({"players": ["Ada", "Ben"], "mode": "turns"})
    port.tap(-1, at_ms=1100)  # control: start
    _run_until(app, port, 2000)
    assert app.status()["phase"] == "running"
    port.tap(0, at_ms=2100, ms=100)  # Ada: short press, her turn ends
    _run_until(app, port, 2500)
    assert app.status()["turn"] == 1
    port.tap(1, at_ms=2600, ms=1000)  # Ben: held 1 s, a photo token
    _run_until(app, port, 4000)
    st = app.status()
    assert [p["photos"] for p in st["players"]] == [0, 1] and st["turn"] == 1
    for k in range(2):  # two more for Ben: 3 wins with 2 players
        port.tap(1, at_ms=4100 + 1500 * k, ms=1000)
    _run_until(app, port, 8000)
    st = app.status()
    assert st["phase"] == "summary" and st["winner"] == 1


def test_app_rebuilds_a_myth_fits_game_from_its_journal(tmp_path, app_for):
    from presstime.device.app import App, MemMark
    from presstime.device.journal import Journal
    from presstime.device.ports.fake import FakePort

    app, port = app_for({"players": ["Ada", "Ben", "Cy"], "mode": "turns"})
    port.tap(-1, at_ms=1100)
    port.tap(0, at_ms=2000)
    port.tap(1, at_ms=2500, ms=1000)
    _run_until(app, port, 5000)
    before = app.status()
    app.journal.close()
    port2 = FakePort(players=4, pixels=12)
    port2.set_ms(5000)
    app2 = App(port2, Journal(str(tmp_path / "journal.bin")), marks=MemMark())
    after = app2.status()
    assert after["turn"] == before["turn"] == 1
    assert [p["photos"] for p in after["players"]] == [0, 1, 0]
    assert after["phase"] == "paused"  # a power cut while running: resumes paused


# ------------------------------------------------------------------ once-reported gaps, now closed
# The round machine applies each game's player counts and mode; sync builds each game's record.


@pytest.mark.parametrize("game,n", [("heat", 2), ("heat", 6), ("mini-fits", 5)])
def test_gap_table_refuses_player_counts_the_game_does_not_take(game, n):
    with pytest.raises(ValueError):
        _table({"players": ["P%d" % i for i in range(n)], "mode": "ready-reveal", "game": game})


@pytest.mark.parametrize("mode,game", [("turns", "heat"), ("ready-reveal", "myth-fits")])
def test_gap_table_refuses_a_game_in_the_wrong_mode(mode, game):
    with pytest.raises(ValueError):
        _table({"players": ["A", "B", "C"], "mode": mode, "game": game})


def _journal_of(cfg, script):
    t = _table(cfg)
    script(t)
    return [(i + 1, E.encode(ev)) for i, ev in enumerate(t.drain())]


def test_gap_synced_myth_fits_game_is_a_record_the_core_accepts():
    from presstime.sync import rebuild

    def play(t):
        t.control(1000)
        t.press(0, 2000000)
        for k in range(3):
            t.photo(1, 3000 + k)

    game = rebuild.games_from_journal(
        _journal_of({"players": ["Ada", "Ben"], "mode": "turns"}, play)
    )[-1]
    record = rebuild.game_record(game)
    assert games.check(record) == []
    assert record["photo_tokens"] == {"Ada": 0, "Ben": 3}
    assert games.score(record)["winners"] == ["Ben"]


# ------------------------------------------------------------------ through the pty (simulator)
# The simulated board (host/presstime/sim/headless.py) runs the very firmware behind an os.openpty()
# pair; the desktop side is the real BoardClient over pyserial. The simulator's `press` request
# is a short press (80 ms) unless held longer (`ms`): a 0.8 s hold is a photo token.


@pytest.fixture
def board():
    pytest.importorskip("serial")
    from presstime.board.link import BoardClient, SerialTransport
    from presstime.sim.headless import Simulator

    sim = Simulator(advertise=False).start()
    client = BoardClient(SerialTransport(sim.path))
    client.hello()
    try:
        yield client
    finally:
        client.close()
        sim.stop()


def _wait(client, ok, what, seconds=5.0):
    import time

    deadline = time.monotonic() + seconds
    while True:
        st = client.status()
        if ok(st):
            return st
        if time.monotonic() > deadline:
            raise AssertionError("board never reached %s: %r" % (what, st))
        time.sleep(0.02)


def _pulled_journal_matches(client, st):
    """Every event came over the link, and replaying them gives the board's own state."""
    records = []
    for page in client.pages(0):
        records += page["records"]
    assert [seq for seq, _ in records] == list(range(1, len(records) + 1))
    again = E.replay([payload for _, payload in records]).status(0)
    for key in ("phase", "round", "step", "steps_left", "turn", "winner", "end_reason"):
        assert again.get(key) == st.get(key), key
    assert [p["state"] for p in again["players"]] == [p["state"] for p in st["players"]]
    assert [p["photos"] for p in again["players"]] == [p["photos"] for p in st["players"]]
    return records


def test_pty_heat_game(board):
    board.configure({"players": ["Ada", "Ben", "Cy"], "mode": "ready-reveal", "game": "heat"})
    for heist in (1, 2, 3):
        for stage in (1, 2, 3, 4):
            st = _wait(
                board,
                lambda s: s["phase"] == "ready" and s["round"] == heist and s["step"] == stage,
                "heist %d stage %d" % (heist, stage),
            )
            board.press(1)
            board.press(0)
            _wait(
                board,
                lambda s: [p["state"] for p in s["players"]] == ["ready", "ready", "waiting"],
                "two ready",
            )
            board.press(2)
        _wait(
            board,
            lambda s: s["phase"] == "summary" and s["round"] == heist,
            "heist %d over" % heist,
        )
        board.next_round()
    st = _wait(board, lambda s: s["phase"] == "over", "game over")
    kinds = [E.decode(p)[0] for _, p in _pulled_journal_matches(board, st)]
    assert kinds.count(E.REVEAL) == 12 and kinds.count(E.READY) == 36


def test_pty_mini_fits_round(board):
    board.configure({"players": ["Ada", "Ben"], "mode": "ready-reveal", "game": "mini-fits"})
    for card in range(13):
        _wait(
            board,
            lambda s: s.get("steps_left") == 13 - card and s["phase"] == "ready",
            "card %d" % card,
        )
        board.press(0)
        board.press(1)
    st = _wait(board, lambda s: s["phase"] == "summary", "round 1 over")
    assert st["steps_left"] == 0 and st["round"] == 1 and st["rounds"] == 2
    board.next_round()
    st = _wait(board, lambda s: s["round"] == 2 and s["steps_left"] == 13, "round 2")
    _pulled_journal_matches(board, st)


@pytest.mark.slow
def test_pty_myth_fits_turns(board):
    board.configure({"players": ["Ada", "Ben", "Cy"], "mode": "turns", "turn_ms": 30000})
    st = board.status()
    assert st["game"] == "myth-fits" and st["target"] == 4 and st["turn_limit_ms"] == 30000
    board.start()
    _wait(board, lambda s: s["phase"] == "running" and s["turn"] == 0, "Ada's turn")
    board.press(1)  # not Ben's turn: nothing happens
    board.press(0)
    _wait(board, lambda s: s["turn"] == 1, "Ben's turn")
    board.press(1)
    _wait(board, lambda s: s["turn"] == 2, "Cy's turn")
    board.press(-1)  # control: the table ends the game
    st = _wait(board, lambda s: s["phase"] == "summary", "game ended")
    assert st["end_reason"] == E.END_CONTROL and st["winner"] == -1
    kinds = [E.decode(p)[0] for _, p in _pulled_journal_matches(board, st)]
    assert kinds.count(E.TURN) == 2 and kinds[-1] == E.END


# ------------------------------------------------------------------ the same paths under
# MicroPython

_SCRIPT = """
import json
from presstime.core.table import Table
from presstime.core import events as E
out = []
def snap(t, ms):
    s = t.status(ms)
    out.append([s["phase"], s["round"], s.get("step"), s.get("steps_left"), s.get("turn"),
                s.get("turn_ms"), s["winner"], s["end_reason"], t.alert(ms),
                [[p["state"], p["photos"]] for p in s["players"]]])
t = Table()
t.configure({"players": ["Ada", "Ben", "Cy"], "mode": "ready-reveal", "game": "heat"}, 0)
ms = 1000
for stage in range(5):
    for p in (2, 0, 0, 0, 1):
        t.press(p, ms * 1000)
        ms += 7
        snap(t, ms)
    if stage == 3:
        t.control(ms)
t2 = Table()
t2.configure({"players": ["Ada", "Ben", "Cy", "Dee"], "mode": "turns", "turn_ms": 20000}, 0)
t2.control(1000)
for p, kind, at in ((0, "press", 3000), (2, "photo", 4000), (1, "press", 25000),
                    (3, "photo", 26000), (1, "undo", 27000), (2, "press", 40000),
                    (2, "photo", 41000), (2, "photo", 42000), (2, "photo", 43000),
                    (2, "photo", 44000)):
    if kind == "press":
        t2.press(p, at * 1000)
    elif kind == "photo":
        t2.photo(p, at)
    else:
        t2.undo(at)
    snap(t2, at + 500)
log = [E.encode(ev) for ev in t.drain() + t2.drain()]
print(json.dumps(out))
print(len(log))
"""


def test_micropython_runs_the_same_paths():
    import json
    import subprocess
    import sys

    from mpy import FIRMWARE, MICROPYTHON, SKIP_REASON, run_micropython

    cp = subprocess.run(
        [sys.executable, "-c", "import sys\nsys.path.insert(0, %r)\n" % FIRMWARE + _SCRIPT],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    snaps = json.loads(cp[0])
    assert snaps[-1][0] == "summary" and snaps[-1][6] == 2  # Cy took the 5th photo token
    assert snaps[19][:3] == ["summary", 1, 4]  # heist 1 done after 4 reveals
    assert snaps[24][:3] == ["ready", 2, 2]  # heist 2, stage 2 after the 5th
    if MICROPYTHON is None:
        pytest.skip(SKIP_REASON)
    mp = run_micropython(_SCRIPT, heap="512K").stdout.split("\n")
    assert json.loads(mp[0]) == snaps and mp[1] == cp[1]
