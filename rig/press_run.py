"""Seeded presses on the emulated Pico's button pins, stamped by the board's own port
(ports/rp2.py) while it writes flash and pixels: the experiment behind the rp2 press figures
(bench/bench_rp2_press.py) and tests/test_rig_press_order.py.

    run = press_run(rig, image, presses)          # presses: [(t_us from start, seat, hold_us)]
    run.matched   # [(seat, true_us, stamp_us)] per scheduled press, on the chip's µs
    run.writes    # [(t0_us, t1_us)] flash writes (a 4 KB file rewritten: erase + programs)
    run.frames    # [(t0_us, t1_us)] NeoPixel frames on the wire
    run.erases    # sector erases the rig counted during the run

The app installed on the image is left through the link's `repl` request, then
bench/rp2/press_probe.py runs in the raw REPL with the schedule's window; the presses are
driven at exact emulated instants (control channel `set at=`) on the pin map's GPIOs, active
low, released to the pull-up.
"""

import math
import os
import random

from .pico import EmulatedPico, PausedLink
from .rp2emu import MS, US

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = os.path.join(ROOT, "bench", "rp2", "press_probe.py")
LEAD_US = 300_000  # from the exec to the first scheduled press (the probe's set-up)


def schedule(seed, count, write_every_us=250_000, gap_min_us=20, gap_max_us=200_000):
    """`count` presses: gaps log-uniform in [gap_min_us, gap_max_us] between consecutive down
    edges, plus, in every flash-write window of the probe (100 ms after start, then every
    write_every_us), two players 20 ms apart starting 3 ms into the write. A seat is pressed
    again only 15 ms after its release (the debounce settles in 10 ms)."""
    rng = random.Random(seed)
    lo, hi = math.log(gap_min_us), math.log(gap_max_us)
    free = [0] * 6
    out = []
    t = 0  # the last random instant
    w = 100_000 + 3_000  # the next forced pair (3 ms into a write)
    nxt = int(math.exp(rng.uniform(lo, hi)))
    while len(out) < count:
        if w <= nxt:
            instants = (w, w + 20_000)
            w += write_every_us
        else:
            instants = (nxt,)
            t = nxt
            nxt = t + int(math.exp(rng.uniform(lo, hi)))
        for at in instants:
            seats = [p for p in range(6) if free[p] <= at]
            if not seats:
                continue
            p = rng.choice(seats)
            hold = rng.randint(30_000, 120_000)
            out.append((at, p, hold))
            free[p] = at + hold + 15_000
    out.sort()
    return out[:count]


class PressRun:
    pass


def press_run(rig, image, presses, use_pio=True, write_every_us=250_000):
    run = PressRun()
    end_us = presses[-1][0] + presses[-1][2] + 200_000
    with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
        pico.run(300 * MS)
        PausedLink.client(pico).repl()
        pico.run(100 * MS)
        info = pico.cmd("now")
        offset_ns = info["now"] - info["chip_ns"]  # rig timeline -> chip clock
        start_chip_us = int(info["chip_ns"] // US) + LEAD_US
        for at, p, hold in presses:
            t = (start_chip_us + at) * US + offset_ns
            pico.press(p, at=t, hold_ms=hold / 1000)
        for p in range(6):
            pico.trace(pico.pin(p))
        erases0 = pico.stats()["flash"]["erases"]
        pico.ws2812(pico.pixel_pin, clear=True)
        code = (
            "START_US = %d\nEND_US = %d\nWRITE_EVERY_US = %d\nUSE_PIO = %s\nMAX_PRESSES = %d\n"
            % (start_chip_us, start_chip_us + end_us, write_every_us, use_pio, len(presses))
        )
        with open(PROBE) as f:
            code += f.read()
        r = pico.exec(code, max_ns=(end_us // 1000 + 60_000) * MS)
        if r.get("err"):
            raise RuntimeError("press probe failed on the board: %s" % r["err"][-800:])
        run.erases = pico.stats()["flash"]["erases"] - erases0
        # the pads' own level changes, as the rig saw them (a scope on the pins)
        run.pads = [
            [(int((t - offset_ns) // US), lvl) for t, lvl in pico.edges(pico.pin(p))[1:]]
            for p in range(6)
        ]
        run.frames = [
            (int((f["t"] - offset_ns) // US), int((f["end"] - offset_ns) // US))
            for f in pico.ws2812(pico.pixel_pin)
            if f.get("complete")
        ]
    origin = 0
    stamps = [[] for _ in range(6)]
    run.writes = []
    run.lost = None
    for line in r["out"].splitlines():
        f = line.split()
        if not f:
            continue
        if f[0] == "ORIGIN":
            origin = int(f[1])
        elif f[0] == "E" and int(f[2]) == 1 and 0 <= int(f[1]) < 6:
            stamps[int(f[1])].append(int(f[3]))
        elif f[0] == "W":
            run.writes.append((int(f[1]), int(f[2])))
        elif f[0] == "LOST":
            run.lost = int(f[1])
            run.steps = int(f[3])
    run.stamps = stamps
    run.origin = origin
    run.start = start_chip_us
    run.out = r["out"]
    run.matched = []
    run.missing = 0
    seen = [0] * 6
    for at, p, _hold in presses:
        i = seen[p]
        seen[p] += 1
        # the true edge: the pad's own change as the rig recorded it (the schedule's instant)
        downs = [t for t, lvl in run.pads[p] if lvl == 0]
        true = downs[i] if i < len(downs) else start_chip_us + at
        if i < len(stamps[p]):
            run.matched.append((p, true, origin + stamps[p][i]))
        else:
            run.missing += 1
    run.extra = sum(max(0, len(stamps[p]) - seen[p]) for p in range(6))
    return run


def figures(run):
    """Stamp error (max, µs), order inversions (pairs >= 100 µs apart), and how many presses
    fell inside a flash write / a pixel frame on the wire."""
    m = sorted(run.matched, key=lambda x: x[1])
    errors = [s - t for _, t, s in m]
    inversions = 0
    for i in range(len(m)):
        for j in range(i + 1, len(m)):
            if m[j][1] - m[i][1] < 100:
                continue
            if m[j][2] <= m[i][2]:
                inversions += 1

    def inside(t, spans):
        return any(a <= t <= b for a, b in spans)

    return {
        "presses": len(run.matched) + run.missing,
        "missing": run.missing,
        "extra": run.extra,
        "error_us_max": max(abs(e) for e in errors) if errors else None,
        "error_us_min": min(errors) if errors else None,
        "late_us_max": max(errors) if errors else None,
        "early": sum(1 for e in errors if e < 0),
        "error_us_median": sorted(errors)[len(errors) // 2] if errors else None,
        "inversions": inversions,
        "in_flash_writes": sum(1 for _, t, _ in m if inside(t, run.writes)),
        "in_pixel_frames": sum(1 for _, t, _ in m if inside(t, run.frames)),
        "erases": run.erases,
    }
