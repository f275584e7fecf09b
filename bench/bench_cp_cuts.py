"""Power cuts on the MacroPad build (CircuitPython 10.2.1, FAT on the emulated flash), by class.

Each cut: a fresh copy of the installed image, one Fit to Print round on the keys (start, four
presses, the round's end, next day), the power cut at a seeded instant, then CircuitPython boots
from what is left (rig/macropad_cuts.py cut_once). Three cuts in four are aimed into the app's
FAT writes (START, the round's records at its end, NEXT: each a data sector and the journal
folder's directory sector, 56 ms apiece), one in four anywhere in the round; the rig tears the
flash operation in progress (alternately a prefix of it and a random mix, seeded).

    cp_power_cuts               cuts done
    cp_cut_boots                cuts after which the app answered hello again
    cp_cut_during_flash_op      cuts that tore a flash erase or program
    cp_cut_records_lost         records the app had finished writing (>= 300 ms before the cut)
                                that were missing afterwards, over all cuts
    cp_cut_records_lost_between the same, over the cuts that tore no flash operation
    cp_cut_journal_damaged      cuts after which the journal was not an unbroken prefix of the
                                game (plus what the boot adds for a round it found cut)
    cp_cuts_by_class            {class: [cuts, app answered, records lost]}; a class is the
                                torn operation and what its 4 KB flash sector held

PRESSTIME_CP_CUTS sets the number of cuts (default 24), PRESSTIME_CP_CUTS_SEED the first seed
(default 100; cut i uses seed + i).
"""

import os
import sys

from targets import exactly

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

KEYS = (
    "cp_power_cuts",
    "cp_cut_boots",
    "cp_cut_during_flash_op",
    "cp_cut_records_lost",
    "cp_cut_records_lost_between",
    "cp_cut_journal_damaged",
    "cp_cuts_by_class",
)
TARGETS = {"cp_cut_records_lost_between": exactly(0), "cp_cut_journal_damaged": exactly(0)}
CUTS = int(os.environ.get("PRESSTIME_CP_CUTS", "24"))
SEED = int(os.environ.get("PRESSTIME_CP_CUTS_SEED", "100"))


def measure():
    from rig.rp2emu import find_rig, why_absent

    rig = find_rig()
    if rig is None:
        print("bench_cp_cuts: %s" % why_absent(), file=sys.stderr)
        return {k: None for k in KEYS}
    from presstime.core import events as E
    from rig.macropad import app_image
    from rig.macropad_cuts import check, cut_once, lost

    image = app_image(rig)
    places = ["any", E.START, E.END, E.NEXT]
    boots = torn = lost_all = lost_between = damaged = 0
    classes = {}
    for i in range(CUTS):
        where = places[i % len(places)]
        mode = "prefix" if (i // len(places)) % 2 == 0 else "random"
        r = cut_once(rig, image, SEED + i, where, mode=mode)
        op = (r["cut"] or {}).get("op")
        torn += 1 if op else 0
        ok = r["hello"] is not None
        boots += 1 if ok else 0
        n_lost = lost(r)
        lost_all += n_lost
        if not op:
            lost_between += n_lost
        broken = check(r)
        damaged += 1 if ok and any("missing" not in b for b in broken) else 0
        c = classes.setdefault(r["class"], [0, 0, 0])
        c[0] += 1
        c[1] += 1 if ok else 0
        c[2] += n_lost
        print(
            "bench_cp_cuts: cut %d (%s, %s) at %.0f ms: %s; answers %s; %d records, %d due, "
            "%d lost%s"
            % (
                i,
                where if where == "any" else E.NAMES[where],
                mode,
                r["at"],
                r["class"],
                ok,
                len(r["records"] or []),
                r["due"],
                n_lost,
                "" if not broken else " (" + "; ".join(broken) + ")",
            ),
            file=sys.stderr,
        )
    return {
        "cp_power_cuts": CUTS,
        "cp_cut_boots": boots,
        "cp_cut_during_flash_op": torn,
        "cp_cut_records_lost": lost_all,
        "cp_cut_records_lost_between": lost_between,
        "cp_cut_journal_damaged": damaged,
        "cp_cuts_by_class": classes,
    }


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=2))
