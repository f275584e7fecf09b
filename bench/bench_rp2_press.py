"""The board on the official firmware (emulated RP2040, the rp2emu rig): press stamps, the
main loop, the lights, the heap. Every figure is in emulated RP2040 time (MicroPython v1.28.0,
RPI_PICO, 125 MHz), deterministic (the rig in paused mode: time moves only when asked).
Needs the rig (PRESSTIME_RP2EMU, see rig/rp2emu.py); without it every figure is None with one
line on stderr.

rp2_press_stamp_error_us_max: 520 seeded presses on the six player pins (gaps between down
  edges log-uniform from 20 µs to 200 ms, holds 30-120 ms; in every flash-write window two
  players 20 ms apart), stamped by the board's port (ports/rp2.py: PIO capture) while the
  probe (bench/rp2/press_probe.py) rewrites a 4 KB file every 250 ms (a 45 ms sector erase and
  16 page programs with interrupts off) and writes a pixel frame every loop: the largest
  |stamp - true edge| over all presses (rig/press_run.py).
rp2_press_order_inversions: pairs of those presses >= 100 µs apart stamped in the wrong
  order or equal.
rp2_light_latency_ms_max: a round running on the app (bench/rp2/app_probe.py: port, App,
  Journal, Link as main.py starts them), each of the six players pressing once: press edge ->
  start of the first NeoPixel frame on GPIO16 where that player's pixel (ring 0, 4, ... 20)
  leaves the values it blinked through before the press; the largest of the six.
rp2_loop_us_p50 / rp2_loop_us_p99: App.step() over that round (countdown, presses, grace,
  summary; 10 s), each step's time minus its time asleep in port.idle() (GC included, when
  it happens in a step).
rp2_cpu_busy_pct: the rig's activeCycles / cycles over the 10 s of that round (the CPU not in
  WFI; flash stalls count as busy).
rp2_min_free_heap_kb / rp2_largest_free_block_kb: 10 consecutive 3-round games on the same
  app (each player pressing every second, the control button's short press at each ready
  check and summary), after each game a sync of its journal through the Link (records pages
  as the desktop asks them), then gc.collect(), gc.mem_free() and the largest bytearray that
  can be allocated: the minimum of each over the 10 games. The 10 games run in one call
  (app_probe.games): until 2026-11-24 each game was a REPL snippet of its own, and each
  snippet's compiled code, live while its game ran, sat wherever the allocator had got to:
  the games' objects were placed around it and the largest block swung 31-57 KB with the
  snippet's text alone (docs/benchmarks.md).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
from targets import at_least, at_most, exactly  # noqa: E402

KEYS = (
    "rp2_press_stamp_error_us_max",
    "rp2_press_order_inversions",
    "rp2_light_latency_ms_max",
    "rp2_loop_us_p50",
    "rp2_loop_us_p99",
    "rp2_cpu_busy_pct",
    "rp2_min_free_heap_kb",
    "rp2_largest_free_block_kb",
)
TARGETS = {
    "rp2_press_stamp_error_us_max": at_most(100),
    "rp2_press_order_inversions": exactly(0),
    "rp2_light_latency_ms_max": at_most(50),
    "rp2_cpu_busy_pct": at_most(20),
    "rp2_min_free_heap_kb": at_least(150),
    "rp2_largest_free_block_kb": at_least(32),
}

PRESSES = 520
SEED = 9
COLOURS = ("#ff0000", "#00ff00", "#0000ff", "#ffff00", "#ff00ff", "#00ffff")


def _cfg(duration_ms=60000):
    return {
        "players": [{"name": "P%d" % (i + 1), "colour": COLOURS[i]} for i in range(6)],
        "duration_ms": duration_ms,
        "options": {"grace_ms": 1000},
    }


def press_figures(rig, image, count=PRESSES, seed=SEED):
    from rig.press_run import figures, press_run, schedule

    return figures(press_run(rig, image, schedule(seed, count)))


def _percentile(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, (len(v) * q) // 100)] if v else None


def _app(pico, step_slots=4000):
    """Leave main.py's app (the link's `repl`), load bench/rp2/app_probe.py in the raw REPL."""
    from rig.pico import PausedLink
    from rig.rp2emu import MS

    pico.run(300 * MS)
    PausedLink.client(pico).repl()
    pico.run(100 * MS)
    with open(os.path.join(HERE, "rp2", "app_probe.py")) as f:
        r = pico.exec("STEP_SLOTS = %d\n" % step_slots + f.read())
    if r.get("err"):
        raise RuntimeError("app_probe failed: %s" % r["err"][-600:])


def _exec(pico, code, max_ms=600_000):
    from rig.rp2emu import MS

    r = pico.exec(code, max_ns=max_ms * MS)
    if r.get("err"):
        raise RuntimeError("%s failed on the board: %s" % (code[:40], r["err"][-600:]))
    return r["out"]


def round_figures(rig, image):
    """One round on the app: loop steps, CPU busy share, light latency per player."""
    from rig.pico import EmulatedPico
    from rig.rp2emu import MS

    with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
        _app(pico)
        _exec(pico, "setup(%r)\napp.command('start')\nrun(200)\nsteps()" % (_cfg(),))
        t0 = pico.now()
        # the countdown is 3 s: players press 3.5 s from here, 150 ms apart, 80 ms each
        edges = []
        for p in range(6):
            at = t0 + 3500 * MS + p * 150 * MS + (p * 7919) % 1000 * 1000
            pico.press(p, at=at, hold_ms=80)
            edges.append(at)
        s0 = pico.stats()
        out = _exec(pico, "run(10000)\nsteps()")
        s1 = pico.stats()
        frames = pico.frames()
    busy = (s1["activeCycles"] - s0["activeCycles"]) / (s1["cycles"] - s0["cycles"])
    steps = [int(x) for x in out.split("STEPS", 1)[1].split()]
    ring = (0, 4, 8, 12, 16, 20)
    latencies = []
    for p, at in enumerate(edges):
        before = {px[ring[p]] for t, px in frames if at - 2000 * MS <= t < at}
        if frames and not before:
            before = {[px for t, px in frames if t < at][-1][ring[p]]}
        after = [t for t, px in frames if t >= at and px[ring[p]] not in before]
        latencies.append((after[0] - at) / MS if after else None)
    return {"steps": steps, "busy": busy, "latencies": latencies}


def heap_figures(rig, image, games=10, log=None):
    """Free heap and the largest free block after each of `games` games and their syncs."""
    from rig.pico import EmulatedPico
    from rig.rp2emu import MS

    with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
        _app(pico, step_slots=16)
        _exec(pico, "setup(%r)" % (_cfg(),))
        t0 = pico.now()
        game_ms = 16000
        for k in range(games * game_ms // 1000):
            for p in range(6):
                pico.press(p, at=t0 + 200 * MS + k * 1000 * MS + p * 41 * MS, hold_ms=60)
        out = _exec(pico, "games(%d, %d, %r)" % (games, game_ms, _cfg())).strip().splitlines()
        if log is not None:
            for line in out:
                print(line, file=log, flush=True)
    free, block, phases = [], [], []
    for line in out:
        f = line.split()
        phases.append(int(f[1]))
        free.append(int(f[f.index("HEAP") + 1]))
        block.append(int(f[f.index("HEAP") + 2]))
    return {"free": free, "block": block, "phases": phases, "lines": out}


def rig_image(who):
    """(rig folder, the app's flash image), or (None, None) with one line on stderr, from
    `who`, saying how to enable the rig."""
    from rig.rp2emu import find_rig, why_absent

    rig = find_rig()
    if rig is None:
        print("%s: %s" % (who, why_absent()), file=sys.stderr)
        return None, None
    from rig.pico import app_image

    return rig, app_image(rig)


def measure():
    rig, image = rig_image("bench_rp2_press")
    if rig is None:
        return {k: None for k in KEYS}
    press = press_figures(rig, image)
    print("bench_rp2_press: presses %s" % press, file=sys.stderr)
    rnd = round_figures(rig, image)
    print(
        "bench_rp2_press: round: %d steps, latencies %s ms, busy %.3f"
        % (len(rnd["steps"]), rnd["latencies"], rnd["busy"]),
        file=sys.stderr,
    )
    heap = heap_figures(rig, image)
    print("bench_rp2_press: heap after each game: %s" % heap["lines"], file=sys.stderr)
    lat = rnd["latencies"]
    complete = press["missing"] == 0 and press["extra"] == 0
    return {
        "rp2_press_stamp_error_us_max": press["error_us_max"] if complete else None,
        "rp2_press_order_inversions": press["inversions"] if complete else None,
        "rp2_light_latency_ms_max": round(max(lat), 1) if lat and None not in lat else None,
        "rp2_loop_us_p50": _percentile(rnd["steps"], 50),
        "rp2_loop_us_p99": _percentile(rnd["steps"], 99),
        "rp2_cpu_busy_pct": round(100 * rnd["busy"], 1),
        "rp2_min_free_heap_kb": min(heap["free"]) // 1024,
        "rp2_largest_free_block_kb": min(heap["block"]) // 1024,
    }


if __name__ == "__main__":
    print(measure())
