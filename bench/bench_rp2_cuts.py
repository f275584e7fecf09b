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
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KEYS = ("rp2_power_cuts", "rp2_records_lost")


def measure():
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from rig.rp2emu import find_rig, why_absent
    rig = find_rig()
    if rig is None:
        print("bench_rp2_cuts: skipped: %s" % why_absent(), file=sys.stderr)
        return dict((k, None) for k in KEYS)
    from rig.cuts import cut_once, plan_cuts, probe
    from rig.games import FTP_SAVES, board_origin, fit_to_print_game
    from rig.pico import app_image

    total = int(os.environ.get("PRESSTIME_RP2_CUTS", "200"))
    jobs = int(os.environ.get("PRESSTIME_RP2_JOBS", "2"))
    saved = os.environ.get("PRESSTIME_RP2_GAME")
    if saved:                   # a game played before (its game.pkl in the rig cache)
        import pickle
        with open(saved, "rb") as f:
            game = pickle.load(f)
    else:
        image = app_image(rig)
        game = fit_to_print_game(rig, image, board_origin(rig, image))
    log = os.environ.get("PRESSTIME_RP2_CUTS_LOG")
    per = -(-total // len(FTP_SAVES))
    by_hit = collections.Counter()
    by_class = collections.Counter()
    results = []
    with tempfile.TemporaryDirectory(prefix="presstime-cuts-") as work, \
            ThreadPoolExecutor(jobs) as pool:
        segs = [game["saves"][ms] for ms in FTP_SAVES]
        refs = list(pool.map(lambda seg: probe(rig, seg, work), segs))
        plans = []
        for si, (seg, ref) in enumerate(zip(segs, refs)):
            kinds = collections.Counter(op["class"] for op in ref["ops"])
            print("segment %d (game ms %d): %d flash ops %s"
                  % (si, FTP_SAVES[si], len(ref["ops"]), dict(kinds)), file=sys.stderr, flush=True)
            plans.append([(seg, ref, cut) for cut in plan_cuts(ref, seed=1000 + si, n=per, first=si)])
        # the segments in turn, so that a run stopped early has covered all of them
        todo = [plan[k] for k in range(per) for plan in plans][:total]

        def one(job):
            seg, ref, cut = job
            try:
                r = cut_once(rig, seg, ref, cut, work)
            except Exception as e:      # a board that did not come back, a link that broke
                r = dict(cut, ok=False, lost=0, hit="?", problems=["%s: %s" % (type(e).__name__, e)])
                r["class"] = "?"
            results.append(r)
            if log:
                import json
                with open(log, "a") as f:
                    f.write(json.dumps(r, default=str) + "\n")
            if not r["ok"]:
                print("cut FAILED: %r" % r, file=sys.stderr, flush=True)
            if len(results) % 10 == 0:
                print("  %d cuts done" % len(results), file=sys.stderr, flush=True)
            return r

        list(pool.map(one, todo))
    survived = sum(1 for r in results if r["ok"])
    lost = sum(r["lost"] for r in results)
    for r in results:
        by_hit[r["hit"]] += 1
        by_class[r["class"]] += 1
    both = collections.Counter((r["hit"], r["class"], r["mode"]) for r in results)
    print("cuts by what they hit: %s" % dict(by_hit), file=sys.stderr)
    print("cuts by class: %s" % dict(by_class), file=sys.stderr)
    print("cuts by (hit, class, tear mode): %s" % dict(both), file=sys.stderr)
    print("cuts: %d, survived: %d, failed: %d, records lost: %d"
          % (len(results), survived, len(results) - survived, lost), file=sys.stderr)
    return {"rp2_power_cuts": survived, "rp2_records_lost": lost}
