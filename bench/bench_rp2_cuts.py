"""Power cuts on the emulated Pico (official MicroPython firmware, littlefs on its flash).

    python bench/run.py rp2_cuts     (PRESSTIME_RP2EMU set; PRESSTIME_RP2_CUTS=N cuts, default
                                      200; PRESSTIME_RP2_JOBS=N rigs at a time, default 2)

Environment: PRESSTIME_RP2_GAME=PATH/game.pkl uses a game played before (rig cache) instead of
the current firmware's; PRESSTIME_RP2_CUTS_LOG=FILE appends each cut's result as a JSON line.

A Fit to Print game is played on the board through its buttons (rig/games.py, cached) and the
flash saved at five points (day 1 running, day 1 summary, day 2 paused, day 2 grace, day 3
ready check). From each image the board boots and the table goes on (rig/cuts.py ACTIVITY); a
probe run finds every flash erase/program of that segment and the journal after each; then the
power is cut at seeded instants: fractions of erases and programs (torn, prefix and random tear
modes alternately) and gaps between ops. After each cut the board boots again: it must answer
the link (no reformat), a sync must hold every record completed before the cut, then only what
a boot after a cut adds, and the flash must hold what the sync pulled.

rp2_power_cuts: cuts the board survived that way; rp2_records_lost: completed records missing
afterwards (summed over all cuts). The cuts by class go to stderr (for docs/benchmarks.md).
"""

import collections
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from targets import at_least, exactly

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KEYS = ("rp2_power_cuts", "rp2_records_lost")
TARGETS = {"rp2_power_cuts": at_least(200), "rp2_records_lost": exactly(0)}


def measure():
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from rig.rp2emu import find_rig, why_absent

    rig = find_rig()
    if rig is None:
        print("bench_rp2_cuts: skipped: %s" % why_absent(), file=sys.stderr)
        return dict((k, None) for k in KEYS)
    from rig.cuts import cut_once, plan_by_class, probe_cached
    from rig.games import FTP_SAVES, board_origin, fit_to_print_game
    from rig.pico import app_image

    total = int(os.environ.get("PRESSTIME_RP2_CUTS", "200"))
    jobs = int(os.environ.get("PRESSTIME_RP2_JOBS", "2"))
    saved = os.environ.get("PRESSTIME_RP2_GAME")
    if saved:  # a game played before (its game.pkl in the rig cache)
        import pickle

        with open(saved, "rb") as f:
            game = pickle.load(f)
    else:
        image = app_image(rig)
        game = fit_to_print_game(rig, image, board_origin(rig, image))
    log = os.environ.get("PRESSTIME_RP2_CUTS_LOG")
    results = []
    t_start = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="presstime-cuts-") as work,
        ThreadPoolExecutor(jobs) as pool,
    ):
        segs = [game["saves"][ms] for ms in FTP_SAVES]
        refs = list(pool.map(lambda seg: probe_cached(rig, seg, work), segs))
        for si, ref in enumerate(refs):
            kinds = collections.Counter("%s %s" % (op["class"], op["kind"]) for op in ref["ops"])
            print(
                "segment %d (game ms %d): %d flash ops %s"
                % (si, FTP_SAVES[si], len(ref["ops"]), dict(kinds)),
                file=sys.stderr,
                flush=True,
            )
        # every class alike, class after class (a run stopped early has cut every class)
        todo = [
            (segs[si], refs[si], cut) for si, cut in plan_by_class(refs, seed=1000, total=total)
        ]

        def one(job):
            seg, ref, cut = job
            t0 = time.monotonic()
            try:
                r = cut_once(rig, seg, ref, cut, work)
            except Exception as e:  # a board that did not come back, a link that broke
                r = dict(
                    cut, ok=False, lost=0, hit="?", problems=["%s: %s" % (type(e).__name__, e)]
                )
                r["class"] = "?"
            r["segment_ms"] = FTP_SAVES[segs.index(seg)]
            r["wall_s"] = round(time.monotonic() - t0, 1)
            results.append(r)
            if log:
                import json

                with open(log, "a") as f:
                    f.write(json.dumps(r, default=str) + "\n")
            if not r["ok"]:
                print("cut FAILED: %r" % r, file=sys.stderr, flush=True)
            if len(results) % 10 == 0:
                print(
                    "  %d cuts done (%.0f s)" % (len(results), time.monotonic() - t_start),
                    file=sys.stderr,
                    flush=True,
                )
            return r

        list(pool.map(one, todo))
    for line in by_class_table(results):
        print(line, file=sys.stderr)
    boots = sorted(r["boot_ms"] for r in results if r.get("boot_ms") is not None)
    if boots:
        print(
            "boot after a cut (power-on to the first frame, emulated ms): median %.0f, max %.0f"
            % (boots[len(boots) // 2], boots[-1]),
            file=sys.stderr,
        )
    walls = sorted(r["wall_s"] for r in results)
    if walls:
        print(
            "wall time per cut: median %.1f s (%d jobs)" % (walls[len(walls) // 2], jobs),
            file=sys.stderr,
        )
    survived = sum(1 for r in results if r["ok"])
    lost = sum(r["lost"] for r in results)
    print(
        "cuts: %d, survived: %d, failed: %d, records lost: %d"
        % (len(results), survived, len(results) - survived, lost),
        file=sys.stderr,
    )
    return {"rp2_power_cuts": survived, "rp2_records_lost": lost}


def by_class_table(results):
    """The cuts by class (what the write was), what they hit (the rig's own report of the op in
    progress) and tear mode, as Markdown table rows: cuts, survived, records lost."""
    rows = collections.OrderedDict()
    for r in sorted(results, key=lambda r: (r["class"], r["hit"], r["mode"])):
        hit = {"erase": "mid-erase", "program": "mid-program", "between": "between ops"}.get(
            r["hit"], r["hit"]
        )
        row = rows.setdefault((r["class"], hit, r["mode"]), [0, 0, 0])
        row[0] += 1
        row[1] += 1 if r["ok"] else 0
        row[2] += r["lost"]
    out = [
        "| during | cut | tear mode | cuts | survived | records lost |",
        "|---|---|---|---|---|---|",
    ]
    for (cls, hit, mode), (n, ok, lost) in rows.items():
        out.append("| %s | %s | %s | %d | %d | %d |" % (cls, hit, mode, n, ok, lost))
    return out
