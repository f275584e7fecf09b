"""Power cuts on the MacroPad build (CircuitPython 10.2.1, FAT on the emulated flash), by class.

Each cut: a fresh copy of the installed image, one Fit to Print round on the keys (start, four
presses, the round's end, next day), the power cut at a seeded instant (half of them aimed into
the app's FAT writes: START, the round's records, NEXT; the rig tears the flash operation in
progress), then CircuitPython boots from what is left (rig/macropad_games.py cut_once).

    cp_power_cuts               cuts done
    cp_cut_boots                cuts after which the app answered hello again
    cp_cut_during_flash_op      cuts that tore a flash erase or program
    cp_cut_records_lost         records the app had finished writing (>= 300 ms before the cut)
                                that were missing afterwards, over all cuts
    cp_cut_journal_damaged      cuts after which the journal was not a clean prefix of the game
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

KEYS = ("cp_power_cuts", "cp_cut_boots", "cp_cut_during_flash_op", "cp_cut_records_lost",
        "cp_cut_journal_damaged")
CUTS = int(os.environ.get("PRESSTIME_CP_CUTS", "12"))


def measure():
    from rig.rp2emu import find_rig, why_absent
    rig = find_rig()
    if rig is None:
        print("bench_cp_cuts: %s" % why_absent(), file=sys.stderr)
        return {k: None for k in KEYS}
    from presstime.core import events as E
    from rig.macropad import app_image
    from rig.macropad_games import cut_once

    image = app_image(rig)
    places = ["any", E.START, "any", E.END, "any", E.NEXT]
    boots = torn = lost = damaged = 0
    for i in range(CUTS):
        where = places[i % len(places)]
        r = cut_once(rig, image, 100 + i, where)
        op = (r["cut"] or {}).get("op")
        torn += 1 if op else 0
        ok = r["hello"] is not None
        boots += 1 if ok else 0
        got = [E.decode(p)[0] for _, p in (r["records"] or [])]
        if got and got[-1] == E.ABORT and E.START in got:
            got.pop()
        clean = ok and got == r["kinds"][:len(got)] and \
            [s for s, _ in r["records"]] == list(range(1, len(r["records"]) + 1))
        damaged += 0 if clean else 1
        lost += max(0, r["due"] - len(got)) if ok else r["due"]
        print("bench_cp_cuts: cut %d (%s) at %.0f ms: %s; boots %s; %d records, %d due%s" % (
            i, where if where == "any" else E.NAMES[where], r["at"],
            ("tore %s @0x%x" % (op.get("kind"), op.get("addr", 0))) if op else "no flash op",
            ok, len(got), r["due"], "" if clean else " DAMAGED"), file=sys.stderr)
    return {"cp_power_cuts": CUTS, "cp_cut_boots": boots, "cp_cut_during_flash_op": torn,
            "cp_cut_records_lost": lost, "cp_cut_journal_damaged": damaged}


if __name__ == "__main__":
    import json
    print(json.dumps(measure(), indent=2))
