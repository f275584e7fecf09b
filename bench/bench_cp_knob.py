"""The MacroPad's screen and knob on CircuitPython 10.2.1 in the emulated RP2040 (the rp2emu
rig, timing model rig/xip.mjs on unless PRESSTIME_RIG_XIP=off): the installed port
(ports/macropad.py show_lines, knob) in rig/knob_screen.py's loop, run from the REPL with
code.py stopped and paced as the app's loop (port.idle(): 20 ms a pass). The OLED's SPI bytes
are decoded by rig/oled.py. Without the rig every figure is None.

    cp_knob_to_screen_ms_max     a turn's last edge (the one that completes its detent) -> the end
                                 of the first SPI frame whose picture shows the new count, max
                                 over the turns (single detents and 3-detent turns, both ways,
                                 at seeded instants against the loop's phase)
    cp_knob_to_screen_ms_p50     the same, median
    cp_knob_whole_screen_ms_max  the same when every count redraws all five lines (the
                                 loop's whole_screen mode; 20 turns): what a screen that
                                 changes more than a line per turn costs (no target: the
                                 screens' own figure is for the entry to meet)
    cp_screen_heap_bytes         gc.mem_free() the screen takes: after the port is made minus
                                 after its first show_lines (TileGrid, palette, group, cells;
                                 each after a gc.collect()). The app's free heap is bench_cp's
                                 cp_min_free_heap_kb (the REPL's own figure says little about
                                 it: CircuitPython's heap grows in areas as needed)
"""

import os
import random
import sys

from targets import at_most

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

KEYS = (
    "cp_knob_to_screen_ms_max",
    "cp_knob_to_screen_ms_p50",
    "cp_knob_whole_screen_ms_max",
    "cp_screen_heap_bytes",
)
TARGETS = {"cp_knob_to_screen_ms_max": at_most(50)}

MS = 1_000_000
SEED = 27
TURNS = int(os.environ.get("PRESSTIME_CP_KNOB_TURNS", "60"))


def plan(rnd, turns):
    """[(steps, gap_ms before it)]: single detents and a few 3-detent turns, both ways; gaps
    long enough for the screen to settle (a pass, a refresh) and uneven against the loop."""
    out = []
    for i in range(turns):
        steps = rnd.choice((1, -1)) * (3 if i % 4 == 3 else 1)
        out.append((steps, rnd.uniform(150, 330)))
    return out


def latencies(pad, screen, rnd, turns, count=0, text=lambda n: "knob %d" % n):
    """Knob edge -> screen (ms) for `turns` planned turns from `count`; the count after."""
    from rig.knob_screen import spin
    from rig.oled import turn

    t = pad.now() + 200 * MS
    done = []  # (last edge ns, count shown after it)
    for steps, gap in plan(rnd, turns):
        t += int(gap * MS)
        edges = turn(pad, steps, at=t)
        count += steps
        done.append((edges[-1], count))
        t = edges[-1]
    spin(pad, int((t + 300 * MS - pad.now()) / MS))
    frames = screen.poll()
    out = []
    for edge, n in done:
        want = text(n)
        f = next((f for f in frames if f.end > edge and f.says(want)), None)
        out.append(None if f is None else (f.end - edge) / MS)
    return out, count


def measure():
    from rig.rp2emu import find_rig, why_absent

    rig = find_rig()
    if rig is None:
        print("bench_cp_knob: %s" % why_absent(), file=sys.stderr)
        return {k: None for k in KEYS}
    from rig.knob_screen import start, whole_screen, whole_screen_text
    from rig.macropad import EmulatedMacropad, app_image
    from rig.oled import Oled

    image = app_image(rig)
    out = {k: None for k in KEYS}
    pad = EmulatedMacropad.start(rig, image, paused=True, oled=True)
    try:
        heap = start(pad)
        out["cp_screen_heap_bytes"] = heap["free_port"] - heap["free_after"]
        screen = Oled(pad)
        screen.wait_for("knob 0")
        rnd = random.Random(SEED)
        lat, count = latencies(pad, screen, rnd, TURNS)
        seen = sorted(x for x in lat if x is not None)
        missing = len(lat) - len(seen)
        if seen and not missing:
            out["cp_knob_to_screen_ms_max"] = round(seen[-1], 1)
            out["cp_knob_to_screen_ms_p50"] = round(seen[len(seen) // 2], 1)
        print(
            "bench_cp_knob: %d turns (%d never shown), knob->screen ms min/p50/max %s/%s/%s"
            % (
                len(lat),
                missing,
                round(seen[0], 1) if seen else None,
                round(seen[len(seen) // 2], 1) if seen else None,
                round(seen[-1], 1) if seen else None,
            ),
            file=sys.stderr,
        )
        whole_screen(pad)
        screen.wait_for(whole_screen_text(count))
        wide, _ = latencies(pad, screen, rnd, 20, count, whole_screen_text)
        if None not in wide:
            out["cp_knob_whole_screen_ms_max"] = round(max(wide), 1)
        print(
            "bench_cp_knob: whole screen, %d turns (%d never shown), ms min/max %s/%s"
            % (
                len(wide),
                wide.count(None),
                round(min((x for x in wide if x is not None), default=0.0), 1),
                round(max((x for x in wide if x is not None), default=0.0), 1),
            ),
            file=sys.stderr,
        )
    finally:
        pad.close()
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=2))
