"""The MacroPad build on CircuitPython 10.2.1 in the emulated RP2040 (the rp2emu rig): figures
in emulated time, from the app that `presstime install-firmware --board macropad --port`
installed (rig/macropad.py), with the rig's timing model (rig/xip.mjs) on unless
PRESSTIME_RIG_XIP=off, as for every rig figure. Without the rig (PRESSTIME_RP2EMU) every figure
is None.

    cp_boot_first_ms             power-on to the app's hello reply on usb_cdc.data (drive formatted,
                                 no game in the journal; the worst of three boots under a table's
                                 load is cp_boot_to_ready_ms, bench/bench_cp_table.py)
    cp_keypad_floor_us           keypad's own stamp error, finest interval (a REPL script, no app)
    cp_press_stamp_error_us_max  the app's recorded press time - true edge, max |.| over every press
    cp_press_order_inversions    pairs >= the scan interval apart recorded in the wrong order
    cp_light_latency_ms_max      press edge -> the board's pixels show the press (core/lights'
    frame)
    cp_cpu_busy_pct              share of running rounds the CPU is not asleep (code.py, presses in)
    cp_loop_us_p50 / _p99        the app's step without its idle sleep (the app's loop run from
                                 the REPL with a timer around each step, in 20 us buckets), 10 games
    cp_min_free_heap_kb          gc.mem_free() minimum over those 10 games (the same REPL run)

Presses: seeded, 6 players a round, gaps from 20 us to 200 ms (log-uniform), on the key GPIOs.
"""

import os
import random
import sys

from targets import at_most, exactly

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

KEYS = (
    "cp_boot_first_ms",
    "cp_keypad_floor_us",
    "cp_press_stamp_error_us_max",
    "cp_press_order_inversions",
    "cp_light_latency_ms_max",
    "cp_cpu_busy_pct",
    "cp_loop_us_p50",
    "cp_loop_us_p99",
    "cp_min_free_heap_kb",
)
TARGETS = {
    "cp_boot_first_ms": at_most(5000),
    "cp_press_order_inversions": exactly(0),
    "cp_light_latency_ms_max": at_most(50),
    "cp_cpu_busy_pct": at_most(20),
}

MS = 1_000_000
SEED = 15
GAMES_CODE_PY = int(os.environ.get("PRESSTIME_CP_GAMES", "4"))  # games of 3 rounds, 6 presses each
GAMES_HEAP = int(os.environ.get("PRESSTIME_CP_HEAP_GAMES", "10"))
SCAN_US = 1000  # keypad interval the port asks for (boards/macropad.py SCAN_INTERVAL_S)
PLAYERS = ["P%d" % i for i in range(1, 7)]
CFG = {
    "game": "fit-to-print",
    "mode": "standard",
    "duration_ms": 60000,
    "players": [{"name": n} for n in PLAYERS],
}


def _gaps(rnd, n):
    """n gaps in µs, log-uniform over 20 µs .. 200 ms."""
    import math

    return [int(math.exp(rnd.uniform(math.log(20), math.log(200_000)))) for _ in range(n)]


# ------------------------------------------------------------------ the app from code.py


def boot_to_ready(pad):
    """Emulated ms from power-on to the app's first hello reply. One hello is sent as soon as
    CircuitPython starts code.py (its console title says so) and waits in usb_cdc.data's buffer
    until the app's loop reads it: the reply comes at the app's first poll. (Hellos sent over
    and over while it boots would pile up: each costs the app a reply.)"""
    from rig.macropad import client

    t0 = pad.now() - pad.chip_ns()  # this boot's power-on on the harness timeline
    seen = ""
    for _ in range(3000):
        pad.run(5 * MS)
        seen += pad.read()
        if "code.py" in seen:
            break
    else:
        return None
    with pad.pump():
        for _ in range(3):
            c = client(pad.data_pty, timeout=120.0)
            c.retries = 0
            try:
                c.hello()
                return (pad.now() - t0) / MS
            except Exception:
                pass
            finally:
                c.close()
    return None


def play_games(pad, rnd, games):
    """Full Fit to Print games on the installed app: the encoder switch starts and moves on,
    6 players press with seeded gaps. Returns per-press rows, per-round busy shares (cycles from
    the round running to its last press: no write happens there) and light latencies."""
    from presstime.core import events as E
    from rig.macropad_games import Game, next_round, start_round, wait_phase

    presses = []  # (edge_us, recorded_us, seat, round key)
    busy = []
    latencies = []
    for g in range(games):
        pad.frames(clear=True)
        game = Game(pad, CFG)
        first_seq = pad.call(lambda c: c.hello())["seq"]
        round_edges = []
        for _round in range(3):
            st, t = start_round(game)
            order = list(range(6))
            rnd.shuffle(order)
            at_us = int(t * 1000)
            edges = []
            for seat, gap in zip(order, [0] + _gaps(rnd, 5)):
                at_us += gap
                game.press(seat, at_ms=at_us / 1000.0)
                edges.append((seat, at_us))
            round_edges.append(edges)
            s0 = pad.stats()
            game.run_to(at_us / 1000.0)
            s1 = pad.stats()
            busy.append((s1["activeCycles"] - s0["activeCycles"], s1["cycles"] - s0["cycles"]))
            game.run_to(at_us / 1000.0 + 300)
            wait_phase(game, ("summary",))
            next_round(game)
        # what the board recorded: the journal's GO and PRESS events of this game
        recs = pad.call(lambda c: _all_records(c, first_seq))
        go_ms, rounds = None, []
        for _seq, payload in recs:
            ev = E.decode(payload)
            if ev[0] == E.GO:
                go_ms = ev[1]
                rounds.append({})
            elif ev[0] == E.PRESS and rounds:
                rounds[-1][ev[1]] = go_ms * 1000 + ev[4]
        for r, edges in enumerate(round_edges):
            for seat, at_us in edges:
                rec = rounds[r].get(seat) if r < len(rounds) else None
                presses.append((at_us, rec, seat, (g, r)))
        sim = game.simulate(board_records=recs)
        latencies += _latencies(
            game.board_frames(), sim.port.frames, [e for es in round_edges for e in es]
        )
    return presses, busy, latencies


def _all_records(c, after):
    out = []
    for page in c.pages(after):
        out += page["records"]
    return out


def _latencies(board_frames, sim_frames, edges):
    """Press edge -> first board frame showing a frame the simulator showed after the press."""
    from rig.macropad_games import current_at

    out = []
    for _seat, at_us in edges:
        e = at_us / 1000.0
        before = current_at(sim_frames, e - 0.001)
        after = [f for ft, f in sim_frames if e <= ft <= e + 300 and f != before]
        if not after:
            continue
        for bt, px in board_frames:
            if bt >= e and [tuple(x) for x in px] in [[tuple(x) for x in f] for f in after]:
                out.append(bt - e)
                break
    return out


def inversions(presses, scan_us=SCAN_US):
    """Pairs of one round >= scan_us apart whose recorded order is the wrong way round (a tie,
    equal recorded times, counts as wrong too)."""
    by_round = {}
    for edge, rec, _seat, key in presses:
        by_round.setdefault(key, []).append((edge, rec))
    bad = 0
    for rows in by_round.values():
        for i in range(len(rows)):
            for j in range(len(rows)):
                a, b = rows[i], rows[j]
                if b[0] - a[0] >= scan_us and (a[1] is None or b[1] is None or b[1] <= a[1]):
                    bad += 1
    return bad


# ------------------------------------------------------------------ REPL scripts (code.py stopped)


def stop_code_py(pad):
    pad.write("\x03")
    pad.run(300 * MS)
    pad.write("\r")
    pad.run(300 * MS)


KEYPAD_SCRIPT = """
import keypad, board, supervisor
k = keypad.Keys((board.KEY7,), value_when_pressed=False, pull=True, interval=%f)
out = []
t0 = supervisor.ticks_ms()
while len(out) < %d and (supervisor.ticks_ms() - t0) %% (1 << 29) < %d:
    e = k.events.get()
    if e and e.pressed:
        out.append((e.timestamp - ((1 << 29) - 65536)) %% (1 << 29))
k.deinit()
print(out)
"""


def keypad_floor(pad, rnd, interval_s, n=40):
    """keypad.Keys alone at `interval_s`: max |timestamp - edge| in µs over n presses."""
    from rig.macropad import GPIO

    off = pad.boot_offset_ns()
    start = pad.now() + 400 * MS
    edges = []
    t = start
    for _i in range(n):
        t += int(rnd.uniform(30, 60) * MS) + rnd.randrange(0, MS)
        pad.set(GPIO["KEY7"], 0, at=t)
        pad.set(GPIO["KEY7"], None, at=t + 15 * MS)
        edges.append((t - off) / 1000.0)
    span = (t - start) // MS + 2000
    r = pad.exec(KEYPAD_SCRIPT % (interval_s, n, span), max_ns=(span + 5000) * MS)
    if r["err"]:
        raise RuntimeError(r["err"][-300:])
    import ast

    stamps = ast.literal_eval(r["out"].strip().splitlines()[-1])
    errs = [s * 1000 - e for s, e in zip(stamps, edges)]
    return errs, len(stamps)


SETUP = """
import time, gc
from presstime.device.ports.macropad import MacropadPort
from presstime.device.start import start
port = MacropadPort()
app = start(port)
slept = [0]
_idle = port.idle
def idle(wait_ms=None):
    t = time.monotonic_ns()
    _idle(wait_ms)
    slept[0] += time.monotonic_ns() - t
port.idle = idle
import array
hist = array.array("H", bytes(2 * 1000))    # step durations in 20 us buckets up to 20 ms (2 KB:
big = []                                    # a list of every step outgrew the heap), the rest
free = [gc.mem_free()]
def play(cfg, first, ms):
    if cfg:
        app.configure(cfg)
    else:
        app.command("next")
    app.command("start")
    end = port.now_ms() + ms
    while port.now_ms() < end:
        slept[0] = 0
        t = time.monotonic_ns()
        app.step()
        us = (time.monotonic_ns() - t - slept[0]) // 1000
        if us < 20000:
            hist[us // 20] += 1
        else:
            big.append(us)
        m = gc.mem_free()
        if m < free[0]:
            free[0] = m
print("ready", port.now_ms())
"""

ROUND = "play(%r, %d, %d)\nprint('round', port.now_ms())"

REPORT = """n = sum(hist) + len(big)
def pct(q):
    k = n * q // 100
    for i in range(len(hist)):
        k -= hist[i]
        if k < 0:
            return i * 20
    big.sort()
    return big[min(len(big) - 1, k)]
mx = max(big) if big else max(i for i in range(len(hist)) if hist[i]) * 20
print("loop", n, pct(50), pct(99), mx, "free", free[0])
"""


def harness_games(pad, rnd, games=GAMES_HEAP):
    """The app's loop run from the REPL with a timer around each step (code.py stopped; the
    modules imported first, in their own exec): games of 3 rounds, each round started by the
    script at a known board time, its 6 presses on the keys."""
    r = pad.exec(SETUP, max_ns=30000 * MS)
    if r["err"]:
        raise RuntimeError(r["err"][-400:])
    round_ms = 5500
    for _g in range(games):
        for k in range(3):
            off = pad.boot_offset_ns()
            t0 = (pad.now() - off) / MS + 150  # the exec starts the round about here
            order = list(range(6))
            rnd.shuffle(order)
            at_us = int((t0 + 3000 + 400) * 1000)
            for seat, gap in zip(order, [0] + _gaps(rnd, 5)):
                at_us += gap
                pad.press(seat, at=int(at_us * 1000 + off))
            r = pad.exec(ROUND % (CFG if k == 0 else None, 0, round_ms), max_ns=60000 * MS)
            if r["err"]:
                raise RuntimeError(r["err"][-400:])
    r = pad.exec(REPORT, max_ns=30000 * MS)
    words = r["out"].split()
    i = words.index("loop")
    n, p50, p99, mx = (int(w) for w in words[i + 1 : i + 5])
    free = int(words[words.index("free") + 1])
    return {"n": n, "p50": p50, "p99": p99, "max": mx, "free": free}


# ------------------------------------------------------------------ measure


def measure():
    from rig.rp2emu import find_rig, why_absent

    rig = find_rig()
    if rig is None:
        print("bench_cp: %s" % why_absent(), file=sys.stderr)
        return {k: None for k in KEYS}
    from rig.macropad import EmulatedMacropad, app_image

    image = app_image(rig)
    rnd = random.Random(SEED)
    out = {k: None for k in KEYS}
    pad = EmulatedMacropad.start(rig, image, paused=True)
    try:
        b = boot_to_ready(pad)
        out["cp_boot_first_ms"] = round(b, 1) if b is not None else None
        presses, busy, lat = play_games(pad, rnd, GAMES_CODE_PY)
        errs = [rec - edge for edge, rec, _, _ in presses if rec is not None]
        missing = sum(1 for p in presses if p[1] is None)
        out["cp_press_stamp_error_us_max"] = (
            round(max(abs(e) for e in errs)) if errs and not missing else None
        )
        out["cp_press_order_inversions"] = inversions(presses)
        out["cp_light_latency_ms_max"] = round(max(lat), 1) if lat else None
        out["cp_cpu_busy_pct"] = round(100.0 * sum(a for a, _ in busy) / sum(c for _, c in busy), 1)
        print(
            "bench_cp: %d presses (%d not recorded), stamp error us min/max %s/%s, %d light "
            "latencies, busy per round %s"
            % (
                len(presses),
                missing,
                min(errs) if errs else None,
                max(errs) if errs else None,
                len(lat),
                [round(100.0 * a / c, 1) for a, c in busy],
            ),
            file=sys.stderr,
        )
        stop_code_py(pad)
        ferrs, n = keypad_floor(pad, rnd, SCAN_US / 1e6)
        out["cp_keypad_floor_us"] = round(max(abs(e) for e in ferrs))
        print(
            "bench_cp: keypad alone at 1 ms: %d stamps, error us min/max %.0f/%.0f"
            % (n, min(ferrs), max(ferrs)),
            file=sys.stderr,
        )
        try:
            h = harness_games(pad, rnd)
        except Exception as e:  # the figures above stand; these stay None
            print("bench_cp: the REPL run failed: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        else:
            out["cp_loop_us_p50"] = h["p50"]
            out["cp_loop_us_p99"] = h["p99"]
            out["cp_min_free_heap_kb"] = round(h["free"] / 1024.0, 1)
            print("bench_cp: harness %d steps, max %d us" % (h["n"], h["max"]), file=sys.stderr)
    finally:
        pad.close()
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=2))
